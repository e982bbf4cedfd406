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
}

/** The written lines as DuckDB reads them back: every CSV cell as text, as written. */
export function writtenSource(written: WrittenFile): string {
  if (written.format === "parquet") return `read_parquet(${fileLiteral(written.file)})`;
  const compression = written.gzip === true ? ", compression = 'gzip'" : "";
  return `read_csv(${fileLiteral(written.file)}, header = true, all_varchar = true${compression})`;
}

/** How a CSV writes a number (printf's format): ten significant digits, no float noise. */
export const CSV_NUMBER_FORMAT = "%.10g";

/** SQL: a number as the written lines hold it: a CSV's as its text reads back, a Parquet's as it is. */
export function writtenNumber(written: WrittenFile, expression: string): string {
  return written.format === "csv"
    ? `TRY_CAST(printf('${CSV_NUMBER_FORMAT}', ${expression}) AS DOUBLE)`
    : expression;
}
