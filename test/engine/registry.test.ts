/**
 * The registry of component kinds (src/engine/components/registry.ts): what the transports derive
 * from it, read back on the editions' real data.
 */
import { describe, expect, it } from "vitest";
import { featureProblems } from "../../src/editions/features.js";
import { EDITION_2_4_1 } from "../../src/editions/v2_4_1.js";
import {
  COMPONENT_KINDS,
  componentArchetypeTable,
  componentEntry,
  componentFactorProblems,
  componentKinds,
  componentOffered,
  listingOrder,
} from "../../src/engine/index.js";
import { LIST_WORKLOAD_UNIT } from "../../src/engine/model/usage.js";
import { engineFixture } from "../support/engine.js";

const v1 = engineFixture();
const v2 = engineFixture(EDITION_2_4_1);

describe("component registry", () => {
  it("lists the nine kinds in the GraphQL enum's order", () => {
    expect(componentKinds).toEqual([
      "cpu",
      "gpu",
      "ram",
      "ssd",
      "hdd",
      "power_supply",
      "case",
      "motherboard",
      "assembly",
    ]);
  });

  it("orders the v1 listing as the reference does (motherboard before power_supply, no assembly)", () => {
    expect(listingOrder).toEqual(["cpu", "gpu", "ram", "ssd", "hdd", "motherboard", "power_supply", "case"]);
  });

  it("builds each kind's model under its verbose name (the kind in upper case)", () => {
    for (const kind of componentKinds) {
      const cells = componentArchetypeTable(v2.data, kind)?.byId.get("DEFAULT")?.cells ?? {};
      const model = componentEntry(kind).model(v2.context, cells, {}, LIST_WORKLOAD_UNIT);
      expect(model.kind).toBe(COMPONENT_KINDS[kind].verbose);
      expect(model.kind).toBe(kind.toUpperCase());
    }
  });

  it("has GPU only where the edition's data has GPUs, assembly where the edition's rules serve it", () => {
    const offered = (fixture: typeof v1) =>
      componentKinds.filter((kind) => componentOffered(fixture.context, kind));
    expect(offered(v1)).toEqual([
      "cpu",
      "ram",
      "ssd",
      "hdd",
      "power_supply",
      "case",
      "motherboard",
      "assembly",
    ]);
    expect(offered(v2)).toEqual(["cpu", "gpu", "ram", "ssd", "hdd", "power_supply", "case", "motherboard"]);
  });

  it("reads no archetype table for motherboard and assembly, the kind's own for the others", () => {
    expect(componentArchetypeTable(v2.data, "motherboard")).toBeNull();
    expect(componentArchetypeTable(v2.data, "assembly")).toBeNull();
    expect(componentArchetypeTable(v1.data, "gpu")).toBeNull();
    expect(componentArchetypeTable(v2.data, "power_supply")).toBe(v2.data.archetypes.power_supply);
  });
});

describe("a component kind's factors, checked at start-up", () => {
  const withoutSection = (fixture: typeof v1, section: string) => {
    const { [section]: _dropped, ...factors } = fixture.data.factors;
    return { ...fixture.data, factors };
  };

  it("find every served kind's section in both editions' data", () => {
    expect(componentFactorProblems(v1.data, v1.context.rules)).toEqual([]);
    expect(componentFactorProblems(v2.data, v2.context.rules)).toEqual([]);
  });

  it("name a served kind whose section is missing, in one line the start-up stops on", () => {
    expect(componentFactorProblems(withoutSection(v1, "motherboard"), v1.context.rules)).toEqual([
      'factors.yml has no "motherboard" section, which component kind motherboard reads',
    ]);
    const [problem] = featureProblems(EDITION_2_4_1, withoutSection(v2, "gpu"));
    expect(problem).toBe('edition 2.4.1: factors.yml has no "gpu" section, which component kind gpu reads');
  });

  it("ignore a kind the edition does not serve (assembly in 2.4.1)", () => {
    expect(componentFactorProblems(withoutSection(v2, "assembly"), v2.context.rules)).toEqual([]);
  });
});
