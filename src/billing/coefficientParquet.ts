import { literal, openDatabase } from "../duckdb/database.js";
import type { CoefficientRow, CoefficientTable } from "../service/coefficients.js";
import { loadCoefficients } from "./stages/lookUp.js";

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
