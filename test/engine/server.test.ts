/**
 * Servers in the engine (`serverModel` + `evaluate`) on docs/methodology.md's worked examples (§18.3, §18.4,
 * §18.8) and the server rows of Appendix C, production data.
 */
import { describe, expect, it } from "vitest";
import type { ArchetypeCell } from "../../src/data/types.js";
import { Server } from "../../src/engine/assets/server.js";
import { type EvaluationOptions, evaluate, type ServerInput, serverModel } from "../../src/engine/index.js";
import {
  attribute,
  component,
  componentImpact,
  criterion,
  END_OF_LIFE,
  engineFixture,
  expectRaw,
  expectRounded,
  GENERIC_DATA,
  hasAttribute,
  UNCERTAINTY,
} from "../support/engine.js";
import { ARCHETYPE_LIFETIME_HOURS } from "../support/fixtures.js";
import { COMPLETE_CONFIGURATION } from "../support/servers.js";

const { data, context } = engineFixture();

const gwp = criterion("gwp");
const adp = criterion("adp");
const pe = criterion("pe");

function cells(id = "platform_compute_medium"): Readonly<Record<string, ArchetypeCell>> {
  return data.archetypes.server.byId.get(id)!.cells;
}

function evaluation(input: ServerInput, options: EvaluationOptions = {}, archetype?: string) {
  return evaluate(serverModel(context, cells(archetype), input), options);
}

const LIFETIME = ARCHETYPE_LIFETIME_HOURS;

/** §18.3: the complete configuration of the original tests. */
const COMPLETE: ServerInput = {
  model: {},
  configuration: COMPLETE_CONFIGURATION,
};

describe("§18.3 server with the complete configuration", () => {
  it("reports the rounded embedded impacts", () => {
    const ev = evaluation(COMPLETE);
    expect(ev.duration).toBe(LIFETIME);
    expectRounded(ev.impact(gwp, "embedded"), { value: 1138, min: 1074, max: 1138 }, [END_OF_LIFE]);
    expectRounded(ev.impact(adp, "embedded"), { value: 0.2536, min: 0.2536, max: 0.2611 }, [END_OF_LIFE]);
    expectRounded(ev.impact(pe, "embedded"), { value: 15430, min: 14450, max: 15430 }, [END_OF_LIFE]);
  });

  it("sums the components' raw embedded impacts", () => {
    const gwpParts = [
      6.68, // assembly
      2 * (588 * 0.0197 + 9.14), // CPU: S = 24 × 24.5
      4 * ((32 / 1.79) * 2.2 + 5.22),
      4 * ((16 / 1.79) * 2.2 + 5.22),
      2 * ((400 / 50.6) * 2.2 + 6.34),
      2 * 31.1, // HDD
      2 * 10 * 24.3, // power supply
      150, // rack case (archetype) — min 85.9
      66.1, // motherboard
    ];
    const sum = gwpParts.reduce((a, b) => a + b, 0);
    expect(sum).toBeCloseTo(1137.62746, 4);
    const asset = serverModel(context, cells(), COMPLETE);
    expectRaw(asset.embedded("gwp", LIFETIME, "LINEAR"), { value: sum, min: sum - 150 + 85.9, max: sum }, 8);
    expectRaw(
      asset.embedded("adp", LIFETIME, "LINEAR"),
      { value: 0.25359782, min: 0.25359782, max: 0.26106982 },
      8,
    );
    expectRaw(
      asset.embedded("pe", LIFETIME, "LINEAR"),
      { value: 15425.9287, min: 14454.6787, max: 15425.9287 },
      3,
    );
  });

  it("reports the rounded use impacts", () => {
    const ev = evaluation(COMPLETE);
    expectRounded(ev.impact(gwp, "use"), { value: 7000, min: 405.2, max: 26580 }, []);
    expectRounded(ev.impact(adp, "use"), { value: 0.0013, min: 0.0002333, max: 0.006238 }, []);
    expectRounded(ev.impact(pe, "use"), { value: 300000, min: 229, max: 11000000 }, [UNCERTAINTY]);
  });

  it("models the server power (P_cpu + P_ram)·(1 + ocr) and computes the raw use", () => {
    const base = 182.23 * 2 + 9.088 * 4 + 4.544 * 4; // 418.988 W
    const power = { value: base * 1.33, min: base * 1.2, max: base * 1.6 };
    const asset = serverModel(context, cells(), COMPLETE);
    const raw = asset.use("gwp", LIFETIME);
    expectRaw(
      raw,
      {
        value: (0.38 * power.value * LIFETIME) / 1000,
        min: (0.023 * power.min * LIFETIME) / 1000,
        max: (1.13161 * power.max * LIFETIME) / 1000,
      },
      6,
    );
    expect(raw.value).toBeCloseTo(7419.949, 2);
    expect(raw.min).toBeCloseTo(405.20497, 4);
    expect(raw.max).toBeCloseTo(26581.681, 2);
    const rawPe = serverModel(context, cells(), COMPLETE).use("pe", LIFETIME);
    expect(rawPe.value).toBeCloseTo(251360.5, 0);
    expect(rawPe.min).toBeCloseTo(229.029, 2);
    expect(rawPe.max).toBeCloseTo(10996910.6, 0);

    const report = evaluation(COMPLETE).verbose();
    const avgPower = attribute(report.attributes, "avg_power");
    expect(avgPower.status).toBe("COMPLETED");
    expect(avgPower.value as number).toBeCloseTo(557.25404, 8);
    expect(avgPower.min as number).toBeCloseTo(502.7856, 8);
    expect(avgPower.max as number).toBeCloseTo(670.3808, 8);
  });

  it("lists the components in device order", () => {
    const report = evaluation(COMPLETE).verbose();
    expect(report.components.map((c) => c.key)).toEqual([
      "ASSEMBLY-1",
      "CPU-1",
      "RAM-1",
      "RAM-2",
      "SSD-1",
      "HDD-1",
      "POWER_SUPPLY-1",
      "CASE-1",
      "MOTHERBOARD-1",
    ]);
    expect(report.duration).toBe(LIFETIME);
    expect(report.impacts).toBeNull();
  });

  it("shows each component's embedded impact in verbose", () => {
    const report = evaluation(COMPLETE).verbose();
    const embedded = (key: string, name = "gwp") => componentImpact(component(report, key), name).embedded;
    expectRounded(embedded("ASSEMBLY-1"), { value: 6.68, min: 6.68, max: 6.68 });
    expectRounded(embedded("CPU-1"), { value: 41.45, min: 41.45, max: 41.45 });
    expectRounded(embedded("RAM-1"), { value: 178.2, min: 178.2, max: 178.2 });
    expectRounded(embedded("RAM-2"), { value: 99.54, min: 99.54, max: 99.54 });
    expectRounded(embedded("SSD-1"), { value: 47.46, min: 47.46, max: 47.46 });
    expectRounded(embedded("HDD-1"), { value: 62.2, min: 62.2, max: 62.2 });
    expectRounded(embedded("POWER_SUPPLY-1"), { value: 486, min: 486, max: 486 });
    expectRounded(embedded("CASE-1"), { value: 150, min: 85.9, max: 150 });
    expectRounded(embedded("CASE-1", "adp"), { value: 0.0202, min: 0.0202, max: 0.02767 });
    expectRounded(embedded("MOTHERBOARD-1"), { value: 66.1, min: 66.1, max: 66.1 });
    expectRounded(embedded("CPU-1", "pe"), { value: 623.6, min: 623.6, max: 623.6 });
  });

  it("component use exists only for CPU and RAM; CPU-1 use counts its 2 units twice (§5.7)", () => {
    const report = evaluation(COMPLETE).verbose();
    // 0.38 · 0.36446 · 35040 · 2 = 9705.7 ⇒ 10000 (min 587.5, max 28900).
    expectRounded(componentImpact(component(report, "CPU-1"), "gwp").use, {
      value: 10000,
      min: 587.5,
      max: 28900,
    });
    for (const key of ["ASSEMBLY-1", "SSD-1", "HDD-1", "POWER_SUPPLY-1", "CASE-1", "MOTHERBOARD-1"]) {
      expect(componentImpact(component(report, key), "gwp").use).toBe("not implemented");
    }
    const cpu = component(report, "CPU-1");
    expect(attribute(cpu.attributes, "avg_power")).toMatchObject({
      value: 364.46,
      status: "COMPLETED",
      min: 364.46,
      max: 364.46,
    });
    expect(attribute(cpu.attributes, "die_size")).toMatchObject({
      value: 588,
      status: "COMPLETED",
      source: "die_size_per_core*core_units",
    });
    expect(attribute(cpu.attributes, "units")).toEqual({ name: "units", value: 2, status: "INPUT" });
  });

  it("RAM-k avg_power holds the running sum of the RAM powers (§7.3, Appendix D.2)", () => {
    const report = evaluation(COMPLETE).verbose();
    const ram1 = component(report, "RAM-1");
    const ram2 = component(report, "RAM-2");
    expect(attribute(ram1.attributes, "avg_power").value as number).toBeCloseTo(9.088 * 4, 10); // 36.352
    // RAM-2 alone draws 4.544 × 4 = 18.176 W but shows RAM-1 + RAM-2.
    expect(attribute(ram2.attributes, "avg_power").value as number).toBeCloseTo(54.528, 10);
    expect(attribute(ram2.attributes, "params")).toMatchObject({
      value: { a: 4.544 },
      source: "(ram_electrical_factor_per_go : 0.284) * (ram_capacity: 16) ",
    });
    // The running sum feeds RAM-2's use, again × 4 units: 0.38 · 0.054528 · 35040 · 4.
    expectRounded(componentImpact(ram2, "gwp").use, { value: 2900, min: 175.8, max: 8648 });
    expectRounded(componentImpact(ram1, "gwp").use, { value: 1900, min: 117.2, max: 5766 });
  });
});

describe("§18.4 empty server {}", () => {
  it("reports the rounded embedded and use impacts", () => {
    const ev = evaluation({});
    expect(ev.duration).toBe(LIFETIME);
    expectRounded(ev.impact(gwp, "embedded"), { value: 900, min: 459.9, max: 2087 }, [END_OF_LIFE]);
    expectRounded(ev.impact(adp, "embedded"), { value: 0.14, min: 0.09758, max: 0.2132 }, [END_OF_LIFE]);
    expectRounded(ev.impact(pe, "embedded"), { value: 13000, min: 6112, max: 27070 }, [END_OF_LIFE]);
    expectRounded(ev.impact(gwp, "use"), { value: 8000, min: 405.2, max: 28890 }, []);
    expectRounded(ev.impact(adp, "use"), { value: 0.0013, min: 0.0002333, max: 0.00678 }, []);
    expectRounded(ev.impact(pe, "use"), { value: 300000, min: 229, max: 11950000 }, [UNCERTAINTY]);
  });

  it("computes the per-component raw gwp table", () => {
    const server = new Server(context, cells(), {});
    expectRaw(
      server.embeddedImpact("gwp", LIFETIME, "LINEAR"),
      { value: 947.68661, min: 459.88341, max: 2087.04868 },
      4,
    );
    const parts = server.components().map((c) => c.embeddedImpact("gwp", LIFETIME, "LINEAR"));
    const expected = [
      { value: 6.68, min: 6.68, max: 6.68 },
      { value: 2 * (521 * 0.0197 + 9.14), min: 2 * (41.2 * 0.0197 + 9.14), max: 2 * (3640 * 0.0197 + 9.14) },
      {
        value: 8 * ((32 / 1.2443636363636363) * 2.2 + 5.22),
        min: 6 * ((32 / 2.375) * 2.2 + 5.22),
        max: 10 * ((32 / 0.625) * 2.2 + 5.22),
      },
      {
        value: (1000 / 54.8842105263158) * 2.2 + 6.34,
        min: (1000 / 128) * 2.2 + 6.34,
        max: 2 * ((1000 / 16.4) * 2.2 + 6.34),
      },
      { value: 2.99 * 24.3 * 2, min: 24.3 * 2, max: 5 * 24.3 * 2 },
      { value: 150, min: 85.9, max: 150 },
      { value: 66.1, min: 66.1, max: 66.1 },
    ];
    expect(server.components().map((c) => c.kind)).toEqual([
      "ASSEMBLY",
      "CPU",
      "RAM",
      "SSD",
      "POWER_SUPPLY",
      "CASE",
      "MOTHERBOARD",
    ]);
    parts.forEach((part, i) => {
      expectRaw(part, expected[i], 8);
    });
  });

  it("computes the raw use from P = 437.164·1.33, P⁻ = 418.988·1.2, P⁺ = 455.34·1.6", () => {
    const raw = serverModel(context, cells(), {}).use("gwp", LIFETIME);
    expectRaw(
      raw,
      {
        value: (0.38 * 437.164 * 1.33 * LIFETIME) / 1000,
        min: (0.023 * 418.988 * 1.2 * LIFETIME) / 1000,
        max: (1.13161 * 455.34 * 1.6 * LIFETIME) / 1000,
      },
      6,
    );
    expect(raw.value).toBeCloseTo(7741.832, 2);
    expect(raw.max).toBeCloseTo(28887.946, 2);
    const rawPe = serverModel(context, cells(), {}).use("pe", LIFETIME);
    expect(rawPe.value).toBeCloseTo(262264.7, 0);
    expect(rawPe.max).toBeCloseTo(11951018.3, 0);
  });

  it("verbose: server attributes, lifetime completed from device, units 1", () => {
    const report = evaluation({}).verbose();
    const attributes = report.attributes;
    expect(attribute(attributes, "hours_life_time")).toEqual({
      name: "hours_life_time",
      value: ARCHETYPE_LIFETIME_HOURS,
      status: "COMPLETED",
      unit: "hours",
      source: "from device",
      min: ARCHETYPE_LIFETIME_HOURS,
      max: ARCHETYPE_LIFETIME_HOURS,
    });
    expect(attribute(attributes, "units")).toEqual({
      name: "units",
      value: 1,
      status: "ARCHETYPE",
      min: 1,
      max: 1,
    });
    expect(attribute(attributes, "other_consumption_ratio")).toEqual({
      name: "other_consumption_ratio",
      value: 0.33,
      status: "ARCHETYPE",
      unit: "ratio /1",
      min: 0.2,
      max: 0.6,
    });
    expect(attribute(attributes, "usage_location")).toEqual({
      name: "usage_location",
      value: "EEE",
      status: "DEFAULT",
      unit: "CodSP3 - NCS Country Codes - NATO",
    });
    const power = attribute(attributes, "avg_power");
    expect(power.value as number).toBeCloseTo(581.42812, 8);
    expect(power.min as number).toBeCloseTo(502.7856, 8);
    expect(power.max as number).toBeCloseTo(728.544, 8);
    // time_workload is shown at server level only when it is an input (§7.3).
    expect(hasAttribute(attributes, "time_workload")).toBe(false);
    expect(attribute(attributes, "gwp_factor")).toMatchObject({ value: 0.38, min: 0.023, max: 1.13161 });
  });

  it("verbose: every component lifetime is the server's, COMPLETED from device", () => {
    const report = evaluation({}).verbose();
    for (const key of ["CPU-1", "RAM-1"]) {
      expect(attribute(component(report, key).attributes, "hours_life_time")).toMatchObject({
        value: ARCHETYPE_LIFETIME_HOURS,
        status: "COMPLETED",
        source: "from device",
      });
    }
    for (const block of report.components) expect(block.duration).toBe(LIFETIME);
  });

  it("verbose: archetype CPU die size is the all-families average (Appendix D.3)", () => {
    const report = evaluation({}).verbose();
    const cpu = component(report, "CPU-1");
    expect(attribute(cpu.attributes, "die_size")).toMatchObject({
      value: 521,
      source: "Average value for all families",
      min: 41.2,
      max: 3640,
    });
    expect(hasAttribute(cpu.attributes, "core_units")).toBe(false);
    expect(attribute(cpu.attributes, "units")).toEqual({
      name: "units",
      value: 2,
      status: "ARCHETYPE",
      min: 2,
      max: 2,
    });
    expect(attribute(cpu.attributes, "time_workload")).toMatchObject({
      value: 50,
      status: "ARCHETYPE",
      min: 0,
      max: 100,
    });
    const ram = component(report, "RAM-1");
    expect(attribute(ram.attributes, "units")).toMatchObject({
      value: 8,
      status: "ARCHETYPE",
      min: 6,
      max: 10,
    });
    expect(attribute(ram.attributes, "density")).toMatchObject({ source: "Average of 11 rows", min: 0.625 });
    expect(attribute(component(report, "CASE-1").attributes, "case_type")).toEqual({
      name: "case_type",
      value: "rack",
      status: "ARCHETYPE",
    });
  });
});

describe("§18.8 server checks", () => {
  it("duration 8785 with an input power of 1 W in FRA", () => {
    const ev = evaluation({ usage: { avgPower: 1, usageLocation: "FRA" } }, { duration: 8785 });
    expect(ev.duration).toBe(8785);
    expectRounded(ev.impact(gwp, "use"), { value: 0.8609, min: 0.8609, max: 0.8609 });
    expectRounded(ev.impact(adp, "use"), { value: 4.268e-7, min: 4.268e-7, max: 4.268e-7 });
    expectRounded(ev.impact(pe, "use"), { value: 99.17, min: 99.17, max: 99.17 });
    expectRounded(ev.impact(gwp, "embedded"), { value: 240, min: 115.3, max: 523.3 });
    const asset = serverModel(context, cells(), { usage: { avgPower: 1, usageLocation: "FRA" } });
    expect(asset.use("gwp", 8785).value).toBeCloseTo(0.098 * 0.001 * 8785, 12);
    expectRaw(
      asset.embedded("gwp", 8785, "LINEAR"),
      {
        value: (947.68661 * 8785) / LIFETIME,
        min: (459.88341 * 8785) / LIFETIME,
        max: (2087.04868 * 8785) / LIFETIME,
      },
      3,
    );
  });

  it("an input server power stops usage propagation to the components (Appendix D.15)", () => {
    const ev = evaluation({ usage: { avgPower: 1, usageLocation: "FRA" } }, { duration: 8785 });
    const report = ev.verbose();
    expect(attribute(report.attributes, "avg_power")).toEqual({
      name: "avg_power",
      value: 1,
      status: "INPUT",
      unit: "W",
    });
    expect(attribute(report.attributes, "usage_location")).toMatchObject({ value: "FRA", status: "INPUT" });
    const cpu = component(report, "CPU-1");
    expect(attribute(cpu.attributes, "usage_location")).toMatchObject({ value: "EEE", status: "DEFAULT" });
    expect(attribute(cpu.attributes, "gwp_factor")).toMatchObject({ value: 0.38, min: 0.023, max: 1.13161 });
  });

  it("without an input power the server's location is shared with the components", () => {
    const report = evaluation({ usage: { usageLocation: "FRA" } }).verbose();
    const cpu = component(report, "CPU-1");
    expect(attribute(cpu.attributes, "usage_location")).toMatchObject({ value: "FRA", status: "INPUT" });
    expect(attribute(cpu.attributes, "gwp_factor")).toMatchObject({ value: 0.098, min: 0.098, max: 0.098 });
  });

  it("criteria adpf: generic SERVER fallback for embedded, electricity for use", () => {
    const ev = evaluation({}, { criteria: [criterion("adpf")] });
    expectRounded(ev.impact(criterion("adpf"), "embedded"), { value: 51500, min: 51500, max: 51500 }, [
      GENERIC_DATA,
    ]);
    expectRounded(ev.impact(criterion("adpf"), "use"), { value: 170000, min: 225.1, max: 594800 }, []);
  });

  it("other generic criteria: SERVER factors (lu negative, ctuh_c computed) and gaps", () => {
    const ev = evaluation({}, { criteria: ["lu", "ir", "ctuh_c", "gwppb", "fw", "CTUh_c"].map(criterion) });
    expectRounded(ev.impact(criterion("lu"), "embedded"), { value: -147, min: -147, max: -147 }, [
      GENERIC_DATA,
    ]);
    expectRounded(ev.impact(criterion("ir"), "embedded"), { value: 2320, min: 2320, max: 2320 });
    expectRounded(ev.impact(criterion("ctuh_c"), "embedded"), { value: 1.94e-7, min: 1.94e-7, max: 1.94e-7 });
    // lu has a 0 global electricity bound ⇒ use not implemented for the default location (§5.2).
    expect(ev.impact(criterion("lu"), "use")).toBe("not implemented");
    // gwppb is never in the electricity table (the file spells it gwpb).
    expect(ev.impact(criterion("gwppb"), "use")).toBe("not implemented");
    // fw: no SERVER factor and no electricity slot.
    expect(ev.impact(criterion("fw"), "embedded")).toBe("not implemented");
    expect(ev.impact(criterion("fw"), "use")).toBe("not implemented");
    // CTUh_c is listed, never computed (Appendix D.20).
    expect(ev.impact(criterion("CTUh_c"), "embedded")).toBe("not implemented");
    expect(ev.impact(criterion("CTUh_c"), "use")).toBe("not implemented");
  });

  it("the generic fallback is allocated over the server lifetime", () => {
    const ev = evaluation({}, { duration: LIFETIME / 2, criteria: [criterion("adpf")] });
    expectRounded(ev.impact(criterion("adpf"), "embedded"), { value: 25750, min: 25750, max: 25750 });
  });
});

describe("Appendix C server rows", () => {
  it("Dell R740 configuration", () => {
    const ev = evaluation({
      model: { type: "rack" },
      configuration: {
        cpu: { units: 2, coreUnits: 24, dieSizePerCore: 24.5 },
        ram: [{ units: 12, capacity: 32, density: 1.79 }],
        disk: [{ units: 1, type: "ssd", capacity: 400, density: 50.6 }],
        powerSupply: { units: 2, unitWeight: 2.99 },
      },
      usage: {},
    });
    expectRounded(ev.impact(gwp, "embedded"), { value: 967.9, min: 967.9, max: 967.9 });
    expectRounded(ev.impact(adp, "embedded"), { value: 0.1492, min: 0.1492, max: 0.1492 });
    expectRounded(ev.impact(pe, "embedded"), { value: 12870, min: 12870, max: 12870 });
    expectRounded(ev.impact(gwp, "use"), { value: 8000, min: 457.9, max: 30040 });
    expectRounded(ev.impact(adp, "use"), { value: 0.0014, min: 0.0002636, max: 0.00705 });
    expectRounded(ev.impact(pe, "use"), { value: 300000, min: 258.8, max: 12430000 }, [UNCERTAINTY]);
  });

  it("partial 1 (CPU units only, RAM without density, typed disks)", () => {
    const ev = evaluation({
      model: {},
      configuration: {
        cpu: { units: 2 },
        ram: [
          { units: 4, capacity: 32 },
          { units: 4, capacity: 16 },
        ],
        disk: [
          { units: 2, type: "ssd" },
          { units: 2, type: "hdd" },
        ],
      },
    });
    expectRounded(ev.impact(gwp, "embedded"), { value: 900, min: 556.1, max: 1688 });
    expectRounded(ev.impact(adp, "embedded"), { value: 0.141, min: 0.1025, max: 0.1974 });
    expectRounded(ev.impact(pe, "embedded"), { value: 12000, min: 7103, max: 21880 });
    expectRounded(ev.impact(gwp, "use"), { value: 7000, min: 405.2, max: 26580 });
    expectRounded(ev.impact(adp, "use"), { value: 0.0013, min: 0.0002333, max: 0.006238 });
    expectRounded(ev.impact(pe, "use"), { value: 300000, min: 229, max: 11000000 }, [UNCERTAINTY]);
  });

  it("partial 2 (die_size without core_units)", () => {
    const ev = evaluation({
      model: {},
      configuration: {
        cpu: { units: 2, dieSize: 24.5 },
        ram: [{ units: 4 }, { units: 4, capacity: 16, density: 1.79 }],
        disk: [
          { units: 2, capacity: 400, density: 50.6, type: "ssd" },
          { units: 2, type: "hdd" },
        ],
        powerSupply: { units: 2, unitWeight: 10 },
      },
    });
    expectRounded(ev.impact(gwp, "embedded"), { value: 1200, min: 1013, max: 1551 });
    expectRounded(ev.impact(adp, "embedded"), { value: 0.256, min: 0.2525, max: 0.2695 });
    expectRounded(ev.impact(pe, "embedded"), { value: 16200, min: 13680, max: 20680 });
    expectRounded(ev.impact(gwp, "use"), { value: 7000, min: 405.2, max: 26580 });
  });

  it("partial 3 (no cpu, no disk)", () => {
    const ev = evaluation({
      model: {},
      configuration: {
        ram: [{ units: 4, capacity: 16, density: 1.79 }],
        powerSupply: { units: 2, unitWeight: 10 },
      },
    });
    expectRounded(ev.impact(gwp, "embedded"), { value: 890, min: 787.6, max: 1251 });
    expectRounded(ev.impact(adp, "embedded"), { value: 0.241, min: 0.2408, max: 0.256 });
    expectRounded(ev.impact(pe, "embedded"), { value: 12600, min: 11070, max: 17140 });
    expectRounded(ev.impact(gwp, "use"), { value: 7000, min: 370, max: 24280 });
    expectRounded(ev.impact(adp, "use"), { value: 0.0011, min: 0.000213, max: 0.005697 });
    expectRounded(ev.impact(pe, "use"), { value: 200000, min: 209.2, max: 10040000 }, [UNCERTAINTY]);
  });

  it("archetype dellR740 {}", () => {
    const ev = evaluation({}, {}, "dellR740");
    expectRounded(ev.impact(gwp, "embedded"), { value: 1200, min: 634.4, max: 2102 });
    expectRounded(ev.impact(gwp, "use"), { value: 8000, min: 457.9, max: 30040 });
  });

  it("archetype mac2.metal {} (no disks: SSD/HDD units 0)", () => {
    const ev = evaluation({}, {}, "mac2.metal");
    expectRounded(ev.impact(gwp, "embedded"), { value: 420, min: 237.3, max: 608.2 });
    expectRounded(ev.impact(gwp, "use"), { value: 3000, min: 180.6, max: 11850 });
    const keys = ev.verbose().components.map((c) => c.key);
    expect(keys).toEqual(["ASSEMBLY-1", "CPU-1", "RAM-1", "POWER_SUPPLY-1", "CASE-1", "MOTHERBOARD-1"]);
  });
});

describe("server configuration rules (§7.1)", () => {
  it("ram: [] removes RAM, an input power sets the use", () => {
    const ev = evaluation({ usage: { avgPower: 100 }, configuration: { ram: [] } });
    const keys = ev.verbose().components.map((c) => c.key);
    expect(keys).toEqual(["ASSEMBLY-1", "CPU-1", "SSD-1", "POWER_SUPPLY-1", "CASE-1", "MOTHERBOARD-1"]);
    // §18.4 without its RAM line: 947.68661 − 494.36082 (min 459.88341 − 209.17263, max 2087.04868 − 1178.6).
    expectRounded(ev.impact(gwp, "embedded"), { value: 450, min: 250.7, max: 908.4 });
    // 0.38 · 0.1 · 35040 = 1331.52 (0.023… 1.13161 ⇒ 80.59 … 3965)
    expectRounded(ev.impact(gwp, "use"), { value: 1300, min: 80.59, max: 3965 });
  });

  it("disk: [] restores the archetype disks (Appendix D.25); unknown types are dropped", () => {
    expect(
      evaluation({ configuration: { disk: [] } })
        .verbose()
        .components.map((c) => c.key),
    ).toContain("SSD-1");
    const keys = evaluation({ configuration: { disk: [{ type: "tape" }, { type: "hdd" }] } })
      .verbose()
      .components.map((c) => c.key);
    expect(keys).toEqual([
      "ASSEMBLY-1",
      "CPU-1",
      "RAM-1",
      "HDD-1",
      "POWER_SUPPLY-1",
      "CASE-1",
      "MOTHERBOARD-1",
    ]);
  });

  it("model.type blade makes the case an input blade (degenerate B)", () => {
    const ev = evaluation({ model: { type: "blade" } });
    // 947.68661 − 150 + 85.9 = 883.59 (min unchanged, max 2087.04868 − 64.1)
    expectRounded(ev.impact(gwp, "embedded"), { value: 900, min: 459.9, max: 2023 });
    expect(attribute(component(ev.verbose(), "CASE-1").attributes, "case_type")).toEqual({
      name: "case_type",
      value: "blade",
      status: "INPUT",
    });
  });

  it("an input lifetime is the default duration", () => {
    const ev = evaluation({ usage: { hoursLifeTime: 17520 } });
    expect(ev.duration).toBe(17520);
    expectRounded(ev.impact(gwp, "embedded"), { value: 900, min: 459.9, max: 2087 });
    expectRounded(ev.impact(gwp, "use"), { value: 4000, min: 202.6, max: 14440 });
  });

  it("an input time_workload is shared with the CPU and shown at server level", () => {
    const report = evaluation({ usage: { timeWorkload: 100 } }).verbose();
    expect(attribute(report.attributes, "time_workload")).toEqual({
      name: "time_workload",
      value: 100,
      status: "INPUT",
      unit: "%",
    });
    const cpuPower = 171.2 * Math.log(0.0354 * (100 + 36.89)) - 10.13; // per unit at 100 %
    const cpu = component(report, "CPU-1");
    expect(attribute(cpu.attributes, "avg_power").value as number).toBeCloseTo(2 * cpuPower, 1);
    expect(attribute(cpu.attributes, "time_workload")).toMatchObject({ value: 100, status: "INPUT" });
  });
});

describe("duration and allocation", () => {
  it("duration beyond the lifetime: full embedded, use doubled", () => {
    const ev = evaluation({}, { duration: 2 * LIFETIME });
    expectRounded(ev.impact(gwp, "embedded"), { value: 900, min: 459.9, max: 2087 });
    expectRounded(ev.impact(gwp, "use"), { value: 15000, min: 810.4, max: 57780 });
  });

  it("duration 0: zero impacts with the uncertainty warning", () => {
    const ev = evaluation({}, { duration: 0 });
    expectRounded(ev.impact(gwp, "embedded"), { value: 0, min: 0, max: 0 }, [END_OF_LIFE, UNCERTAINTY]);
    expectRounded(ev.impact(gwp, "use"), { value: 0, min: 0, max: 0 }, [UNCERTAINTY]);
  });

  it("LINEAR at 8760 h allocates a quarter of the embedded impact; TOTAL keeps all of it", () => {
    const linear = serverModel(context, cells(), {}).embedded("gwp", 8760, "LINEAR");
    const total = serverModel(context, cells(), {}).embedded("gwp", 8760, "TOTAL");
    expectRaw(total, { value: 947.68661, min: 459.88341, max: 2087.04868 }, 4);
    expectRaw(linear, { value: total.value / 4, min: total.min / 4, max: total.max / 4 }, 9);
    expectRounded(evaluation({}, { duration: 8760 }).impact(gwp, "embedded"), {
      value: 240,
      min: 115,
      max: 521.8,
    });
    const totalEv = evaluation({}, { duration: 8760, allocation: "TOTAL" });
    expectRounded(totalEv.impact(gwp, "embedded"), { value: 900, min: 459.9, max: 2087 });
    // Use is the same under both allocations: 0.38 · 0.58142812 · 8760.
    expectRounded(totalEv.impact(gwp, "use"), { value: 1900, min: 101.3, max: 7222 });
  });
});

describe("lazy evaluation", () => {
  it("embedded gwp alone computes nothing else", () => {
    const ev = evaluation({});
    ev.impact(gwp, "embedded");
    expect(ev.computations).toBe(1);
  });

  it("verbose computes every requested (criterion, phase) once", () => {
    const ev = evaluation({});
    ev.impact(pe, "use");
    ev.verbose();
    expect(ev.computations).toBe(6);
  });
});
