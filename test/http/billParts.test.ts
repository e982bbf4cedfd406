/**
 * The /evaluate page's packing of several files (src/http/site/billParts.ts), its browser script
 * run here on node's Blob and File: the files in month order whatever their names' order, the ZIP
 * archive it builds read by `unzip -t` (each entry's CRC-32 checked) with the entries the command
 * reads in their names' order, and the command line it suggests.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PARTS_SCRIPT } from "../../src/http/site/billParts.js";
import { MAX_BILL_PARTS } from "../../src/service/fileEvaluation.js";

interface PartsScript {
  readonly billParts: (files: readonly File[]) => File[];
  readonly partsUpload: (files: readonly File[]) => Promise<{ blob: Blob; name: string }>;
  readonly commandFor: (files: readonly File[], edition: string) => string;
}

const script = new Function(
  `${PARTS_SCRIPT}; return { billParts, partsUpload, commandFor };`,
)() as PartsScript;
const work = mkdtempSync(join(tmpdir(), "bill-parts-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const files = (...names: string[]) =>
  names.map((name, at) => new File([`${name}\n${"x".repeat(at * 1000)}\n`], name));
const order = (...names: string[]) => script.billParts(files(...names)).map((file) => file.name);

describe("several files on the /evaluate page", () => {
  it("are put in month order, by the month each name says, then by name", () => {
    expect(order("December.parquet", "November.parquet", "October.parquet")).toEqual([
      "October.parquet",
      "November.parquet",
      "December.parquet",
    ]);
    expect(order("cur-2026-06.csv", "cur-2026-04.csv", "cur-2026-05.csv")).toEqual([
      "cur-2026-04.csv",
      "cur-2026-05.csv",
      "cur-2026-06.csv",
    ]);
    expect(order("bill_202601.csv.gz", "bill_202512.csv.gz")).toEqual([
      "bill_202512.csv.gz",
      "bill_202601.csv.gz",
    ]);
    expect(order("jan-2026.parquet", "dec-2025.parquet")).toEqual(["dec-2025.parquet", "jan-2026.parquet"]);
    expect(order("20261201-20270101.csv", "20261101-20261201.csv")).toEqual([
      "20261101-20261201.csv",
      "20261201-20270101.csv",
    ]);
    // No month: by name, numbers as numbers; a word holding a month's letters is no month
    expect(order("part-10.csv", "part-2.csv", "decimal.csv")).toEqual([
      "decimal.csv",
      "part-2.csv",
      "part-10.csv",
    ]);
  });

  it("are sent as one ZIP archive whose entries' names' order is the months', each file's bytes whole", async () => {
    const chosen = files("June.parquet", "April.parquet", "May.parquet");
    const upload = await script.partsUpload(chosen);
    expect(upload.name).toBe("April-and-2-more.zip");
    const zip = join(work, upload.name);
    writeFileSync(zip, Buffer.from(await upload.blob.arrayBuffer()));
    const tested = spawnSync("unzip", ["-t", zip], { encoding: "utf8" });
    expect(tested.status, tested.stdout + tested.stderr).toBe(0);
    const listed = spawnSync("unzip", ["-Z1", zip], { encoding: "utf8" }).stdout.trim().split("\n");
    expect(listed).toEqual(["01-April.parquet", "02-May.parquet", "03-June.parquet"]);
    const may = spawnSync("unzip", ["-p", zip, "02-May.parquet"]).stdout;
    expect(may.equals(Buffer.from(await (chosen[2] as File).arrayBuffer()))).toBe(true);
    // Names already in month order are kept
    const kept = await script.partsUpload(files("cur-2026-05.csv", "cur-2026-04.csv"));
    writeFileSync(join(work, kept.name), Buffer.from(await kept.blob.arrayBuffer()));
    expect(
      spawnSync("unzip", ["-Z1", join(work, kept.name)], { encoding: "utf8" })
        .stdout.trim()
        .split("\n"),
    ).toEqual(["cur-2026-04.csv", "cur-2026-05.csv"]);
  });

  it("are refused past the page's parts, or when one is no bill's file", async () => {
    const many = files(...Array.from({ length: MAX_BILL_PARTS + 1 }, (_, at) => `part-${at}.csv`));
    await expect(script.partsUpload(many)).rejects.toMatchObject({
      message: `${MAX_BILL_PARTS + 1} files: the page reads ${MAX_BILL_PARTS} files of one bill at most (the page's bound); the command line reads more`,
      bound: true,
    });
    await expect(script.partsUpload(files("a.csv", "inventory.xlsx"))).rejects.toThrow(
      /^inventory\.xlsx is not a bill's file/,
    );
  });

  it("suggest a command line naming them in month order, quoted for a shell", () => {
    expect(script.commandFor(files("June 2026.parquet", "it's May 2026.parquet"), "2.5.0")).toBe(
      "npx impact-service evaluate 'it'\\''s May 2026.parquet' 'June 2026.parquet' --edition 2.5.0 -o 'it'\\''s May 2026-impacts.csv' --report 'it'\\''s May 2026-report.html'",
    );
  });
});
