/**
 * Small rooms (docs/architecture.md): no folder of src/ holds more than 20 files, so that a folder's
 * listing says what it holds; a folder that grows past it is split by what its files are about.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const MAX_FILES = 20;

function foldersOf(folder: string): string[] {
  const entries = readdirSync(folder, { withFileTypes: true });
  const below = entries
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => foldersOf(join(folder, entry.name)));
  return [folder, ...below];
}

const fileCount = (folder: string) =>
  readdirSync(folder, { withFileTypes: true }).filter((entry) => entry.isFile()).length;

describe("folder size", () => {
  it(`no folder of src/ holds more than ${MAX_FILES} files`, () => {
    const folders = foldersOf("src");
    expect(folders.length).toBeGreaterThan(10);
    const crowded = folders
      .filter((folder) => fileCount(folder) > MAX_FILES)
      .map((f) => `${f}: ${fileCount(f)}`);
    expect(crowded).toEqual([]);
  });
});
