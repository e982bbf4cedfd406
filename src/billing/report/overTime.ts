/*
 * The impacts over time of a bill's evaluated lines, from the chart's part of REPORT_SUMS
 * (src/billing/report/bounds.ts, boundedSeries): each line's sums in the step of its period, or
 * spread over the steps it spans in proportion to the seconds it shares with each (a day's line in
 * its day; a month's line over its days when the chart is by day), by the bill's own grain — by
 * day where its typical line spans a day or less (an hourly or daily CUR), by month otherwise (a
 * monthly FOCUS file, an Azure billing period) — and by month or year where the span would need
 * more than MAX_STEPS steps (src/output/reportParts/time.ts), which the report says. The series
 * are the largest services, the rest summed.
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { exactSumAgainParts, finishedSums } from "../../duckdb/exactSum.js";
import { literal } from "../../duckdb/sqlText.js";
import type { Measured, OverTime, TimeGrain } from "../../output/reportParts/model.js";
import { MAX_STEPS } from "../../output/reportParts/time.js";
import { partOf, REPORT_SUMS, type ReportBounds, seriesOf, summedColumns } from "./bounds.js";
import { measuredOf } from "./rankings.js";

const LABELS: Readonly<Record<TimeGrain, string>> = { day: "%Y-%m-%d", month: "%Y-%m", year: "%Y" };

const timestamp = (seconds: string) => `make_timestamp(CAST(CAST(${seconds} AS DOUBLE) * 1000000 AS BIGINT))`;

/** A series' key where its service has none: apart from the rest's (''). */
const NO_SERVICE = "\u0001";

/**
 * The impacts over time, or null where no line has a period that reads; without steps, saying
 * why, where their span would need more than MAX_STEPS years.
 */
export async function overTime(
  connection: DuckDBConnection,
  criteria: number,
  bounds: ReportBounds,
): Promise<OverTime | null> {
  const { time } = bounds;
  if (time === null) return null;
  const { own, grain, first, last } = time;
  const undatedSums = await undated(connection, criteria);
  if (grain === null) {
    const span = await stepsOf(connection, "year", first, last);
    return {
      grain: "year",
      own,
      steps: [],
      series: [],
      undated: undatedSums,
      by: "service",
      undrawn: `The lines span ${span.length.toLocaleString("en-US")} years (${span[0]} to ${span[span.length - 1]}): more than the chart's ${MAX_STEPS} steps by year; no chart is drawn.`,
    };
  }
  const shown = seriesOf(bounds.kept.service).map((service) => ({
    key: service.id ?? NO_SERVICE,
    name: service.name ?? "",
  }));
  const steps = await stepsOf(connection, grain, first, last);
  const sums = await stepSums(connection, grain, criteria);
  const more = bounds.kept.service.count - shown.length;
  const names = [...shown.map((service) => service.name || "(none)"), ...(more > 0 ? [`${more} more`] : [])];
  const series = names.map((name, index) => {
    const key = index < shown.length ? shown[index].key : "";
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
  return { grain, ...(own === grain ? {} : { own }), steps, series, undated: undatedSums, by: "service" };
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

/** Each series' sums per step (`<service id, NO_SERVICE or ''>\0<step>`). */
async function stepSums(
  connection: DuckDBConnection,
  grain: TimeGrain,
  criteria: number,
): Promise<Map<string, Measured>> {
  const summed = summedColumns(criteria);
  const reader = await connection.runAndReadAll(
    finishedSums(
      `SELECT series, strftime(step, ${literal(LABELS[grain])}) AS label, ${summed.map(exactSumAgainParts).join(", ")}
       FROM ${REPORT_SUMS} WHERE ${partOf("time")} AND charted AND step IS NOT NULL GROUP BY 1, 2`,
      summed,
    ),
  );
  return new Map(
    reader
      .getRowObjects()
      .map(
        (row) =>
          [
            `${row.series === null ? NO_SERVICE : String(row.series)}\u0000${String(row.label)}`,
            measuredOf(row, criteria),
          ] as const,
      ),
  );
}

/** The sums of the lines whose period does not read. */
async function undated(connection: DuckDBConnection, criteria: number): Promise<Measured> {
  const summed = summedColumns(criteria);
  const reader = await connection.runAndReadAll(
    finishedSums(
      `SELECT ${summed.map(exactSumAgainParts).join(", ")}
       FROM ${REPORT_SUMS} WHERE ${partOf("time")} AND charted AND step IS NULL`,
      summed,
    ),
  );
  return measuredOf(reader.getRowObjects()[0], criteria);
}
