/**
 * The README speaks of the essentials (issue 39): at most 300 lines, its two set-up commands, and
 * a link to every docs/ page that holds what moved out of it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const root = new URL("../../", import.meta.url);
const readme = readFileSync(new URL("README.md", root), "utf8");

describe("the README", () => {
  it("holds at most 300 lines", () => {
    expect(readme.split("\n").length).toBeLessThanOrEqual(300);
  });

  it("gives the two set-up commands CI runs", () => {
    expect(readme).toContain("npm ci && npm start");
    expect(readme).toContain("npm ci && npm test");
  });

  it("links every page of docs/", () => {
    const pages = readdirSync(new URL("docs/", root)).filter((name) => name.endsWith(".md"));
    expect(pages.length).toBeGreaterThan(5);
    for (const page of pages) expect(readme, page).toContain(`(docs/${page}`);
  });
});
