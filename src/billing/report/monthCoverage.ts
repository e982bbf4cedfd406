/*
 * Each month's coverage of a bill read over months (several monthly exports, or one export over
 * months): of the lines whose period starts in the month, how many and how much of their positive
 * cost (the coverage's, billing_paid_cost) are estimated — said by the summary and the report, so
 * that a month read short or a month of new services shows. Read back from the written lines as
 * the report reads them (the format's queries, sql/evaluate/billing_periods.sql), one row a month:
 * its memory does not grow with the months.
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { createExactSumMacros, exactSumParts, finishedSums } from "../../duckdb/exactSum.js";
import type { MonthCoverage } from "../../output/reportParts/months.js";
import { sqlQuery } from "../queries.js";

export type { MonthCoverage } from "../../output/reportParts/months.js";

import { DATE_ORDER, evaluatedLines, textColumnsOf, type WrittenLines, writtenLineViews } from "./lines.js";

/** Months said at most (the latest kept): a bill of years says its last ones. */
const MONTHS_SAID = 36;

/** Each month's coverage, oldest first, or null where the lines span less than two months. */
export async function monthCoverage(
  connection: DuckDBConnection,
  written: Omit<WrittenLines, "criteria">,
): Promise<MonthCoverage[] | null> {
  const lines = { ...written, criteria: [] };
  const views = writtenLineViews(lines);
  await connection.run(
    `CREATE OR REPLACE TEMP TABLE ${DATE_ORDER} AS WITH ${views} ${sqlQuery("evaluate/billing_date_order.sql")}`,
  );
  try {
    const every = evaluatedLines(
      lines,
      await textColumnsOf(connection, lines),
      [{ name: "billing_month_estimated", expression: "status = 'evaluated'" }],
      "TRUE",
    );
    const month = `CASE WHEN billing_period_end_second > billing_period_start_second
      THEN strftime(make_timestamp(CAST(billing_period_start_second * 1000000 AS BIGINT)), '%Y-%m') ELSE '(no period)' END`;
    // Summed exactly (src/duckdb/exactSum.ts): the same bytes whatever DuckDB's threads
    await createExactSumMacros(connection);
    const sums = finishedSums(
      `SELECT ${month} AS month, COUNT(*) AS lines, COUNT(*) FILTER (WHERE billing_month_estimated) AS estimated_lines,
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
    }));
    if (months.filter((row) => row.month !== "(no period)").length < 2) return null;
    return months.slice(-MONTHS_SAID);
  } finally {
    await connection.run(`DROP TABLE IF EXISTS ${DATE_ORDER}`);
  }
}
