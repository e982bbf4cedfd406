/**
 * An account's monthly exports read as one bill in time (issue 88): three CUR 2.0 months
 * (test/fixtures/billing/months/) named one by one, as their folder, zipped together, or by each
 * month's legacy CUR manifest in a download's folders — the same lines each way, each month's
 * coverage said, and a month in a file's name never read as a part's number.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runMain } from "../support/cli.js";
import { zipFileIn } from "../support/zipFiles.js";

const SLOW = { timeout: 180_000 };
const scratch = mkdtempSync(join(tmpdir(), "bill-months-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const MONTHS = ["2026-04", "2026-05", "2026-06"];
const FIXTURES = "test/fixtures/billing/months";
const FILES = MONTHS.map((month) => join(FIXTURES, `cur-${month}.csv`));

async function evaluate(given: readonly string[], name: string) {
  const output = join(scratch, `${name}.csv`);
  const run = await runMain(["evaluate", ...given, "-o", output]);
  return { ...run, written: existsSync(output) ? readFileSync(output, "utf8") : null };
}

let files: Awaited<ReturnType<typeof evaluate>>;

beforeAll(async () => {
  files = await evaluate(FILES, "files");
}, 180_000);

describe("three monthly exports named one by one", () => {
  it("are one bill in time: no part said missing, each month's coverage", () => {
    expect(files.code, files.stderr).toBe(0);
    expect(files.stderr).not.toContain("numbered");
    expect(files.stderr).toContain(`billing export ${FILES[0]} (and 2 more monthly files): AWS CUR 2.0`);
    expect(files.stderr).toMatch(
      /\nmonths \(each line in the month its period starts\):\n {2}2026-04: 7 of 8 lines estimated; 956\.6 USD of 969\.1 USD positive cost \(98\.7 %\)\n {2}2026-05: 8 of 9 lines estimated; [\d,.]+ USD of [\d,.]+ USD positive cost \([\d.]+ %\)\n {2}2026-06: 8 of 9 lines/,
    );
    // Every month's lines, in the order given
    const lines = (files.written ?? "").trim().split("\n").slice(1);
    expect(lines).toHaveLength(26);
    expect(lines.map((line) => line.slice(0, 7))).toEqual([
      ...Array(8).fill("2026-04"),
      ...Array(9).fill("2026-05"),
      ...Array(9).fill("2026-06"),
    ]);
  });
});

describe("the same months given otherwise", () => {
  it("as their folder: its bill files in their names' order", SLOW, async () => {
    const folder = join(scratch, "exports");
    mkdirSync(folder);
    for (const file of FILES) cpSync(file, join(folder, file.slice(file.lastIndexOf("/") + 1)));
    writeFileSync(join(folder, ".notes.csv"), "hidden");
    const read = await evaluate([folder], "folder");
    expect(read.code, read.stderr).toBe(0);
    expect(read.written).toBe(files.written);
    expect(read.stderr).toContain("(and 2 more monthly files)");
  });

  it("as a ZIP archive of the three", SLOW, async () => {
    const archive = await zipFileIn(
      scratch,
      "months.zip",
      Object.fromEntries(
        FILES.map((file) => [file.slice(file.lastIndexOf("/") + 1), readFileSync(file, "utf8")]),
      ),
    );
    const read = await evaluate([archive], "zip");
    expect(read.code, read.stderr).toBe(0);
    expect(read.written).toBe(files.written);
    expect(read.stderr).toContain("months.zip: a ZIP archive; its file cur-2026-05.csv (");
  });

  it("by each month's CUR manifest, in a download's folders", SLOW, async () => {
    const download = join(scratch, "download", "report");
    for (const month of MONTHS) {
      const [year, number] = month.split("-").map(Number);
      const next = number === 12 ? `${year + 1}01` : `${year}${String(number + 1).padStart(2, "0")}`;
      const period = `${year}${String(number).padStart(2, "0")}01-${next}01`;
      mkdirSync(join(download, period, "a1"), { recursive: true });
      cpSync(join(FIXTURES, `cur-${month}.csv`), join(download, period, "a1", "report-00001.csv"));
      writeFileSync(
        join(download, period, "report-Manifest.json"),
        JSON.stringify({
          assemblyId: "a1",
          reportName: "report",
          reportKeys: [`cur/report/${period}/a1/report-00001.csv`],
        }),
      );
    }
    const read = await evaluate([join(scratch, "download")], "manifests");
    expect(read.code, read.stderr).toBe(0);
    expect(read.written).toBe(files.written);
    expect(read.stderr).toContain("(and 2 more months' manifests: their 3 parts): AWS CUR 2.0");
  });
});
