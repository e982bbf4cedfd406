/**
 * `consumptionProfile` and `cpuBaseProfiles` through yoga (docs/methodology.md §10, §18.7).
 */
import { describe, expect, it } from "vitest";
import { sharedApp } from "../support/app.js";
import { graphqlClient } from "../support/graphql.js";

const app = sharedApp();

const graphql = graphqlClient(app);

interface Params {
  readonly a: number;
  readonly b: number;
  readonly c: number;
  readonly d: number;
}

const GOLD: Params = { a: 35.5688, b: 0.2438, c: 9.6694, d: -0.6087 };
const ARCHETYPE_DEFAULT: Params = { a: 171.2, b: 0.0354, c: 36.89, d: -10.13 };

function curve(p: Params, load: number): number {
  return p.a * Math.log(p.b * (load + p.c)) + p.d;
}

const PROFILE = `query Profile($cpu: ProfileCpuInput, $workload: [WorkloadPointInput!], $load: Float!) {
  consumptionProfile(cpu: $cpu, workload: $workload) { a b c d source matchedName power(workload: $load) }
}`;

describe("consumptionProfile", () => {
  it("model range Xeon Gold: the table row; power(50) = 35.5688·ln(0.2438·59.6694) − 0.6087", async () => {
    const { status, data, errors } = await graphql(`{
      consumptionProfile(cpu: {modelRange: "Xeon Gold"}) { a b c d source power(workload: 50) }
    }`);
    expect(status).toBe(200);
    expect(errors).toBeUndefined();
    const expectedPower = 35.5688 * Math.log(0.2438 * (50 + 9.6694)) - 0.6087;
    expect(expectedPower).toBeCloseTo(94.6236, 3);
    expect(data.consumptionProfile).toEqual({
      ...GOLD,
      source: "From CPU model range",
      power: expect.any(Number),
    });
    expect(data.consumptionProfile.power).toBeCloseTo(expectedPower, 10);
  });

  it("§18.7: the name gives Intel / Xeon Gold; a TDP is accepted and ignored", async () => {
    const { data, errors } = await graphql(PROFILE, {
      cpu: { name: "intel xeon gold 6134", tdp: 130 },
      load: 0,
    });
    expect(errors).toBeUndefined();
    expect(data.consumptionProfile).toMatchObject({
      ...GOLD,
      source: "From CPU model range",
      matchedName: "Intel Xeon Gold 6134",
    });
    expect(data.consumptionProfile.power).toBeCloseTo(curve(GOLD, 0), 10);
  });

  it("no CPU, an empty CPU or an unknown name: the archetype default", async () => {
    for (const cpu of [null, {}, { name: "deijeijdiejdzij" }]) {
      const { data, errors } = await graphql(PROFILE, { cpu, load: 100 });
      expect(errors).toBeUndefined();
      expect(data.consumptionProfile).toMatchObject({
        ...ARCHETYPE_DEFAULT,
        source: "Archetype default",
        matchedName: null,
      });
      expect(data.consumptionProfile.power).toBeCloseTo(curve(ARCHETYPE_DEFAULT, 100), 10);
    }
  });

  it("workload points: fitted, source From workload, the reference's curve", async () => {
    const workload = [
      { loadPercentage: 0, powerWatt: 50 },
      { loadPercentage: 10, powerWatt: 90 },
      { loadPercentage: 50, powerWatt: 180 },
      { loadPercentage: 100, powerWatt: 240 },
    ];
    // SciPy's answer (Boavizta API v1.2.4) from the Xeon Platinum row; b and d are not identifiable.
    const reference = {
      a: 116.856757506466,
      b: 0.06506392627950623,
      c: 24.488850623930844,
      d: -4.440199468684775,
    };
    const { data, errors } = await graphql(PROFILE, {
      cpu: { manufacturer: "Intel", modelRange: "Xeon Platinum" },
      workload,
      load: 75,
    });
    expect(errors).toBeUndefined();
    const fitted = data.consumptionProfile;
    expect(fitted.source).toBe("From workload");
    for (const load of [0, 10, 25, 50, 75, 100]) {
      expect(Math.abs(curve(fitted, load) / curve(reference, load) - 1)).toBeLessThan(1e-6);
    }
    expect(fitted.power).toBeCloseTo(curve(fitted, 75), 10);
  });

  it("power has a 1 W floor", async () => {
    const { data, errors } = await graphql(PROFILE, {
      cpu: {},
      workload: [
        { loadPercentage: 0, powerWatt: 0.2 },
        { loadPercentage: 50, powerWatt: 0.2 },
        { loadPercentage: 100, powerWatt: 0.2 },
      ],
      load: 50,
    });
    expect(errors).toBeUndefined();
    expect(curve(data.consumptionProfile, 50)).toBeLessThan(1);
    expect(data.consumptionProfile.power).toBe(1);
  });

  it("power(workload: 150): BAD_USER_INPUT at the power field", async () => {
    const { status, data, errors } = await graphql(`{
      consumptionProfile(cpu: {modelRange: "Xeon Gold"}) { a power(workload: 150) }
    }`);
    expect(status).toBe(200);
    expect(data).toBeNull();
    expect(errors).toHaveLength(1);
    expect(errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
    expect(errors?.[0].path).toEqual(["consumptionProfile", "power"]);
    expect(errors?.[0].message).toMatch(/workload/);
  });

  it("power(workload: -1): BAD_USER_INPUT", async () => {
    const { errors } = await graphql(PROFILE, { cpu: {}, load: -1 });
    expect(errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
  });

  it("a workload point above 100 %: BAD_USER_INPUT naming the point", async () => {
    const { errors } = await graphql(PROFILE, {
      cpu: {},
      workload: [
        { loadPercentage: 150, powerWatt: 100 },
        { loadPercentage: 0, powerWatt: 10 },
      ],
      load: 50,
    });
    expect(errors).toHaveLength(1);
    expect(errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
    expect(errors?.[0].extensions?.field).toEqual(["workload", 0, "loadPercentage"]);
  });

  it("a negative power: BAD_USER_INPUT naming the point", async () => {
    const { errors } = await graphql(PROFILE, {
      cpu: {},
      workload: [{ loadPercentage: 10, powerWatt: -1 }],
      load: 50,
    });
    expect(errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
    expect(errors?.[0].extensions?.field).toEqual(["workload", 0, "powerWatt"]);
  });

  it("a non-numeric load is rejected by the variable coercion", async () => {
    const { status, errors } = await graphql(PROFILE, {
      cpu: {},
      workload: [{ loadPercentage: "a", powerWatt: 3 }],
      load: 50,
    });
    expect(status).toBeGreaterThanOrEqual(200);
    expect(errors?.[0].message).toMatch(/loadPercentage/);
  });
});

describe("cpuBaseProfiles", () => {
  it("the 6 rows of cpu_profile.csv", async () => {
    const { data, errors } = await graphql("{ cpuBaseProfiles { manufacturer modelRange a b c d } }");
    expect(errors).toBeUndefined();
    expect(data.cpuBaseProfiles).toHaveLength(6);
    expect(data.cpuBaseProfiles.map((p: { modelRange: string }) => p.modelRange)).toEqual([
      "Xeon Platinum",
      "Xeon Gold",
      "Xeon Silver",
      "Xeon E5",
      "Xeon E3",
      "Xeon E",
    ]);
    expect(data.cpuBaseProfiles[1]).toEqual({ manufacturer: "Intel", modelRange: "Xeon Gold", ...GOLD });
  });
});
