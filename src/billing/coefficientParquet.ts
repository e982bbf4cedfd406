import { createReadStream } from "node:fs";
import { join } from "node:path";
import { openDatabase } from "../duckdb/database.js";
import { literal } from "../duckdb/sqlText.js";
import type { CoefficientRow, CoefficientTable } from "../service/coefficients.js";
import { pipedOutput } from "../support/outputFile.js";
import { loadCoefficients } from "./stages/lookUp.js";

/**
 * Writes a coefficient table as Parquet (complete, or not at all): made in the database's folder,
 * then copied into `file` as any output is opened (src/support/outputFile.ts: a FIFO is never
 * opened by DuckDB's writer, which would wait for its reader in a thread no signal ends).
 */
export async function writeCoefficientParquet(table: CoefficientTable, file: string): Promise<void> {
  const rows: CoefficientRow[] = [];
  for await (const row of table.rows) rows.push(row);
  const db = await openDatabase();
  try {
    await loadCoefficients(db.connection, table.edition, table.load, table.criteria, rows);
    const made = join(db.scratch, "coefficients.parquet");
    await db.connection.run(`COPY coefficients TO ${literal(made)} (FORMAT parquet, COMPRESSION zstd)`);
    await pipedOutput(file, () => createReadStream(made));
  } finally {
    db.close();
  }
}
