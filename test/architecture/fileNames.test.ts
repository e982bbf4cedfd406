/**
 * A file's base name says one meaning: two files of src/ share a base name only when they play
 * the same role in parallel folders, as the map lists them (docs/architecture.md, "Names shared
 * by parallel modules"). A name reused for another meaning fails here, naming its files.
 */
import { readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [relative(ROOT, path)];
  });
}

/** The map's list: each bullet either names files any folder may have, or lists parallel folders. */
function parallelRoles(): { faces: Set<string>; folderSets: ReadonlySet<string>[] } {
  const map = readFileSync(join(ROOT, "docs/architecture.md"), "utf8");
  const section = map.split(/^## /m).find((part) => part.startsWith("Names shared by parallel modules"));
  if (section === undefined)
    throw new Error("docs/architecture.md has no section 'Names shared by parallel modules'");
  const bullets = section.split(/^- /m).slice(1);
  const faces = new Set<string>();
  const folderSets: ReadonlySet<string>[] = [];
  for (const bullet of bullets) {
    const quoted = [...bullet.matchAll(/`([^`]+)`/g)].map((match) => match[1] as string);
    const folders = quoted.filter((text) => text.startsWith("src/"));
    if (folders.length > 0) folderSets.push(new Set(folders));
    else for (const name of quoted) faces.add(name);
  }
  return { faces, folderSets };
}

describe("file names in src/", () => {
  const byName = new Map<string, string[]>();
  for (const file of filesUnder(join(ROOT, "src"))) {
    const name = basename(file);
    byName.set(name, [...(byName.get(name) ?? []), file]);
  }
  const { faces, folderSets } = parallelRoles();

  it("the map lists folder faces and parallel folders", () => {
    expect([...faces]).toContain("index.ts");
    expect(folderSets.length).toBeGreaterThan(0);
    for (const set of folderSets)
      for (const folder of set) expect(readdirSync(join(ROOT, folder))).not.toHaveLength(0);
  });

  it("share a base name only in the parallel folders the map lists", () => {
    const unexplained = [...byName]
      .filter(([name, files]) => files.length > 1 && !faces.has(name))
      .filter(([, files]) => !folderSets.some((set) => files.every((file) => set.has(dirname(file)))))
      .map(([name, files]) => `${name}: ${files.join(", ")}`);
    expect(unexplained, "base names shared across roles").toEqual([]);
  });
});
