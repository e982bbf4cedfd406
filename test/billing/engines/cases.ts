/**
 * What every engine's comparison shares (docs/billing.md, "Beyond one machine"): the fixtures —
 * every format and every way a file comes (CSV, CSV.gz, Parquet flat and nested), with and without
 * a grid series —, the command's lines for each (`evaluate`, its Parquet output: numbers
 * unrounded), the scripts `impact-service sql` writes for an engine, the small tables
 * `impact-service tables --keys` builds from the keys script's result, and the comparison of
 * billing_result with the command's lines: every line, every column, texts equal, numbers to a
 * relative 1e-12.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Writable } from "node:stream";
import { DuckDBInstance } from "@duckdb/node-api";
import { expect } from "vitest";
import { billingTerms, evaluateBillingExport } from "../../../src/billing/bill.js";
import { writeCoefficientParquet } from "../../../src/billing/coefficientParquet.js";
import { writeTablesFromKeys } from "../../../src/billing/portable/kindTables.js";
import { sqlMain } from "../../../src/cli/portable.js";
import { coefficientTable } from "../../../src/service/coefficients.js";
import { keptResult } from "../../support/keptResults.js";
import { app, billingRequest, editionContext } from "../support.js";
import type { EngineRows } from "./runner.js";

export const FIXTURES = new URL("../../fixtures/billing/", import.meta.url).pathname;
const GRID_SERIES = new URL("../../fixtures/grid/", import.meta.url).pathname;
const EDITION = "2.4.1";

export interface EngineCase {
  /** Under test/fixtures/billing/. */
  readonly fixture: string;
  /** Under test/fixtures/grid/: the lines' gwp use from this series (with --ranges). */
  readonly series: string | null;
}

/**
 * Each format once, each way its file comes once (CSV, CSV.gz, Parquet flat and nested), the
 * whole bill's methods of the three formats that have a whole-bill fixture, and a grid series of
 * two of its three kinds (hourly, monthly). Every fixture runs on DuckDB
 * (test/billing/portable.test.ts: the FinOps sample, bad rows, Azure's German file and the plain
 * series included); on Spark and Trino a fixture costs 10-40 s of planning whatever its size, so
 * a case carries what it can at once: CUR's whole bill comes with the hourly series, its lines
 * followed by those of grid/cur.csv (which the series covers: hours of two zones), and Azure's
 * with the monthly one, its lines followed by those of grid/azure.csv (their other cells empty:
 * Trino's Hive catalog reads them as empty texts, which the scripts read as none), so that a
 * series is not one more planning. The files run a few side by side (engines/runner.py: a session
 * each), so that `npm test` (what CI runs) compares all eleven on each engine in about the time
 * three took one after the other. Generative AI's three providers are a case each: their lines
 * come in their own formats' files (docs/methodology.md, "Generative AI on a bill").
 */
export const ENGINE_CASES: readonly EngineCase[] = [
  ...[
    // focus-whole-bill.csv's lines, then the same with ServiceProviderName and the x_ columns
    // present and empty: an empty text reads as none (Hive's CSV reader has no NULL)
    "focus-whole-bill-blank-extensions.csv",
    "focus-1.2.parquet",
    "cur-1.0-athena.parquet",
    "gcp-bigquery-standard.csv.gz",
    "gcp-bigquery-resource.parquet",
    "oci-cost-report.csv",
  ].map((fixture) => ({ fixture, series: null })),
  { fixture: "grid/cur-whole-bill-hourly.csv", series: "electricity-maps-hourly.csv" },
  { fixture: "grid/azure-whole-bill-monthly.csv", series: "ember-monthly.csv" },
  // Generative AI's lines: Bedrock in a CUR, Azure OpenAI's meters, Vertex AI in Google's export
  ...["genai-cur.csv", "genai-azure.csv", "genai-gcp.csv"].map((fixture) => ({ fixture, series: null })),
];

export const caseName = (of: EngineCase) =>
  `${of.fixture}${of.series === null ? "" : ` with the series ${of.series}`}`;

/** The folder a case's files are written to (in the engine's session `session`, when named). */
export function caseFolder(scratch: string, of: EngineCase, session = ""): string {
  const folder = join(scratch, caseName(of).replaceAll(/[^A-Za-z0-9.-]+/g, "_"), session);
  mkdirSync(folder, { recursive: true });
  return folder;
}

const gridOf = (of: EngineCase) =>
  of.series === null ? null : { series: join(GRID_SERIES, of.series), zones: null };

/**
 * The code a kept result of this file is computed by, besides src/ and data/
 * (test/support/keptResults.ts): this file, and the billing tests' app and terms.
 */
const CODE = [
  new URL(import.meta.url),
  new URL("../support.ts", import.meta.url),
  new URL("../../support/app.ts", import.meta.url),
];

/**
 * `impact-service coefficients --format parquet`: every instance type's rows, computed once for the
 * engines' files (kept: test/support/keptResults.ts) and copied to `file`.
 */
export async function writeCoefficients(file: string): Promise<void> {
  const kept = await keptResult(["engines: coefficients.parquet", EDITION], CODE, (folder) =>
    writeCoefficientParquet(
      coefficientTable(editionContext(EDITION), { provider: null, load: null, criteria: null }),
      join(folder, "coefficients.parquet"),
    ),
  );
  copyFileSync(join(kept, "coefficients.parquet"), file);
}

/**
 * `impact-service evaluate <fixture> -o command.parquet` (with the series and --ranges): its
 * lines' file, computed once for the engines' files, Spark's and Trino's comparing the same
 * cases (kept by the fixture's and the series' bytes: test/support/keptResults.ts).
 */
export async function commandLines(of: EngineCase): Promise<string> {
  const grid = gridOf(of);
  const kept = await keptResult(
    [
      "engines: command.parquet",
      EDITION,
      of.fixture,
      readFileSync(join(FIXTURES, of.fixture)),
      grid === null ? "" : readFileSync(grid.series),
    ],
    CODE,
    async (folder) => {
      const edition = app.service.editions.get(EDITION);
      if (edition === undefined) throw new Error(`edition ${EDITION} is served`);
      await evaluateBillingExport(
        billingTerms(editionContext(EDITION), edition.data.cloudRegions ?? [], {
          criteria: null,
          load: null,
          ranges: grid !== null,
        }),
        billingRequest(join(FIXTURES, of.fixture), join(folder, "command.parquet")),
        grid,
      );
    },
  );
  return join(kept, "command.parquet");
}

/** What `impact-service sql --engine <engine> --header <header> …` writes (its exit code checked). */
export async function sqlScript(
  engine: string,
  header: string,
  of: EngineCase,
  options: { readonly keys?: boolean; readonly more?: readonly string[] } = {},
): Promise<string> {
  let out = "";
  let err = "";
  const sink = (add: (text: string) => void) =>
    new Writable({
      write(chunk, _encoding, done) {
        add(chunk.toString());
        done();
      },
    });
  const code = await sqlMain(
    [
      "--engine",
      engine,
      "--header",
      header,
      "--edition",
      EDITION,
      ...(of.series === null ? [] : ["--grid", "--ranges"]),
      ...(options.keys === true ? ["--keys"] : []),
      ...(options.more ?? []),
    ],
    {
      stdout: sink((text) => {
        out += text;
      }),
      stderr: sink((text) => {
        err += text;
      }),
    },
  );
  if (code !== 0) throw new Error(`sql --engine ${engine} --header ${header}: exit ${code}: ${err}`);
  return out;
}

/** `impact-service tables --keys <keys> --tables <folder> --format parquet` (with the series). */
export async function tablesFromKeys(of: EngineCase, keys: string, folder: string): Promise<void> {
  const edition = app.service.editions.get(EDITION);
  await writeTablesFromKeys(editionContext(EDITION), edition?.data.cloudRegions ?? [], {
    keys,
    folder,
    parquet: true,
    criteria: null,
    load: null,
    grid: gridOf(of),
  });
}

/**
 * billing_line_kinds as an engine's console saves a result as CSV: a header, every text quoted
 * (an empty text `""`), NULL an empty cell (docs/billing.md, the keys file).
 */
export function writeKeysCsv(rows: EngineRows, file: string): void {
  const cell = (value: unknown) =>
    value === null || value === undefined
      ? ""
      : typeof value === "number"
        ? String(value)
        : `"${String(value).replaceAll('"', '""')}"`;
  writeFileSync(
    file,
    `${[rows.columns.join(","), ...rows.rows.map((row) => row.map(cell).join(","))].join("\n")}\n`,
  );
}

type Row = Record<string, unknown>;

/** The command's lines from its Parquet output, as DuckDB reads them (records flat, as written). */
export async function readCommandLines(file: string): Promise<{ columns: string[]; rows: Row[] }> {
  const instance = await DuckDBInstance.create(":memory:", { threads: "1" });
  const connection = await instance.connect();
  try {
    const reader = await connection.runAndReadAll(
      `SELECT * FROM read_parquet('${file.replaceAll("'", "''")}')`,
    );
    return { columns: reader.columnNames(), rows: reader.getRowObjectsJson() as Row[] };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** How an engine's rows are read against the command's. */
export interface Reading {
  /** Column names compared without case (Trino's and Hive's catalogs keep them lower case). */
  readonly foldedNames?: boolean;
  /** Lines paired by their export's columns, not by line_id's order (a UUID: no order). */
  readonly unordered?: boolean;
  /** An empty text read as NULL in the export's own columns (Hive's CSV reader has no NULL). */
  readonly emptyIsNull?: boolean;
}

/** A time as text: the instant it names (engines write `T` or a blank, a fraction or none). */
const TIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2}(?:\.\d+)?)(Z|[+-]\d{2}(?::?\d{2})?| UTC)?$/;

/** A value in one form for both sides: times as their instant, records' and lists' JSON texts parsed. */
function plainValue(value: unknown): unknown {
  if (typeof value === "string") {
    const time = TIME.exec(value);
    if (time !== null) {
      const zone = time[3] === undefined || time[3] === " UTC" ? "Z" : time[3];
      const instant = Date.parse(`${time[1]}T${time[2]}${zone.length === 3 ? `${zone}:00` : zone}`);
      if (!Number.isNaN(instant)) return `instant ${instant}`;
    }
    return value;
  }
  if (Array.isArray(value)) return value.map(plainValue);
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, plainValue(item)]));
  return value;
}

/** The engine's rows as objects named as the command names its columns (records one level flat). */
function engineRows(rows: EngineRows, commandColumns: readonly string[], reading: Reading): Row[] {
  const name = (column: string) => (reading.foldedNames === true ? column.toLowerCase() : column);
  const wanted = new Map(commandColumns.map((column) => [name(column), column]));
  return rows.rows.map((values) => {
    const row: Row = {};
    rows.columns.forEach((column, index) => {
      const value = values[index];
      const own = wanted.get(name(column));
      if (own === undefined && value !== null && typeof value === "object" && !Array.isArray(value)) {
        // A record the command wrote flat: its fields as `record.field`
        for (const [field, item] of Object.entries(value)) {
          row[wanted.get(name(`${column}.${field}`)) ?? `${column}.${field}`] = item;
        }
      } else if (own === undefined && value === null) {
        // A record NULL on this line: each of its fields the command wrote, NULL
        const prefix = name(`${column}.`);
        const fields = commandColumns.filter((wantedColumn) => name(wantedColumn).startsWith(prefix));
        if (fields.length === 0) row[column] = null;
        for (const field of fields) row[field] = null;
      } else row[own ?? column] = value;
    });
    return row;
  });
}

/** Every line, every column: texts equal, numbers to a relative 1e-12. */
export function expectSameLines(
  engine: EngineRows,
  command: { readonly columns: readonly string[]; readonly rows: readonly Row[] },
  inputColumns: readonly string[],
  reading: Reading = {},
): void {
  const flat = engineRows(engine, command.columns, reading);
  expect(flat).toHaveLength(command.rows.length);
  expect(new Set(command.rows.map((row) => row.status))).toContain("evaluated");
  for (const row of flat) expect(Object.keys(row).sort()).toEqual(["line_id", ...command.columns].sort());
  const input = (row: Row) =>
    JSON.stringify(
      inputColumns.map((column) => {
        const value = plainValue(row[column]);
        return reading.emptyIsNull === true && value === "" ? null : value;
      }),
    );
  // Paired by line_id's order, or (a UUID) by the export's own columns: a line's output is a function of them
  const byInput = (rows: readonly Row[]) => [...rows].sort((a, b) => (input(a) < input(b) ? -1 : 1));
  const ordered =
    reading.unordered === true
      ? byInput(flat)
      : [...flat].sort((a, b) => Number(a.line_id) - Number(b.line_id));
  const expected = reading.unordered === true ? byInput(command.rows) : command.rows;
  ordered.forEach((line, index) => {
    const wanted = expected[index];
    for (const column of command.columns) {
      let [value, want] = [plainValue(line[column]), plainValue(wanted[column])];
      if (reading.emptyIsNull === true && inputColumns.includes(column)) {
        if (value === "") value = null;
        if (want === "") want = null;
      }
      const where = `${column} of line ${index + 1}`;
      if (typeof want === "number" && typeof value === "number") {
        const scale = Math.max(Math.abs(value), Math.abs(want));
        expect(
          scale === 0 ? 0 : Math.abs(value - want) / scale,
          `${where}: ${value} vs ${want}`,
        ).toBeLessThanOrEqual(1e-12);
      } else if (typeof want === "number" && typeof value === "string") {
        // A number of the export read as text by the engine's CSV reader: the same digits
        expect(Number(value), where).toBe(want);
      } else expect(value, where).toEqual(want);
    }
  });
}
