/*
 * The writing pass: every line of the export with its impacts (sql/evaluate/billing_located.sql through
 * DuckDB's lookup, then sql/evaluate/billing_impacts.sql), the file's columns first, written as CSV or
 * Parquet.
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { identifier, literal } from "../duckdb/database.js";
import { FORMULA_FIRST_CHARACTERS, NUMBER } from "../output/csv.js";
import { createGridViews, GRID_INTENSITY_COLUMN, gridLinesQueries, gridSourceColumn } from "./grid.js";
import { impactsQuery } from "./queries.js";

export type OutputFormat = "csv" | "parquet";

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

/** The file's columns as written: their names, and those holding maps, structs or lists (JSON in CSV). */
export interface WrittenColumns {
  readonly names: readonly string[];
  readonly nested: ReadonlySet<string>;
}

/** A column the run adds after the file's: how CSV writes it (a number, a text made formula-safe, as it is). */
export interface AddedColumn {
  readonly name: string;
  readonly kind: "number" | "text" | "plain";
}

/** The columns the run adds after the file's, in order (with a grid series, its intensity after energy_kwh). */
export function addedColumns(impactColumnNames: readonly string[], grid: boolean): AddedColumn[] {
  const number = (name: string) => ({ name, kind: "number" as const });
  return [
    { name: "matched_instance_type", kind: "text" },
    number("hours"),
    { name: "method", kind: "plain" },
    number("method_quantity"),
    { name: "method_unit", kind: "plain" },
    number("energy_kwh"),
    ...(grid ? [number(GRID_INTENSITY_COLUMN)] : []),
    ...impactColumnNames.map(number),
    { name: "status", kind: "text" },
    { name: "warnings", kind: "text" },
  ];
}

/** The column of the lines an output column is written from (with a grid series, its gwp use and warnings). */
export function sourceColumn(column: string, impactColumnNames: readonly string[], grid: boolean): string {
  return grid ? gridSourceColumn(column, impactColumnNames) : column;
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
  const source = (column: string) => sourceColumn(column, impactColumnNames, grid);
  const named = (column: string) =>
    source(column) === column ? identifier(column) : `${identifier(source(column))} AS ${identifier(column)}`;
  const number = (column: string) =>
    csv ? `printf('%.10g', ${identifier(source(column))}) AS ${identifier(column)}` : named(column);
  const text = (column: string) =>
    csv && textColumns.has(column) ? formulaSafe(column, source(column)) : named(column);
  const own = (column: string) =>
    csv && input.nested.has(column)
      ? `CAST(to_json(${identifier(column)}) AS VARCHAR) AS ${identifier(column)}`
      : text(column);
  const added = addedColumns(impactColumnNames, grid).map((column) =>
    column.kind === "number"
      ? number(column.name)
      : column.kind === "text"
        ? text(column.name)
        : named(column.name),
  );
  return [...input.names.map(own), ...added].join(", ");
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
