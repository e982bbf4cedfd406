import { describe, expect, it } from "vitest";
import {
  Evaluation,
  functionalBlockNames,
  type IotDeviceInput,
  iotDeviceModel,
  type PhaseOutcome,
  type RequestedCriterion,
  resolveCriterion,
  type VerboseAttribute,
} from "../../src/engine/index.js";
import { engineFixture, type ShownAttribute, shownAttribute } from "../support/engine.js";
import { ARCHETYPE_LIFETIME_HOURS } from "../support/fixtures.js";
import {
  IOT_DISTRIBUTION_WARNING as DISTRIBUTION,
  IOT_SERVICES_WARNING as SERVICES,
  UNCERTAINTY_WARNING as UNCERTAINTY,
} from "../support/warnings.js";

const { data, context } = engineFixture();

function criteria(...names: string[]): RequestedCriterion[] {
  return names.map((name) => resolveCriterion(name) as RequestedCriterion);
}

function evaluation(
  archetype: string,
  input: IotDeviceInput = {},
  duration?: number,
  requested?: readonly RequestedCriterion[],
): Evaluation {
  const row = data.archetypes.iotDevice.byId.get(archetype);
  if (!row) throw new Error(`no row ${archetype}`);
  return new Evaluation(iotDeviceModel(context, row.cells, input), { duration, criteria: requested });
}

function value(outcome: PhaseOutcome): number | "not implemented" {
  return outcome === "not implemented" ? outcome : outcome.value;
}

function attribute(attributes: readonly VerboseAttribute[], name: string): ShownAttribute | undefined {
  const found = attributes.find((a) => a.name === name);
  return found && shownAttribute(found);
}

describe("IoT devices (docs/methodology.md §9.2–9.3)", () => {
  it("drone_mini: sum of its blocks with the two IoT warnings, no adp, no use", () => {
    const ev = evaluation("drone_mini");
    const [gwp, adp, pe] = criteria("gwp", "adp", "pe");
    expect(ev.impact(gwp, "embedded")).toEqual({
      value: 15.37,
      min: 15.37,
      max: 15.37,
      warnings: [SERVICES, DISTRIBUTION],
    });
    expect(value(ev.impact(pe, "embedded"))).toBe(222.1);
    expect(ev.impact(adp, "embedded")).toBe("not implemented");
    expect(ev.impact(gwp, "use")).toBe("not implemented");
  });

  it("drone_mini verbose: one block per archetype level, in column order", () => {
    const report = evaluation("drone_mini").verbose();
    expect(report.components.map((c) => c.key)).toEqual([
      "ACTUATORS-1",
      "CASING-1",
      "CONNECTIVITY-1",
      "MEMORY-1",
      "OTHERS-1",
      "PCB-1",
      "POWER_SUPPLY-1",
      "PROCESSING-1",
      "SENSING-1",
      "USER_INTERFACE-1",
    ]);
    const actuators = report.components[0];
    expect(value(actuators.impacts[0].embedded)).toBe(2.081);
    expect(attribute(actuators.attributes, "hsl_level")).toEqual({
      name: "hsl_level",
      value: "HSL-3",
      status: "ARCHETYPE",
      unit: "none",
    });
    expect(actuators.duration).toBe(ARCHETYPE_LIFETIME_HOURS);
    expect(attribute(report.attributes, "hours_life_time")).toMatchObject({
      min: ARCHETYPE_LIFETIME_HOURS,
      max: ARCHETYPE_LIFETIME_HOURS,
    });
  });

  it("the default device has no block: zero for every criterion, with the uncertainty warning", () => {
    const ev = evaluation("iot-device-default");
    for (const c of criteria("gwp", "adp", "pe")) {
      expect(ev.impact(c, "embedded")).toEqual({
        value: 0,
        min: 0,
        max: 0,
        warnings: [SERVICES, DISTRIBUTION, UNCERTAINTY],
      });
      expect(ev.impact(c, "use")).toBe("not implemented");
    }
    const report = ev.verbose();
    expect(attribute(report.attributes, "hours_life_time")).toEqual({
      name: "hours_life_time",
      value: ARCHETYPE_LIFETIME_HOURS,
      status: "ARCHETYPE",
      unit: "hours",
    });
  });

  it("posted blocks replace the archetype's, type upper-cased, level INPUT", () => {
    const ev = evaluation(
      "drone_mini",
      { functionalBlocks: [{ type: "casing", hslLevel: "HSL-2" }] },
      undefined,
      criteria("gwp"),
    );
    expect(value(ev.impact(criteria("gwp")[0], "embedded"))).toBe(4.179);
    const report = ev.verbose();
    expect(report.components.map((c) => c.key)).toEqual(["CASING-1"]);
    expect(attribute(report.components[0].attributes, "hsl_level")?.status).toBe("INPUT");
  });

  it("a block without the level makes the device not implemented; later blocks stay uncomputed", () => {
    const ev = evaluation(
      "iot-device-default",
      {
        functionalBlocks: [
          { type: "security", hslLevel: "HSL-2" },
          { type: "others", hslLevel: "HSL-3" },
        ],
      },
      undefined,
      criteria("gwp", "lu"),
    );
    const report = ev.verbose();
    expect(ev.impact(criteria("gwp")[0], "embedded")).toBe("not implemented");
    for (const block of report.components) {
      expect(block.impacts.map((i) => i.embedded)).toEqual(["not implemented", "not implemented"]);
      expect(attribute(block.attributes, "units")).toBeUndefined();
    }
    expect(attribute(report.attributes, "hours_life_time")).toMatchObject({
      min: ARCHETYPE_LIFETIME_HOURS,
      max: ARCHETYPE_LIFETIME_HOURS,
    });
  });

  it("embedded impacts are allocated over the row lifetime", () => {
    const ev = evaluation("drone_mini", {}, ARCHETYPE_LIFETIME_HOURS / 2);
    const gwp = ev.impact(criteria("gwp")[0], "embedded");
    expect(gwp !== "not implemented" && gwp.value).toBeCloseTo(15.37 / 2, 2);
  });

  it("a posted lifetime sets the duration but not the blocks' allocation (Appendix D.23)", () => {
    const ev = evaluation("drone_mini", { usage: { hoursLifeTime: ARCHETYPE_LIFETIME_HOURS / 2 } });
    expect(ev.duration).toBe(ARCHETYPE_LIFETIME_HOURS / 2);
    const gwp = ev.impact(criteria("gwp")[0], "embedded");
    expect(gwp !== "not implemented" && gwp.value).toBeCloseTo(15.37 / 2, 2);
  });

  it("a posted usage without a lifetime shows the lifetime bounds the blocks read", () => {
    const blocks = [
      { type: "others", hslLevel: "HSL-3" },
      { type: "user_interface", hslLevel: "HSL-2" },
    ];
    const ev = evaluation(
      "iot-device-default",
      { functionalBlocks: blocks, usage: { avgPower: 1, usageLocation: "FRA" } },
      undefined,
      criteria("gwp", "lu"),
    );
    expect(attribute(ev.verbose().attributes, "hours_life_time")).toEqual({
      name: "hours_life_time",
      value: ARCHETYPE_LIFETIME_HOURS,
      status: "ARCHETYPE",
      unit: "hours",
      min: ARCHETYPE_LIFETIME_HOURS,
      max: ARCHETYPE_LIFETIME_HOURS,
    });
  });

  it("use needs a posted power (modelled use formula)", () => {
    const ev = evaluation("iot-device-default", { usage: { avgPower: 2, usageLocation: "FRA" } });
    expect(value(ev.impact(criteria("gwp")[0], "use"))).toBe(6.868);
    expect(value(ev.impact(criteria("pe")[0], "use"))).toBe(791.1);
  });

  it("knows the block names of factors.yml", () => {
    expect(functionalBlockNames(data.factors)).toContain("USER_INTERFACE");
    expect(functionalBlockNames(data.factors)).toHaveLength(11);
  });
});
