/*
 * The impacts over time of a bill's evaluated lines (REPORT_LINES): each line placed in its charge
 * period, its sums spread over the steps it spans in proportion to the seconds it shares with each
 * (a day's line in its day; a month's line over its days when the chart is by day), by the bill's
 * own grain — by day where its typical line spans a day or less (an hourly or daily CUR), by month
 * otherwise (a monthly FOCUS file, an Azure billing period) — and by month or year where the span
 * would need more than MAX_STEPS steps (src/output/reportParts/time.ts). The series are the largest services, the rest summed.
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { literal } from "../../duckdb/database.js";
import {
  createExactSumMacros,
  exactSumAgainParts,
  exactSumParts,
  finishedSums,
} from "../../duckdb/exactSum.js";
import type { Measured, OverTime, Ranking, TimeGrain } from "../../output/reportParts/model.js";
import { grainOf, TIME_SERIES } from "../../output/reportParts/time.js";
import { measureColumns, REPORT_LINES } from "./lines.js";
import { measuredOf } from "./rankings.js";

const LABELS: Readonly<Record<TimeGrain, string>> = { day: "%Y-%m-%d", month: "%Y-%m", year: "%Y" };

const timestamp = (seconds: string) => `make_timestamp(CAST(CAST(${seconds} AS DOUBLE) * 1000000 AS BIGINT))`;

/**
 * The impacts over time, or null where no line has a period that reads (or their span would need
 * more than MAX_STEPS years). `services`: the report's ranking of services, whose first rows are
 * the series drawn (ranked: src/billing/report/rankings.ts, by the id it groups by).
 */
export async function overTime(
  connection: DuckDBConnection,
  criteria: number,
  services: Ranking,
): Promise<OverTime | null> {
  const shape = await connection.runAndReadAll(
    `SELECT quantile_disc(period_end - period_start, 0.5) AS median, MIN(period_start) AS first,
       MAX(period_end) AS last FROM ${REPORT_LINES} WHERE period_start IS NOT NULL`,
  );
  const { median, first, last } = shape.getRowObjects()[0];
  if (median === null) return null;
  const grain = grainOf(Number(median), Number(last) - Number(first));
  if (grain === null) return null;
  const shown = services.rows
    .slice(0, TIME_SERIES)
    .map((row) => ({ id: row.id ?? row.name, name: row.name }));
  const steps = await stepsOf(connection, grain, Number(first), Number(last));
  const sums = await spread(connection, grain, criteria, shown);
  const more = services.rows.length - shown.length + services.more;
  const names = [...shown.map((service) => service.name || "(none)"), ...(more > 0 ? [`${more} more`] : [])];
  const series = names.map((name, index) => {
    const key = index < shown.length ? shown[index].id : "";
    const at = (step: string) => sums.get(`${key}\u0000${step}`);
    return {
      name,
      impacts: Array.from({ length: criteria }, (_, c) =>
        steps.map((step) => {
          const row = at(step);
          return row === undefined ? 0 : row.impacts[c].embedded + row.impacts[c].use;
        }),
      ),
      energy: steps.map((step) => at(step)?.energy ?? 0),
    };
  });
  return { grain, steps, series, undated: await undated(connection, criteria), by: "service" };
}

/** Every step from the first line's to the last's, empty ones included. */
async function stepsOf(connection: DuckDBConnection, grain: TimeGrain, first: number, last: number) {
  const reader = await connection.runAndReadAll(
    `SELECT strftime(step, ${literal(LABELS[grain])}) AS step
     FROM (SELECT unnest(generate_series(date_trunc(${literal(grain)}, ${timestamp(String(first))}),
       ${timestamp(String(last))} - INTERVAL 1 MICROSECOND, INTERVAL 1 ${grain})) AS step) ORDER BY 1`,
  );
  return reader.getRowObjects().map((row) => String(row.step));
}

/** Each series' sums per step (`<service id or ''>\0<step>`), every line's sums spread over its steps. */
async function spread(
  connection: DuckDBConnection,
  grain: TimeGrain,
  criteria: number,
  shown: readonly { readonly id: string }[],
): Promise<Map<string, Measured>> {
  await createExactSumMacros(connection);
  const measures = measureColumns(criteria);
  const ids = shown.map((service) => literal(service.id)).join(", ");
  const series =
    shown.length === 0
      ? "''"
      : `CASE WHEN COALESCE(service_id, service) IN (${ids}) THEN COALESCE(service_id, service) ELSE '' END`;
  // A line's share of a step: the seconds it shares with it over its own
  const share = `(LEAST(e, epoch_us(step + INTERVAL 1 ${grain}) / 1e6) - GREATEST(s, epoch_us(step) / 1e6)) / (e - s)`;
  // The lines of one series and period summed first (exactly: the page's bytes whatever the threads)
  const periods = finishedSums(
    `SELECT ${series} AS series, period_start AS s, period_end AS e, SUM(lines) AS lines,
       ${measures.map(exactSumAgainParts).join(", ")}
     FROM ${REPORT_LINES} WHERE period_start IS NOT NULL GROUP BY 1, 2, 3`,
    measures,
  );
  const spreadLines = `SELECT series, strftime(step, ${literal(LABELS[grain])}) AS label, lines * ${share} AS lines,
      ${measures.map((column) => `${column} * ${share} AS ${column}`).join(", ")}
    FROM (SELECT *, unnest(generate_series(date_trunc(${literal(grain)}, ${timestamp("s")}),
      ${timestamp("e")} - INTERVAL 1 MICROSECOND, INTERVAL 1 ${grain})) AS step FROM (${periods}))`;
  const summed = ["lines", ...measures];
  const reader = await connection.runAndReadAll(
    finishedSums(
      `SELECT series, label, ${summed.map((column) => exactSumParts(column, column)).join(", ")}
       FROM (${spreadLines}) GROUP BY 1, 2`,
      summed,
    ),
  );
  return new Map(
    reader
      .getRowObjects()
      .map((row) => [`${String(row.series)}\u0000${String(row.label)}`, measuredOf(row, criteria)] as const),
  );
}

/** The sums of the lines whose period does not read. */
async function undated(connection: DuckDBConnection, criteria: number): Promise<Measured> {
  await createExactSumMacros(connection);
  const measures = measureColumns(criteria);
  const reader = await connection.runAndReadAll(
    finishedSums(
      `SELECT COALESCE(SUM(lines), 0) AS lines, ${measures.map(exactSumAgainParts).join(", ")}
       FROM ${REPORT_LINES} WHERE period_start IS NULL`,
      measures,
    ),
  );
  return measuredOf(reader.getRowObjects()[0], criteria);
}
