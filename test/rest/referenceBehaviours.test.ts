/**
 * Behaviours of the references that follow from their order of work (docs/methodology.md §1.1,
 * Appendix D.30–D.34), through the REST shim. Every expected number is worked out in the comments
 * from the tables of `data/` and the formulas of docs/methodology.md.
 *
 * Shared figures (default server archetype `platform_compute_medium`, both editions): CPU units
 * 2;2;2, RAM 8;6;10 modules of 32 GB (0.284 W/GB → 9.088 W each), other-consumption ratio
 * 0.33;0.2;0.6, lifetime 35040 h, use-time ratio 1. Profiles (§10.1): archetype
 * `a=171.2, b=0.0354, c=36.89, d=-10.13`; Intel Xeon Gold `a=35.5688, b=0.2438, c=9.6694,
 * d=-0.6087`; P(x) = a·ln(b·(x + c)) + d.
 */
import { describe, expect, it } from "vitest";
import { sharedApp } from "../support/app.js";
import { ARCHETYPE_LIFETIME_HOURS } from "../support/fixtures.js";
import { call } from "../support/rest.js";

const app = sharedApp();
const get = (url: string) => call(app, "GET", url);
const post = (url: string, body: unknown) => call(app, "POST", url, body);

describe("a server asks its CPU for its power three times (docs/methodology.md Appendix D.30)", () => {
  it("1.2.4, criteria=ir alone: the value from the archetype profile, the bounds from the model range's", async () => {
    // ir has no CPU factor: the embedded sum falls back to the generic factor at the assembly and
    // never reads the die size, so the name is not completed before the use phase. The first power
    // computation reads manufacturer and model range (empty) then the TDP, which completes the
    // name (Xeon Gold 6134 has no TDP): archetype profile, P(50) = 182.23 W per CPU. The second and
    // third see model range "Xeon Gold": P(50) = 35.5688·ln(0.2438·59.6694) − 0.6087 = 94.624 W.
    //   P  = (2·182.23 + 8·9.088)·1.33 = 581.428 W
    //   P⁻ = (2·94.624 + 6·9.088)·1.2  = 292.531 W
    //   P⁺ = (2·94.624 + 10·9.088)·1.6 = 448.205 W
    // ir factor, default location EEE: 1.16845 (0.000107355 – 3.27769) per kWh, over 35040 h:
    //   value 1.16845·0.581428·35040 = 23805 → 24000 (rounded by its range, §12.3)
    //   min 0.000107355·0.292531·35040 = 1.1004 → 1.1 ; max 3.27769·0.448205·35040 = 51476 → 51480
    const { status, body } = await post("/v1/server/?criteria=ir&verbose=false", {
      configuration: { cpu: { name: "Intel Xeon Gold 6134" } },
    });
    expect(status).toBe(200);
    expect(body.impacts.ir.use).toEqual({ value: 24000, min: 1.1, max: 51480 });
  });

  it("the same server with gwp: the die size completes the name first, the three answers agree", async () => {
    // gwp embedded reads the die size, whose completion runs the name completion: every power
    // computation then sees "Xeon Gold". P = (2·94.624 + 72.704)·1.33 = 348.40 W, gwp factor 0.38:
    // 0.38·0.34840·35040 = 4639 → 5000; min 0.023·0.292531·35040 = 235.75 → 235.8.
    const { body } = await post("/v1/server/?criteria=gwp&verbose=false", {
      configuration: { cpu: { name: "Intel Xeon Gold 6134" } },
    });
    expect(body.impacts.gwp.use.value).toBe(5000);
    expect(body.impacts.gwp.use.min).toBe(235.8);
  });

  it("a model range without a profile row shows the last choice's source", async () => {
    // Intel Pentium 3215U: model range "Pentium", no profile row. The first computation chose the
    // archetype default with no source; the last one chose "From CPU model range" (no row: the
    // value read falls back to the archetype's parameters).
    const { body } = await post("/v1/server/?criteria=ap", {
      configuration: { cpu: { name: "Intel Pentium 3215U" } },
    });
    expect(body.verbose["CPU-1"].params).toEqual({
      value: { a: 171.2, b: 0.0354, c: 36.89, d: -10.13 },
      status: "ARCHETYPE",
      source: "From CPU model range",
    });
  });

  it("2.4.1, a given die size: gwp is computed before the name completes, its use bounds from the model range", async () => {
    // The die size is an input (docs/methodology.md §19.4.1), so gwp embedded completes nothing.
    // In 2.4.1 the bounds of the CPU power follow the workload range (§19.3.2): the min is the
    // second computation at load 0, the max the third at load 100, both with the Xeon Gold profile:
    //   P_gold(0) = 35.5688·ln(0.2438·9.6694) − 0.6087 = 29.894 W
    //   P_gold(100) = 35.5688·ln(0.2438·109.6694) − 0.6087 = 116.27 W
    //   P⁻ = (2·29.894 + 6·9.088)·1.2 = 137.179 W → 0.023·0.137179·35040 = 110.555 → 110.6
    //   P⁺ = (2·116.27 + 10·9.088)·1.6 = 517.472 W → 1.13161·0.517472·35040 = 20518.6 → 20520
    const { body } = await post("/v1/server/?verbose=false&edition=2.4.1", {
      configuration: { cpu: { name: "Intel Xeon Gold 5220T", die_size: 250.5 } },
    });
    expect(body.impacts.gwp.use.min).toBe(110.6);
    expect(body.impacts.gwp.use.max).toBe(20520);
  });
});

describe("device blocks report what the device's sum obtained (docs/methodology.md Appendix D.31)", () => {
  it("2.4.1: the first criterion's CPU block keeps the given die size, later ones the name's", async () => {
    // CPU factors (2.4.1): gwp 0.0197/mm² + 9.14, adp 5.87e-09/mm² + 0.0204, pe 0.265/mm² + 156.
    // gwp (first): the given 400 mm²: (400·0.0197 + 9.14)·2 = 34.04. The gwp use phase then reads
    // the TDP, whose completion replaces the die size by the name's 484 mm² (Intel Xeon W-2175):
    // adp (484·5.87e-09 + 0.0204)·2 = 0.0408057 → 0.04081; pe (484·0.265 + 156)·2 = 568.52 → 568.5.
    const { body } = await post("/v1/server/?edition=2.4.1", {
      configuration: { cpu: { name: "Intel Xeon W-2175", die_size: 400, units: 2 } },
    });
    const cpu = body.verbose["CPU-1"];
    expect(cpu.impacts.gwp.embedded.value).toBe(34.04);
    expect(cpu.impacts.adp.embedded.value).toBe(0.04081);
    expect(cpu.impacts.pe.embedded.value).toBe(568.5);
    expect(cpu.die_size.value).toBe(484);
  });

  it("2.4.1: a GPU block reads not implemented for a criterion the assembly lacks, and shows no characteristic", async () => {
    // ept: the assembly has no ept factor, so the sum falls back to the generic server factor
    // (27.0 per server) before any component: the GPU, although it has ept factors, is not reached.
    const { body } = await post("/v1/server/?criteria=ept&edition=2.4.1", {
      configuration: { gpu: { units: 1 } },
    });
    expect(body.impacts.ept.embedded.value).toBe(27);
    const gpu = body.verbose["GPU-1"];
    expect(gpu.impacts.ept).toMatchObject({ embedded: "not implemented", use: "not implemented" });
    // Only the given units are set; no characteristic was read.
    expect(Object.keys(gpu)).toEqual(["impacts", "units", "duration"]);
  });

  it("2.4.1: with gwp the same GPU block is computed and lists its characteristics", async () => {
    // gwp: the assembly has a factor, so the sum reaches the GPU, whose characteristics it reads
    // (weight from the GPU table's default row); ept in the same request is still not reached.
    const { body } = await post("/v1/server/?criteria=gwp&criteria=ept&edition=2.4.1", {
      configuration: { gpu: { units: 1 } },
    });
    const gpu = body.verbose["GPU-1"];
    expect(typeof gpu.impacts.gwp.embedded).toBe("object");
    expect(gpu.impacts.ept.embedded).toBe("not implemented");
    expect(gpu.weight).toEqual({ value: 1.69, status: "ARCHETYPE", unit: "kg", min: 1.69, max: 1.69 });
  });

  it("2.4.1 cloud: an archetype GPU is not reached for lu and is not described", async () => {
    const { status, body } = await get(
      "/v1/cloud/instance?provider=ovhcloud&instance_type=t2-le-45&criteria=lu&edition=2.4.1",
    );
    expect(status).toBe(200);
    const gpu = body.verbose["GPU-1"];
    expect(gpu.impacts.lu).toMatchObject({ embedded: "not implemented", use: "not implemented" });
    expect(Object.keys(gpu)).toEqual(["impacts", "duration"]);
  });
});

describe("IoT lifetime bounds (docs/methodology.md Appendix D.32)", () => {
  const lifetime = {
    value: ARCHETYPE_LIFETIME_HOURS,
    status: "ARCHETYPE",
    unit: "hours",
    min: ARCHETYPE_LIFETIME_HOURS,
    max: ARCHETYPE_LIFETIME_HOURS,
  };

  it("a duration beyond the lifetime still shows them, and the embedded impact is not allocated", async () => {
    const whole = await get("/v1/iot/iot_device?archetype=smart_watch");
    const beyond = await get("/v1/iot/iot_device?archetype=smart_watch&duration=200000");
    expect(beyond.status).toBe(200);
    expect(beyond.body.verbose.hours_life_time).toEqual(lifetime);
    // D > L: the ratio is capped at 1, the same as D = L.
    expect(beyond.body.impacts.gwp.embedded).toEqual(whole.body.impacts.gwp.embedded);
  });

  it("a criterion the device never computes (CTUh_c) still shows them, when the device has blocks", async () => {
    const watch = await get("/v1/iot/iot_device?archetype=smart_watch&criteria=CTUh_c");
    expect(watch.body.impacts.CTUh_c).toMatchObject({ embedded: "not implemented", use: "not implemented" });
    expect(watch.body.verbose.hours_life_time).toEqual(lifetime);
    // iot-device-default has no block: nothing reads the bounds.
    const empty = await get("/v1/iot/iot_device?criteria=CTUh_nc");
    expect(empty.body.verbose.hours_life_time).toEqual({
      value: ARCHETYPE_LIFETIME_HOURS,
      status: "ARCHETYPE",
      unit: "hours",
    });
  });
});

describe("small reference behaviours", () => {
  it("a case reads its type before its factors (docs/methodology.md Appendix D.33)", async () => {
    const { body } = await get("/v1/component/case?archetype=blade&criteria=mips");
    expect(body.verbose.case_type).toEqual({ value: "blade", status: "ARCHETYPE" });
  });

  it("name_to_cpu truncates the die size, both editions (docs/methodology.md Appendix D.34)", async () => {
    // cpu_specs.csv: Intel Core i5-10300H, total_die_size 442.5 → 442.
    for (const edition of ["1.2.4", "2.4.1"]) {
      const { body } = await get(`/v1/utils/name_to_cpu?cpu_name=Intel+Core+i5-10300H&edition=${edition}`);
      expect(body.die_size).toBe(442);
    }
  });
});
