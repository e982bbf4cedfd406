/**
 * A built-in edition's data is the package's own: loaded and checked once per process and
 * settings, whatever opens the service again (each run of the command's function, a plugin per
 * manifest); a custom edition's folder is the user's, read again each time (its files may change).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadEditions } from "../../src/config/referenceData.js";
import { loadConfig } from "../../src/config/serviceConfig.js";
import { EDITION_IDS } from "../../src/editions/index.js";

const scratch = mkdtempSync(join(tmpdir(), "editions-once-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** An overlay edition over 2.4.1 changing France's electricity factor to `gwp`. */
function overlay(gwp: number): string {
  const dir = mkdtempSync(join(scratch, "set-"));
  writeFileSync(join(dir, "factors.yml"), `electricity:\n  FRA:\n    gwp:\n      value: ${gwp}\n`);
  const file = join(dir, "editions.yml");
  writeFileSync(file, `editions:\n  - id: acme\n    base: "2.4.1"\n    data: ${dir}\n    overlay: true\n`);
  return file;
}

const byId = (loaded: ReturnType<typeof loadEditions>) =>
  new Map(loaded.map((edition) => [edition.edition.id, edition]));

describe("editions loaded at each opening of the service", () => {
  it("give the same built-in data, and each custom folder as it is then", () => {
    const first = byId(loadEditions(loadConfig({ EDITIONS_FILE: overlay(0.5) }).customEditions));
    const second = byId(loadEditions(loadConfig({ EDITIONS_FILE: overlay(0.25) }).customEditions));
    for (const id of EDITION_IDS) expect(second.get(id)).toBe(first.get(id));
    expect(second.get("acme")).not.toBe(first.get("acme"));
  });

  it("load a built-in edition again under other settings", () => {
    const plain = byId(loadEditions([], {}));
    const settings = loadConfig({ BOAVIZTA_UNCERTAINTY: "20" }).settingsOverrides;
    const changed = byId(loadEditions([], settings));
    expect(changed.get("2.4.1")).not.toBe(plain.get("2.4.1"));
    expect(byId(loadEditions([], settings)).get("2.4.1")).toBe(changed.get("2.4.1"));
  });
});
