/**
 * `ConsumptionProfile.impacts`: the use phase of a CPU of a consumption profile (docs/api.md,
 * docs/methodology.md §5.5, §10), against the CPU component's use impacts for the same CPU.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sharedApp } from "../support/app.js";
import { graphqlClient } from "../support/graphql.js";

const app = sharedApp();
const graphql = graphqlClient(app);

const USE =
  "use { ... on Impact { value min max warnings unrounded { value min max } } ... on NotImplemented { reason } }";

interface Point {
  readonly loadPercentage: number;
  readonly powerWatt: number;
}

/** The four points of a TDP (docs/methodology.md §10.2 step 3), in the engine's order of operations. */
const tdpPoints = (tdp: number): Point[] => [
  { loadPercentage: 0, powerWatt: 0.12 * tdp },
  { loadPercentage: 10, powerWatt: 0.32 * tdp },
  { loadPercentage: 50, powerWatt: 0.75 * tdp },
  { loadPercentage: 100, powerWatt: 1.02 * tdp },
];

const cpuArbitrary = fc.oneof(
  fc.record({
    name: fc.constantFrom(
      "Intel Xeon Gold 6134",
      "AMD EPYC 7763",
      "Intel Xeon Platinum 8280",
      "intel xeon silver 4114",
      "Intel Xeon E5-2686 v4",
      "Intel Core i7-8700",
    ),
  }),
  fc.record({ tdp: fc.integer({ min: 5, max: 400 }) }),
  fc.record({ modelRange: fc.constantFrom("Xeon Gold", "Xeon Platinum", "Xeon Silver", "EPYC", "Xeon Phi") }),
  fc.record({ modelRange: fc.constantFrom("Xeon Gold", "EPYC"), tdp: fc.integer({ min: 5, max: 400 }) }),
  fc.constant({}),
);

const workloadArbitrary = fc.oneof(
  fc.record({ timeWorkload: fc.double({ min: 0, max: 100, noNaN: true }) }),
  fc.record({
    timeWorkloadShares: fc.array(
      fc.record({
        timePercentage: fc.double({ min: 0, max: 100, noNaN: true }),
        loadPercentage: fc.double({ min: 0, max: 100, noNaN: true }),
      }),
      { minLength: 1, maxLength: 4 },
    ),
  }),
  fc.constant({}),
);

const usageArbitrary = fc
  .tuple(
    workloadArbitrary,
    fc.record(
      {
        usageLocation: fc.constantFrom("FRA", "DEU", "USA", "EEE", "XYZ"),
        useTimeRatio: fc.double({ min: 0.01, max: 1, noNaN: true }),
        hoursLifeTime: fc.double({ min: 100, max: 100_000, noNaN: true }),
        yearsUseTime: fc.double({ min: 0.1, max: 5, noNaN: true }),
        elecFactors: fc.record({ gwp: fc.double({ min: 0.001, max: 2, noNaN: true }) }),
      },
      { requiredKeys: [] },
    ),
  )
  .map(([workload, rest]) => ({ ...workload, ...rest }));

/** gwp first, so the CPU component completes its name (embedded) before its power, as it always does then. */
const criteriaArbitrary = fc
  .subarray(["pe", "adp", "ir", "ap", "lu", "pm"], { maxLength: 3 })
  .map((others) => ["gwp", ...others]);

const durationArbitrary = fc.option(fc.double({ min: 1, max: 100_000, noNaN: true }), { nil: undefined });

const COMPONENT = `query Cpu($cpu: CpuInput, $criteria: [Criterion!], $duration: Float, $edition: Edition) {
  cpu(input: $cpu, edition: $edition) {
    impacts(criteria: $criteria, duration: $duration) { criterion ${USE} }
    verbose(criteria: $criteria, duration: $duration) { attributes { name value } }
  }
}`;

const PROFILE = `query Profile($cpu: ProfileCpuInput, $workload: [WorkloadPointInput!], $usage: ProfileUsageInput,
  $criteria: [Criterion!], $duration: Float, $edition: Edition) {
  consumptionProfile(cpu: $cpu, workload: $workload, edition: $edition) {
    a b c d
    impacts(criteria: $criteria, duration: $duration, usage: $usage) { criteria { criterion ${USE} } }
  }
}`;

describe("ConsumptionProfile.impacts equals the CPU component's use impacts", () => {
  for (const edition of ["V1_2_4", "V2_4_1"]) {
    it(`for random CPUs, usages, criteria and durations (${edition})`, async () => {
      await fc.assert(
        fc.asyncProperty(
          cpuArbitrary,
          usageArbitrary,
          criteriaArbitrary,
          durationArbitrary,
          async (cpu, usage, criteria, duration) => {
            const component = await graphql(COMPONENT, {
              cpu: { ...cpu, usage },
              criteria,
              duration,
              edition,
            });
            expect(component.errors).toBeUndefined();
            const attributes: { name: string; value: unknown }[] = component.data.cpu.verbose.attributes;
            const tdp = attributes.find((a) => a.name === "tdp")?.value;
            // 1.2.4's profile route never reads a TDP (docs/methodology.md §10.4): the same CPU is
            // described to it by the TDP's four points, which the CPU component fits.
            const workload = edition === "V1_2_4" && typeof tdp === "number" ? tdpPoints(tdp) : null;
            const profile = await graphql(PROFILE, { cpu, workload, usage, criteria, duration, edition });
            expect(profile.errors).toBeUndefined();
            const { a, b, c, d, impacts } = profile.data.consumptionProfile;
            // The same CPU: the component's power model has the profile's parameters.
            expect(attributes.find((attribute) => attribute.name === "params")?.value).toEqual({
              a,
              b,
              c,
              d,
            });
            expect(impacts.criteria).toEqual(component.data.cpu.impacts);
          },
        ),
        { numRuns: 60 },
      );
    }, 60_000);
  }
});

const MEASURED = `[{ loadPercentage: 0, powerWatt: 30 }, { loadPercentage: 50, powerWatt: 100 }, { loadPercentage: 100, powerWatt: 150 }]`;

describe("a fitted profile's impacts", () => {
  for (const edition of ["V1_2_4", "V2_4_1"]) {
    it(`from measured points: the curve through them at the workload, × factor × hours (${edition})`, async () => {
      const { data, errors } = await graphql(`{
        consumptionProfile(workload: ${MEASURED}, edition: ${edition}) {
          source power(workload: 50)
          impacts(criteria: [gwp, pe], duration: 1000, usage: { timeWorkload: 50, usageLocation: "FRA", elecFactors: { gwp: 0.1 } }) {
            duration energy { value min max unit }
            criteria { criterion unit ${USE} }
            verbose { attributes { name value status source } }
          }
        }
      }`);
      expect(errors).toBeUndefined();
      const profile = data.consumptionProfile;
      expect(profile.source).toBe("From workload");
      // Three distinct loads fix a, c and a·ln b + d: the fitted curve passes through (50, 100 W)
      // (its a ≈ 176 and c ≈ 102 are inside their bounds).
      expect(profile.power).toBeCloseTo(100, 6);
      const [gwp, pe] = profile.impacts.criteria;
      // 100 W (5 figures) × 1000 h = 100 kWh; gwp 0.1 kgCO2eq/kWh given: 10 kg; pe FRA 11.289 MJ/kWh: 1128.9 MJ.
      expect(profile.impacts.energy).toEqual({ value: 100, min: 100, max: 100, unit: "kWh" });
      // (An impact without margin keeps its digits: 10.000000000000002 for 0.1 × 100 / 1000 × 1000.)
      expect(gwp).toMatchObject({ criterion: "gwp", unit: "kgCO2eq", use: { min: 10, max: 10 } });
      expect(gwp.use.value).toBeCloseTo(10, 9);
      expect(pe).toMatchObject({ criterion: "pe", unit: "MJ", use: { value: 1129 } });
      expect(pe.use.unrounded.value).toBeCloseTo(1128.9, 6);
      const attributes = profile.impacts.verbose.attributes;
      expect(attributes.find((a: { name: string }) => a.name === "params")).toMatchObject({
        status: "COMPLETED",
        source: "From workload",
      });
      expect(attributes.find((a: { name: string }) => a.name === "workloads")).toMatchObject({
        status: "COMPLETED",
        value: [
          { load_percentage: 0, power_watt: 30 },
          { load_percentage: 50, power_watt: 100 },
          { load_percentage: 100, power_watt: 150 },
        ],
      });
      expect(attributes.find((a: { name: string }) => a.name === "time_workload")).toMatchObject({
        value: 50,
        status: "INPUT",
      });
      expect(attributes.find((a: { name: string }) => a.name === "gwp_factor")).toMatchObject({
        value: 0.1,
        status: "INPUT",
      });
    });
  }

  it("has no embedded phase, and refuses a bad usage at its path", async () => {
    const schema = await graphql(`{ __type(name: "ProfileCriterionImpact") { fields { name } } }`);
    const fields = schema.data.__type.fields.map((f: { name: string }) => f.name);
    expect(fields.sort()).toEqual(["criterion", "description", "unit", "use", "v1"]);
    const refused = await graphql(`{
      consumptionProfile(cpu: { tdp: 100 }) { impacts(usage: { useTimeRatio: -1 }) { duration } }
    }`);
    expect(refused.errors?.[0]).toMatchObject({
      path: ["consumptionProfile", "impacts"],
      extensions: { code: "BAD_USER_INPUT", field: ["usage", "useTimeRatio"] },
    });
  });
});

const SELECTED = `query Selected($criteria: [Criterion!], $duration: Float, $usage: ProfileUsageInput) {
  consumptionProfile(workload: ${MEASURED}) {
    impacts(criteria: $criteria, duration: $duration, usage: $usage) {
      duration energy { value } criteria { criterion ${USE} }
    }
  }
}`;

describe("criteria and duration select, and change nothing else", () => {
  it("a criterion's impact is the same whatever else is asked; use and energy are linear in the duration", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.subarray(["gwp", "pe", "adp", "ir", "ap", "wu"], { minLength: 1 }),
        fc.subarray(["gwp", "pe", "adp", "ir", "ap", "wu"], { minLength: 1 }),
        fc.double({ min: 1, max: 50_000, noNaN: true }),
        usageArbitrary,
        async (some, others, duration, usage) => {
          const ask = async (criteria: string[], hours: number) => {
            const answer = await graphql(SELECTED, { criteria, duration: hours, usage });
            expect(answer.errors).toBeUndefined();
            return answer.data.consumptionProfile.impacts;
          };
          const alone = await ask(some, duration);
          const together = await ask([...others, ...some], duration);
          expect(alone.criteria.map((c: { criterion: string }) => c.criterion)).toEqual(some);
          for (const impact of alone.criteria) {
            const same = together.criteria.find(
              (c: { criterion: string }) => c.criterion === impact.criterion,
            );
            expect(same).toEqual(impact);
          }
          const twice = await ask(some, 2 * duration);
          expect(twice.duration).toBe(2 * duration);
          alone.criteria.forEach((impact: { use: { unrounded?: { value: number } } }, i: number) => {
            const doubled = twice.criteria[i].use.unrounded?.value;
            if (impact.use.unrounded) expect(doubled).toBeCloseTo(2 * impact.use.unrounded.value, 6);
          });
        },
      ),
      { numRuns: 25 },
    );
  }, 60_000);

  it("defaults the duration as for components: the use time given, else the CPU archetype's lifetime", async () => {
    const lifetime = await graphql(SELECTED, { criteria: ["gwp"] });
    // The default CPU archetype lives 26,280 h (3 years).
    expect(lifetime.data.consumptionProfile.impacts.duration).toBe(26280);
    const used = await graphql(SELECTED, { criteria: ["gwp"], usage: { yearsUseTime: 1, daysUseTime: 2 } });
    expect(used.data.consumptionProfile.impacts.duration).toBe(8760 + 48);
  });
});

describe("a fleet of consumption profiles", () => {
  it("evaluates each item for its usage, names a bad item's field, and sums the use impacts", async () => {
    const { data, errors } = await graphql(
      `query Fleet($inputs: [ConsumptionProfileItemInput!]!) {
        consumptionProfiles(inputs: $inputs, edition: V2_4_1) {
          count failed
          items { source impacts(criteria: [gwp], duration: 8760) { criteria { ${USE} } } }
          total(criteria: [gwp], duration: 8760) { criterion use { value min max items } }
        }
        single: consumptionProfile(cpu: { tdp: 150 }, edition: V2_4_1) {
          impacts(criteria: [gwp], duration: 8760, usage: { usageLocation: "FRA", timeWorkload: 30 }) { criteria { ${USE} } }
        }
      }`,
      {
        inputs: [
          { cpu: { tdp: 150 }, usage: { usageLocation: "FRA", timeWorkload: 30 } },
          {
            workload: [
              { loadPercentage: 0, powerWatt: 30 },
              { loadPercentage: 100, powerWatt: 150 },
            ],
          },
          { cpu: { tdp: 100 }, usage: { timeWorkload: 150 } },
        ],
      },
    );
    expect(errors?.map((e) => e.extensions?.field)).toEqual([["inputs", "2", "usage", "timeWorkload"]]);
    const fleet = data.consumptionProfiles;
    expect(fleet).toMatchObject({ count: 3, failed: 1 });
    expect(fleet.items[2]).toBeNull();
    expect(fleet.items[0].impacts.criteria[0].use).toEqual(data.single.impacts.criteria[0].use);
    const [first, second] = fleet.items
      .slice(0, 2)
      .map(
        (item: { impacts: { criteria: { use: { unrounded: { value: number } } }[] } }) =>
          item.impacts.criteria[0].use.unrounded.value,
      );
    expect(fleet.total[0].use.items).toBe(2);
    // The total is rounded like an item (to its margin's figures): the items' sum lies within it.
    const total = fleet.total[0].use;
    expect(first + second).toBeGreaterThanOrEqual(total.min);
    expect(first + second).toBeLessThanOrEqual(total.max);
    expect(total.value).toBeGreaterThan(first);
  });
});
