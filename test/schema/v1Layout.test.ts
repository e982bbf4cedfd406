/**
 * v1's verbose layout (src/schema/v1Layout.ts) of an engine report: the blocks' keys in v1's order
 * and each attribute printed as the entry the engine built in v1's layout, never copied.
 */
import { describe, expect, it } from "vitest";
import { evaluate, serverModel } from "../../src/engine/index.js";
import { v1Attribute, v1Verbose } from "../../src/schema/v1Layout.js";
import { engineFixture } from "../support/engine.js";
import { COMPLETE_CONFIGURATION } from "../support/servers.js";

const { data, context } = engineFixture();

/** v1's keys of an attribute, in its order. */
const V1_KEYS = ["value", "status", "unit", "source", "min", "max", "warnings"];

function report() {
  const cells = data.archetypes.server.byId.get("platform_compute_medium")?.cells ?? {};
  return evaluate(
    serverModel(context, cells, { configuration: COMPLETE_CONFIGURATION, usage: { usageLocation: "ZZZ" } }),
  ).verbose();
}

describe("v1's verbose layout", () => {
  it("lists a server's duration, component blocks and attributes in v1's order", () => {
    const verbose = report();
    const v1 = v1Verbose(verbose) as Record<string, Record<string, unknown>>;
    expect(Object.keys(v1)).toEqual([
      "duration",
      ...verbose.components.map((block) => block.key),
      ...verbose.attributes.map((attribute) => attribute.name),
    ]);
    for (const block of verbose.components) {
      expect(Object.keys(v1[block.key])).toEqual([
        "impacts",
        ...block.attributes.map((attribute) => attribute.name),
        "duration",
      ]);
    }
  });

  it("prints each attribute as the engine's entry itself, its keys in v1's order", () => {
    const verbose = report();
    const v1 = v1Verbose(verbose) as Record<string, Record<string, unknown>>;
    const shown = [
      ...verbose.components.flatMap((block) =>
        block.attributes.map((a) => [v1[block.key][a.name], a] as const),
      ),
      ...verbose.attributes.map((a) => [v1[a.name], a] as const),
    ];
    expect(shown.length).toBeGreaterThan(40);
    for (const [printed, attribute] of shown) {
      expect(printed).toBe(attribute.entry);
      expect(v1Attribute(attribute)).toBe(attribute.entry);
      const keys = Object.keys(attribute.entry);
      expect(keys).toEqual(V1_KEYS.filter((key) => keys.includes(key)));
    }
    // The unknown location's warning is the attribute's own, shown once.
    expect(v1.usage_location).toMatchObject({
      status: "DEFAULT",
      warnings: ["Location not found. Default value used."],
    });
  });
});
