/**
 * The billing SQL on another engine (docs/billing.md, "Beyond one machine"): the DuckDB script
 * `impact-service sql` writes, run on a fresh DuckDB connection as a team runs it on its engine —
 * the export loaded as billing_export with a line_id, the coefficient table with the methods' rows
 * appended, each small table of the tables folder under its file's name, then the script and
 * nothing else. Every line of billing_result, in line_id's order, equals the line the command
 * writes (its Parquet output: numbers unrounded) to a relative 1e-12.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { billingImpactColumns, billingTerms, evaluateBillingExport } from "../../src/billing/bill.js";
import { writeCoefficientParquet } from "../../src/billing/coefficientParquet.js";
import { recognisedFormat } from "../../src/billing/formats/knownFormats.js";
import { DIALECTS, type Dialect } from "../../src/billing/portable/dialects.js";
import { formatHeader, relationHeader } from "../../src/billing/portable/header.js";
import { billingScript } from "../../src/billing/portable/script.js";
import { SMALL_TABLE_COLUMNS } from "../../src/billing/stages/lookUp.js";
import { METHOD_COEFFICIENTS_FILE, smallTableFiles } from "../../src/billing/stages/write.js";
import { coefficientCriteria, coefficientTable } from "../../src/service/coefficients.js";
import { billingFixture } from "../support/publicExports.js";
import { expectSameLines } from "./engines/cases.js";
import type { EngineRows } from "./engines/runner.js";
import { app, billingRequest, editionContext } from "./support.js";

const GRID_SERIES = new URL("../fixtures/grid/", import.meta.url).pathname;
const scratch = mkdtempSync(join(tmpdir(), "billing-portable-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type Row = Record<string, unknown>;

/** `impact-service coefficients --format parquet`: every instance type's rows. */
const coefficientsFile = join(scratch, "coefficients.parquet");
beforeAll(async () => {
  const context = editionContext("2.4.1");
  await writeCoefficientParquet(
    coefficientTable(context, { provider: null, load: null, criteria: null }),
    coefficientsFile,
  );
});

const quoted = (text: string) => `'${text.replaceAll("'", "''")}'`;

/**
 * The export as a team loads it: its columns as they are, each line numbered in the file's order;
 * with `emptyText`, a CSV's empty cell an empty text, as Hive's and Athena's CSV reader gives it.
 */
function exportSource(fixture: string, emptyText = false): string {
  const nothingNull = emptyText ? `, nullstr = ${quoted("\u0001")}` : "";
  return fixture.endsWith(".parquet")
    ? `SELECT * EXCLUDE (file_row_number), file_row_number + 1 AS line_id FROM read_parquet(${quoted(fixture)}, file_row_number = true)`
    : `SELECT *, row_number() OVER () AS line_id FROM read_csv(${quoted(fixture)}, header = true, all_varchar = true${nothingNull})`;
}

/** The tables the script reads, loaded from the coefficient file and the tables folder. */
async function loadTables(
  connection: DuckDBConnection,
  fixture: string,
  tables: string,
  grid: boolean,
  reversed = false,
  emptyText = false,
): Promise<void> {
  await connection.run(
    `CREATE TABLE billing_export AS ${exportSource(fixture, emptyText)}${reversed ? " ORDER BY line_id DESC" : ""}`,
  );
  await connection.run(
    `CREATE TABLE coefficients AS SELECT * FROM read_parquet(${quoted(coefficientsFile)})
     UNION ALL SELECT * FROM read_parquet(${quoted(join(tables, METHOD_COEFFICIENTS_FILE))})`,
  );
  for (const { file, table, parquet } of smallTableFiles(grid)) {
    if (table === "coefficients") continue;
    const path = quoted(join(tables, file));
    if (parquet) {
      await connection.run(`CREATE TABLE ${table} AS SELECT * FROM read_parquet(${path})`);
      continue;
    }
    // The CSV files are text: an empty cell NULL, "" an empty text; DOUBLE columns as numbers.
    const columns = (SMALL_TABLE_COLUMNS as Record<string, readonly (readonly [string, string])[]>)[table];
    await connection.run(
      `CREATE TABLE ${table} AS SELECT ${columns.map(([name, type]) => `CAST(${name} AS ${type}) AS ${name}`).join(", ")}
       FROM read_csv(${path}, header = true, all_varchar = true, allow_quoted_nulls = false)`,
    );
  }
}

interface Run {
  readonly script: EngineRows;
  readonly command: { readonly columns: readonly string[]; readonly rows: readonly Row[] };
}

/** The command's run of a fixture, with a series or not: its lines (Parquet) and its tables folder. */
interface CommandRun {
  readonly output: string;
  readonly tables: string;
  readonly impactColumns: readonly string[];
}

/** Each fixture's command run, once for the file: the tests of several dialects or orders read it. */
const commandRuns = new Map<string, Promise<CommandRun>>();

function commandRun(fixture: string, series: string | null): Promise<CommandRun> {
  const name = `${fixture.replaceAll("/", "-")}-${series ?? "none"}`;
  let run = commandRuns.get(name);
  if (run === undefined) {
    run = evaluatedByCommand(fixture, series, name);
    commandRuns.set(name, run);
  }
  return run;
}

async function evaluatedByCommand(fixture: string, series: string | null, name: string): Promise<CommandRun> {
  const edition = app.service.editions.get("2.4.1");
  if (edition === undefined) throw new Error("edition 2.4.1 is served");
  const context = editionContext("2.4.1");
  const output = join(scratch, `${name}.parquet`);
  const tables = join(scratch, `${name}.tables`);
  const grid = series === null ? null : { series: join(GRID_SERIES, series), zones: null };
  const summary = await evaluateBillingExport(
    billingTerms(context, edition.data.cloudRegions ?? [], {
      criteria: null,
      load: null,
      ranges: grid !== null,
    }),
    billingRequest(billingFixture(fixture), output, { tablesFolder: tables }),
    grid,
  );
  return { output, tables, impactColumns: summary.impactColumns };
}

/** The command's lines (Parquet) and the script's billing_result for a fixture, with a series or not. */
async function bothWays(
  fixture: string,
  series: string | null,
  dialect: Dialect,
  reversed = false,
  emptyText = false,
): Promise<Run> {
  const context = editionContext("2.4.1");
  const { output, tables, impactColumns: written } = await commandRun(fixture, series);
  const ranges = series !== null;
  const path = billingFixture(fixture);
  const instance = await DuckDBInstance.create(":memory:", { threads: "1" });
  const connection = await instance.connect();
  try {
    await loadTables(connection, path, tables, series !== null, reversed, emptyText);
    const described = await relationHeader(connection, "billing_export");
    // A nested export (BigQuery's Parquet): its records whole, their fields read by the format
    const header = { ...described, columns: described.columns.filter((column) => column !== "line_id") };
    const format = recognisedFormat(formatHeader(header));
    if (format === null) throw new Error(`${fixture} is a billing export`);
    const impactColumns = billingImpactColumns(coefficientCriteria(context, null), ranges);
    expect(impactColumns).toEqual(written);
    const request = { dialect, format, header, impactColumns, grid: series !== null, typeHintColumn: null };
    await connection.run(billingScript(request, false));
    const result = await connection.runAndReadAll("SELECT * FROM billing_result");
    const command = await connection.runAndReadAll(`SELECT * FROM read_parquet(${quoted(output)})`);
    return {
      script: { columns: result.columnNames(), rows: result.getRowsJson() },
      command: { columns: command.columnNames(), rows: command.getRowObjectsJson() as Row[] },
    };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** Every line in order, every column: texts equal, numbers to a relative 1e-12 (a record's fields as the command writes them). */
function expectSameLinesOf(run: Run, emptyIsNull = false): void {
  const { columns } = run.command;
  expectSameLines(run.script, run.command, columns.slice(0, columns.indexOf("matched_instance_type")), {
    emptyIsNull,
  });
  expect(run.script.rows.map((row) => Number(row[0]))).toEqual(run.command.rows.map((_, index) => index + 1));
}

const WITH_SHAPE: Dialect = { ...DIALECTS.duckdb, shape: "with" };

/** The fixtures every script is checked on (the command's runs of them shared by the tests). */
const FIXTURES_CHECKED = [
  "focus-1.0.csv",
  "focus-1.0-spec-only.csv",
  "focus-whole-bill.csv",
  "focus-whole-bill-blank-extensions.csv",
  "focus-1.0-services.csv",
  "focus-1.0-finops-sample.csv",
  "focus-1.2.parquet",
  "focus-bad-rows.csv",
  "cur.csv.gz",
  "cur-managed.csv",
  "cur-whole-bill.csv",
  "azure.csv",
  "azure-ea.csv",
  "azure-whole-bill.csv",
  "registry-azure.csv",
  "registry-cur.csv",
  "registry-focus.csv",
  "cur-1.0-legacy.csv",
  "oci-cost-report.csv",
  "azure-payg-legacy.csv",
  "gcp-bigquery-resource.csv",
  "gcp-bigquery-standard.csv.gz",
  "gcp-bigquery-resource.parquet",
  "cur-1.0-athena.parquet",
  "azure-ea-german.csv",
  // A DTU tier no resource limits list: named in the status by the scripts as by the command
  "arrivals/azure-sql-dtus-unknown-tier.csv",
  // Managed sizes by the catalogue, reasons true to their lines (issue 75)
  "arrivals/azure-managed-sizes.csv",
  "arrivals/cur-2.0-managed.csv",
  "arrivals/focus-reasons.csv",
  "arrivals/oci-gpu-and-units.csv",
  // Warehouses, search and notebooks, and what is named rather than guessed (issue 75's gaps)
  "arrivals/cur-2.0-warehouses-search.csv",
  "arrivals/azure-warehouses-search.csv",
  "arrivals/oci-heatwave-apex.csv",
  // Generative AI: Bedrock, Azure OpenAI, Vertex AI, and FOCUS carrying the three
  "genai-cur.csv",
  "genai-azure.csv",
  "genai-gcp.csv",
  "genai-focus.csv",
];

describe("the DuckDB script of `impact-service sql` on a fresh connection", () => {
  it.each(FIXTURES_CHECKED)("gives every line of %s as the command writes it, in order", async (fixture) => {
    expectSameLinesOf(await bothWays(fixture, null, DIALECTS.duckdb));
  });

  // Hive's and Athena's CSV reader gives an empty cell as an empty text where the command's gives
  // NULL: every column that tells what a line is reads both alike (its optional columns present
  // and empty, its empty charge types, units, regions)
  it.each(FIXTURES_CHECKED.filter((fixture) => !fixture.endsWith(".parquet")))(
    "gives every line of %s read with its empty cells as empty texts as the command writes it",
    async (fixture) => {
      expectSameLinesOf(await bothWays(fixture, null, DIALECTS.duckdb, false, true), true);
    },
  );

  it.each([
    ["grid/focus.csv", "plain.csv"],
    ["grid/focus-spellings.csv", "plain.csv"],
    ["grid/cur.csv", "electricity-maps-hourly.csv"],
    ["grid/azure.csv", "ember-monthly.csv"],
    // A spreadsheet's dates: the order the file decides, and dates no order reads
    ["arrivals/dates-day-first.csv", "half-days.csv"],
    ["arrivals/dates-both-orders.csv", "half-days.csv"],
  ])("gives every line of %s with the series %s as the command writes it", async (fixture, series) => {
    const run = await bothWays(fixture, series, DIALECTS.duckdb);
    expectSameLinesOf(run);
    expect(run.command.rows.filter((row) => row.grid_gco2_per_kwh !== null).length).toBeGreaterThan(1);
  });

  it.each([
    ["focus-whole-bill.csv", null],
    ["grid/azure.csv", "ember-monthly.csv"],
    ["arrivals/dates-month-first.csv", "half-days.csv"],
  ])(
    "gives the same lines of %s when its views are one WITH list (Trino's and BigQuery's shape)",
    async (fixture, series) => {
      expectSameLinesOf(await bothWays(fixture, series, WITH_SHAPE));
    },
  );

  it("reads an empty cell of a CSV as none when the engine gives it as an empty text (Hive, Athena)", async () => {
    // A whole Azure bill followed by lines whose ChargeType cells are empty: the command reads them
    // as usage, instance lines whose kWh per cost the by-cost lines take; read as empty texts
    // (Trino's Hive catalog) they are the same lines
    const run = await bothWays(
      "grid/azure-whole-bill-monthly.csv",
      "ember-monthly.csv",
      DIALECTS.duckdb,
      false,
      true,
    );
    expectSameLinesOf(run, true);
    const unpriced = run.command.rows.filter((row) => row.ChargeType === null && row.method === "instance");
    // Each a D4ads v5's 24 hours (the rest checked against the script above)
    expect(unpriced).toHaveLength(3);
  });

  it("refuses an export not read in line_id's order rather than pair its lines by position", async () => {
    // The export's own columns are read again beside the computed ones: the positions must be the lines'
    await expect(bothWays("focus-1.0.csv", null, DIALECTS.duckdb, true)).rejects.toThrow(
      /billing_export is not read in line_id's order/,
    );
    // Other engines sort the result whole, and read the same table as it is
    expectSameLinesOf(await bothWays("focus-1.0.csv", null, { ...DIALECTS.duckdb, order: "sorted" }, true));
  });
});
