/**
 * What a run writes of an input's numbers and names, through the command's function (`runMain`,
 * what the bin awaits; the tests read only what it writes): a bill's quantity
 * or cost that is not a finite number in range (`NaN`, `Infinity`, `1e308`) is a bad row counted in
 * the summary, never a `nan` or `inf` cell or an empty number; `-0` is written 0; an input column
 * named like an output column is kept as `input_<name>` (inventory and bill, CSV, NDJSON and
 * Parquet); a name with escape sequences reaches the terminal as text. Every input keeps its bytes.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import ExcelJS from "exceljs";
import { afterAll, describe, expect, it } from "vitest";
import { runMain } from "../support/cli.js";

const SLOW = { timeout: 180_000 };
const scratch = mkdtempSync(join(tmpdir(), "cli-cells-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let folders = 0;
function folder(): string {
  const path = join(scratch, `case-${folders++}`);
  mkdirSync(path);
  return path;
}

const FOCUS_HEADER =
  "BilledCost,ChargeCategory,ConsumedQuantity,ConsumedUnit,ProviderName,RegionId,ServiceName,SubAccountId,x_ServiceCode,x_Operation,x_UsageType,ChargePeriodStart,ChargePeriodEnd";
/** A FOCUS line of an m5.xlarge hour in eu-west-3 with this cost and quantity. */
const focusLine = (cost: string, quantity: string, service = "Amazon Elastic Compute Cloud") =>
  `${cost},Usage,${quantity},Hrs,AWS,eu-west-3,${service},sub-1,AmazonEC2,RunInstances,EUW3-BoxUsage:m5.xlarge,2024-01-01T01:00:00Z,2024-01-01T02:00:00Z`;

/** Writes the files, runs the command, and checks that the files it was given kept their bytes. */
async function runOn(files: Record<string, string>, args: (dir: string) => string[]) {
  const dir = folder();
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const run = await runMain(args(dir));
  for (const [name, text] of Object.entries(files)) expect(readFileSync(join(dir, name), "utf8")).toBe(text);
  return { ...run, dir };
}

/** The control characters of a text other than its line ends. */
const controlsOf = (text: string) =>
  [...text].filter((character) => {
    const code = character.charCodeAt(0);
    return character !== "\n" && (code < 0x20 || (code >= 0x7f && code <= 0x9f));
  });

const rowsOf = (text: string) => parse(text, { columns: true }) as Record<string, string>[];
const headerOf = (text: string) => text.slice(0, text.indexOf("\n")).split(",");

/** The columns of a Parquet file, as DuckDB reads them. */
function parquetColumns(file: string): string[] {
  const script = `const {DuckDBInstance}=require("@duckdb/node-api");(async()=>{const c=await (await DuckDBInstance.create()).connect();const r=await c.runAndReadAll("DESCRIBE SELECT * FROM read_parquet('${file}')");process.stdout.write(JSON.stringify(r.getRowObjects().map((x)=>x.column_name)))})()`;
  return JSON.parse(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" })) as string[];
}

describe.concurrent("a bill's numbers that are not", () => {
  it(
    "NaN, Infinity, 1e308 quantities and costs are bad rows, counted; -0 is 0; no nan, inf or empty number",
    SLOW,
    async () => {
      const bill = [
        FOCUS_HEADER,
        focusLine("0.2", "1"),
        ...["NaN", "Infinity", "-Infinity", "1e308", "inf"].map((quantity) => focusLine("0.2", quantity)),
        ...["NaN", "1e308", "-Infinity"].map((cost) => focusLine(cost, "1")),
        focusLine("-0", "-0"),
        "",
      ].join("\n");
      const { code, stdout, stderr } = await runOn({ "bill.csv": bill }, (dir) => [
        "evaluate",
        join(dir, "bill.csv"),
        "--edition",
        "2.4.1",
      ]);
      expect(code, stderr).toBe(0);
      const rows = rowsOf(stdout);
      expect(rows.map((row) => row.status.startsWith("bad row"))).toEqual([
        false,
        ...new Array(8).fill(true),
        false,
      ]);
      expect(rows[9].hours).toBe("0");
      expect(rows[9].gwp_use_kgco2eq).toBe("0");
      expect(stderr).toContain("  rows read: 10\n");
      expect(stderr).toContain("  bad rows: 8\n");
      // The run's cells (the file's own are kept as written).
      const own = new Set(FOCUS_HEADER.split(","));
      const cells = rows.flatMap((row) =>
        Object.entries(row).flatMap(([name, cell]) => (own.has(name) ? [] : [cell])),
      );
      expect(cells.filter((cell) => /^-?(nan|inf|infinity)$/i.test(cell) || cell === "-0")).toEqual([]);
      // Every figure of the summary is a number: no "gwp use:  kgCO2eq".
      expect(stderr).not.toMatch(/: +(kg|MJ)|\b(nan|inf)\b|\(\s*\)/i);
      expect(stderr).toMatch(/gwp use: [0-9.,]+ (t|kg|g|mg)CO2eq/);
    },
  );
});

describe.concurrent("an inventory's numbers that are not", () => {
  it(
    "hours of NaN, Infinity, 1e308 or 0x10 are bad rows naming the column; no nan, inf or -0 cell",
    SLOW,
    async () => {
      const inventory = [
        "kind,hours",
        "laptop,8760",
        "laptop,NaN",
        "laptop,Infinity",
        "laptop,1e308",
        "laptop,0x10",
        "",
      ].join("\n");
      const { code, stdout, stderr } = await runOn({ "inventory.csv": inventory }, (dir) => [
        "evaluate",
        join(dir, "inventory.csv"),
        "--edition",
        "2.4.1",
        "--criteria",
        "gwp",
      ]);
      expect(code, stderr).toBe(0);
      expect(rowsOf(stdout).map((row) => row.status)).toEqual([
        "evaluated",
        'bad row: hours is not a number: "NaN"',
        'bad row: hours is not a number: "Infinity"',
        'bad row: hours must be a finite number, 0 or of magnitude between 1e-30 and 1e30: "1e308"',
        'bad row: hours is not a number: "0x10"',
      ]);
      const cells = rowsOf(stdout).flatMap((row) =>
        Object.entries(row).flatMap(([name, cell]) => (name === "hours" ? [] : [cell])),
      );
      expect(cells.filter((cell) => /^-?(nan|inf|infinity)$/i.test(cell) || cell === "-0")).toEqual([]);
      expect(stderr).toContain("5 rows (1 ok, 4 errors, 0 with warnings)");
    },
  );
});

describe.concurrent("an input column named like an output column", () => {
  const inventory =
    "kind,quantity,energy_kwh,grid_gco2_per_kwh,status,usage_location,period_start,period_end\n" +
    "laptop,1,5,7,mine,FRA,2024-01-01T00:00:00Z,2024-01-01T02:00:00Z\n";
  const args = (dir: string, ...more: string[]) => [
    "evaluate",
    join(dir, "inventory.csv"),
    "--edition",
    "2.4.1",
    "--criteria",
    "gwp",
    "--grid-intensity",
    join(dir, "grid.csv"),
    ...more,
  ];
  const grid = readFileSync("test/fixtures/grid/plain.csv", "utf8");

  it(
    "an inventory's energy_kwh, grid_gco2_per_kwh, status: input_<name>, each name once (CSV)",
    SLOW,
    async () => {
      const { code, stdout, stderr } = await runOn({ "inventory.csv": inventory, "grid.csv": grid }, (dir) =>
        args(dir),
      );
      expect(code, stderr).toBe(0);
      const header = headerOf(stdout);
      expect(new Set(header).size).toBe(header.length);
      expect(header.slice(0, 5)).toEqual([
        "kind",
        "quantity",
        "input_energy_kwh",
        "input_grid_gco2_per_kwh",
        "input_status",
      ]);
      const [row] = rowsOf(stdout);
      expect([row.input_energy_kwh, row.input_grid_gco2_per_kwh, row.input_status]).toEqual([
        "5",
        "7",
        "mine",
      ]);
      // The run's own: FRA's series over the two hours (40 and 50 gCO2/kWh), evaluated.
      expect([row.grid_gco2_per_kwh, row.status]).toEqual(["45", "evaluated"]);
    },
  );

  it("an inventory's columns in NDJSON: the same names", SLOW, async () => {
    const { code, stdout } = await runOn({ "inventory.csv": inventory, "grid.csv": grid }, (dir) =>
      args(dir, "--format", "ndjson"),
    );
    expect(code).toBe(0);
    const first = JSON.parse(stdout.split("\n")[0]) as { columns: Record<string, string> };
    expect(Object.keys(first.columns)).toEqual([
      "kind",
      "quantity",
      "input_energy_kwh",
      "input_grid_gco2_per_kwh",
      "input_status",
      "usage_location",
      "period_start",
      "period_end",
    ]);
  });

  it("an inventory's columns in a workbook: the same names, each once", SLOW, async () => {
    const { code, dir } = await runOn({ "inventory.csv": inventory, "grid.csv": grid }, (dir) =>
      args(dir, "-o", join(dir, "out.xlsx")),
    );
    expect(code).toBe(0);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(join(dir, "out.xlsx"));
    const sheet = workbook.getWorksheet("rows") as ExcelJS.Worksheet;
    const header = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
    expect(new Set(header).size).toBe(header.length);
    expect(header.slice(2, 5)).toEqual(["input_energy_kwh", "input_grid_gco2_per_kwh", "input_status"]);
    expect(header).toContain("energy_kwh");
    expect(header).toContain("grid_gco2_per_kwh");
  });

  const bill = `${FOCUS_HEADER},grid_gco2_per_kwh\n${focusLine("0.2", "1")},abc\n`;
  for (const format of ["csv", "parquet"]) {
    it(
      `a bill's grid_gco2_per_kwh with a series: input_grid_gco2_per_kwh, no crash (${format})`,
      SLOW,
      async () => {
        const { code, stderr, dir } = await runOn({ "bill.csv": bill, "grid.csv": grid }, (dir) => [
          "evaluate",
          join(dir, "bill.csv"),
          "--edition",
          "2.4.1",
          "--criteria",
          "gwp",
          "--grid-intensity",
          join(dir, "grid.csv"),
          "-o",
          join(dir, `lines.${format}`),
        ]);
        expect(code, stderr).toBe(0);
        const columns =
          format === "csv"
            ? headerOf(readFileSync(join(dir, "lines.csv"), "utf8"))
            : parquetColumns(join(dir, "lines.parquet"));
        expect(new Set(columns).size).toBe(columns.length);
        expect(columns).toContain("input_grid_gco2_per_kwh");
        expect(columns).toContain("grid_gco2_per_kwh");
        expect(columns).not.toContain("grid_gco2_per_kwh_1");
      },
    );
  }
});

describe.concurrent("names with escape sequences", () => {
  const CLEAR = "\u001b[2J";
  const TITLE = "\u001b]0;owned\u0007";

  it("a zone, a service and a file name reach stderr as text (\\x1b), never as sequences", SLOW, async () => {
    const zone = `Z${CLEAR}`;
    const bill = [
      FOCUS_HEADER,
      focusLine("0.2", "1"),
      `0.5,Usage,3,Requests,AWS,eu-west-3,Evil${TITLE},sub-1,AWSEvil,Call,EUW3-Requests,2024-01-01T01:00:00Z,2024-01-01T02:00:00Z`,
      "",
    ].join("\n");
    const name = `bill${CLEAR}.csv`;
    const { code, stderr } = await runOn(
      {
        [name]: bill,
        "grid.csv": `zone,start,gco2_per_kwh\n${zone},2024-01-01T00:00:00Z,40\n`,
        "zones.csv": `provider,place,zone\naws,eu-west-3,${zone}\n`,
      },
      (dir) => [
        "evaluate",
        join(dir, name),
        "--edition",
        "2.4.1",
        "--criteria",
        "gwp",
        "--grid-intensity",
        join(dir, "grid.csv"),
        "--grid-zones",
        join(dir, "zones.csv"),
      ],
    );
    expect(code, stderr).toBe(0);
    expect(controlsOf(stderr)).toEqual([]);
    expect(stderr).toContain("Z\\x1b[2J");
    expect(stderr).toContain("Evil\\x1b]0;owned\\x07");
    expect(stderr).toContain("bill\\x1b[2J.csv");
  });

  it("an inventory's file and zone names reach stderr as text", SLOW, async () => {
    const zone = `Z${TITLE}`;
    const name = `inv${CLEAR}.csv`;
    const { code, stderr } = await runOn(
      {
        [name]: `kind,usage_location,period_start,period_end\nlaptop,${zone},2024-01-01T00:00:00Z,2024-01-01T01:00:00Z\n`,
        "grid.csv": "zone,start,gco2_per_kwh\nFRA,2024-01-01T00:00:00Z,40\n",
      },
      (dir) => ["evaluate", join(dir, name), "--edition", "2.4.1", "--grid-intensity", join(dir, "grid.csv")],
    );
    expect(code).toBeLessThanOrEqual(1);
    expect(controlsOf(stderr)).toEqual([]);
    expect(stderr).toContain("inv\\x1b[2J.csv");
  });
});
