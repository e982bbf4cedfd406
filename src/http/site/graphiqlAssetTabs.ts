import { type GraphiQLExample, phase } from "./graphiqlTab.js";

/** The tabs of single assets: a server, a component, a cloud instance, a terminal, a peripheral. */
export const ASSET_TABS: readonly GraphiQLExample[] = [
  {
    query: `# Impacts of a server: an archetype completed by
# a configuration and a usage. Criteria: gwp
# (kgCO2eq), adp (kgSbeq), pe (MJ) and the PEF
# criteria; embedded = manufacturing, use =
# electricity over the duration (hours; default:
# the use time, else the lifetime).
query Server {
  server(
    archetype: "platform_compute_medium"
    input: {
      configuration: {
        cpu: { name: "Intel Xeon Gold 6134" }
        ram: [{ units: 12, capacity: 32 }]
      }
      usage: {
        usageLocation: "FRA"
        yearsUseTime: 1
      }
    }
  ) {
    impacts(criteria: [gwp, adp, pe]) {
      criterion
      unit
      embedded { ...ServerPhase }
      use { ...ServerPhase }
    }
  }
}
${phase("Server")}`,
  },
  {
    query: `# A component: here a CPU found by name, at 70 %
# load.
query Component {
  cpu(
    input: {
      name: "AMD EPYC 7763"
      usage: { timeWorkload: 70 }
    }
  ) {
    impacts(criteria: [gwp, pe]) {
      criterion
      unit
      embedded { ...ComponentPhase }
      use { ...ComponentPhase }
    }
  }
}
${phase("Component")}`,
  },
  {
    query: `# A cloud instance: its platform, the share of the
# host it uses, and its impacts.
query CloudInstance {
  cloudInstance(
    provider: "aws"
    instanceType: "m5.xlarge"
    usage: {
      usageLocation: "FRA"
      useTimeRatio: 0.5
    }
  ) {
    platform
    hostShare { cpu ram }
    impacts(criteria: [gwp]) {
      criterion
      unit
      embedded { ...CloudInstancePhase }
      use { ...CloudInstancePhase }
    }
  }
}
${phase("CloudInstance")}`,
  },
  {
    query: `# A user terminal (laptop, desktop, smartphone,
# television, tablet, box).
query Terminal {
  terminal(
    kind: laptop
    input: {
      type: "perso"
      usage: { usageLocation: "DEU" }
    }
  ) {
    impacts {
      criterion
      unit
      embedded { ...TerminalPhase }
      use { ...TerminalPhase }
    }
  }
}
${phase("Terminal")}`,
  },
  {
    query: `# A peripheral (monitor, keyboard, mouse, …) from
# its default archetype.
query Peripheral {
  peripheral(kind: monitor) {
    impacts(criteria: [gwp]) {
      criterion
      unit
      embedded { ...PeripheralPhase }
      use { ...PeripheralPhase }
    }
  }
}
${phase("Peripheral")}`,
  },
];
