/*
 * Each month's coverage of a bill read over months (several monthly exports, or one export over
 * months): of the lines whose period starts in the month, how many and how much of their positive
 * cost (the coverage's, billing_paid_cost) are estimated — said by the summary and the report, so
 * that a month read short or a month of new services shows. Read back from the written lines as
 * the report reads them (the format's queries, sql/evaluate/billing_periods.sql), one row a month:
 * its memory does not grow with the months.
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { exactSumParts, finishedSums } from "../../duckdb/exactSum.js";
import type { BillPeriod, MonthCoverage } from "../../output/reportParts/months.js";
import { sqlQuery } from "../queries.js";

export type { BillPeriod, MonthCoverage } from "../../output/reportParts/months.js";

import { DATE_ORDER, type DescribedLines, evaluatedLines, writtenLineViews } from "./writtenLines.js";

/**
 * A line's month (`2026-04`, UTC): the month its period starts, over the columns
 * sql/evaluate/billing_periods.sql reads; NULL where its period does not read (or ends before it
 * starts). The months' coverage and `--group-by month`/`--filter month=` (src/billing/stages/filters.ts)
 * read it alike.
 */
export const LINE_MONTH = `CASE WHEN billing_period_end_second > billing_period_start_second
  THEN strftime(make_timestamp(CAST(billing_period_start_second * 1000000 AS BIGINT)), '%Y-%m') END`;

/** The month of the lines whose period does not read. */
const NO_PERIOD = "(no period)";

/** Months said at most (the latest kept): a bill of years says its last ones. */
const MONTHS_SAID = 36;

/** The months the summary and the report say, the latest MONTHS_SAID, or null where the lines span less than two months. */
export function coveredMonths(months: readonly MonthCoverage[]): MonthCoverage[] | null {
  if (months.filter((row) => row.month !== NO_PERIOD).length < 2) return null;
  return months.slice(-MONTHS_SAID);
}

/** The bill's period: its lines' first start and last end (seconds since 1970 UTC), or null where none reads. */
export function billPeriod(months: readonly MonthCoverage[]): BillPeriod | null {
  const dated = months.filter((row) => row.first !== null && row.last !== null);
  if (dated.length === 0) return null;
  return {
    first: Math.min(...dated.map((row) => row.first ?? 0)),
    last: Math.max(...dated.map((row) => row.last ?? 0)),
  };
}

/**
 * Each month's coverage, oldest first, with the span its lines cover (their first start and last
 * end): every month, one included, for the bill's period (billPeriod) and the months' table
 * (coveredMonths). Its lines' dates are read in the order withDescribedLines found (DATE_ORDER).
 */
export async function monthCoverage(
  connection: DuckDBConnection,
  written: DescribedLines,
): Promise<MonthCoverage[]> {
  const lines = { ...written, criteria: [] };
  const views = writtenLineViews(lines);
  const every = evaluatedLines(
    lines,
    written.text,
    [{ name: "billing_month_estimated", expression: "status = 'evaluated'" }],
    "TRUE",
  );
  const dated = "billing_period_end_second > billing_period_start_second";
  const month = `COALESCE(${LINE_MONTH}, '${NO_PERIOD}')`;
  // Summed exactly (src/duckdb/exactSum.ts): the same bytes whatever DuckDB's threads
  const sums = finishedSums(
    `SELECT ${month} AS month, COUNT(*) AS lines, COUNT(*) FILTER (WHERE billing_month_estimated) AS estimated_lines,
       MIN(billing_period_start_second) FILTER (WHERE ${dated}) AS first_second,
       MAX(billing_period_end_second) FILTER (WHERE ${dated}) AS last_second,
       ${exactSumParts("cost", "cost")}, ${exactSumParts("CASE WHEN billing_month_estimated THEN cost ELSE 0 END", "estimated_cost")}
     FROM (${sqlQuery("evaluate/billing_periods.sql")}) GROUP BY 1`,
    ["cost", "estimated_cost"],
  );
  const reader = await connection.runAndReadAll(
    `WITH ${views}, billing_evaluated AS (${every}), billing_date_order AS (SELECT * FROM ${DATE_ORDER})
     SELECT * FROM (${sums}) ORDER BY month`,
  );
  const months = reader.getRowObjects().map((row) => ({
    month: String(row.month),
    lines: Number(row.lines),
    estimatedLines: Number(row.estimated_lines),
    cost: Number(row.cost ?? 0),
    estimatedCost: Number(row.estimated_cost ?? 0),
    first: row.first_second === null ? null : Number(row.first_second),
    last: row.last_second === null ? null : Number(row.last_second),
  }));
  return months;
}
