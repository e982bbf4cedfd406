/**
 * The v1 REST server routes through `app.rest`: impacts (GET/POST), query parameters (criteria,
 * verbose, duration, allocation), use-time fields, verbose layout and the archetype listings.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app/main.js";
import { sharedApp, testConfig } from "../support/app.js";
import { ARCHETYPE_LIFETIME_HOURS } from "../support/fixtures.js";
import { call, EMPTY_SERVER_IMPACTS, EOL, UNCERTAINTY } from "../support/rest.js";
import { COMPLETE_CONFIGURATION_V1 } from "../support/servers.js";
import { GENERIC_DATA_WARNING, LOCATION_NOT_FOUND } from "../support/warnings.js";

const app = sharedApp();
const get = (url: string) => call(app, "GET", url);
const post = (url: string, body: unknown) => call(app, "POST", url, body);

describe("GET/POST /v1/server/", () => {
  it("GET on platform_compute_medium answers §18.4", async () => {
    const { status, body } = await get("/v1/server/?archetype=platform_compute_medium&verbose=false");
    expect(status).toBe(200);
    expect(body).toEqual({ impacts: EMPTY_SERVER_IMPACTS });
    expect(Object.keys(body.impacts)).toEqual(["gwp", "adp", "pe"]);
  });

  it("POST {} and a POST without body equal the GET (default archetype)", async () => {
    const reference = await get("/v1/server/?verbose=false");
    expect(await post("/v1/server/?verbose=false", {})).toEqual(reference);
    expect(await post("/v1/server/?verbose=false", "")).toEqual(reference);
    expect(await post("/v1/server?verbose=false", {})).toEqual(reference);
  });

  it("POST §18.3 complete configuration (snake_case body)", async () => {
    const { status, body } = await post("/v1/server/?verbose=false", {
      model: {},
      configuration: COMPLETE_CONFIGURATION_V1,
    });
    expect(status).toBe(200);
    expect(body.impacts.gwp.embedded).toEqual({ value: 1138, min: 1074, max: 1138, warnings: [EOL] });
    expect(body.impacts.gwp.use).toEqual({ value: 7000, min: 405.2, max: 26580 });
    expect(body.impacts.adp.embedded).toEqual({ value: 0.2536, min: 0.2536, max: 0.2611, warnings: [EOL] });
    expect(body.impacts.adp.use).toEqual({ value: 0.0013, min: 0.0002333, max: 0.006238 });
    expect(body.impacts.pe.embedded).toEqual({ value: 15430, min: 14450, max: 15430, warnings: [EOL] });
    expect(body.impacts.pe.use).toEqual({ value: 300000, min: 229, max: 11000000, warnings: [UNCERTAINTY] });
  });

  it("lenient integers: numeric strings and fractions are accepted (§0.3)", async () => {
    const reference = await post("/v1/server/?verbose=false", {
      configuration: { cpu: { units: 2, core_units: 12 } },
    });
    const lenient = await post("/v1/server/?verbose=false", {
      configuration: { cpu: { units: 2.7, core_units: "12" } },
    });
    expect(lenient.status).toBe(200);
    expect(lenient).toEqual(reference);
    // 12 input cores: die size 415 (186–1910) instead of the all-families average.
    expect(reference.body.impacts.gwp.embedded.min).toBe(465.6);
  });

  it("§18.8: ?duration=8785 with an input power of 1 W in FRA", async () => {
    const { body } = await post("/v1/server/?verbose=false&duration=8785", {
      usage: { avg_power: 1, usage_location: "FRA" },
    });
    expect(body.impacts.gwp.use).toEqual({ value: 0.8609, min: 0.8609, max: 0.8609 });
    expect(body.impacts.adp.use).toEqual({ value: 4.268e-7, min: 4.268e-7, max: 4.268e-7 });
    expect(body.impacts.pe.use).toEqual({ value: 99.17, min: 99.17, max: 99.17 });
    expect(body.impacts.gwp.embedded).toEqual({ value: 240, min: 115.3, max: 523.3, warnings: [EOL] });
  });
});

describe("query parameters", () => {
  it("criteria repeat: answered in request order", async () => {
    const { status, body } = await get("/v1/server/?verbose=false&criteria=pe&criteria=gwp");
    expect(status).toBe(200);
    expect(Object.keys(body.impacts)).toEqual(["pe", "gwp"]);
    expect(body.impacts.pe).toEqual(EMPTY_SERVER_IMPACTS.pe);
    expect(body.impacts.gwp).toEqual(EMPTY_SERVER_IMPACTS.gwp);
  });

  it("criteria adpf: generic embedded; CTUh_c: listed, not implemented", async () => {
    const { body } = await get("/v1/server/?verbose=false&criteria=adpf&criteria=CTUh_c");
    expect(body.impacts.adpf).toEqual({
      unit: "MJ",
      description: "Use of fossil resources (including nuclear)",
      embedded: {
        value: 51500,
        min: 51500,
        max: 51500,
        warnings: [GENERIC_DATA_WARNING],
      },
      use: { value: 170000, min: 225.1, max: 594800 },
    });
    expect(body.impacts.CTUh_c).toEqual({
      unit: "CTUh",
      description: "Human Toxicity - Carcinogenic Effects",
      embedded: "not implemented",
      use: "not implemented",
    });
  });

  it.each([
    ["true", true],
    ["on", true],
    ["1", true],
    ["yes", true],
    ["false", false],
    ["off", false],
    ["0", false],
    ["no", false],
  ])("verbose=%s", async (spelling, shown) => {
    const { status, body } = await get(`/v1/server/?verbose=${spelling}&criteria=gwp`);
    expect(status).toBe(200);
    expect("verbose" in body).toBe(shown);
    expect(body.impacts.gwp).toEqual(EMPTY_SERVER_IMPACTS.gwp);
  });

  it("verbose defaults to true", async () => {
    const { body } = await get("/v1/server/?criteria=gwp");
    expect(body.verbose).toBeDefined();
  });

  it("duration scales use linearly and allocates embedded (D / 35040)", async () => {
    const { body } = await get("/v1/server/?verbose=false&duration=8760");
    expect(body.impacts.gwp.embedded).toEqual({ value: 240, min: 115, max: 521.8, warnings: [EOL] });
    expect(body.impacts.gwp.use).toEqual({ value: 1900, min: 101.3, max: 7222 });
    const long = await get("/v1/server/?verbose=false&duration=70080");
    expect(long.body.impacts.gwp.embedded).toEqual(EMPTY_SERVER_IMPACTS.gwp.embedded);
    expect(long.body.impacts.gwp.use).toEqual({ value: 15000, min: 810.4, max: 57780 });
  });

  it("allocation=TOTAL gives the full embedded impact whatever the duration; use unchanged", async () => {
    const total = await get("/v1/server/?verbose=false&duration=8760&allocation=TOTAL");
    const linear = await get("/v1/server/?verbose=false&duration=8760&allocation=LINEAR");
    const implicit = await get("/v1/server/?verbose=false&duration=8760");
    expect(total.status).toBe(200);
    expect(linear).toEqual(implicit);
    for (const name of ["gwp", "adp", "pe"] as const) {
      expect(total.body.impacts[name].embedded).toEqual(EMPTY_SERVER_IMPACTS[name].embedded);
      expect(total.body.impacts[name].use).toEqual(linear.body.impacts[name].use);
    }
    // LINEAR at 8760 h of a 35040 h lifetime is a quarter: 947.69/4 = 236.9 (114.97–521.76).
    expect(linear.body.impacts.gwp.embedded).toEqual({ value: 240, min: 115, max: 521.8, warnings: [EOL] });
    const shortTotal = await get("/v1/server/?verbose=false&duration=1&allocation=TOTAL");
    expect(shortTotal.body.impacts.gwp.embedded).toEqual(EMPTY_SERVER_IMPACTS.gwp.embedded);
  });

  it("allocation=foo: 422 on the allocation parameter", async () => {
    const { status, body } = await get("/v1/server/?allocation=foo");
    expect(status).toBe(422);
    expect(body.detail[0].loc).toEqual(["query", "allocation"]);
  });
});

describe("cumulative use-time fields define the duration", () => {
  it("years_use_time 1 equals ?duration=8760", async () => {
    const reference = await get("/v1/server/?verbose=false&duration=8760");
    const years = await post("/v1/server/?verbose=false", { usage: { years_use_time: 1 } });
    expect(years.status).toBe(200);
    expect(years).toEqual(reference);
  });

  it("hours + days + years add up", async () => {
    const reference = await get("/v1/server/?verbose=false&duration=8760");
    const mixed = await post("/v1/server/?verbose=false", {
      usage: { hours_use_time: 2190, days_use_time: 91.25, years_use_time: 0.5 },
    });
    expect(mixed).toEqual(reference);
    const days = await post("/v1/server/?verbose=false", { usage: { days_use_time: 365 } });
    expect(days).toEqual(reference);
  });

  it("the verbose duration echoes the use time", async () => {
    const { body } = await post("/v1/server/?criteria=gwp", { usage: { hours_use_time: 100 } });
    expect(body.verbose.duration).toEqual({ value: 100, unit: "hours" });
  });
});

describe("verbose layout (§7.3)", () => {
  it("duration, component blocks in device order, then the server attributes", async () => {
    const { body } = await get("/v1/server/");
    const keys = Object.keys(body.verbose);
    expect(keys.slice(0, 8)).toEqual([
      "duration",
      "ASSEMBLY-1",
      "CPU-1",
      "RAM-1",
      "SSD-1",
      "POWER_SUPPLY-1",
      "CASE-1",
      "MOTHERBOARD-1",
    ]);
    for (const name of ["avg_power", "usage_location", "use_time_ratio", "hours_life_time", "units"]) {
      expect(keys).toContain(name);
    }
    expect(body.verbose.duration).toEqual({ value: ARCHETYPE_LIFETIME_HOURS, unit: "hours" });
    expect(body.verbose.hours_life_time).toEqual({
      value: ARCHETYPE_LIFETIME_HOURS,
      status: "COMPLETED",
      unit: "hours",
      source: "from device",
      min: ARCHETYPE_LIFETIME_HOURS,
      max: ARCHETYPE_LIFETIME_HOURS,
    });
    expect(body.verbose.units).toEqual({ value: 1, status: "ARCHETYPE", min: 1, max: 1 });
    expect(body.verbose.usage_location).toEqual({
      value: "EEE",
      status: "DEFAULT",
      unit: "CodSP3 - NCS Country Codes - NATO",
    });
  });

  it("a component block: impacts, attributes, duration last", async () => {
    const { body } = await get("/v1/server/");
    const cpu = body.verbose["CPU-1"];
    const keys = Object.keys(cpu);
    expect(keys[0]).toBe("impacts");
    expect(keys[keys.length - 1]).toBe("duration");
    expect(cpu.duration).toEqual({ value: ARCHETYPE_LIFETIME_HOURS, unit: "hours" });
    expect(cpu.impacts.gwp.embedded).toEqual({ value: 40, min: 19.9, max: 161.7, warnings: [EOL] });
    expect(cpu.impacts.gwp.use).toEqual({ value: 10000, min: 587.5, max: 28900 });
    expect(cpu.units).toEqual({ value: 2, status: "ARCHETYPE", min: 2, max: 2 });
    expect(cpu.die_size).toEqual({
      value: 521,
      status: "COMPLETED",
      unit: "mm2",
      source: "Average value for all families",
      min: 41.2,
      max: 3640,
    });
    expect(cpu.hours_life_time).toMatchObject({ status: "COMPLETED", source: "from device" });
    expect(cpu.params).toEqual({ value: { a: 171.2, b: 0.0354, c: 36.89, d: -10.13 }, status: "ARCHETYPE" });
    expect(body.verbose["SSD-1"].impacts.gwp.use).toBe("not implemented");
    expect(body.verbose["CASE-1"].case_type).toEqual({ value: "rack", status: "ARCHETYPE" });
  });

  it("RAM-2 avg_power is the running sum (§7.3)", async () => {
    const { body } = await post("/v1/server/?criteria=gwp", {
      configuration: {
        ram: [
          { units: 4, capacity: 32, density: 1.79 },
          { units: 4, capacity: 16, density: 1.79 },
        ],
      },
    });
    expect(body.verbose["RAM-1"].avg_power.value).toBeCloseTo(36.352, 10);
    expect(body.verbose["RAM-2"].avg_power.value).toBeCloseTo(54.528, 10);
    expect(body.verbose["RAM-2"].params.source).toBe(
      "(ram_electrical_factor_per_go : 0.284) * (ram_capacity: 16) ",
    );
  });

  it("an invalid usage_location carries its warning", async () => {
    const { status, body } = await post("/v1/server/?criteria=gwp", { usage: { usage_location: "XYZ" } });
    expect(status).toBe(200);
    expect(body.verbose.usage_location).toEqual({
      value: "EEE",
      status: "DEFAULT",
      unit: "CodSP3 - NCS Country Codes - NATO",
      warnings: [LOCATION_NOT_FOUND],
    });
    expect(body.impacts.gwp).toEqual(EMPTY_SERVER_IMPACTS.gwp);
  });
});

describe("server listings", () => {
  it("/v1/server/archetypes lists every id of server.csv in file order", async () => {
    const ids = readFileSync(new URL("../../data/1.2.4/archetypes/server.csv", import.meta.url), "utf8")
      .split(/\r?\n/)
      .slice(1)
      .filter((line) => line.trim() !== "")
      .map((line) => line.split(",")[0]);
    const { status, body } = await get("/v1/server/archetypes");
    expect(status).toBe(200);
    expect(body).toEqual(ids);
    expect(body).toContain("platform_compute_medium");
    expect(body).toContain("dellR740");
  });

  it("/v1/server/archetype_config returns the parsed archetype (§3.2)", async () => {
    const { status, body } = await get("/v1/server/archetype_config?archetype=platform_compute_medium");
    expect(status).toBe(200);
    expect(body.CPU.core_units).toEqual({ default: 24, min: 16, max: 48 });
    expect(body.CPU.units).toEqual({ default: 2 });
    expect(body.CPU.name).toEqual({});
    expect(body.RAM.units).toEqual({ default: 8, min: 6, max: 10 });
    expect(body.CASE.case_type).toEqual({ default: "rack" });
    expect(body.POWER_SUPPLY.unit_weight).toEqual({ default: 2.99, min: 1, max: 5 });
    expect(body.USAGE.hours_life_time).toEqual({ default: ARCHETYPE_LIFETIME_HOURS });
    expect(body.USAGE.other_consumption_ratio).toEqual({ default: 0.33, min: 0.2, max: 0.6 });
    expect(body.WARNINGS).toEqual({ default: "Using generic compute platform" });
  });

  it("/v1/server/archetype_config of dellR740", async () => {
    const { body } = await get("/v1/server/archetype_config?archetype=dellR740");
    expect(body.manufacturer).toEqual({ default: "Dell" });
    expect(body.CPU.die_size_per_core).toEqual({ default: 24.5 });
    expect(body.POWER_SUPPLY.units).toEqual({ default: 2, min: 1, max: 2 });
  });
});

describe("repeated query parameters", () => {
  it("a repeated single-valued parameter counts by its last value, as FastAPI reads it", async () => {
    const app = createApp(testConfig());
    const last = await app.rest({
      method: "GET",
      url: "/v1/server/?archetype=nope&archetype=dellR740&verbose=false",
      body: "",
    });
    const direct = await app.rest({
      method: "GET",
      url: "/v1/server/?archetype=dellR740&verbose=false",
      body: "",
    });
    expect(last.status).toBe(200);
    expect(last.body).toEqual(direct.body);
  });
});
