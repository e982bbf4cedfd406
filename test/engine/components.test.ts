/**
 * Component routes of the engine (`componentModel` + `evaluate`) on the worked examples of
 * docs/methodology.md (§18.1, §18.2, §18.8, §4.2.3 and Appendix C), production data.
 */
import { describe, expect, it } from "vitest";
import type { ComponentCells } from "../../src/engine/components/component.js";
import {
  type ComponentInputs,
  type ComponentKind,
  CRITERIA,
  componentArchetypeTable,
  componentModel,
  type EvaluationOptions,
  evaluate,
} from "../../src/engine/index.js";
import { canonicalSteps } from "../../src/engine/model/evaluation.js";
import {
  attribute,
  criterion,
  END_OF_LIFE,
  engineFixture,
  expectRaw,
  expectRounded,
  hasAttribute,
  LOCATION_NOT_FOUND,
  UNCERTAINTY,
} from "../support/engine.js";

const { data, context } = engineFixture();

const gwp = criterion("gwp");
const adp = criterion("adp");
const pe = criterion("pe");

function cellsOf(kind: ComponentKind, id?: string): ComponentCells {
  const table = kind === "gpu" ? null : componentArchetypeTable(data, kind);
  return table ? table.byId.get(id ?? (kind === "case" ? "rack" : "DEFAULT"))!.cells : {};
}

function asset<K extends ComponentKind>(kind: K, input: ComponentInputs[K], archetype?: string) {
  return componentModel(context, kind, cellsOf(kind, archetype), input);
}

function evaluation<K extends ComponentKind>(
  kind: K,
  input: ComponentInputs[K],
  options: EvaluationOptions = {},
  archetype?: string,
) {
  return evaluate(asset(kind, input, archetype), options);
}

/** Electricity factors of the default location EEE with the global bounds (docs/methodology.md §5.2). */
const EEE = {
  gwp: { value: 0.38, min: 0.023, max: 1.13161 },
  adp: { value: 6.42317e-8, min: 1.324e-8, max: 2.65575e-7 },
  pe: { value: 12.873, min: 0.013, max: 468.15 },
};

/** P(x) = a·ln(b·(x + c)) + d with the CPU archetype's default parameters (docs/methodology.md §5.3). */
const defaultProfile = (load: number) => 171.2 * Math.log(0.0354 * (load + 36.89)) - 10.13;

describe("§18.1 CPU {core_units: 12, die_size_per_core: 24.5}", () => {
  const input = { coreUnits: 12, dieSizePerCore: 24.5 };
  const dieSize = 24.5 * 12; // 294 mm²
  const hours = 26280; // component archetype lifetime = duration, allocation ratio 1

  it("reports the rounded embedded impacts with the end-of-life warning", () => {
    const ev = evaluation("cpu", input);
    expect(ev.duration).toBe(hours);
    expectRounded(ev.impact(gwp, "embedded"), { value: 14.93, min: 14.93, max: 14.93 }, [END_OF_LIFE]);
    expectRounded(ev.impact(adp, "embedded"), { value: 0.0204, min: 0.0204, max: 0.0204 }, [END_OF_LIFE]);
    expectRounded(ev.impact(pe, "embedded"), { value: 233.9, min: 233.9, max: 233.9 }, [END_OF_LIFE]);
  });

  it("computes the raw embedded impacts from die_size × die_impact + impact", () => {
    const cpu = asset("cpu", input);
    const g = dieSize * 0.0197 + 9.14; // 14.9318
    const a = dieSize * 5.8e-9 + 0.0204; // 0.0204017052
    const p = dieSize * 0.265 + 156; // 233.91
    expectRaw(cpu.embedded("gwp", hours, "LINEAR"), { value: g, min: g, max: g }, 9);
    expect(g).toBeCloseTo(14.9318, 9);
    expectRaw(cpu.embedded("adp", hours, "LINEAR"), { value: a, min: a, max: a }, 12);
    expect(a).toBeCloseTo(0.0204017052, 12);
    expectRaw(cpu.embedded("pe", hours, "LINEAR"), { value: p, min: p, max: p }, 9);
    expect(p).toBeCloseTo(233.91, 9);
  });

  it("reports the rounded use impacts (modelled power 182.23 W at 50 %, EEE bounds)", () => {
    const ev = evaluation("cpu", input);
    expectRounded(ev.impact(gwp, "use"), { value: 1800, min: 110.1, max: 5419 }, []);
    expectRounded(ev.impact(adp, "use"), { value: 0.0003, min: 6.341e-5, max: 0.001272 }, []);
    expectRounded(ev.impact(pe, "use"), { value: 100000, min: 62.26, max: 2242000 }, []);
  });

  it("computes the raw use impacts f · P/1000 · τ · D", () => {
    expect(defaultProfile(50)).toBeCloseTo(182.230233, 6);
    const power = 182.23 / 1000; // r₅ of the profile power, kW
    const cpu = asset("cpu", input);
    for (const name of ["gwp", "adp", "pe"] as const) {
      const f = EEE[name];
      expectRaw(
        cpu.use(name, hours),
        { value: f.value * power * hours, min: f.min * power * hours, max: f.max * power * hours },
        name === "adp" ? 14 : 5,
      );
    }
    const raw = asset("cpu", input).use("gwp", hours);
    expect(raw.value).toBeCloseTo(1819.821672, 5);
    expect(raw.min).toBeCloseTo(110.1471012, 6);
    expect(raw.max).toBeCloseTo(5419.285269, 5);
    const rawPe = asset("cpu", input).use("pe", hours);
    expect(rawPe.value).toBeCloseTo(61648.85364, 4);
    expect(rawPe.max).toBeCloseTo(2241972.40986, 3);
  });

  it("shows the §18.1 verbose attributes with their statuses, units, sources and bounds", () => {
    const ev = evaluation("cpu", input);
    const report = ev.verbose();
    expect(report.duration).toBe(hours);
    expect(report.components).toEqual([]);
    const attributes = report.attributes;
    expect(attribute(attributes, "units")).toEqual({
      name: "units",
      value: 1,
      status: "ARCHETYPE",
      min: 1,
      max: 1,
    });
    expect(attribute(attributes, "core_units")).toEqual({ name: "core_units", value: 12, status: "INPUT" });
    expect(attribute(attributes, "die_size_per_core")).toEqual({
      name: "die_size_per_core",
      value: 24.5,
      status: "INPUT",
      unit: "mm2",
    });
    expect(attribute(attributes, "die_size")).toEqual({
      name: "die_size",
      value: 294,
      status: "COMPLETED",
      unit: "mm2",
      source: "die_size_per_core*core_units",
      min: 294,
      max: 294,
    });
    expect(attribute(attributes, "avg_power")).toEqual({
      name: "avg_power",
      value: 182.23,
      status: "COMPLETED",
      unit: "W",
      min: 182.23,
      max: 182.23,
    });
    expect(attribute(attributes, "time_workload")).toEqual({
      name: "time_workload",
      value: 50,
      status: "ARCHETYPE",
      unit: "%",
      min: 0,
      max: 100,
    });
    expect(attribute(attributes, "usage_location")).toEqual({
      name: "usage_location",
      value: "EEE",
      status: "DEFAULT",
      unit: "CodSP3 - NCS Country Codes - NATO",
    });
    expect(attribute(attributes, "use_time_ratio")).toEqual({
      name: "use_time_ratio",
      value: 1,
      status: "ARCHETYPE",
      unit: "/1",
      min: 1,
      max: 1,
    });
    expect(attribute(attributes, "hours_life_time")).toEqual({
      name: "hours_life_time",
      value: 26280,
      status: "ARCHETYPE",
      unit: "hours",
      min: 26280,
      max: 26280,
    });
    expect(attribute(attributes, "params")).toEqual({
      name: "params",
      value: { a: 171.2, b: 0.0354, c: 36.89, d: -10.13 },
      status: "ARCHETYPE",
    });
    expect(attribute(attributes, "gwp_factor")).toEqual({
      name: "gwp_factor",
      value: 0.38,
      status: "DEFAULT",
      unit: "kg CO2eq/kWh",
      source: "https://www.sciencedirect.com/science/article/pii/S0306261921012149",
      min: 0.023,
      max: 1.13161,
    });
    expect(attribute(attributes, "adp_factor")).toMatchObject({
      value: 6.42317e-8,
      status: "DEFAULT",
      unit: "kg Sbeq/kWh",
      source: "ADEME Base IMPACTS ®",
      min: 1.324e-8,
      max: 2.65575e-7,
    });
    expect(attribute(attributes, "pe_factor")).toMatchObject({
      value: 12.873,
      status: "DEFAULT",
      unit: "MJ/kWh",
      source: "ADPf / (1-%renewable_energy)",
      min: 0.013,
      max: 468.15,
    });
    // Never read, so never shown (§2.4).
    for (const name of ["model_range", "family", "name", "tdp", "threads", "workloads"]) {
      expect(hasAttribute(attributes, name)).toBe(false);
    }
  });

  it("lists its own impacts inside verbose (component routes, §7.3)", () => {
    const report = evaluation("cpu", input).verbose();
    expect(report.impacts?.map((i) => i.criterion.requested)).toEqual(["gwp", "adp", "pe"]);
    expectRounded(report.impacts![0].embedded, { value: 14.93, min: 14.93, max: 14.93 });
    expectRounded(report.impacts![0].use, { value: 1800, min: 110.1, max: 5419 });
  });

  it("units 3: embedded × 3 and use × 9 (the units-squared quirk, §5.7)", () => {
    const ev = evaluation("cpu", { ...input, units: 3 });
    expectRounded(ev.impact(gwp, "embedded"), { value: 44.8, min: 44.8, max: 44.8 });
    expectRounded(ev.impact(adp, "embedded"), { value: 0.06121, min: 0.06121, max: 0.06121 });
    expectRounded(ev.impact(pe, "embedded"), { value: 701.7, min: 701.7, max: 701.7 });
    expectRounded(ev.impact(gwp, "use"), { value: 16000, min: 991.3, max: 48770 });

    const raw = asset("cpu", { ...input, units: 3 }).use("gwp", hours);
    const single = 0.38 * 0.18223 * hours;
    expect(raw.value).toBeCloseTo(9 * single, 6);
    expect(raw.value).toBeCloseTo(16378.4, 1);
    expect(raw.min).toBeCloseTo(9 * 0.023 * 0.18223 * hours, 6);
    expect(raw.max).toBeCloseTo(9 * 1.13161 * 0.18223 * hours, 5);

    // avg_power already holds the three units (§5.5 step 3).
    const power = attribute(ev.verbose().attributes, "avg_power");
    expect(power.value).toBeCloseTo(3 * 182.23, 9);
    expect(power.status).toBe("COMPLETED");
  });
});

describe("§18.2 RAM {units: 12, capacity: 32, density: 1.79}", () => {
  const input = { units: 12, capacity: 32, density: 1.79 };
  const hours = 26280;

  it("reports the rounded embedded impacts", () => {
    const ev = evaluation("ram", input);
    expectRounded(ev.impact(gwp, "embedded"), { value: 534.6, min: 534.6, max: 534.6 }, [END_OF_LIFE]);
    expectRounded(ev.impact(adp, "embedded"), { value: 0.0338, min: 0.0338, max: 0.0338 }, [END_OF_LIFE]);
    expectRounded(ev.impact(pe, "embedded"), { value: 6745, min: 6745, max: 6745 }, [END_OF_LIFE]);
  });

  it("computes the raw embedded impacts 12 × ((C/ρ) · die_impact + impact)", () => {
    const ram = asset("ram", input);
    const area = 32 / 1.79;
    const g = 12 * (area * 2.2 + 5.22);
    expect(g).toBeCloseTo(534.59531, 5);
    expectRaw(ram.embedded("gwp", hours, "LINEAR"), { value: g, min: g, max: g }, 8);
    expect(ram.embedded("adp", hours, "LINEAR").value).toBeCloseTo(0.033795084, 9);
    expect(ram.embedded("pe", hours, "LINEAR").value).toBeCloseTo(6744.5363, 4);
  });

  it("reports the rounded use impacts (units counted twice) with the uncertainty warning on pe", () => {
    const ev = evaluation("ram", input);
    expectRounded(ev.impact(gwp, "use"), { value: 13000, min: 791, max: 38920 }, []);
    expectRounded(ev.impact(adp, "use"), { value: 0.0022, min: 0.0004553, max: 0.009134 }, []);
    expectRounded(ev.impact(pe, "use"), { value: 400000, min: 447.1, max: 16100000 }, [UNCERTAINTY]);
  });

  it("computes the raw use f · (r₅(0.284·32)·12)/1000 · D · 12", () => {
    const power = (0.284 * 32 * 12) / 1000; // 0.109056 kW
    const raw = asset("ram", input).use("gwp", hours);
    expect(raw.value).toBeCloseTo(0.38 * power * hours * 12, 6);
    expect(raw.value).toBeCloseTo(13068.922, 2);
    expect(raw.min).toBeCloseTo(791.0137, 3);
    expect(raw.max).toBeCloseTo(38918.218, 2);
    const rawPe = asset("ram", input).use("pe", hours);
    expect(rawPe.value).toBeCloseTo(442726.93, 1);
    expect(rawPe.min).toBeCloseTo(447.0947, 3);
    expect(rawPe.max).toBeCloseTo(16100568.06, 0);
  });

  it("shows avg_power for all modules and the RAM power parameters", () => {
    const report = evaluation("ram", input).verbose();
    const power = attribute(report.attributes, "avg_power");
    expect(power.value).toBeCloseTo(109.056, 10);
    expect(power).toMatchObject({ status: "COMPLETED", unit: "W" });
    expect(attribute(report.attributes, "params")).toEqual({
      name: "params",
      value: { a: 9.088 },
      status: "COMPLETED",
      source: "(ram_electrical_factor_per_go : 0.284) * (ram_capacity: 32) ",
    });
    expect(attribute(report.attributes, "units")).toEqual({ name: "units", value: 12, status: "INPUT" });
    expect(attribute(report.attributes, "capacity")).toEqual({
      name: "capacity",
      value: 32,
      status: "INPUT",
      unit: "GB",
    });
    expect(attribute(report.attributes, "density")).toEqual({
      name: "density",
      value: 1.79,
      status: "INPUT",
      unit: "GB/cm2",
    });
  });
});

describe("§18.8 smaller component checks", () => {
  it("SSD {capacity 400, density 50.6}: degenerate embedded, no use without a power", () => {
    const ev = evaluation("ssd", { capacity: 400, density: 50.6 });
    expectRounded(ev.impact(gwp, "embedded"), { value: 23.73, min: 23.73, max: 23.73 }, [END_OF_LIFE]);
    expectRounded(ev.impact(adp, "embedded"), { value: 0.001061, min: 0.001061, max: 0.001061 });
    expectRounded(ev.impact(pe, "embedded"), { value: 292.7, min: 292.7, max: 292.7 });
    expect(ev.impact(gwp, "use")).toBe("not implemented");
    expect(ev.impact(pe, "use")).toBe("not implemented");
    const raw = asset("ssd", { capacity: 400, density: 50.6 }).embedded("gwp", 26280, "LINEAR");
    expect(raw.value).toBeCloseTo((400 / 50.6) * 2.2 + 6.34, 10);
  });

  it("SSD {}: density averaged over the 19 manufacture rows", () => {
    const ev = evaluation("ssd", {});
    expectRounded(ev.impact(gwp, "embedded"), { value: 50, min: 8.059, max: 677.1 });
    expectRounded(ev.impact(adp, "embedded"), { value: 0.002, min: 0.0006122, max: 0.01977 });
    expectRounded(ev.impact(pe, "embedded"), { value: 600, min: 98.23, max: 8400 });
    const density = attribute(ev.verbose().attributes, "density");
    expect(density.value).toBeCloseTo(54.8842105263158, 12);
    expect(density).toMatchObject({ status: "COMPLETED", source: "Average of 19 rows", min: 16.4, max: 128 });
    // Capacity 1000 (100–5000): value 1000/54.884·2.2+6.34, min 100/128·2.2+6.34, max 5000/16.4·2.2+6.34.
    const raw = asset("ssd", {}).embedded("gwp", 26280, "LINEAR");
    expect(raw.value).toBeCloseTo((1000 / 54.8842105263158) * 2.2 + 6.34, 9);
    expect(raw.min).toBeCloseTo((100 / 128) * 2.2 + 6.34, 9);
    expect(raw.max).toBeCloseTo((5000 / 16.4) * 2.2 + 6.34, 9);
  });

  it("RAM {}: density averaged over the 11 rows, capacity 32 (1–128)", () => {
    const ev = evaluation("ram", {});
    expectRounded(ev.impact(gwp, "embedded"), { value: 60, min: 6.146, max: 455.8 });
    expectRounded(ev.impact(gwp, "use"), { value: 90, min: 5.493, max: 270.3 });
    const report = ev.verbose();
    const density = attribute(report.attributes, "density");
    expect(density.value).toBeCloseTo(1.2443636363636363, 14);
    expect(density).toMatchObject({
      status: "COMPLETED",
      source: "Average of 11 rows",
      min: 0.625,
      max: 2.375,
    });
    expect(attribute(report.attributes, "capacity")).toMatchObject({
      value: 32,
      status: "ARCHETYPE",
      min: 1,
      max: 128,
    });
    // The archetype capacity is printed as Python prints a float.
    expect(attribute(report.attributes, "params").source).toBe(
      "(ram_electrical_factor_per_go : 0.284) * (ram_capacity: 32.0) ",
    );
  });

  it("case {case_type: blade} (input): degenerate blade triple B = 880/16 + 30.9", () => {
    const ev = evaluation("case", { caseType: "blade" });
    expectRounded(ev.impact(gwp, "embedded"), { value: 85.9, min: 85.9, max: 85.9 }, [END_OF_LIFE]);
    expectRounded(ev.impact(adp, "embedded"), { value: 0.02767, min: 0.02767, max: 0.02767 });
    expectRounded(ev.impact(pe, "embedded"), { value: 1229, min: 1229, max: 1229 });
    expect(ev.impact(gwp, "use")).toBe("not implemented");
    const raw = asset("case", { caseType: "blade" }).embedded("pe", 26280, "LINEAR");
    expectRaw(raw, { value: 1228.75, min: 1228.75, max: 1228.75 }, 9);
  });

  it("case from the rack archetype: the blade impact is a bound (§4.7)", () => {
    const ev = evaluation("case", {});
    expectRounded(ev.impact(gwp, "embedded"), { value: 150, min: 85.9, max: 150 });
    expectRounded(ev.impact(adp, "embedded"), { value: 0.0202, min: 0.0202, max: 0.02767 });
    expectRounded(ev.impact(pe, "embedded"), { value: 2200, min: 1229, max: 2200 });
    expect(attribute(ev.verbose().attributes, "case_type")).toEqual({
      name: "case_type",
      value: "rack",
      status: "ARCHETYPE",
    });
  });

  it("case from the blade archetype: (B, B, R) when R > B, else (B, R, B)", () => {
    const ev = evaluation("case", {}, {}, "blade");
    // gwp (85.9, 85.9, 150): Δ = 6.41 ⇒ rounded at units ⇒ 86.
    expectRounded(ev.impact(gwp, "embedded"), { value: 86, min: 85.9, max: 150 });
    // adp R = 0.0202 < B = 0.027672 ⇒ (B, R, B); Δ = 7.472e-4 ⇒ 0.0277.
    expectRounded(ev.impact(adp, "embedded"), { value: 0.0277, min: 0.0202, max: 0.02767 });
    // pe (1228.75, 1228.75, 2200): Δ = 97.125 ⇒ rounded at tens ⇒ 1230.
    expectRounded(ev.impact(pe, "embedded"), { value: 1230, min: 1229, max: 2200 });
  });

  it("HDD: constant impact per unit", () => {
    const ev = evaluation("hdd", {});
    expectRounded(ev.impact(gwp, "embedded"), { value: 31.1, min: 31.1, max: 31.1 }, [END_OF_LIFE]);
    expectRounded(ev.impact(adp, "embedded"), { value: 0.00025, min: 0.00025, max: 0.00025 });
    expectRounded(ev.impact(pe, "embedded"), { value: 276, min: 276, max: 276 });
    expectRounded(evaluation("hdd", { units: 2 }).impact(gwp, "embedded"), {
      value: 62.2,
      min: 62.2,
      max: 62.2,
    });
  });

  it("power supply {}: weight 2.99 kg (1–5) × per-kg factor", () => {
    const ev = evaluation("power_supply", {});
    // gwp 72.657 (24.3–121.5): Δ = 9.72 ⇒ 73.
    expectRounded(ev.impact(gwp, "embedded"), { value: 73, min: 24.3, max: 121.5 });
    expectRounded(ev.impact(adp, "embedded"), { value: 0.025, min: 0.0083, max: 0.0415 });
    expectRounded(ev.impact(pe, "embedded"), { value: 1100, min: 352, max: 1760 });
    expect(ev.impact(gwp, "use")).toBe("not implemented");
    expectRaw(
      asset("power_supply", {}).embedded("gwp", 26280, "LINEAR"),
      { value: 2.99 * 24.3, min: 24.3, max: 5 * 24.3 },
      9,
    );
  });

  it("motherboard with a posted lifetime: allocated fixed impact", () => {
    const ev = evaluation("motherboard", { usage: { hoursLifeTime: 1000 } }, { duration: 500 });
    expectRounded(ev.impact(gwp, "embedded"), { value: 33.05, min: 33.05, max: 33.05 }, [END_OF_LIFE]);
    expectRounded(ev.impact(pe, "embedded"), { value: 418, min: 418, max: 418 });
  });
});

describe("Appendix C component rows", () => {
  it("cpu {} (die size: all-families average 521, 41.2–3640)", () => {
    const ev = evaluation("cpu", {});
    expectRounded(ev.impact(gwp, "embedded"), { value: 19, min: 9.952, max: 80.85 });
    expectRounded(ev.impact(adp, "embedded"), { value: 0.0204, min: 0.0204, max: 0.02042 });
    expectRounded(ev.impact(pe, "embedded"), { value: 290, min: 166.9, max: 1121 });
    expectRounded(ev.impact(gwp, "use"), { value: 1800, min: 110.1, max: 5419 });
    expectRounded(ev.impact(adp, "use"), { value: 0.0003, min: 6.341e-5, max: 0.001272 });
    expectRounded(ev.impact(pe, "use"), { value: 100000, min: 62.26, max: 2242000 });
    const raw = asset("cpu", {}).embedded("gwp", 26280, "LINEAR");
    expectRaw(raw, { value: 521 * 0.0197 + 9.14, min: 41.2 * 0.0197 + 9.14, max: 3640 * 0.0197 + 9.14 }, 9);
  });

  it("cpu core_units 24, family Skylake", () => {
    const ev = evaluation("cpu", { coreUnits: 24, family: "Skylake" });
    expectRounded(ev.impact(gwp, "embedded"), { value: 21.26, min: 21.26, max: 21.26 });
    expectRounded(ev.impact(adp, "embedded"), { value: 0.0204, min: 0.0204, max: 0.0204 });
    expectRounded(ev.impact(pe, "embedded"), { value: 319, min: 319, max: 319 });
    expectRounded(ev.impact(gwp, "use"), { value: 1800, min: 110.1, max: 5419 });
  });

  it("cpu core_units 24, family skylak (no family match)", () => {
    const ev = evaluation("cpu", { coreUnits: 24, family: "skylak" });
    expectRounded(ev.impact(gwp, "embedded"), { value: 26, min: 14.2, max: 46.77 });
    expectRounded(ev.impact(adp, "embedded"), { value: 0.0204, min: 0.0204, max: 0.02041 });
    expectRounded(ev.impact(pe, "embedded"), { value: 380, min: 224.1, max: 662.2 });
    expectRounded(ev.impact(pe, "use"), { value: 100000, min: 62.26, max: 2242000 });
  });
});

describe("§4.2.3 die size from cpu_specs.csv", () => {
  function dieSize(input: ComponentInputs["cpu"]) {
    const ev = evaluation("cpu", input, { criteria: [gwp] });
    ev.impact(gwp, "embedded");
    return attribute(ev.verbose().attributes, "die_size");
  }

  it.each([
    [{}, 521, 41.2, 3640, "Average value for all families"],
    [{ coreUnits: 4 }, 182, 82.4, 484, "Average value of all families with 4 cores"],
    [{ coreUnits: 8 }, 334, 147, 1910, "Average value of all families with 8 cores"],
    [{ coreUnits: 12 }, 415, 186, 1910, "Average value of all families with 12 cores"],
    [{ coreUnits: 16 }, 610, 205, 1910, "Average value of all families with 16 cores"],
    [{ coreUnits: 24 }, 846, 257, 1910, "Average value of all families with 24 cores"],
    [{ coreUnits: 32 }, 1330, 530, 1910, "Average value of all families with 32 cores"],
    [{ coreUnits: 64 }, 1040, 347, 1600, "Average value of all families with 64 cores"],
    [{ coreUnits: 24, family: "Skylake" }, 615, 615, 615, "Average value of Skylake with 24 cores"],
    [{ coreUnits: 20, family: "Skylake" }, 522, 522, 522, "Linear regression on Skylake"],
    [{ family: "Skylake" }, 689, 336, 694, "Average value for Skylake"],
  ] as const)("%o → %d (%d–%d)", (input, value, min, max, source) => {
    expect(dieSize(input)).toEqual({
      name: "die_size",
      value,
      status: "COMPLETED",
      unit: "mm2",
      source,
      min,
      max,
    });
  });

  it("family skylak scores under the WRatio threshold: kept as input, all families used", () => {
    const ev = evaluation("cpu", { coreUnits: 24, family: "skylak" }, { criteria: [gwp] });
    ev.impact(gwp, "embedded");
    const attributes = ev.verbose().attributes;
    expect(attribute(attributes, "family")).toEqual({ name: "family", value: "skylak", status: "INPUT" });
    expect(attribute(attributes, "die_size")).toMatchObject({ value: 846, min: 257, max: 1910 });
  });

  it("family skylake is corrected to the file's spelling Skylake (CHANGED, no bounds)", () => {
    const ev = evaluation("cpu", { coreUnits: 24, family: "skylake" }, { criteria: [gwp] });
    expectRounded(ev.impact(gwp, "embedded"), { value: 21.26, min: 21.26, max: 21.26 });
    const attributes = ev.verbose().attributes;
    expect(attribute(attributes, "family")).toEqual({ name: "family", value: "Skylake", status: "CHANGED" });
    expect(attribute(attributes, "die_size")).toMatchObject({
      value: 615,
      source: "Average value of Skylake with 24 cores",
    });
  });

  it("a die_size given without core_units is ignored (Appendix D.4)", () => {
    expect(dieSize({ dieSize: 100 })).toMatchObject({ value: 521, source: "Average value for all families" });
  });

  it("die_size with core_units completes die_size_per_core (source INPUT : die_size / core_units)", () => {
    const ev = evaluation("cpu", { dieSize: 300, coreUnits: 10 }, { criteria: [gwp] });
    expectRounded(ev.impact(gwp, "embedded"), { value: 15.05, min: 15.05, max: 15.05 }); // 300·0.0197 + 9.14
    const attributes = ev.verbose().attributes;
    expect(attribute(attributes, "die_size_per_core")).toEqual({
      name: "die_size_per_core",
      value: 30,
      status: "COMPLETED",
      unit: "mm2",
      source: "INPUT : die_size / core_units",
      min: 30,
      max: 30,
    });
  });
});

describe("§4.2.2 completion from a CPU name", () => {
  const source =
    "Completed from name name based on https://docs.google.com/spreadsheets/d/1DqYgQnEDLQVQm5acMAhLgHLD8xXCG9BIrk-_Nv6jF3k/edit#gid=224728652.";

  it("fills the CPU from its row, overwriting inputs (Appendix D.5), die size truncated", () => {
    const ev = evaluation("cpu", { name: "Intel Xeon Platinum 8124M", coreUnits: 4 }, { criteria: [gwp] });
    // die size 485 from the row: 485 × 0.0197 + 9.14 = 18.6945.
    expectRounded(ev.impact(gwp, "embedded"), { value: 18.69, min: 18.69, max: 18.69 });
    expect(ev.impact(gwp, "use")).not.toBe("not implemented");
    const attributes = ev.verbose().attributes;
    expect(attribute(attributes, "core_units")).toEqual({
      name: "core_units",
      value: 18,
      status: "COMPLETED",
      source,
      min: 18,
      max: 18,
    });
    expect(attribute(attributes, "name")).toMatchObject({
      value: "Intel Xeon Platinum 8124M",
      status: "COMPLETED",
      source: "fuzzy match",
    });
    expect(attribute(attributes, "family")).toMatchObject({ value: "Skylake", status: "COMPLETED", source });
    expect(attribute(attributes, "model_range")).toMatchObject({
      value: "Xeon Platinum",
      min: "Xeon Platinum",
      max: "Xeon Platinum",
    });
    expect(attribute(attributes, "tdp")).toMatchObject({ value: 240, status: "COMPLETED", unit: "W" });
    expect(attribute(attributes, "threads")).toMatchObject({ value: 36, status: "COMPLETED" });
    expect(attribute(attributes, "die_size")).toMatchObject({
      value: 485,
      status: "COMPLETED",
      source: `Value of cpu_manufacture https://en.wikichip.org/wiki/intel/microarchitectures/skylake_(server)#High_Core_Count_.28HCC.29 : ${source}`,
    });
    // A TDP gives a fitted profile and the TDP workload points.
    expect(attribute(attributes, "params")).toMatchObject({ status: "COMPLETED", source: "From TDP" });
    expect(attribute(attributes, "workloads")).toMatchObject({
      status: "COMPLETED",
      unit: "workload_rate:W",
    });
  });
});

describe("§5 usage of a component", () => {
  it("an unknown usage_location falls back to EEE (DEFAULT) with a warning and wide bounds", () => {
    const ev = evaluation("cpu", { usage: { usageLocation: "XYZ" } }, { criteria: [gwp] });
    expectRounded(ev.impact(gwp, "use"), { value: 1800, min: 110.1, max: 5419 });
    const attributes = ev.verbose().attributes;
    expect(attribute(attributes, "usage_location")).toEqual({
      name: "usage_location",
      value: "EEE",
      status: "DEFAULT",
      unit: "CodSP3 - NCS Country Codes - NATO",
      warnings: [LOCATION_NOT_FOUND],
    });
  });

  it("an explicit EEE collapses the factor bounds", () => {
    const ev = evaluation("cpu", { usage: { usageLocation: "EEE" } }, { criteria: [gwp] });
    // 0.38 · 0.18223 · 26280 = 1819.82 with min = max ⇒ 4 significant figures.
    expectRounded(ev.impact(gwp, "use"), { value: 1820, min: 1820, max: 1820 });
    expect(attribute(ev.verbose().attributes, "gwp_factor")).toMatchObject({
      value: 0.38,
      status: "COMPLETED",
      min: 0.38,
      max: 0.38,
    });
  });

  it("FRA: gwp factor 0.098", () => {
    const ev = evaluation("cpu", { usage: { usageLocation: "FRA" } });
    expectRounded(ev.impact(gwp, "use"), { value: 469.3, min: 469.3, max: 469.3 }); // 0.098·0.18223·26280
  });

  it("an elec_factors override is an INPUT factor", () => {
    const ev = evaluation("cpu", { usage: { elecFactors: { gwp: 0.5 } } }, { criteria: [gwp] });
    expectRounded(ev.impact(gwp, "use"), { value: 2395, min: 2395, max: 2395 }); // 0.5·0.18223·26280 = 2394.50
    expect(attribute(ev.verbose().attributes, "gwp_factor")).toEqual({
      name: "gwp_factor",
      value: 0.5,
      status: "INPUT",
      unit: "kg CO2eq/kWh",
    });
  });

  it("a workload list averages the profile power without normalising (§5.3)", () => {
    const shares = [
      { timePercentage: 50, loadPercentage: 0 },
      { timePercentage: 50, loadPercentage: 100 },
    ];
    const ev = evaluation("cpu", { usage: { timeWorkload: shares } }, { criteria: [gwp] });
    const expected = 0.5 * defaultProfile(0) + 0.5 * defaultProfile(100); // 147.799… W
    const attributes = ev.verbose().attributes;
    const power = attribute(attributes, "avg_power");
    expect(power.value).toBeCloseTo(expected, 1);
    expect(power.value).toBe(147.8);
    expect(attribute(attributes, "time_workload")).toEqual({
      name: "time_workload",
      value: [
        { time_percentage: 50, load_percentage: 0 },
        { time_percentage: 50, load_percentage: 100 },
      ],
      status: "INPUT",
      unit: "(time_percentage:%, load_percentage: %)",
    });
    expectRounded(ev.impact(gwp, "use"), { value: 1500, min: 89.34, max: 4395 });
  });

  it("an SSD with a given power uses the simple formula", () => {
    const ev = evaluation("ssd", {
      capacity: 400,
      density: 50.6,
      usage: { avgPower: 10, usageLocation: "FRA" },
    });
    // 0.098 · 0.010 · 1 · 26280 = 25.7544
    expectRounded(ev.impact(gwp, "use"), { value: 25.75, min: 25.75, max: 25.75 });
  });

  it("duration: use is linear, embedded capped at the lifetime", () => {
    const half = evaluation("cpu", { coreUnits: 12, dieSizePerCore: 24.5 }, { duration: 13140 });
    // 14.9318 / 2 = 7.4659
    expectRounded(half.impact(gwp, "embedded"), { value: 7.466, min: 7.466, max: 7.466 });
    const long = evaluation("cpu", { coreUnits: 12, dieSizePerCore: 24.5 }, { duration: 52560 });
    expectRounded(long.impact(gwp, "embedded"), { value: 14.93, min: 14.93, max: 14.93 });
    const raw = asset("cpu", { coreUnits: 12, dieSizePerCore: 24.5 }).use("gwp", 52560);
    expect(raw.value).toBeCloseTo(2 * 1819.821672, 4);
  });

  it("duration 0: zero impacts with the uncertainty warning", () => {
    const ev = evaluation("cpu", { coreUnits: 12, dieSizePerCore: 24.5 }, { duration: 0 });
    expectRounded(ev.impact(gwp, "embedded"), { value: 0, min: 0, max: 0 }, [END_OF_LIFE, UNCERTAINTY]);
    expectRounded(ev.impact(gwp, "use"), { value: 0, min: 0, max: 0 }, [UNCERTAINTY]);
  });

  it("TOTAL allocation keeps the whole manufacturing impact", () => {
    const ev = evaluation(
      "cpu",
      { coreUnits: 12, dieSizePerCore: 24.5 },
      { duration: 13140, allocation: "TOTAL" },
    );
    expectRounded(ev.impact(gwp, "embedded"), { value: 14.93, min: 14.93, max: 14.93 });
  });
});

describe("criteria on components", () => {
  it("non-headline criteria are not implemented for components (§4.1)", () => {
    const ev = evaluation("cpu", {}, { criteria: [criterion("ir"), criterion("CTUh_c")] });
    expect(ev.impact(criterion("ir"), "embedded")).toBe("not implemented");
    expect(ev.impact(criterion("CTUh_c"), "embedded")).toBe("not implemented");
    expect(ev.impact(criterion("CTUh_c"), "use")).toBe("not implemented");
  });

  it("component verbose impacts always list gwp, adp and pe (Appendix D.21)", () => {
    const ev = evaluation("cpu", { coreUnits: 12, dieSizePerCore: 24.5 }, { criteria: [criterion("pe")] });
    const report = ev.verbose();
    expect(report.impacts?.map((i) => i.criterion.requested)).toEqual(["gwp", "adp", "pe"]);
    expect(report.impacts?.[0].embedded).toBe("not implemented");
    expectRounded(report.impacts![2].embedded, { value: 233.9, min: 233.9, max: 233.9 });
  });

  it("the canonical order: computed criteria in table order, embedded before use, once each", () => {
    const steps = canonicalSteps(["pe", "CTUh_c", "gwp", "ir", "gwp"].map(criterion), CRITERIA);
    expect(steps.map((s) => `${s.criterion}/${s.phase}`)).toEqual([
      "gwp/embedded",
      "gwp/use",
      "pe/embedded",
      "pe/use",
      "ir/embedded",
      "ir/use",
    ]);
  });

  it("a use asked first runs its embedded first: the number of the full evaluation", () => {
    const input = { name: "Intel Xeon Gold 6134" };
    const useFirst = evaluation("cpu", input, { criteria: [gwp] });
    const useOutcome = useFirst.impact(gwp, "use");
    expect(useFirst.computations).toBe(2);
    const full = evaluation("cpu", input, { criteria: [gwp] });
    full.verbose();
    expect(useOutcome).toEqual(full.impact(gwp, "use"));
    // The name completion of the embedded step fixes the power: 900 (1800 with the default CPU).
    expectRounded(useOutcome, { value: 900, min: 57.19, max: 2814 });
  });

  it("an evaluation answers only its own criteria (a caller error otherwise)", () => {
    const ev = evaluation("cpu", {}, { criteria: [gwp] });
    expect(() => ev.impact(pe, "embedded")).toThrow(/not among the criteria/);
  });

  it("each (criterion, phase) is computed at most once", () => {
    const ev = evaluation("cpu", {});
    ev.impact(gwp, "embedded");
    ev.impact(gwp, "embedded");
    expect(ev.computations).toBe(1);
    ev.impact(gwp, "use");
    expect(ev.computations).toBe(2);
    ev.verbose();
    expect(ev.computations).toBe(6);
  });
});
