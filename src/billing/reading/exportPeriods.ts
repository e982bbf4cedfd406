/*
 * The same period given twice: a bill's parts are an account's exports (a month each, or one
 * export's numbered parts), and a month given twice (downloaded again, a copy beside the original,
 * a month both alone and in a ZIP) would count its lines twice. Each export's month is the month
 * most of its lines' periods start in; two exports of one month are refused, both named.
 */

import { basename } from "node:path";
import type { DuckDBConnection } from "@duckdb/node-api";
import { identifier } from "../../duckdb/sqlText.js";
import { BillingInputError } from "../errors.js";
import { type BillingFormat, headerColumn } from "../formats/knownFormats.js";
import type { PartRun } from "./joinedParts.js";
import { MONTH_IN_NAME } from "./layout.js";

/**
 * A part's export: its numbered series' (`report-00001.csv.gz`, `-00002`: one export's parts;
 * `cur-2026-04-part1.csv`, `-part2`: one month's), else its own. A month in the name is kept: the
 * months' files are exports of their own.
 */
function exportKey(part: string): string {
  const name = basename(part);
  const month = MONTH_IN_NAME.exec(name);
  if (month !== null) {
    const end = month.index + month[0].length;
    return `${name.slice(0, end)}${name.slice(end).replace(/\d+/g, "#")}`;
  }
  const series = name.replace(/\d+(?=\D*$)/, "#");
  return series === name ? part : series;
}

/** The parts as exports: consecutive parts of one numbered series are one export's. */
export function exportsOf(parts: readonly string[]): string[][] {
  const exports: string[][] = [];
  let last: string | null = null;
  for (const part of parts) {
    const key = exportKey(part);
    if (key === last) exports[exports.length - 1].push(part);
    else exports.push([part]);
    last = key;
  }
  return exports;
}

/** A period's start as text, its month (`2026-04`): ISO dates and timestamps, and US dates (`04/01/2026`). */
function monthSql(column: string): string {
  const text = `TRIM(CAST(${identifier(column)} AS VARCHAR))`;
  return `COALESCE(
    CASE WHEN regexp_matches(${text}, '^\\d{4}-\\d{2}') THEN LEFT(${text}, 7) END,
    strftime(TRY_STRPTIME(LEFT(${text}, 10), '%m/%d/%Y'), '%Y-%m'))`;
}

/** A file as DuckDB's `filename` names it: its glob characters unbracketed (fileLiteral). */
const unbracketed = (name: string) => name.replace(/\[([[*?])\]/g, "$1");

/**
 * Refuses a bill two of whose exports are of the same month (the month most of its lines' periods
 * start in), naming both: one pass over the parts' period column, only where the parts are
 * several exports. `runs`: the parts in runs of the same columns, each with its reader.
 */
export async function refuseOverlappingExports(
  connection: DuckDBConnection,
  runs: readonly (PartRun & { readonly reader: string })[],
  format: BillingFormat,
): Promise<void> {
  const exports = exportsOf(runs.flatMap((run) => run.parts));
  if (exports.length < 2) return;
  const counts = runs.flatMap((run) => {
    const column = headerColumn(
      format,
      format.dates[0],
      run.columns.map(([name]) => name),
    );
    return column === null
      ? []
      : [
          `SELECT filename AS part, ${monthSql(column)} AS month, COUNT(*) AS lines FROM ${run.reader} GROUP BY ALL`,
        ];
  });
  if (counts.length === 0) return;
  const reader = await connection.runAndReadAll(
    `SELECT part, month, lines FROM (${counts.join(" UNION ALL ")}) WHERE month IS NOT NULL`,
  );
  const byPart = new Map<string, Map<string, number>>();
  for (const row of reader.getRowObjects()) {
    const part = unbracketed(String(row.part));
    const months = byPart.get(part) ?? new Map<string, number>();
    months.set(String(row.month), (months.get(String(row.month)) ?? 0) + Number(row.lines));
    byPart.set(part, months);
  }
  const seen = new Map<string, string>();
  for (const parts of exports) {
    const month = exportMonth(parts, byPart);
    if (month === null) continue;
    const before = seen.get(month);
    if (before !== undefined) {
      throw new BillingInputError(
        `${parts[0]}: its lines are of ${month}, as ${before}'s are: the same period given twice would count its lines twice; give each period once`,
      );
    }
    seen.set(month, parts[0]);
  }
}

/** The month most of an export's lines are of (the earliest of a tie), null when none is dated. */
function exportMonth(
  parts: readonly string[],
  byPart: ReadonlyMap<string, ReadonlyMap<string, number>>,
): string | null {
  const months = new Map<string, number>();
  for (const part of parts) {
    for (const [month, lines] of byPart.get(part) ?? []) months.set(month, (months.get(month) ?? 0) + lines);
  }
  let best: [string, number] | null = null;
  for (const entry of [...months].sort(([a], [b]) => a.localeCompare(b))) {
    if (best === null || entry[1] > best[1]) best = entry;
  }
  return best?.[0] ?? null;
}
