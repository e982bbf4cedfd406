/**
 * The emitted SDL (`schema/schema.graphql`, written by `npm run schema`) must be exactly the SDL
 * of the schema the code builds: a schema change without re-emitting fails here.
 */
import { readFileSync } from "node:fs";
import { printSchema } from "graphql";
import { describe, expect, it } from "vitest";
import { buildSchema } from "../../src/schema/index.js";

describe("schema/schema.graphql", () => {
  it("equals printSchema(buildSchema()) plus a final newline (run `npm run schema` after a change)", () => {
    const emitted = readFileSync(new URL("../../schema/schema.graphql", import.meta.url), "utf8");
    expect(emitted).toBe(`${printSchema(buildSchema())}\n`);
  });

  it("is sorted and exposes the entry points the REST shim relies on", () => {
    const sdl = printSchema(buildSchema());
    for (const field of [
      "server(",
      "cpu(",
      "ram(",
      "serverArchetypes",
      "impactCriteria",
      "componentArchetypeConfig(",
    ]) {
      expect(sdl).toContain(`  ${field}`);
    }
    expect(sdl).toMatch(/enum Allocation \{\n(\s+""".*"""\n)?\s+LINEAR\n(\s+""".*"""\n)?\s+TOTAL\n\}/);
    const names = [...sdl.matchAll(/^(?:type|enum|input|union|scalar|interface) (\w+)/gm)].map((m) => m[1]);
    expect(names.length).toBeGreaterThan(10);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });
});
