/**
 * The emitted SDL (`schema/schema.graphql`, written by `npm run schema`) must be exactly the SDL
 * of the schema the code builds, and the typed documents (`npm run codegen`) exactly what GraphQL
 * Code Generator makes of it: a change without `npm run regenerate` fails here.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { generate } from "@graphql-codegen/cli";
import { printSchema } from "graphql";
import { describe, expect, it } from "vitest";
import config from "../../codegen.js";
import { buildSchema } from "../../src/schema/index.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

describe("schema/schema.graphql", () => {
  it("equals printSchema(buildSchema()) plus a final newline (run `npm run schema` after a change)", () => {
    const emitted = readFileSync(new URL("../../schema/schema.graphql", import.meta.url), "utf8");
    expect(emitted).toBe(`${printSchema(buildSchema())}\n`);
  });

  it("gives the typed documents of src/*/generated (run `npm run codegen` after a change)", async () => {
    const files: { filename: string; content: string }[] = await generate(
      { ...config, cwd: ROOT, silent: true },
      false,
    );
    expect(files.map((file) => file.filename).sort()).toEqual(Object.keys(config.generates).sort());
    for (const { filename, content } of files) {
      expect(readFileSync(`${ROOT}/${filename}`, "utf8"), filename).toBe(content);
    }
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
