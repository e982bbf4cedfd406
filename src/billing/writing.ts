/*
 * The writing pass: every line of the export with its impacts (sql/billing_located.sql through
 * DuckDB's lookup, then sql/billing_impacts.sql), the file's columns first, written as CSV or
 * Parquet.
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { identifier, literal } from "./duckdb.js";
import { createLocatedView } from "./lookup.js";
import { impactsQuery } from "./queries.js";

type OutputFormat = "csv" | "parquet";

/** The output's columns: the file's, then what the billing adds (numbers as text without float noise in CSV). */
function outputSelect(header: readonly string[], impactColumnNames: readonly string[], csv: boolean): string {
  const number = (column: string) =>
    csv ? `printf('%.10g', ${identifier(column)}) AS ${identifier(column)}` : identifier(column);
  return [
    ...header.map(identifier),
    "matched_instance_type",
    number("hours"),
    "method",
    number("method_quantity"),
    "method_unit",
    number("energy_kwh"),
    ...impactColumnNames.map(number),
    "status",
    "warnings",
  ].join(", ");
}

export function copyOptions(format: OutputFormat): string {
  return format === "csv" ? "(FORMAT csv, HEADER true)" : "(FORMAT parquet, COMPRESSION zstd)";
}

interface LinesTarget {
  readonly file: string;
  readonly format: OutputFormat;
}

/**
 * Writes the lines of billing_classified with their impacts, in their order; the table
 * billing_keys must hold their keys. Returns the number of lines written.
 */
export async function writeLines(
  connection: DuckDBConnection,
  header: readonly string[],
  impactColumnNames: readonly string[],
  target: LinesTarget,
): Promise<number> {
  await createLocatedView(connection);
  const result = await connection.run(
    `COPY (SELECT ${outputSelect(header, impactColumnNames, target.format === "csv")}
       FROM (${impactsQuery(impactColumnNames)}) lines)
     TO ${literal(target.file)} ${copyOptions(target.format)}`,
  );
  return result.rowsChanged;
}
