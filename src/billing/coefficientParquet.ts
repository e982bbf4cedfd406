/*
 * The coefficient table in DuckDB: loaded as the table `coefficients` the billing query joins, or
 * written as Parquet for another engine (Spark, Trino, BigQuery load it as it is).
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { type Cell, createTable, literal, openDatabase } from "../duckdb/database.js";
import type { RequestedCriterion } from "../engine/index.js";
import {
  coefficientCells,
  coefficientColumns,
  impactSlots,
  KEY_COLUMNS,
} from "../service/coefficientColumns.js";
import type { CoefficientRow, CoefficientTable } from "../service/coefficients.js";

/** Fills the table `coefficients` (key columns as text, `load` and impacts as doubles). */
export async function loadCoefficients(
  connection: DuckDBConnection,
  edition: string,
  load: number | null,
  criteria: readonly RequestedCriterion[],
  rows: Iterable<CoefficientRow>,
): Promise<void> {
  const slots = impactSlots(criteria);
  const textColumns = KEY_COLUMNS.length - 1;
  const cells = function* (): Generator<Cell[]> {
    for (const row of rows) yield coefficientCells(edition, load, slots, row);
  };
  await createTable(
    connection,
    "coefficients",
    coefficientColumns(criteria).map(
      (column, index) => [column, index < textColumns ? "VARCHAR" : "DOUBLE"] as const,
    ),
    cells(),
  );
}

/** Writes a coefficient table as Parquet (complete, or not at all). */
export async function writeCoefficientParquet(table: CoefficientTable, file: string): Promise<void> {
  const rows: CoefficientRow[] = [];
  for await (const row of table.rows) rows.push(row);
  const db = await openDatabase();
  try {
    await loadCoefficients(db.connection, table.edition, table.load, table.criteria, rows);
    await db.connection.run(`COPY coefficients TO ${literal(file)} (FORMAT parquet, COMPRESSION zstd)`);
  } finally {
    db.close();
  }
}
