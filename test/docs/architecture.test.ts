/**
 * docs/architecture.md is a map a newcomer reads in an hour: at most 400 lines, holding the folders
 * and their layers, the layer rules, the call paths of a request, a bill and an edition, where
 * things live, the names shared by parallel modules, and the recipes. What is longer goes to the
 * topic pages it links to; how the project measures a bill's path through the code (its scripts
 * and the words they print) is docs/testing.md's, which the map links to once.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const map = readFileSync(new URL("../../docs/architecture.md", import.meta.url), "utf8");
const testing = readFileSync(new URL("../../docs/testing.md", import.meta.url), "utf8");
const lines = map.split("\n").length - (map.endsWith("\n") ? 1 : 0);
const headings = [...map.matchAll(/^#{2,3} (.+)$/gm)].map((m) => m[1]);

describe("the architecture map", () => {
  it("holds at most 400 lines", () => {
    expect(lines).toBeLessThanOrEqual(400);
  });

  it("has the folders, the rules, the three call paths, the places and the recipes", () => {
    expect(headings).toEqual(
      expect.arrayContaining([
        "Folders and layers",
        "The layer rules and how they are checked",
        "A request's call path",
        "A bill's stages",
        "An edition's path",
        "Where things live",
        "Names shared by parallel modules",
        "Recipes",
      ]),
    );
    for (const recipe of [
      "a route",
      "a billing format",
      "a billing method",
      "an inventory column",
      "an edition",
    ]) {
      expect(headings.some((heading) => heading.startsWith(`Add ${recipe}`))).toBe(true);
    }
  });

  it("leaves the measures of billing's code to testing.md, linked once", () => {
    const measuring = "## Measuring a plain bill's path through the code";
    expect(testing).toContain(`\n${measuring}\n`);
    expect(testing).toContain("scripts/billing-trip.ts");
    expect(testing).toContain("scripts/billing-climbs.ts");
    expect(map).not.toMatch(/billing-trip|billing-climbs|measured on|\bclimbs\b|\bstays\b/);
    expect(map.match(/testing\.md#measuring-a-plain-bills-path-through-the-code/g)).toHaveLength(1);
  });

  /** Each recipe: its heading and its text, up to the next heading. */
  const recipes = map
    .split(/^### /m)
    .filter((part) => part.startsWith("Add "))
    .map((part) => ({ name: part.slice(0, part.indexOf("\n")), text: part }));

  it("ends each recipe with the bundle rebuilt and the tests it names", () => {
    expect(recipes.length).toBeGreaterThanOrEqual(9);
    for (const { name, text } of recipes) {
      const steps = [...text.matchAll(/^\d+\. /gm)];
      const last = text
        .slice(steps.at(-1)?.index ?? text.length)
        .replace(/\s+/g, " ")
        .trim();
      expect(last, name).toMatch(/^\d+\. `npm run build`, then /);
      expect(last, name).toContain("npx vitest run");
    }
  });

  it("names both places of the engine's asset in the field recipe", () => {
    const field = recipes.find(({ name }) => name.startsWith("Add a field on an asset type"));
    expect(field?.text).toContain("`CloudShape`");
    expect(field?.text).toContain("`cloudAsset`");
  });
});
