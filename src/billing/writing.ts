/*
 * The writing pass: every line of the export with its impacts (sql/billing_located.sql through
 * DuckDB's lookup, then sql/billing_impacts.sql), the file's columns first, written as CSV or
 * Parquet.
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { identifier, literal } from "../duckdb/database.js";
import { FORMULA_FIRST_CHARACTERS, NUMBER } from "../output/csv.js";
import { createGridViews, GRID_INTENSITY_COLUMN, gridLinesQueries, gridSourceColumn } from "./grid.js";
import { impactsQuery } from "./queries.js";

type OutputFormat = "csv" | "parquet";

/**
 * A text column as CSV writes it for a spreadsheet: a cell a spreadsheet would run as a formula
 * (`=`, `+`, `-`, `@`, tab or carriage return first, and not a number) gets a leading `'`, as
 * src/output/csv.ts writes an inventory's (OWASP, "CSV Injection": a cost export's tags are
 * anyone's text).
 */
const FORMULA_FIRST_CODES = FORMULA_FIRST_CHARACTERS.map((character) => character.charCodeAt(0)).join(", ");

function formulaSafe(column: string, source = column): string {
  const cell = identifier(source);
  // The first character's code point first: a regular expression on every cell costs more. Not
  // `IN (…)`: DuckDB rewrites each IN list into a join whose build every thread holds, and a
  // 20-line Azure export of 55 text columns ran out of 667 MB so.
  return `CASE WHEN list_contains([${FORMULA_FIRST_CODES}], ascii(${cell}))
      AND NOT regexp_matches(${cell}, ${literal(NUMBER.source)})
    THEN '''' || ${cell} ELSE ${cell} END AS ${identifier(column)}`;
}

/** Where a file is written until complete: beside it, renamed in place once whole. */
export function partialOf(file: string): string {
  return `${file}.partial`;
}

/** The column of a group's count of lines in the sums per group. */
export const GROUP_LINES_COLUMN = "lines";

/** How each column the run adds is written: a number, text from anyone, or the run's own words. */
type AddedKind = "number" | "text" | "plain";

/** The columns the run writes after the file's, in order, with how each is written. */
function addedColumnKinds(impactColumnNames: readonly string[], grid: boolean): [string, AddedKind][] {
  return [
    ["matched_instance_type", "text"],
    ["hours", "number"],
    ["method", "plain"],
    ["method_quantity", "number"],
    ["method_unit", "plain"],
    ["energy_kwh", "number"],
    ...(grid ? [[GRID_INTENSITY_COLUMN, "number"] as [string, AddedKind]] : []),
    ...impactColumnNames.map((name): [string, AddedKind] => [name, "number"]),
    ["status", "text"],
    ["warnings", "text"],
  ];
}

/** The names of the columns the run writes after the file's (with a grid series, its intensity's). */
export function addedColumns(impactColumnNames: readonly string[], grid: boolean): string[] {
  return addedColumnKinds(impactColumnNames, grid).map(([name]) => name);
}

/** The file's columns as written: their names, and those holding maps, structs or lists (JSON in CSV). */
export interface WrittenColumns {
  readonly names: readonly string[];
  readonly nested: ReadonlySet<string>;
}

/**
 * The output's columns: the file's, then what the billing adds (numbers as text without float
 * noise in CSV; text cells formula-safe in CSV; maps, structs and lists as JSON in CSV).
 */
function outputSelect(
  input: WrittenColumns,
  textColumns: ReadonlySet<string>,
  impactColumnNames: readonly string[],
  csv: boolean,
  grid: boolean,
): string {
  // With a grid series, its gwp use and warnings are written in place of the edition's.
  const source = (column: string) => (grid ? gridSourceColumn(column, impactColumnNames) : column);
  const number = (column: string) =>
    csv
      ? `printf('%.10g', ${identifier(source(column))}) AS ${identifier(column)}`
      : source(column) === column
        ? identifier(column)
        : `${identifier(source(column))} AS ${identifier(column)}`;
  const text = (column: string) =>
    csv && textColumns.has(column)
      ? formulaSafe(column, source(column))
      : source(column) === column
        ? identifier(column)
        : `${identifier(source(column))} AS ${identifier(column)}`;
  const own = (column: string) =>
    csv && input.nested.has(column)
      ? `CAST(to_json(${identifier(column)}) AS VARCHAR) AS ${identifier(column)}`
      : text(column);
  const added = { number, text, plain: identifier };
  return [
    ...input.names.map(own),
    ...addedColumnKinds(impactColumnNames, grid).map(([column, kind]) => added[kind](column)),
  ].join(", ");
}

/** The text of the queries the writing pass runs over billing_located (what they read of it). */
export function locatedReadBy(impactColumnNames: readonly string[], grid: boolean): string {
  const impacts = impactsQuery(impactColumnNames);
  return grid ? `${impacts}\n${gridLinesQueries(impactColumnNames)}` : impacts;
}

/** The names of the text (VARCHAR) columns of a query's result. */
async function textColumnsOf(connection: DuckDBConnection, query: string): Promise<Set<string>> {
  const reader = await connection.runAndReadAll(`DESCRIBE ${query}`);
  return new Set(
    reader
      .getRowObjects()
      .filter((row) => String(row.column_type) === "VARCHAR")
      .map((row) => String(row.column_name)),
  );
}

/**
 * Lines of a written Parquet row group: the writer holds a row group until it is complete, and
 * DuckDB's 122,880 took a 10,000,000-line run of a 56-column export to 1.10 GB against 941 MB
 * (42.2 against 39.7–40.8 s; bench/README.md, "A real width").
 */
const PARQUET_ROW_GROUP = 30_720;

export function copyOptions(format: OutputFormat): string {
  return format === "csv"
    ? "(FORMAT csv, HEADER true)"
    : `(FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE ${PARQUET_ROW_GROUP})`;
}

interface LinesTarget {
  readonly file: string;
  readonly format: OutputFormat;
  /** With a grid series: its gwp use, warnings and intensity (src/billing/grid.ts). */
  readonly grid?: boolean;
}

/**
 * Writes the lines of the view billing_located with their impacts, in their order. Returns the
 * number of lines written.
 */
export async function writeLines(
  connection: DuckDBConnection,
  input: WrittenColumns,
  impactColumnNames: readonly string[],
  target: LinesTarget,
): Promise<number> {
  const grid = target.grid === true;
  const impacts = impactsQuery(impactColumnNames);
  const lines = grid ? await createGridViews(connection, impacts, impactColumnNames) : impacts;
  const csv = target.format === "csv";
  const textColumns = csv ? await textColumnsOf(connection, lines) : new Set<string>();
  const threads = await connection.runAndReadAll("SELECT current_setting('threads') AS threads");
  // One thread: DuckDB 1.5's ordered writer on two threads took twice the CPU for the same wall
  // time (1,000,000 lines of 56 columns, CSV: 15.2 against 6.4 CPU s; bench/README.md).
  await connection.run("SET threads = 1");
  try {
    const result = await connection.run(
      `COPY (SELECT ${outputSelect(input, textColumns, impactColumnNames, csv, grid)}
         FROM (${lines}) lines)
       TO ${literal(target.file)} ${copyOptions(target.format)}`,
    );
    return result.rowsChanged;
  } finally {
    await connection.run(`SET threads = ${Number(threads.getRowObjects()[0].threads)}`);
  }
}
