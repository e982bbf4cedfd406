/*
 * A Parquet export whose columns are records (BigQuery's billing table exported as Parquet:
 * `service`, `sku`, `usage`, `location` are STRUCTs) read with each record's fields as columns
 * of their own, named as BigQuery's console names them when it saves the table as CSV
 * (`service.description`, `usage.amount_in_pricing_units`): the names its format reads
 * (src/billing/formats.ts). Lists (labels, credits) stay as they are.
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { identifier } from "../duckdb/database.js";

/** Whether a DuckDB type is a record's (a list of records is not). */
const isRecord = (type: string) => type.startsWith("STRUCT(") && !type.endsWith("]");

/** The fields of a record column of a relation, in order. */
async function recordFields(connection: DuckDBConnection, from: string, column: string): Promise<string[]> {
  const reader = await connection.runAndReadAll(`DESCRIBE SELECT ${identifier(column)}.* FROM ${from}`);
  return reader.getRowObjects().map((row) => String(row.column_name));
}

/**
 * The relation with its record columns one level flat (a query in parentheses), or null when it
 * has none. `columns`: its columns and their DuckDB types, in order.
 */
export async function flatRecords(
  connection: DuckDBConnection,
  from: string,
  columns: readonly (readonly [string, string])[],
): Promise<string | null> {
  if (!columns.some(([, type]) => isRecord(type))) return null;
  const selected: string[] = [];
  for (const [name, type] of columns) {
    if (!isRecord(type)) {
      selected.push(identifier(name));
      continue;
    }
    for (const field of await recordFields(connection, from, name)) {
      selected.push(`${identifier(name)}.${identifier(field)} AS ${identifier(`${name}.${field}`)}`);
    }
  }
  return `(SELECT ${selected.join(", ")} FROM ${from})`;
}
