/**
 * The core rules of edition 2.4.1 (docs/methodology.md §19.2–§4, §8, §12) on the worked examples of that
 * document, answered by a service whose default edition is 1.2.4: each request chooses 2.4.1, and
 * the same request without it keeps the 1.2.4 answer (one process, both editions).
 */
import { describe, expect, it } from "vitest";
import { sharedApp } from "../support/app.js";
import { graphqlClient } from "../support/graphql.js";
import { call } from "../support/rest.js";
import { LOCATION_NOT_FOUND, UNCERTAINTY_WARNING as UNCERTAINTY } from "../support/warnings.js";

const app = sharedApp();
const graphql = graphqlClient(app);
const V2 = "edition=2.4.1";

type Phase = { value: number; min: number; max: number; warnings?: string[] };

async function impacts(method: string, path: string, body: unknown = "") {
  const answer = await call(app, method, path, body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

const triple = (phase: Phase) => [phase.value, phase.min, phase.max];

describe("units and power range (§3.1, §3.2, §14.1)", () => {
  it("CPU component: use counts the units once and its power range follows the workload range", async () => {
    const body = { core_units: 12, die_size_per_core: 24.5, units: 3 };
    const v2 = await impacts("POST", `/v1/component/cpu?verbose=true&${V2}`, body);
    // Embedded ×3 as in 1.2.4; use raw 0.38 × (182.23·3)/1000 × 26280 (1.2.4: ×9).
    expect(v2.impacts.gwp.embedded.value).toBe(44.8);
    expect(triple(v2.impacts.gwp.use)).toEqual([5000, 64.49, 23200]);
    expect(triple(v2.impacts.pe.use)).toEqual([200000, 36.45, 9598000]);
    // The power of 3 units: r₅(P*(50))·3, r₅(P*(0))·3, r₅(P*(100))·3.
    expect(v2.verbose.avg_power.status).toBe("COMPLETED");
    expect(v2.verbose.avg_power.value).toBeCloseTo(546.69, 9);
    expect(v2.verbose.avg_power.min).toBeCloseTo(106.689, 9);
    expect(v2.verbose.avg_power.max).toBeCloseTo(780.15, 9);
    const v1 = await impacts("POST", "/v1/component/cpu?verbose=true", body);
    expect(v1.impacts.gwp.use.value).toBe(16000);
  });

  it("§14.1: the default CPU power {182.23, 35.563, 260.05} and the capped pe rounding", async () => {
    const v2 = await impacts("POST", `/v1/component/cpu?verbose=true&${V2}`, {
      core_units: 12,
      die_size_per_core: 24.5,
    });
    expect(triple(v2.impacts.gwp.use)).toEqual([1800, 21.5, 7734]);
    expect(v2.impacts.pe.use).toEqual({ value: 60000, min: 12.15, max: 3199000 });
    expect(v2.verbose.avg_power).toMatchObject({ value: 182.23, min: 35.563, max: 260.05 });
  });

  it("RAM: the use of 12 modules is not multiplied by 12 again (§3.1)", async () => {
    const v2 = await impacts("POST", `/v1/component/ram?verbose=false&${V2}`, {
      units: 12,
      capacity: 32,
      density: 1.79,
    });
    expect(v2.impacts.gwp.embedded.value).toBe(534.6);
    // raw 0.38 × 0.109056 kW × 26280 h = 1089.08.
    expect(v2.impacts.gwp.use.value).toBe(1100);
    expect(v2.impacts.pe.use.warnings).toEqual([UNCERTAINTY]);
  });

  it("a user workload is an input: no range, the 1.2.4 server use numbers (§3.2)", async () => {
    const body = { usage: { time_workload: 50 } };
    const v2 = await impacts("POST", `/v1/server/?verbose=false&criteria=gwp&${V2}`, body);
    expect(triple(v2.impacts.gwp.use)).toEqual([8000, 405.2, 28890]);
  });

  it("§14.2: the default server's power range widens the use bounds", async () => {
    const v2 = await impacts("POST", `/v1/server/?verbose=true&criteria=gwp&${V2}`, {});
    expect(triple(v2.impacts.gwp.embedded)).toEqual([900, 459.9, 2087]);
    expect(triple(v2.impacts.gwp.use)).toEqual([8000, 121.5, 38760]);
    expect(v2.verbose.avg_power.value).toBeCloseTo(581.42812, 6);
    expect(v2.verbose.avg_power.min).toBeCloseTo(150.7848, 6);
    expect(v2.verbose.avg_power.max).toBeCloseTo(977.568, 6);
  });

  it("case: units applied twice for an input case type (§3.7, kept quirk)", async () => {
    const v2 = await impacts("POST", `/v1/component/case?verbose=false&${V2}`, {
      case_type: "rack",
      units: 2,
    });
    expect(triple(v2.impacts.gwp.embedded)).toEqual([600, 600, 600]);
    const v1 = await impacts("POST", "/v1/component/case?verbose=false", { case_type: "rack", units: 2 });
    expect(v1.impacts.gwp.embedded.value).toBe(300);
    // Without units both editions agree.
    expect(
      triple((await impacts("GET", `/v1/component/case?verbose=false&${V2}`)).impacts.gwp.embedded),
    ).toEqual([150, 85.9, 150]);
  });

  it("peripheral embedded impacts are allocated over the lifetime (§3.6)", async () => {
    const v2 = await impacts("GET", `/v1/peripheral/monitor?verbose=false&criteria=gwp&duration=8760&${V2}`);
    expect(v2.impacts.gwp.embedded.value).toBe(9.803);
    const v1 = await impacts("GET", "/v1/peripheral/monitor?verbose=false&criteria=gwp&duration=8760");
    expect(v1.impacts.gwp.embedded.value).toBe(64.7);
  });
});

describe("default location given explicitly (§3.5)", () => {
  it("EEE in any case is treated as absent: wide bounds, the {} result", async () => {
    const empty = await impacts("POST", `/v1/server/?verbose=false&criteria=gwp&${V2}`, {});
    for (const location of ["EEE", "eee", " Eee "]) {
      const body = { usage: { usage_location: location } };
      const v2 = await impacts("POST", `/v1/server/?verbose=true&criteria=gwp&${V2}`, body);
      expect(v2.impacts.gwp.use, location).toEqual(empty.impacts.gwp.use);
      expect(v2.verbose.usage_location.status).toBe("DEFAULT");
    }
    // 1.2.4 keeps EEE as an input with narrow bounds; other codes stay case-sensitive in 2.4.1.
    const v1 = await impacts("POST", "/v1/server/?verbose=false&criteria=gwp", {
      usage: { usage_location: "EEE" },
    });
    expect(v1.impacts.gwp.use).not.toEqual(empty.impacts.gwp.use);
    const fra = await impacts("POST", `/v1/server/?verbose=true&criteria=gwp&${V2}`, {
      usage: { usage_location: "fra" },
    });
    expect(fra.verbose.usage_location.warnings).toEqual([LOCATION_NOT_FOUND]);
  });
});

describe("CPU (§4)", () => {
  it("a die size input is the die size (§4.1): 400·0.0197 + 9.14", async () => {
    const v2 = await impacts("POST", `/v1/component/cpu?verbose=true&criteria=gwp&${V2}`, { die_size: 400 });
    expect(v2.impacts.gwp.embedded.value).toBe(17.02);
    expect(v2.verbose.die_size).toMatchObject({ value: 400, status: "INPUT" });
    const v1 = await impacts("POST", "/v1/component/cpu?verbose=true&criteria=gwp", { die_size: 400 });
    expect(v1.verbose.die_size.status).not.toBe("INPUT");
  });

  it("rule of three for a family whose rows share one core count (§4.2: Coffee Lake-R, 16 cores)", async () => {
    const body = { family: "Coffee Lake-R", core_units: 16 };
    const v2 = await impacts("POST", `/v1/component/cpu?verbose=true&criteria=gwp&${V2}`, body);
    expect(v2.verbose.die_size).toMatchObject({
      value: 1080,
      min: 360,
      max: 1080,
      source: "Rule of three on Intel Core i9-9900",
    });
    expect(triple(v2.impacts.gwp.embedded)).toEqual([30, 16.23, 30.42]);
  });

  it("Xeon E5 reaches its own base profile (§4.4)", async () => {
    const v2 = await impacts("POST", `/v1/component/cpu?verbose=true&criteria=gwp&${V2}`, {
      model_range: "Xeon E5",
    });
    expect(v2.verbose.params).toMatchObject({ status: "COMPLETED", source: "From CPU model range" });
    expect(v2.verbose.params.value.a).toBeCloseTo(48.9167, 4);
    expect(triple(v2.impacts.gwp.use)).toEqual([1000, 19.42, 3859]);
    const v1 = await impacts("POST", "/v1/component/cpu?verbose=false&criteria=gwp", {
      model_range: "Xeon E5",
    });
    expect(triple(v1.impacts.gwp.use)).toEqual([1800, 110.1, 5419]);
  });
});

describe("criteria and factors (§8)", () => {
  it("fe: use is the energy with factor 1 (kWh labelled MJ); embedded not implemented", async () => {
    const v2 = await impacts("GET", `/v1/server/?verbose=true&criteria=fe&${V2}`);
    expect(v2.impacts.fe.unit).toBe("MJ");
    expect(triple(v2.impacts.fe.use)).toEqual([20000, 5283, 34250]);
    expect(v2.impacts.fe.embedded).toBe("not implemented");
    expect(v2.verbose.fe_factor).toMatchObject({
      value: 1,
      status: "DEFAULT",
      unit: "MJ/kWh",
      min: 1,
      max: 1,
    });
  });

  it("fe is unknown to 1.2.4: 422 on REST, BAD_USER_INPUT in GraphQL", async () => {
    const answer = await call(app, "GET", "/v1/server/?verbose=false&criteria=fe");
    expect(answer.status).toBe(422);
    expect(answer.body.detail[0].loc).toEqual(["query", "criteria"]);
    const { errors } = await graphql(`{ server { impacts(criteria: [fe]) { criterion } } }`);
    expect(errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
    const listed = await impacts("GET", `/v1/utils/impact_criteria?${V2}`);
    expect(JSON.stringify(listed)).toContain("Final energy consumption");
    expect(JSON.stringify(await impacts("GET", "/v1/utils/impact_criteria"))).not.toContain("Final energy");
  });

  it("wu use needs one of the 49 countries; fw use is not implemented", async () => {
    const deu = await impacts("POST", `/v1/server/?verbose=false&criteria=wu&criteria=fw&${V2}`, {
      usage: { usage_location: "DEU" },
    });
    expect(triple(deu.impacts.wu.use)).toEqual([40, 10.29, 66.69]);
    expect(deu.impacts.fw.use).toBe("not implemented");
    const byDefault = await impacts("GET", `/v1/server/?verbose=false&criteria=wu&${V2}`);
    expect(byDefault.impacts.wu.use).toBe("not implemented");
    expect(triple(byDefault.impacts.wu.embedded)).toEqual([-3710, -3710, -3710]);
  });

  it("HDD and SSD factors of 2.4.1 (§8.3)", async () => {
    const hdd = await impacts("POST", `/v1/component/hdd?verbose=false&criteria=gwp&${V2}`, { units: 2 });
    expect(hdd.impacts.gwp.embedded.value).toBe(62.22);
    const ssd = await impacts("POST", `/v1/component/ssd?verbose=false&criteria=pe&${V2}`, {
      capacity: 400,
      density: 50.6,
    });
    expect(ssd.impacts.pe.embedded.value).toBe(289.8);
  });
});

describe("GraphQL chooses the edition per root field", () => {
  it("one query evaluates the same CPU in both editions", async () => {
    const { data, errors } = await graphql(`{
      old: cpu(input: { coreUnits: 12, dieSizePerCore: 24.5, units: 3 }) {
        impacts(criteria: [gwp]) { use { ... on Impact { value min max } } }
      }
      new: cpu(input: { coreUnits: 12, dieSizePerCore: 24.5, units: 3 }, edition: V2_4_1) {
        impacts(criteria: [gwp, fe]) { criterion use { ... on Impact { value min max } } }
      }
    }`);
    expect(errors).toBeUndefined();
    expect(data.old.impacts[0].use.value).toBe(16000);
    expect(data.new.impacts[0].use).toEqual({ value: 5000, min: 64.49, max: 23200 });
    expect(data.new.impacts[1].criterion).toBe("fe");
  });
});
