/*
 * The lines a run wrote, as its later steps read them back (the groups' sums, the grid series'
 * account, the report's data): CSV (gzipped where the output's name ends `.gz`: the /evaluate
 * page's runs, src/service/fileEvaluation.ts) or Parquet. Read while still `<output>.partial`, so
 * the compression is named rather than taken from the file's name.
 */

import { fileLiteral } from "../duckdb/sqlText.js";

/** A written lines' file: where, and how it is written. */
export interface WrittenFile {
  readonly file: string;
  readonly format: "csv" | "parquet";
  /** A CSV gzipped as it is written (COPY's COMPRESSION gzip). */
  readonly gzip?: boolean;
  /**
   * A CSV's cells as read back (every cell text), copied once into Parquet for a run that reads
   * them back several times (src/billing/stages/write.ts, withReadCopy): each read reads the copy.
   */
  readonly copy?: string;
}

/**
 * The written lines as DuckDB reads them back: every CSV cell as text, as written. `bufferBytes`:
 * the CSV reader's buffer, where less than DuckDB's default (16 times its longest line, 32 MiB).
 */
export function writtenSource(written: WrittenFile, bufferBytes?: number): string {
  if (written.copy !== undefined) return `read_parquet(${fileLiteral(written.copy)})`;
  if (written.format === "parquet") return `read_parquet(${fileLiteral(written.file)})`;
  const compression = written.gzip === true ? ", compression = 'gzip'" : "";
  const buffer = bufferBytes === undefined ? "" : `, buffer_size = ${bufferBytes}`;
  return `read_csv(${fileLiteral(written.file)}, header = true, all_varchar = true${compression}${buffer})`;
}

/** How a CSV writes a number (printf's format): ten significant digits, no float noise. */
export const CSV_NUMBER_FORMAT = "%.10g";

/** SQL: a number as the written lines hold it: a CSV's as its text reads back, a Parquet's as it is. */
export function writtenNumber(written: WrittenFile, expression: string): string {
  return written.format === "csv"
    ? `TRY_CAST(printf('${CSV_NUMBER_FORMAT}', ${expression}) AS DOUBLE)`
    : expression;
}
