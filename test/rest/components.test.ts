/**
 * The v1 REST component and utility routes through `app.rest`: impacts (GET/POST), archetype
 * listings and configurations, and `/v1/utils/*`.
 */
import { describe, expect, it } from "vitest";
import { sharedApp } from "../support/app.js";
import { call, EOL, UNCERTAINTY } from "../support/rest.js";

const app = sharedApp();
const get = (url: string) => call(app, "GET", url);
const post = (url: string, body: unknown) => call(app, "POST", url, body);

const GWP = { unit: "kgCO2eq", description: "Total climate change" };
const ADP = { unit: "kgSbeq", description: "Use of minerals and fossil ressources" };
const PE = { unit: "MJ", description: "Consumption of primary energy" };

describe("/v1/component/cpu", () => {
  it("POST §18.1 with verbose: the complete v1 answer", async () => {
    const { status, body } = await post("/v1/component/cpu?verbose=true", {
      core_units: 12,
      die_size_per_core: 24.5,
    });
    expect(status).toBe(200);
    const impacts = {
      gwp: {
        ...GWP,
        embedded: { value: 14.93, min: 14.93, max: 14.93, warnings: [EOL] },
        use: { value: 1800, min: 110.1, max: 5419 },
      },
      adp: {
        ...ADP,
        embedded: { value: 0.0204, min: 0.0204, max: 0.0204, warnings: [EOL] },
        use: { value: 0.0003, min: 6.341e-5, max: 0.001272 },
      },
      pe: {
        ...PE,
        embedded: { value: 233.9, min: 233.9, max: 233.9, warnings: [EOL] },
        use: { value: 100000, min: 62.26, max: 2242000 },
      },
    };
    expect(body).toEqual({
      impacts,
      verbose: {
        impacts,
        units: { value: 1, status: "ARCHETYPE", min: 1, max: 1 },
        core_units: { value: 12, status: "INPUT" },
        die_size_per_core: { value: 24.5, status: "INPUT", unit: "mm2" },
        die_size: {
          value: 294,
          status: "COMPLETED",
          unit: "mm2",
          source: "die_size_per_core*core_units",
          min: 294,
          max: 294,
        },
        avg_power: { value: 182.23, status: "COMPLETED", unit: "W", min: 182.23, max: 182.23 },
        time_workload: { value: 50, status: "ARCHETYPE", unit: "%", min: 0, max: 100 },
        usage_location: { value: "EEE", status: "DEFAULT", unit: "CodSP3 - NCS Country Codes - NATO" },
        use_time_ratio: { value: 1, status: "ARCHETYPE", unit: "/1", min: 1, max: 1 },
        hours_life_time: { value: 26280, status: "ARCHETYPE", unit: "hours", min: 26280, max: 26280 },
        params: { value: { a: 171.2, b: 0.0354, c: 36.89, d: -10.13 }, status: "ARCHETYPE" },
        gwp_factor: {
          value: 0.38,
          status: "DEFAULT",
          unit: "kg CO2eq/kWh",
          source: "https://www.sciencedirect.com/science/article/pii/S0306261921012149",
          min: 0.023,
          max: 1.13161,
        },
        adp_factor: {
          value: 6.42317e-8,
          status: "DEFAULT",
          unit: "kg Sbeq/kWh",
          source: "ADEME Base IMPACTS ®",
          min: 1.324e-8,
          max: 2.65575e-7,
        },
        pe_factor: {
          value: 12.873,
          status: "DEFAULT",
          unit: "MJ/kWh",
          source: "ADPf / (1-%renewable_energy)",
          min: 0.013,
          max: 468.15,
        },
        duration: { value: 26280, unit: "hours" },
      },
    });
    // Component verbose: impacts first, duration last.
    const keys = Object.keys(body.verbose);
    expect(keys[0]).toBe("impacts");
    expect(keys[keys.length - 1]).toBe("duration");
  });

  it("units 3: embedded × 3, use × 9", async () => {
    const { body } = await post("/v1/component/cpu?verbose=false&criteria=gwp", {
      units: 3,
      core_units: 12,
      die_size_per_core: 24.5,
    });
    expect(body.impacts.gwp.embedded).toEqual({ value: 44.8, min: 44.8, max: 44.8, warnings: [EOL] });
    expect(body.impacts.gwp.use).toEqual({ value: 16000, min: 991.3, max: 48770 });
  });

  it("GET equals POST {} (Appendix C cpu {})", async () => {
    const got = await get("/v1/component/cpu?verbose=false");
    expect(got.status).toBe(200);
    expect(await post("/v1/component/cpu?verbose=false", {})).toEqual(got);
    expect(got.body.impacts.gwp.embedded).toEqual({ value: 19, min: 9.952, max: 80.85, warnings: [EOL] });
    expect(got.body.impacts.pe.embedded).toEqual({ value: 290, min: 166.9, max: 1121, warnings: [EOL] });
  });

  it("family skylake is corrected to Skylake (CHANGED) and gives die size 615", async () => {
    const { body } = await post("/v1/component/cpu?criteria=gwp", { core_units: 24, family: "skylake" });
    expect(body.impacts.gwp.embedded).toEqual({ value: 21.26, min: 21.26, max: 21.26, warnings: [EOL] });
    expect(body.verbose.family).toEqual({ value: "Skylake", status: "CHANGED" });
    expect(body.verbose.die_size.source).toBe("Average value of Skylake with 24 cores");
  });

  it("verbose impacts always list gwp, adp and pe (Appendix D.21)", async () => {
    const { body } = await get("/v1/component/cpu?criteria=pe");
    expect(Object.keys(body.impacts)).toEqual(["pe"]);
    expect(Object.keys(body.verbose.impacts)).toEqual(["gwp", "adp", "pe"]);
    expect(body.verbose.impacts.gwp.embedded).toBe("not implemented");
    expect(body.verbose.impacts.pe).toEqual(body.impacts.pe);
  });

  it("a workload list keeps its v1 spelling and list unit label", async () => {
    const { body } = await post("/v1/component/cpu?criteria=gwp", {
      usage: {
        time_workload: [
          { time_percentage: 50, load_percentage: 0 },
          { time_percentage: 50, load_percentage: 100 },
        ],
      },
    });
    expect(body.verbose.time_workload).toEqual({
      value: [
        { time_percentage: 50, load_percentage: 0 },
        { time_percentage: 50, load_percentage: 100 },
      ],
      status: "INPUT",
      unit: "(time_percentage:%, load_percentage: %)",
    });
    expect(body.verbose.avg_power.value).toBe(147.8);
    expect(body.impacts.gwp.use).toEqual({ value: 1500, min: 89.34, max: 4395 });
  });
});

describe("/v1/component/ram", () => {
  it("POST §18.2", async () => {
    const { status, body } = await post("/v1/component/ram?verbose=true", {
      units: 12,
      capacity: 32,
      density: 1.79,
    });
    expect(status).toBe(200);
    expect(body.impacts.gwp).toEqual({
      ...GWP,
      embedded: { value: 534.6, min: 534.6, max: 534.6, warnings: [EOL] },
      use: { value: 13000, min: 791, max: 38920 },
    });
    expect(body.impacts.adp.embedded).toEqual({ value: 0.0338, min: 0.0338, max: 0.0338, warnings: [EOL] });
    expect(body.impacts.adp.use).toEqual({ value: 0.0022, min: 0.0004553, max: 0.009134 });
    expect(body.impacts.pe.embedded).toEqual({ value: 6745, min: 6745, max: 6745, warnings: [EOL] });
    expect(body.impacts.pe.use).toEqual({
      value: 400000,
      min: 447.1,
      max: 16100000,
      warnings: [UNCERTAINTY],
    });
    expect(body.verbose.avg_power.value).toBeCloseTo(109.056, 10);
    expect(body.verbose.params).toEqual({
      value: { a: 9.088 },
      status: "COMPLETED",
      source: "(ram_electrical_factor_per_go : 0.284) * (ram_capacity: 32) ",
    });
  });

  it("GET equals POST {} (§18.8)", async () => {
    const got = await get("/v1/component/ram?verbose=false&criteria=gwp");
    expect(await post("/v1/component/ram?verbose=false&criteria=gwp", {})).toEqual(got);
    expect(got.body.impacts.gwp.embedded).toEqual({ value: 60, min: 6.146, max: 455.8, warnings: [EOL] });
    expect(got.body.impacts.gwp.use).toEqual({ value: 90, min: 5.493, max: 270.3 });
  });
});

describe("/v1/component/{ssd,hdd,case,motherboard,power_supply}", () => {
  it("ssd: POST with capacity and density; GET = POST {}", async () => {
    const { body } = await post("/v1/component/ssd?verbose=false", { capacity: 400, density: 50.6 });
    expect(body.impacts.gwp).toEqual({
      ...GWP,
      embedded: { value: 23.73, min: 23.73, max: 23.73, warnings: [EOL] },
      use: "not implemented",
    });
    expect(body.impacts.adp.embedded.value).toBe(0.001061);
    expect(body.impacts.pe.embedded.value).toBe(292.7);
    const got = await get("/v1/component/ssd?verbose=false");
    expect(await post("/v1/component/ssd?verbose=false", {})).toEqual(got);
    expect(got.body.impacts.gwp.embedded).toEqual({ value: 50, min: 8.059, max: 677.1, warnings: [EOL] });
    expect(got.body.impacts.adp.embedded).toEqual({
      value: 0.002,
      min: 0.0006122,
      max: 0.01977,
      warnings: [EOL],
    });
    expect(got.body.impacts.pe.embedded).toEqual({ value: 600, min: 98.23, max: 8400, warnings: [EOL] });
  });

  it("hdd: constant impacts; a given power enables use", async () => {
    const got = await get("/v1/component/hdd?verbose=false");
    expect(got.body.impacts.gwp.embedded).toEqual({ value: 31.1, min: 31.1, max: 31.1, warnings: [EOL] });
    expect(got.body.impacts.gwp.use).toBe("not implemented");
    expect(await post("/v1/component/hdd?verbose=false", {})).toEqual(got);
    const powered = await post("/v1/component/hdd?verbose=false&criteria=gwp", {
      usage: { avg_power: 10, usage_location: "FRA" },
    });
    // 0.098 · 0.010 · 1 · 26280 = 25.7544
    expect(powered.body.impacts.gwp.use).toEqual({ value: 25.75, min: 25.75, max: 25.75 });
  });

  it("case: rack archetype (GET), blade input (POST), blade archetype", async () => {
    const rack = await get("/v1/component/case?verbose=false");
    expect(rack.body.impacts.gwp.embedded).toEqual({ value: 150, min: 85.9, max: 150, warnings: [EOL] });
    expect(rack.body.impacts.adp.embedded).toEqual({
      value: 0.0202,
      min: 0.0202,
      max: 0.02767,
      warnings: [EOL],
    });
    expect(rack.body.impacts.pe.embedded).toEqual({ value: 2200, min: 1229, max: 2200, warnings: [EOL] });
    const blade = await post("/v1/component/case?verbose=false", { case_type: "blade" });
    expect(blade.body.impacts.gwp.embedded).toEqual({ value: 85.9, min: 85.9, max: 85.9, warnings: [EOL] });
    expect(blade.body.impacts.adp.embedded.value).toBe(0.02767);
    expect(blade.body.impacts.pe.embedded.value).toBe(1229);
    const bladeArchetype = await get("/v1/component/case?verbose=false&archetype=blade");
    expect(bladeArchetype.body.impacts.gwp.embedded).toEqual({
      value: 86,
      min: 85.9,
      max: 150,
      warnings: [EOL],
    });
  });

  it("power_supply and power-supply are the same route", async () => {
    const underscore = await get("/v1/component/power_supply?verbose=false");
    const dash = await get("/v1/component/power-supply?verbose=false");
    expect(underscore.status).toBe(200);
    expect(dash).toEqual(underscore);
    expect(underscore.body.impacts.gwp.embedded).toEqual({
      value: 73,
      min: 24.3,
      max: 121.5,
      warnings: [EOL],
    });
    const heavy = await post("/v1/component/power-supply?verbose=false&criteria=gwp", {
      units: 2,
      unit_weight: 10,
    });
    expect(heavy.body.impacts.gwp.embedded).toEqual({ value: 486, min: 486, max: 486, warnings: [EOL] });
    expect(
      await post("/v1/component/power_supply?verbose=false&criteria=gwp", { units: 2, unit_weight: 10 }),
    ).toEqual(heavy);
  });

  it("motherboard: fixed impact; with a posted lifetime it is allocated", async () => {
    const got = await get("/v1/component/motherboard?verbose=false");
    expect(got.status).toBe(200);
    expect(got.body.impacts.gwp.embedded).toEqual({ value: 66.1, min: 66.1, max: 66.1, warnings: [EOL] });
    expect(got.body.impacts.pe.embedded.value).toBe(836);
    const allocated = await post("/v1/component/motherboard?verbose=false&duration=500&criteria=gwp", {
      usage: { hours_life_time: 1000 },
    });
    expect(allocated.body.impacts.gwp.embedded).toEqual({
      value: 33.05,
      min: 33.05,
      max: 33.05,
      warnings: [EOL],
    });
  });

  it.each([
    ["1.2.4", 23, 14],
    ["2.4.1", 24, 15],
  ])(
    "motherboard %s, avg_power only: the verbose holds the default location and the factors read",
    async (edition, count, withFactor) => {
      // Without a lifetime the reference's use phase still reads the location (EEE, DEFAULT) and each
      // requested criterion's electricity factor before failing on the missing duration: the same
      // factors as with a lifetime (issue 60, item 5).
      const listed = await get(`/v1/utils/impact_criteria?edition=${edition}`);
      const criteria = Object.keys(listed.body);
      expect(criteria).toHaveLength(count);
      const query = criteria.map((c) => `criteria=${c}`).join("&");
      const factorsOf = (verbose: Record<string, unknown>) =>
        Object.keys(verbose)
          .filter((k) => k.endsWith("_factor"))
          .sort();
      const url = `/v1/component/motherboard?verbose=true&edition=${edition}&${query}`;
      const bare = await post(url, { usage: { avg_power: 30 } });
      const withLifetime = await post(url, { usage: { avg_power: 30, hours_life_time: 1000 } });
      expect(bare.status).toBe(200);
      expect(bare.body.verbose.usage_location).toMatchObject({ value: "EEE", status: "DEFAULT" });
      const factors = factorsOf(bare.body.verbose);
      expect(factors).toHaveLength(withFactor);
      expect(factors).toEqual(expect.arrayContaining(["odp_factor", "pm_factor"]));
      expect(factors).toEqual(factorsOf(withLifetime.body.verbose));
      for (const f of factors) expect(bare.body.verbose[f]).toMatchObject({ status: "DEFAULT" });
      expect(bare.body.impacts.gwp.use).toBe("not implemented");
      const odp = await post(`/v1/component/motherboard?verbose=true&edition=${edition}&criteria=odp`, {
        usage: { avg_power: 30 },
      });
      // ADEME Base IMPACTS' European mix, kg CFC-11eq per kWh.
      expect(odp.body.verbose.odp_factor).toMatchObject({ value: 1.81674e-10, unit: "kg CFC-11eq/kWh" });
    },
  );

  it("assembly (served, although v1.2.4 answered 404): fixed impact per unit (docs/methodology.md §4.8)", async () => {
    const got = await get("/v1/component/assembly?verbose=false");
    expect(got.status).toBe(200);
    // §4.9: constant gwp 6.68, pe 68.6, adp 1.41e-06 per unit; no use phase for an assembly.
    expect(got.body.impacts.gwp.embedded).toEqual({ value: 6.68, min: 6.68, max: 6.68, warnings: [EOL] });
    expect(got.body.impacts.pe.embedded.value).toBe(68.6);
    expect(got.body.impacts.adp.embedded.value).toBe(1.41e-6);
    expect(got.body.impacts.gwp.use).toBe("not implemented");
    expect(await post("/v1/component/assembly?verbose=false", {})).toEqual(got);
    const two = await post("/v1/component/assembly?verbose=false&criteria=gwp&duration=500", {
      units: 2,
      usage: { hours_life_time: 1000 },
    });
    // 2 units × 6.68, allocated over half the lifetime.
    expect(two.body.impacts.gwp.embedded).toEqual({ value: 6.68, min: 6.68, max: 6.68, warnings: [EOL] });
    const verbose = await post("/v1/component/assembly?criteria=gwp", { units: 3 });
    expect(verbose.status).toBe(200);
    expect(verbose.body.verbose.units).toMatchObject({ value: 3, status: "INPUT" });
    expect((await post("/v1/component/assembly", { units: "x" })).status).toBe(422);
    expect(await get("/v1/component/assembly/archetype_config?archetype=x")).toEqual({
      status: 404,
      body: { detail: "assembly has no archetypes" },
    });
  });

  it("edition 2.4.1 has no assembly component, as boaviztapi 2.4.1 (404 on every assembly route)", async () => {
    for (const path of ["", "/archetypes", "/archetype", "/archetype_config?archetype=x"]) {
      const got = await get(`/v1/component/assembly${path}${path.includes("?") ? "&" : "?"}edition=2.4.1`);
      expect(got.status).toBe(404);
    }
    expect((await post("/v1/component/assembly?edition=2.4.1", {})).status).toBe(404);
    // The same process still serves it in 1.2.4.
    expect((await get("/v1/component/assembly?edition=1.2.4&verbose=false")).status).toBe(200);
  });
});

describe("component listings", () => {
  it.each([
    ["cpu", ["DEFAULT"]],
    ["ram", ["DEFAULT"]],
    ["ssd", ["DEFAULT"]],
    ["hdd", ["DEFAULT"]],
    ["power_supply", ["DEFAULT"]],
    ["power-supply", ["DEFAULT"]],
    ["case", ["rack", "blade"]],
    ["motherboard", []],
    ["assembly", []],
  ])("/v1/component/%s/archetypes and /archetype", async (kind, ids) => {
    const plural = await get(`/v1/component/${kind}/archetypes`);
    expect(plural).toEqual({ status: 200, body: ids });
    expect(await get(`/v1/component/${kind}/archetype`)).toEqual(plural);
  });

  it("archetype_config of the CPU DEFAULT row", async () => {
    const { status, body } = await get("/v1/component/cpu/archetype_config?archetype=DEFAULT");
    expect(status).toBe(200);
    expect(body.units).toEqual({ default: 1, min: 1, max: 1 });
    expect(body.core_units).toEqual({ default: 24, min: 1, max: 64 });
    expect(body.model_range).toEqual({});
    expect(body.USAGE).toEqual({
      time_workload: { default: 50, min: 0, max: 100 },
      use_time_ratio: { default: 1 },
      hours_life_time: { default: 26280 },
    });
    expect(body.CONSUMPTION_PROFILE.params).toEqual({
      default: { a: 171.2, b: 0.0354, c: 36.89, d: -10.13 },
    });
  });

  it("archetype_config of ram, ssd, hdd, case and power supply", async () => {
    expect((await get("/v1/component/ram/archetype_config?archetype=DEFAULT")).body.capacity).toEqual({
      default: 32,
      min: 1,
      max: 128,
    });
    expect((await get("/v1/component/ssd/archetype_config?archetype=DEFAULT")).body.capacity).toEqual({
      default: 1000,
      min: 100,
      max: 5000,
    });
    expect((await get("/v1/component/hdd/archetype_config?archetype=DEFAULT")).body.capacity).toEqual({
      default: 500,
      min: 100,
      max: 2000,
    });
    const blade = await get("/v1/component/case/archetype_config?archetype=blade");
    expect(blade.body).toEqual({
      units: { default: 1, min: 1, max: 1 },
      case_type: { default: "blade" },
      USAGE: { use_time_ratio: { default: 1 }, hours_life_time: { default: 26280 } },
    });
    const psu = await get("/v1/component/power_supply/archetype_config?archetype=DEFAULT");
    expect(psu.body.unit_weight).toEqual({ default: 2.99, min: 1, max: 5 });
    expect(await get("/v1/component/power-supply/archetype_config?archetype=DEFAULT")).toEqual(psu);
  });

  it("/v1/component/all", async () => {
    expect(await get("/v1/component/all")).toEqual({
      status: 200,
      body: {
        cpu: "v1/component/cpu",
        ram: "v1/component/ram",
        ssd: "v1/component/ssd",
        hdd: "v1/component/hdd",
        motherboard: "v1/component/motherboard",
        power_supply: "v1/component/power_supply",
        case: "v1/component/case",
      },
    });
  });
});

describe("/v1/utils/*", () => {
  it("country_code: name → code, World and Europe first", async () => {
    const { status, body } = await get("/v1/utils/country_code");
    expect(status).toBe(200);
    // The 1.2.4 specification text says 141 entries; the shipped factors.yml (and the reference's answer) has 139.
    expect(Object.keys(body)).toHaveLength(139);
    expect(Object.entries(body).slice(0, 2)).toEqual([
      ["World", "WOR"],
      ["Europe", "EEE"],
    ]);
    expect(body.France).toBe("FRA");
    expect(body["Serbie "]).toBe("SCG");
  });

  it("cpu_family, cpu_model_range, cpu_name: distinct values of the CPU table", async () => {
    const families = (await get("/v1/utils/cpu_family")).body as string[];
    expect(families).toContain("Skylake");
    expect(families).toContain("Whiskey Lake-U");
    expect(new Set(families).size).toBe(families.length);
    const ranges = (await get("/v1/utils/cpu_model_range")).body as string[];
    expect(ranges).toContain("Xeon Gold");
    expect(new Set(ranges).size).toBe(ranges.length);
    const names = (await get("/v1/utils/cpu_name")).body as string[];
    expect(names).toContain("Intel Xeon Gold 6134");
    expect(names).toContain("Intel Core i7-8565U");
  });

  it("manufacturers and case types", async () => {
    expect((await get("/v1/utils/ssd_manufacturer")).body).toEqual([
      "Intel ",
      "Micron",
      "Toshiba",
      "Samsung",
      "Micron/Intel",
      "Toshiba/WD",
    ]);
    expect((await get("/v1/utils/ram_manufacturer")).body).toEqual(["Samsung", "SK hynix", "Micron"]);
    expect((await get("/v1/utils/case_type")).body).toEqual(["blade", "rack"]);
  });

  it("name_to_cpu: the full v1 CPU request object (§18.8)", async () => {
    const { status, body } = await get("/v1/utils/name_to_cpu?cpu_name=i7-8565U");
    expect(status).toBe(200);
    expect(body).toMatchObject({
      units: null,
      core_units: 4,
      die_size: 123,
      die_size_per_core: null,
      manufacturer: "Intel",
      model_range: "Core i7",
      family: "Whiskey Lake-U",
      name: "Intel Core i7-8565U",
      tdp: 28,
    });
    expect(body.usage.avg_power).toBeNull();
    expect(Object.keys(body.usage.elec_factors)).toHaveLength(22);
    expect(Object.values(body.usage.elec_factors).every((v) => v === null)).toBe(true);
  });

  it("name_to_cpu without a match answers a string", async () => {
    expect(await get("/v1/utils/name_to_cpu?cpu_name=zzzzzz")).toEqual({
      status: 200,
      body: "CPU name zzzzzz is not found in our database",
    });
  });

  it("impact_criteria: the §14.1 table keyed by criterion", async () => {
    const { body } = await get("/v1/utils/impact_criteria");
    const keys = Object.keys(body);
    expect(keys).toHaveLength(23);
    expect(keys.slice(0, 3)).toEqual(["gwp", "adp", "pe"]);
    expect(keys).toContain("CTUh_c");
    expect(keys).not.toContain("ctuh_c");
    expect(body.gwp).toEqual({
      name: "gwp",
      unit: "kgCO2eq",
      description: "Total climate change",
      method: null,
    });
    expect(body.CTUh_nc).toEqual({
      name: "ctuh_nc",
      unit: "CTUh",
      description: "Human toxicity - non-carcinogenic effects",
      method: "PEF",
    });
    expect(body.fw.method).toBe("");
  });
});
