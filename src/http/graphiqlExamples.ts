/*
 * The example queries GraphiQL opens on: one tab per asset kind, the fleet example with its
 * variables, and the service version. They are executed by the tests, so they stay valid.
 */

export interface GraphiQLExample {
  /** What the tab shows (the operation name). */
  readonly query: string;
  /** JSON text of the tab's variables. */
  readonly variables?: string;
}

/**
 * The longest line of an example: GraphiQL's query editor shows about 54 characters at a
 * 1400 px wide window (the editor also wraps longer lines, see `pages.ts`).
 */
export const EXAMPLE_LINE_LIMIT = 52;

/**
 * A phase's impact: a value with its margin, or why there is none. Each tab names its own
 * fragment (`ServerPhase`…): tools that read the examples together (graphql-inspector, a
 * codegen run) need fragment names unique across documents.
 */
const phase = (operation: string) => `
fragment ${operation}Phase on PhaseImpact {
  ... on Impact { value min max warnings }
  ... on NotImplemented { reason }
}
`;

export const GRAPHIQL_EXAMPLES: readonly GraphiQLExample[] = [
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
  {
    query: `# An IoT device from an archetype (its functional
# blocks).
query IotDevice {
  iotDevice(archetype: "drone_mini") {
    impacts(criteria: [gwp, pe]) {
      criterion
      unit
      embedded { ...IotDevicePhase }
    }
  }
}
${phase("IotDevice")}`,
  },
  {
    query: `# A CPU consumption profile fitted to measured
# points: power (W) = a·ln(b·(load + c)) + d.
query ConsumptionProfile {
  consumptionProfile(
    cpu: { name: "Intel Xeon Gold 6134" }
    workload: [
      { loadPercentage: 0, powerWatt: 30 }
      { loadPercentage: 50, powerWatt: 100 }
      { loadPercentage: 100, powerWatt: 150 }
    ]
  ) {
    a b c d
    power(workload: 30)
  }
}
`,
  },
  {
    query: `# A fleet in variables (up to 10,000 items):
# per-item results and totals per criterion.
query Fleet($fleet: [CloudInstanceItemInput!]!) {
  cloudInstances(inputs: $fleet) {
    count
    failed
    total(criteria: [gwp], duration: 8760) {
      criterion
      unit
      embedded { value min max items }
      use { value min max items }
    }
  }
}
`,
    variables: JSON.stringify(
      {
        fleet: [
          { provider: "aws", instanceType: "m5.xlarge", usage: { usageLocation: "FRA" } },
          { provider: "aws", instanceType: "c5.large", usage: { usageLocation: "DEU", useTimeRatio: 0.5 } },
          { provider: "aws", instanceType: "r5.2xlarge" },
        ],
      },
      null,
      2,
    ),
  },
  {
    query: `# The versions of this service and of the
# methodology it implements.
query Version {
  version { service methodology methodologies }
}
`,
  },
];
