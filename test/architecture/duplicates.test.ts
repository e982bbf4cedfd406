/**
 * One description of each thing (docs/testing.md, "No copies: one description of each thing"): no
 * block of src/ is a copy of another, as the copy detector jscpd finds them with the thresholds of
 * .jscpd.json. A copied block fails `npm test` with the clones listed (`npm run duplicates` shows
 * the same list).
 *
 * jscpd 5 is a native binary without a JavaScript API: it is run once here (about 0.1 s), the only
 * process the unit project starts.
 */

import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const JSCPD = createRequire(import.meta.url).resolve("jscpd/run-jscpd.js");
const CONFIG = ".jscpd.json";

interface Location {
  readonly name: string;
  readonly start: number;
  readonly end: number;
}

interface Clone {
  readonly format: string;
  readonly lines: number;
  readonly tokens: number;
  readonly firstFile: Location;
  readonly secondFile: Location;
}

interface Report {
  readonly duplicates: readonly Clone[];
  readonly statistics: {
    readonly formats: Readonly<Record<string, { readonly sources: number }>>;
    readonly total: { readonly sources: number };
  };
}

const workFolder = mkdtemp(join(tmpdir(), "jscpd-"));

/** jscpd's JSON report of `paths` (default: the config's `src`), with the project's configuration. */
async function detect(name: string, paths: readonly string[] = []): Promise<Report> {
  const output = join(await workFolder, name);
  await promisify(execFile)(
    process.execPath,
    [JSCPD, "--config", CONFIG, "--reporters", "json", "--output", output, "--silent", "--no-tips", ...paths],
    { timeout: 60_000 },
  );
  return JSON.parse(await readFile(join(output, "jscpd-report.json"), "utf8")) as Report;
}

function line(clone: Clone): string {
  const at = (file: Location) => `${file.name}:${file.start}-${file.end}`;
  return `${at(clone.firstFile)} ~ ${at(clone.secondFile)} (${clone.lines} lines, ${clone.tokens} tokens)`;
}

afterAll(async () => {
  await rm(await workFolder, { recursive: true, force: true });
});

describe("copies in src/ (jscpd, .jscpd.json)", () => {
  let report: Report;

  beforeAll(async () => {
    report = await detect("src");
  }, 60_000);

  it("reads the TypeScript and the GraphQL operations of src/", () => {
    expect(report.statistics.formats.typescript.sources).toBeGreaterThan(100);
    expect(report.statistics.formats.graphql.sources).toBeGreaterThanOrEqual(7);
  });

  it("finds no copied block", () => {
    expect(report.duplicates.map(line), "copied blocks, paths under src/ (npm run duplicates)").toEqual([]);
  });
});

describe("the thresholds find a real copy", () => {
  // A 6-line function of about 60 tokens, the size the thresholds (50 tokens, 5 lines) catch,
  // copied into a second file under another name.
  const copied = `(values: readonly number[], factor: number): number[] {
  const scaled = values.map((value) => value * factor);
  const total = scaled.reduce((sum, value) => sum + value, 0);
  if (total === 0) throw new Error("nothing to scale");
  return scaled.map((value) => value / total);
}
`;

  it("a function copied into another file is reported with its lines", async () => {
    const folder = join(await workFolder, "fixture");
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, "first.ts"), `export const one = 1;\n\nexport function scale${copied}`);
    await writeFile(join(folder, "second.ts"), `export function normalise${copied}`);
    const { duplicates } = await detect("fixture-report", [folder]);
    expect(duplicates).toHaveLength(1);
    const [clone] = duplicates;
    const files = [clone.firstFile, clone.secondFile].map((file) => file.name.split("/").pop()).sort();
    expect(files).toEqual(["first.ts", "second.ts"]);
    expect(clone.lines).toBeGreaterThanOrEqual(5);
    expect(clone.tokens).toBeGreaterThanOrEqual(50);
  }, 60_000);
});
