/**
 * docs/architecture.md is a map a newcomer reads in an hour (issue 78): at most 400 lines, holding
 * the rooms, the layer rules, the roads of a request, a bill and an edition, billing's climbs and
 * trip, and the recipes. What is longer goes to the topic pages it links to.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const map = readFileSync(new URL("../../docs/architecture.md", import.meta.url), "utf8");
const lines = map.split("\n").length - (map.endsWith("\n") ? 1 : 0);
const headings = [...map.matchAll(/^#{2,3} (.+)$/gm)].map((m) => m[1]);

describe("the architecture map", () => {
  it("holds at most 400 lines", () => {
    expect(lines).toBeLessThanOrEqual(400);
  });

  it("has the rooms, the rules, the three roads, the climbs and trip, and the recipes", () => {
    expect(headings).toEqual(
      expect.arrayContaining([
        "The rooms",
        "The layer rules and how they are checked",
        "The road of a request",
        "The road of a bill",
        "Billing's climbs and trip",
        "The road of an edition",
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
});
