/*
 * A series' rows as intervals (grid_read → grid_interval): each zone keeps its own step, the
 * smallest gap between two of its starts — a calendar year (365 days or more), a calendar month
 * (28 days or more), else that gap (an hour, a day) — and each of its intervals lasts until its
 * next start, at most one step: a start the export leaves out is a gap, not the previous
 * interval's value stretched (docs/methodology.md, "Grid intensity series").
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import type { GridSeriesShape } from "./seriesFormats.js";

const DAY = 86_400;
const HOUR = 3_600;

/** The time of day and date of `start` are zero: `start` begins a year, a month, a day. */
const startsYear = "strftime(first, '%m-%d %H:%M:%S.%f') = '01-01 00:00:00.000000'";
const startsMonth = "strftime(first, '%d %H:%M:%S.%f') = '01 00:00:00.000000'";
const startsDay = "strftime(first, '%H:%M:%S.%f') = '00:00:00.000000'";

/**
 * grid_steps(zone, kind, seconds): each zone's step, `year`, `month` or `fixed` (of `seconds`). A
 * zone of one row takes the smallest step of the file's other zones; when no zone has two rows,
 * Ember's month (it publishes months), else the longest period its start begins: a yearly export's
 * row (1 January, 00:00) its year, a month's first its month, a midnight its day, else an hour.
 */
async function createSteps(connection: DuckDBConnection, shape: GridSeriesShape): Promise<void> {
  await connection.run(`CREATE OR REPLACE TEMP TABLE grid_steps AS
    WITH gaps AS (
      SELECT zone, min(gap) AS gap, min(start) AS first FROM (
        SELECT zone, start, epoch(start) - epoch(lag(start) OVER (PARTITION BY zone ORDER BY start)) AS gap
        FROM grid_read) AS rows
      GROUP BY zone),
    stepped AS (SELECT zone, first, coalesce(gap, (SELECT min(gap) FROM gaps)) AS gap FROM gaps)
    SELECT zone,
      CASE WHEN gap >= ${365 * DAY} THEN 'year' WHEN gap >= ${28 * DAY} THEN 'month' WHEN gap IS NOT NULL THEN 'fixed'
        WHEN ${shape === "ember"} THEN 'month' WHEN ${startsYear} THEN 'year' WHEN ${startsMonth} THEN 'month'
        ELSE 'fixed' END AS kind,
      coalesce(gap, CASE WHEN ${startsDay} THEN ${DAY} ELSE ${HOUR} END) AS seconds
    FROM stepped`);
}

/** Builds grid_interval(zone, interval_start, interval_end, gco2_per_kwh) from grid_read, gaps at NULL. */
export async function createIntervals(connection: DuckDBConnection, shape: GridSeriesShape): Promise<void> {
  await createSteps(connection, shape);
  const stepEnd = `CASE s.kind WHEN 'year' THEN r.start + INTERVAL 1 YEAR WHEN 'month' THEN r.start + INTERVAL 1 MONTH
    ELSE r.start + to_microseconds(CAST(round(s.seconds * 1e6) AS BIGINT)) END`;
  await connection.run(`CREATE OR REPLACE TABLE grid_interval AS
    WITH timed AS (
      SELECT r.zone, r.start, r.value, ${stepEnd} AS step_end,
        lead(r.start) OVER (PARTITION BY r.zone ORDER BY r.start) AS next_start
      FROM grid_read AS r JOIN grid_steps AS s ON s.zone = r.zone)
    SELECT zone, interval_start, interval_end, gco2_per_kwh FROM (
      SELECT zone, start AS interval_start, least(coalesce(next_start, step_end), step_end) AS interval_end,
        value AS gco2_per_kwh
      FROM timed
      UNION ALL
      SELECT zone, step_end, next_start, CAST(NULL AS DOUBLE) FROM timed WHERE next_start > step_end)
    ORDER BY zone, interval_start`);
}
