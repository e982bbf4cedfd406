import { type GraphiQLExample, phase } from "./graphiqlTab.js";

/** The tabs beyond single assets: IoT, a generative-AI request, a consumption profile, a fleet, the versions. */
export const MORE_TABS: readonly GraphiQLExample[] = [
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
    query: `# One request to a generative-AI model, as
# EcoLogits evaluates it (its edition): energy
# (fe, kWh), gwp, adp, pe and water (wcf, L).
query AI {
  generativeAi(input: {
    provider: "openai"
    model: "gpt-4o-mini"
    outputTokens: 400
    zone: "FRA"
  }) {
    edition zone warnings
    impacts(criteria: [gwp, fe, wcf]) {
      criterion
      unit
      use { ...AIPhase }
      embedded { ...AIPhase }
    }
  }
}
${phase("AI")}`,
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
