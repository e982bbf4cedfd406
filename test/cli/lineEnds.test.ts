/**
 * A bill whose lines end in CR alone (a classic Mac CSV, as Excel for Mac saves "CSV
 * (Macintosh)"): told by its start having no LF (src/billing/reading/layout.ts), read with that line
 * end by DuckDB and by the last line's check, said on stderr. Before, such a bill was no bill: read
 * as an inventory, a bad row per line.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { billLayout } from "../../src/billing/reading/layout.js";
import { evaluatedLines, runMain } from "../support/cli.js";

const scratch = mkdtempSync(join(tmpdir(), "line-ends-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const AZURE = "test/fixtures/billing/azure.csv";
const FOCUS = readFileSync("test/fixtures/billing/grid/focus.csv", "utf8").trimEnd().split("\n");

/** A file of `lines` ended by CR alone. */
function macCsv(name: string, lines: readonly string[]): string {
  const path = join(scratch, name);
  writeFileSync(path, `${lines.join("\r")}\r`);
  return path;
}

describe("a bill whose lines end in CR alone", () => {
  it("has that line end in its layout; LF and CRLF read as LF", () => {
    const lines = readFileSync(AZURE, "utf8").trimEnd().split("\n");
    expect(billLayout(macCsv("azure-cr.csv", lines))).toMatchObject({ kind: "csv", lineEnd: "\r" });
    writeFileSync(join(scratch, "azure-crlf.csv"), `${lines.join("\r\n")}\r\n`);
    expect(billLayout(join(scratch, "azure-crlf.csv"))).toMatchObject({ kind: "csv", lineEnd: "\n" });
    expect(billLayout(AZURE)).toMatchObject({ kind: "csv", lineEnd: "\n" });
  });

  it("is read line for line as the same bill with LF, and said so", async () => {
    const lf = await evaluatedLines(AZURE, join(scratch, "lf.out.csv"));
    const path = macCsv("azure-mac.csv", readFileSync(AZURE, "utf8").trimEnd().split("\n"));
    const cr = await evaluatedLines(path, join(scratch, "cr.out.csv"));
    expect(cr.lines).toEqual(lf.lines);
    expect(cr.lines).toHaveLength(60);
    expect(cr.stderr).toContain(
      `${path}: its lines end in CR alone (a classic Mac CSV), read so; line numbers are the file's\n`,
    );
  });

  it("has its last line checked at CR: 2.5 MiB of short lines holds no over-long last line", async () => {
    // Read at LF, the file's last 2 MiB hold no line end: its last line was taken for one too long
    const many = Array.from({ length: 18_000 }, () => FOCUS[1]);
    const path = macCsv("many.csv", [FOCUS[0], ...many]);
    const short = await evaluatedLines(path, join(scratch, "many.out.csv"));
    expect(readFileSync(path).length).toBeGreaterThan(2.5 * (1 << 20));
    expect(short.lines).toHaveLength(18_000);
    expect(short.stderr).toContain("  bad rows: 0\n");
  });

  it("is refused by the portable scripts' --header, naming its line end", async () => {
    const path = macCsv("header.csv", FOCUS);
    const run = await runMain(["sql", "--engine", "duckdb", "--header", path]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `--header ${path}: its lines end in CR alone (a classic Mac CSV); the scripts read comma-separated exports with their header on line 1`,
    );
  });
});

/**
 * An inventory whose header ends in LF and rows in CR LF (a file edited by two tools): the parser
 * took the first line's end for all of them, and kept each row's CR in its last cell and counted
 * its line twice (`line 5` for line 3). Its rows are read as the same rows with LF.
 */
describe("an inventory with an LF header and CR LF rows", () => {
  const HEADER = "kind,provider,instance_type,usage_location,hours";
  const ROWS = [
    "cloud,aws,m5.xlarge,FRA,8760",
    "cloud,aws,m5.xlarge,FRA,x",
    'cloud,aws,"m5.\r\nxlarge",FRA,24',
  ];

  it("reads its last cells without CR and names each bad row by its line in the file", async () => {
    const mixed = join(scratch, "mixed.csv");
    writeFileSync(mixed, `${HEADER}\n${ROWS.map((row) => `${row}\r\n`).join("")}`);
    const lf = join(scratch, "lf.csv");
    writeFileSync(lf, `${HEADER}\n${ROWS.map((row) => `${row.replace("\r\n", "\n")}\n`).join("")}`);
    const run = await runMain(["evaluate", mixed, "--edition", "2.4.1", "--criteria", "gwp"]);
    const same = await runMain(["evaluate", lf, "--edition", "2.4.1", "--criteria", "gwp"]);
    expect(run.stdout).not.toContain("\r");
    expect(run.stdout).toBe(same.stdout);
    const rows = run.stdout.trimEnd().split("\n");
    expect(rows[1]).toBe("cloud,aws,m5.xlarge,FRA,8760,227.2760392,8,22,evaluated,");
    // Line 3 of the file, as in the LF file; the quoted cell's line break is one line, not two
    expect(run.stderr).toContain('line 3: bad row: hours is not a number: "x"\n');
    const untimed = (text: string) => text.replace(/ in [\d.]+ s, [\d,.]+ rows\/s/, "");
    expect(untimed(run.stderr)).toBe(untimed(same.stderr).replaceAll("lf.csv", "mixed.csv"));
  });
});
