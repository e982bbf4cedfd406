import { describe, expect, it } from "vitest";
import {
  deviceTypes,
  Evaluation,
  type PhaseOutcome,
  type RequestedCriterion,
  resolveCriterion,
  type UserDeviceInput,
  type UserDeviceKind,
  userDeviceModel,
  type VerboseAttribute,
} from "../../src/engine/index.js";
import { engineFixture, type ShownAttribute, shownAttribute } from "../support/engine.js";
import { ARCHETYPE_LIFETIME_HOURS } from "../support/fixtures.js";
import { GENERIC_DATA_WARNING as GENERIC } from "../support/warnings.js";

const { data, context } = engineFixture();

function criteria(...names: string[]): RequestedCriterion[] {
  return names.map((name) => resolveCriterion(name) as RequestedCriterion);
}

function evaluation(
  kind: UserDeviceKind,
  archetype: string,
  input: UserDeviceInput = {},
  duration?: number,
  requested?: readonly RequestedCriterion[],
): Evaluation {
  const row = data.archetypes.userTerminal.byId.get(archetype);
  if (!row) throw new Error(`no row ${archetype}`);
  return new Evaluation(userDeviceModel(context, kind, row.cells, input), { duration, criteria: requested });
}

function triple(outcome: PhaseOutcome) {
  if (outcome === "not implemented") return outcome;
  return { value: outcome.value, min: outcome.min, max: outcome.max, warnings: outcome.warnings };
}

function attribute(attributes: readonly VerboseAttribute[], name: string): ShownAttribute | undefined {
  const found = attributes.find((a) => a.name === name);
  return found && shownAttribute(found);
}

describe("terminals (docs/methodology.md §9.1, worked example §18.6)", () => {
  it("laptop-pro: generic embedded gwp, no adp/pe embedded, simple use formula", () => {
    const ev = evaluation("laptop", "laptop-pro");
    const [gwp, adp, pe] = criteria("gwp", "adp", "pe");
    expect(triple(ev.impact(gwp, "embedded"))).toEqual({
      value: 181,
      min: 181,
      max: 181,
      warnings: [GENERIC],
    });
    expect(triple(ev.impact(gwp, "use"))).toEqual({ value: 300, min: 12.09, max: 1190, warnings: [] });
    expect(ev.impact(adp, "embedded")).toBe("not implemented");
    expect(triple(ev.impact(adp, "use"))).toEqual({
      value: 5e-5,
      min: 6.959e-6,
      max: 0.0002792,
      warnings: [],
    });
    expect(ev.impact(pe, "embedded")).toBe("not implemented");
    expect(triple(ev.impact(pe, "use"))).toEqual({ value: 10000, min: 6.833, max: 492100, warnings: [] });
  });

  it("laptop-pro with criteria=ir", () => {
    const [ir] = criteria("ir");
    const ev = evaluation("laptop", "laptop-pro", {}, undefined, [ir]);
    expect(triple(ev.impact(ir, "embedded"))).toEqual({
      value: 73.6,
      min: 73.6,
      max: 73.6,
      warnings: [GENERIC],
    });
    expect(triple(ev.impact(ir, "use"))).toEqual({ value: 900, min: 0.05643, max: 3446, warnings: [] });
  });

  it("smartphone: flat factor entry, no type attribute", () => {
    const ev = evaluation("smartphone", "smartphone-default", {}, undefined, criteria("gwp"));
    const [gwp] = criteria("gwp");
    expect(triple(ev.impact(gwp, "embedded"))).toEqual({ value: 84, min: 84, max: 84, warnings: [GENERIC] });
    expect(triple(ev.impact(gwp, "use"))).toEqual({ value: 2, min: 0.07555, max: 22.3, warnings: [] });
    const report = ev.verbose();
    expect(attribute(report.attributes, "type")).toBeUndefined();
  });

  it("desktop criteria=lu: negative embedded, use not implemented for the default location", () => {
    const [lu] = criteria("lu");
    const ev = evaluation("desktop", "desktop-pro", {}, undefined, [lu]);
    const embedded = ev.impact(lu, "embedded");
    expect(embedded !== "not implemented" && embedded.value).toBe(-101);
    expect(ev.impact(lu, "use")).toBe("not implemented");
  });

  it("embedded impacts are never allocated over the duration (Appendix D.9)", () => {
    const ev = evaluation("laptop", "laptop-pro", {}, 10);
    const embedded = ev.impact(criteria("gwp")[0], "embedded");
    expect(embedded !== "not implemented" && embedded.value).toBe(181);
  });

  it("type: INPUT null until read, then the archetype's type with status ARCHETYPE", () => {
    const unread = evaluation("laptop", "laptop-pro", {}, undefined, criteria("adp")).verbose();
    expect(attribute(unread.attributes, "type")).toEqual({ name: "type", value: null, status: "INPUT" });
    const read = evaluation("laptop", "laptop-pro", {}, undefined, criteria("gwp")).verbose();
    expect(attribute(read.attributes, "type")).toEqual({ name: "type", value: "pro", status: "ARCHETYPE" });
  });

  it("a posted type selects the factor (perso laptop gwp 175)", () => {
    const ev = evaluation("laptop", "laptop-pro", { type: "perso" }, undefined, criteria("gwp"));
    const embedded = ev.impact(criteria("gwp")[0], "embedded");
    expect(embedded !== "not implemented" && embedded.value).toBe(175);
    expect(attribute(ev.verbose().attributes, "type")?.status).toBe("INPUT");
  });

  it("a row whose type the route's factors do not know gives no embedded impact (D.22)", () => {
    const ev = evaluation("laptop", "smartphone-default");
    const [gwp] = criteria("gwp");
    expect(ev.impact(gwp, "embedded")).toBe("not implemented");
    expect(ev.impact(gwp, "use")).not.toBe("not implemented");
  });

  it("verbose: duration, usage block (lifetime without bounds), units", () => {
    const report = evaluation("laptop", "laptop-pro").verbose();
    expect(report.duration).toBe(ARCHETYPE_LIFETIME_HOURS);
    expect(report.components).toEqual([]);
    expect(attribute(report.attributes, "hours_life_time")).toEqual({
      name: "hours_life_time",
      value: ARCHETYPE_LIFETIME_HOURS,
      status: "ARCHETYPE",
      unit: "hours",
    });
    expect(attribute(report.attributes, "avg_power")).toMatchObject({ value: 75, min: 50, max: 100 });
    expect(attribute(report.attributes, "units")).toEqual({
      name: "units",
      value: 1,
      status: "ARCHETYPE",
      min: 1,
      max: 1,
    });
  });

  it("a row without lifetime (smartwatch): embedded answered, use needs a duration", () => {
    const [gwp] = criteria("gwp");
    const noDuration = evaluation("monitor", "smartwatch-default");
    expect(noDuration.duration).toBeNull();
    expect(noDuration.impact(gwp, "embedded")).not.toBe("not implemented");
    expect(noDuration.impact(gwp, "use")).toBe("not implemented");
    const withDuration = evaluation("monitor", "smartwatch-default", {}, 100);
    const use = withDuration.impact(gwp, "use");
    expect(use !== "not implemented" && use.value).toBe(0);
  });

  it("lists the use types of typed devices only", () => {
    expect(deviceTypes(data.factors, "laptop")).toEqual(["perso", "pro"]);
    expect(deviceTypes(data.factors, "television")).toEqual(["perso", "pro"]);
    expect(deviceTypes(data.factors, "smartphone")).toEqual([]);
  });
});
