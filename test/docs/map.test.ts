/**
 * The map (docs/architecture.md) places ten things a newcomer looks for: each answer is a path
 * the map names, and that path exists. A thing moved without the map following fails here.
 */
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const ROOT = new URL("../../", import.meta.url);
const map = readFileSync(new URL("docs/architecture.md", ROOT), "utf8");

/** Each thing, and where it lives. */
const PLACES: Readonly<Record<string, readonly string[]>> = {
  "the route registry": ["src/http/routeTable.ts"],
  "the Server type": ["src/schema/server.ts"],
  "the server computation": ["src/engine/assets/server.ts"],
  "a bill's stages": ["src/billing/stages/"],
  "a format": ["src/billing/formats/"],
  "the catalogue of managed services": ["src/billing/registry/managedServices.ts"],
  "generative AI": ["src/engine/assets/generativeAi.ts", "src/service/generativeAi.ts"],
  "the page's upload": ["src/http/fileEvaluation/upload.ts"],
  "the grid series": ["src/grid/series.ts"],
  "the answer cache": ["src/service/answerCache.ts"],
};

describe("the map places ten things", () => {
  for (const [thing, paths] of Object.entries(PLACES)) {
    it(`${thing}: ${paths.join(", ")}`, () => {
      for (const path of paths) {
        expect(existsSync(new URL(path, ROOT)), `${path} exists`).toBe(true);
        expect(map.includes(`\`${path}\``), `docs/architecture.md names \`${path}\``).toBe(true);
      }
    });
  }
});
