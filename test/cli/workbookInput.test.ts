/**
 * An inventory as an Excel workbook (xlsxItems, src/cli/inventoryRecords.ts): the first worksheet's rows read
 * as the same rows in CSV — the same output, byte for byte, and the same summary. Through the
 * command's function (`runMain`, what the bin awaits): the tests read only what it writes.
 */
import {
  createReadStream,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { runMain, sink } from "../support/cli.js";
import { farColumnsWorkbook, sharedStringsWorkbook, spacesWorkbook } from "../support/hostileFiles.js";

const NUMERIC = new Set([
  "quantity",
  "hours",
  "time_workload",
  "cpu_units",
  "ram_units",
  "ram_capacity",
  "ssd_units",
  "ssd_capacity",
]);

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "workbook-input-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A workbook whose first sheet holds `rows`, numbers as numbers; a second sheet that is not read. */
async function workbookOf(path: string, rows: readonly (readonly ExcelJS.CellValue[])[]): Promise<void> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("inventory");
  for (const row of rows) sheet.addRow([...row]);
  workbook.addWorksheet("notes").addRow(["kind"]).commit?.();
  await workbook.xlsx.writeFile(path);
}

describe("evaluate inventory.xlsx", () => {
  it("gives the CSV run's output, byte for byte, and its summary (examples/inventory.csv)", async () => {
    const text = readFileSync("examples/inventory.csv", "utf8");
    const [header, ...records] = parse(text) as string[][];
    const typed = records.map((record) =>
      record.map((cell, index) => (cell === "" ? null : NUMERIC.has(header[index]) ? Number(cell) : cell)),
    );
    const book = join(dir, "inventory.xlsx");
    await workbookOf(book, [header, ...typed]);
    const [csv, xlsx] = await Promise.all([
      runMain(["evaluate", "examples/inventory.csv", "-o", join(dir, "from-csv.csv")]),
      runMain(["evaluate", book, "-o", join(dir, "from-xlsx.csv")]),
    ]);
    expect(csv.code).toBe(0);
    expect(xlsx.code).toBe(0);
    const fromCsv = readFileSync(join(dir, "from-csv.csv"), "utf8");
    expect(fromCsv.split("\n").length).toBeGreaterThan(records.length);
    expect(readFileSync(join(dir, "from-xlsx.csv"), "utf8")).toBe(fromCsv);
    // The summary, its timing aside: the same rows, warnings and totals.
    const summary = (stderr: string, name: string) =>
      stderr.replaceAll(name, "F").replace(/ in [\d.]+ s, [\d,]+ rows\/s/, "");
    expect(summary(xlsx.stderr, book)).toBe(summary(csv.stderr, "examples/inventory.csv"));
    expect(summary(xlsx.stderr, book)).toContain("F: 19 rows (19 ok, 0 errors");
  });

  it("reads dates as ISO, formulas by their result, and names a formula without one", async () => {
    const book = join(dir, "cells.xlsx");
    const header = ["kind", "quantity", "usage_location", "period_start", "period_end"];
    await workbookOf(book, [
      header,
      [
        "laptop",
        { formula: "1+1", result: 2 },
        "FRA",
        new Date(Date.UTC(2024, 0, 1)),
        new Date(Date.UTC(2024, 1, 1)),
      ],
      ["laptop", { formula: "A1*2" } as ExcelJS.CellValue, "FRA", null, null],
    ]);
    const csvText =
      "kind,quantity,usage_location,period_start,period_end\nlaptop,2,FRA,2024-01-01,2024-02-01\n";
    writeFileSync(join(dir, "cells.csv"), csvText);
    const [csv, xlsx] = await Promise.all([
      runMain(["evaluate", join(dir, "cells.csv")]),
      runMain(["evaluate", book]),
    ]);
    expect(xlsx.code).toBe(0);
    const [csvHeader, csvRow] = csv.stdout.split("\n");
    const [xlsxHeader, xlsxFirst, xlsxSecond] = xlsx.stdout.split("\n");
    expect(xlsxHeader).toBe(csvHeader);
    expect(xlsxFirst).toBe(csvRow);
    expect(xlsxFirst.startsWith("laptop,2,FRA,2024-01-01,2024-02-01,")).toBe(true);
    expect(xlsxSecond).toContain("formula without a saved result");
    expect(xlsx.stderr).toMatch(/^line 3: bad row: column 2 holds a formula without a saved result/m);
  });

  it("reads the first tab, not the first sheet created", async () => {
    const book = join(dir, "tabs.xlsx");
    const workbook = new ExcelJS.Workbook();
    const notes = workbook.addWorksheet("notes");
    notes.addRow(["kind", "quantity"]);
    notes.addRow(["server", 9]);
    const assets = workbook.addWorksheet("assets");
    assets.addRow(["kind", "quantity"]);
    assets.addRow(["laptop", 2]);
    // The sheet created second (sheet2.xml) is the first tab: not the sheet numbered 1.
    Object.assign(assets, { orderNo: 0 });
    Object.assign(notes, { orderNo: 1 });
    await workbook.xlsx.writeFile(book);
    const run = await runMain(["evaluate", book, "--criteria", "gwp"]);
    expect(run.code).toBe(0);
    expect(run.stdout.split("\n")[1]).toMatch(/^laptop,2,/);
    expect(run.stderr).toContain(": 1 rows (1 ok");
  });

  it.each([
    [
      "a corrupt file",
      Buffer.from("PK\u0003\u0004 this is not a zip archive at all".repeat(20)),
      /corrupt, or protected by a password/,
    ],
    // A password-protected workbook is an OLE compound file (its signature D0 CF 11 E0), not a zip.
    [
      "a password-protected file",
      Buffer.concat([Buffer.from("d0cf11e0a1b11ae1", "hex"), Buffer.alloc(512)]),
      /corrupt, or protected by a password/,
    ],
  ])("refuses %s with one line, exit 2", async (_name, bytes, reason) => {
    const book = join(dir, "refused.xlsx");
    writeFileSync(book, bytes);
    const run = await runMain(["evaluate", book]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toMatch(/^impact-service: not a readable Excel workbook \(\.xlsx\)/);
    expect(run.stderr).toMatch(reason);
  });

  it("refuses a workbook without a worksheet, exit 2", async () => {
    const book = join(dir, "empty.xlsx");
    await new ExcelJS.Workbook().xlsx.writeFile(book);
    const run = await runMain(["evaluate", book]);
    expect([run.code, run.stderr]).toEqual([2, "impact-service: the workbook has no worksheet\n"]);
  });

  it("refuses a billing export saved as a workbook in one line, rather than a bad row per line", async () => {
    // A FOCUS export opened in Excel and saved, or a portal's "Download to Excel".
    const rows = readFileSync("test/fixtures/billing/focus-1.0.csv", "utf8")
      .trim()
      .split("\n")
      .slice(0, 3)
      .map((line) => line.split(","));
    const book = join(dir, "bill.xlsx");
    await workbookOf(book, rows);
    const output = join(dir, "bill-out.csv");
    const run = await runMain(["evaluate", book, "-o", output]);
    expect(run.stderr).toBe(
      `impact-service: ${book}: a billing export's header (FOCUS 1.0–1.2) on the workbook's first sheet; a billing export is read as CSV, CSV.gz, Parquet or JSON: save the sheet as CSV UTF-8 and name that file\n`,
    );
    expect(run.code).toBe(2);
    expect(existsSync(output)).toBe(false);
  });

  it("reads a workbook from standard input (--input xlsx) as from its file", async () => {
    const book = join(dir, "piped.xlsx");
    await workbookOf(book, [
      ["kind", "quantity"],
      ["laptop", 2],
    ]);
    const stdout = sink();
    const stderr = sink();
    const code = await main(["evaluate", "-", "--input", "xlsx", "--criteria", "gwp"], {
      stdin: createReadStream(book),
      stdout: stdout.stream,
      stderr: stderr.stream,
    });
    expect([code, stdout.text().split("\n")[1]]).toEqual([0, expect.stringMatching(/^laptop,2,/)]);
  });
});

/**
 * Workbooks whose parts inflate far past their bytes, made small here (test/support/hostileFiles.ts):
 * each refused in one line naming the bound it passes, before its parts are inflated when its
 * directory tells, as they stream otherwise; nothing left in the temporary folder.
 */
describe("a workbook past its bounds", () => {
  const leftovers = () => readdirSync(tmpdir()).filter((name) => name.startsWith("impact-workbook-"));
  let before: string[];
  beforeAll(() => {
    before = leftovers();
  });

  it.each([
    [
      "a sheet of 3 GiB of spaces stored before the relationships (3.1 MB)",
      () => spacesWorkbook(),
      "impact-service: the workbook's parts hold 3,221,226,643 bytes unpacked, more than 536,870,912 (a workbook's bound): save the sheet as CSV UTF-8\n",
    ],
    [
      "6×10^7 shared strings (2.5 MB)",
      () => sharedStringsWorkbook(60_000_000),
      "impact-service: the workbook's parts hold 1,020,266,984 bytes unpacked, more than 536,870,912 (a workbook's bound): save the sheet as CSV UTF-8\n",
    ],
    [
      "2×10^6 shared strings of 13 bytes, within the part's bytes",
      () => sharedStringsWorkbook(2_000_000, "<si><t/></si>"),
      "impact-service: the workbook holds more than 1,000,000 shared strings (a workbook's bound): save the sheet as CSV UTF-8\n",
    ],
    [
      "rows each naming the last column (XFD): rows × 16,384 cells",
      () => farColumnsWorkbook(1300),
      "impact-service: the workbook's sheet holds more than 20,000,000 cells, rows × columns (a workbook's bound): save the sheet as CSV UTF-8\n",
    ],
    [
      "a directory that says 1,000 bytes of a sheet that inflates to 3 GiB",
      () => spacesWorkbook(1000),
      "impact-service: not a readable Excel workbook (.xlsx): damaged, a part inflating past the size its directory declares (too many bytes in the stream. expected 1000. got at least 16384)\n",
    ],
  ])(
    "refuses %s in one line, exit 2",
    async (_name, bytes, line) => {
      const book = join(dir, "hostile.xlsx");
      writeFileSync(book, bytes());
      const output = join(dir, "hostile-out.csv");
      const run = await runMain(["evaluate", book, "-o", output]);
      expect([run.code, run.stderr]).toEqual([2, line]);
      // No row written (a bound met while the sheet streams leaves the output opened, empty).
      expect(existsSync(output) ? readFileSync(output, "utf8") : "").toBe("");
      expect(leftovers()).toEqual(before);
    },
    120_000,
  );
});
