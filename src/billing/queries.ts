/*
 * The billing SQL of the repository (sql/): plain queries in the dialect Spark SQL, Trino,
 * BigQuery and DuckDB share, read as they are. The impact query lists one line per impact column,
 * each marked `-- impact`; a run keeps the same line for each column it writes.
 */

import { readFileSync } from "node:fs";

const SQL_FOLDER = new URL("../../sql/", import.meta.url);

/** A query of sql/, as written. */
export function sqlQuery(name: string): string {
  return readFileSync(new URL(name, SQL_FOLDER), "utf8");
}

const IMPACT_MARK = "-- impact";

/** The column a marked line writes (`… AS gwp_embedded_kgco2eq, -- impact`). */
function writtenColumn(line: string): string {
  const match = / AS ([a-z0-9_]+),\s*-- impact$/.exec(line.trimEnd());
  if (!match) throw new Error(`sql: an impact line names no column: ${line}`);
  return match[1];
}

/** The impact query writing `columns` (each `<impact column>` = hours × `<impact column>_per_hour`). */
export function impactsQuery(columns: readonly string[]): string {
  const lines = sqlQuery("billing_impacts.sql").split("\n");
  const marked = lines.filter((line) => line.trimEnd().endsWith(IMPACT_MARK));
  if (marked.length === 0) throw new Error("sql: billing_impacts.sql has no impact line");
  const template = marked[0];
  const templateColumn = writtenColumn(template);
  const first = lines.indexOf(template);
  const kept = lines.filter((line) => !line.trimEnd().endsWith(IMPACT_MARK));
  const written = columns.map((column) => template.replaceAll(templateColumn, column));
  return [...kept.slice(0, first), ...written, ...kept.slice(first)].join("\n");
}
