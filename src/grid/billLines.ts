/*
 * A billing run with a grid series (--grid-intensity): each evaluated line's gwp use from the
 * series' intensity over its period in its place's zone (sql/evaluate/billing_periods.sql,
 * sql/evaluate/billing_grid.sql; docs/methodology.md, "Grid intensity series").
 *
 * The series becomes, per zone, its cumulative sums (intensity × hours, hours covered) at every
 * boundary of equal steps (the longest of a day, an hour, 15, 5 or 1 minute(s) on which every
 * interval starts and ends: a monthly series in days, an hourly one in hours) — the table
 * grid_knots, one row per boundary numbered zone after zone. A line then reads the sums at the
 * boundaries of the steps its start and end fall in, found by arithmetic on its times: two reads
 * a line, whatever the number of intervals. Other engines join on the knot's number
 * (sql/evaluate/billing_grid_knots.sql); DuckDB reads two columns of grid_knots as lists at that position
 * (as src/billing/stages/evaluate.ts reads the lookup table), which keeps the lines' order. How the lines
 * fared is counted by the codes the query gives each line (billing_grid_coverage, its zone and
 * place), never read back from their warnings' words (gridRunOf).
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import type { CloudRegion } from "../data/types.js";
import { identifier } from "../duckdb/sqlText.js";
import { GRID_COLUMN } from "../output/table.js";
import type { EditionContext } from "../service/open.js";
import { GridInputError } from "./errors.js";
import { type GridSeriesInfo, loadGridSeries } from "./series.js";
import { editionGridPlaces, loadGridZones } from "./zones.js";

/**
 * What a bill gives its series (src/billing/queries.ts, src/billing/writtenFile.ts): the texts of
 * its queries and the relation its written lines are read back from. Handed in, so that the grid
 * imports nothing of billing.
 */
export interface BillQueries<Written> {
  /** A query of sql/ as the bill runs it. */
  sql(name: string): string;
  /** sql/evaluate/billing_grid.sql with a column for each gwp use column of `impactColumns`. */
  gridQuery(impactColumns: readonly string[]): string;
  /** The gwp use columns among `impactColumns`: what the series changes. */
  gridUseColumns(impactColumns: readonly string[]): string[];
  /** The column of gridQuery's lines an output column is written from. */
  gridSourceColumn(column: string, impactColumns: readonly string[]): string;
  /** SQL: a number of the lines as the written lines hold it (a CSV's as its text reads back). */
  writtenNumber(written: Written, expression: string): string;
}

/** A run's series: the files given. */
export interface GridFiles {
  readonly series: string;
  readonly zones: string | null;
}

/**
 * Boundaries the steps of a series may take at most (zones × span ÷ step): a year of hours for 60
 * zones is 525,660; at 4,000,000 the table (five 8-byte columns) and DuckDB's two lists of it hold
 * about 220 MB of the run's 700 MB.
 */
export const MAX_GRID_KNOTS = 4_000_000;

/** Step lengths tried, in seconds, longest first. */
const STEP_SECONDS = [86_400, 3_600, 900, 300, 60, 1];

/**
 * The columns sql/evaluate/billing_grid_knots.sql reads from grid_knots for each end of a line, as DuckDB
 * reads them: a knot's sums and its zone's next knot's, the next one position after (two lists
 * carried by the cross join rather than four).
 */
const KNOT_READS = [
  ["sum", "intensity_hours", 1],
  ["next_sum", "intensity_hours", 2],
  ["covered", "covered_hours", 1],
  ["next_covered", "covered_hours", 2],
] as const;

async function firstRow(connection: DuckDBConnection, query: string): Promise<Record<string, unknown>> {
  return (await connection.runAndReadAll(query)).getRowObjects()[0] ?? {};
}

/**
 * Builds grid_spans and grid_knots (sql/lookup/billing_grid_keys.sql, sql/evaluate/billing_grid_knots.sql) from
 * grid_interval: the steps' length, then each zone's boundaries from its first interval's start
 * to its last one's end, the sums running over the steps its intervals cover.
 */
export async function createGridKnots(connection: DuckDBConnection): Promise<void> {
  // A gap (a NULL intensity) is part of its zone's span, its steps not covered.
  const bounds = `SELECT zone, CAST(epoch(interval_start) AS BIGINT) AS s, CAST(epoch(interval_end) AS BIGINT) AS e,
      gco2_per_kwh AS i FROM grid_interval WHERE interval_end > interval_start`;
  const fits = STEP_SECONDS.map((step) => `bool_and(s % ${step} = 0 AND e % ${step} = 0) AS fits_${step}`);
  const fit = await firstRow(connection, `SELECT ${fits.join(", ")} FROM (${bounds})`);
  const step = STEP_SECONDS.find((seconds) => fit[`fits_${seconds}`] === true) ?? 1;
  await connection.run(
    `CREATE OR REPLACE TABLE grid_spans AS
     SELECT zone, CAST(SUM(steps + 1) OVER (ORDER BY zone) - steps - 1 AS BIGINT) AS first_knot,
       CAST(first_second AS DOUBLE) AS first_second, CAST(steps AS BIGINT) AS steps,
       CAST(${step} AS DOUBLE) AS step_seconds
     FROM (SELECT zone, MIN(s) AS first_second, (MAX(e) - MIN(s)) // ${step} AS steps FROM (${bounds}) GROUP BY zone)`,
  );
  const knots = Number((await firstRow(connection, "SELECT SUM(steps + 1) AS n FROM grid_spans")).n ?? 0);
  if (knots > MAX_GRID_KNOTS) {
    throw new GridInputError(
      `--grid-intensity: the series makes ${knots} steps of ${step} s (zones × its span ÷ its finest step; at most ${MAX_GRID_KNOTS}): give fewer zones, a shorter span or coarser intervals`,
    );
  }
  // Each step's intensity (the mean where two intervals of a zone overlap), then the sums before
  // each boundary; hours are whole steps, so the covered hours are exact.
  await connection.run(
    `CREATE OR REPLACE TABLE grid_knots AS
     SELECT knot, intensity_hours, covered_hours,
       LEAD(intensity_hours) OVER (ORDER BY knot) AS next_intensity_hours,
       LEAD(covered_hours) OVER (ORDER BY knot) AS next_covered_hours
     FROM (
       SELECT k.first_knot + k.k AS knot, k.k = k.steps AS last_knot,
         COALESCE(SUM(v.i * ${step} / 3600.0) OVER w, 0) AS intensity_hours,
         COALESCE(SUM(CASE WHEN v.i IS NULL THEN 0 ELSE ${step} / 3600.0 END) OVER w, 0) AS covered_hours
       FROM (SELECT z.*, r.k FROM grid_spans z, range(z.steps + 1) r(k)) k
       LEFT JOIN (
         SELECT b.zone, r.k, AVG(b.i) AS i
         FROM (${bounds}) b JOIN grid_spans z ON z.zone = b.zone,
           range((b.s - CAST(z.first_second AS BIGINT)) // ${step}, (b.e - CAST(z.first_second AS BIGINT)) // ${step}) r(k)
         GROUP BY ALL
       ) v ON v.zone = k.zone AND v.k = k.k
       WINDOW w AS (PARTITION BY k.zone ORDER BY k.k ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
     )
     ORDER BY knot`,
  );
  // A zone's last boundary has no next one (LEAD above ran across zones).
  await connection.run(
    `UPDATE grid_knots SET next_intensity_hours = NULL, next_covered_hours = NULL
     WHERE knot IN (SELECT first_knot + steps FROM grid_spans)`,
  );
}

/** The tables a run with a series writes to --tables (Parquet), for the portable steps. */
export const GRID_TABLES = [
  ["grid_interval.parquet", "grid_interval"],
  ["grid_zone.parquet", "grid_zone"],
  ["grid_spans.parquet", "grid_spans"],
  ["grid_knots.parquet", "grid_knots"],
] as const;

/** A run's series, loaded: what it read, and the pass that tells how the lines fared (after writing). */
export interface BillingGrid<Written> {
  readonly info: GridSeriesInfo;
  /** How the lines fared, once written (`detailed`: the use by hour and month too, for the report). */
  run(written: Written & { readonly detailed: boolean }): Promise<GridRun>;
}

/**
 * A run's series: reads it and the zones, builds the knots and gives the lookup table billing_keys
 * its zones (sql/lookup/billing_grid_keys.sql). The bill checks first that it asks for the gwp
 * criterion (what the series changes).
 */
export async function withGridSeries<Written>(
  connection: DuckDBConnection,
  files: GridFiles,
  context: EditionContext,
  knownRegions: readonly CloudRegion[],
  impactColumns: readonly string[],
  queries: BillQueries<Written>,
): Promise<BillingGrid<Written>> {
  // A series or zone table that does not read is the run's bad input (GridInputError: exit 2).
  const info = await loadGridSeries(connection, files.series);
  await loadGridZones(connection, editionGridPlaces(context.service.data, knownRegions), files.zones);
  await createGridKnots(connection);
  await connection.run(
    `CREATE OR REPLACE TABLE billing_grid_keys AS ${queries.sql("lookup/billing_grid_keys.sql")}`,
  );
  await connection.run("DROP TABLE billing_keys");
  await connection.run("ALTER TABLE billing_grid_keys RENAME TO billing_keys");
  return {
    info,
    run: (written) => gridRunOf(connection, queries, impactColumns, { file: files.series, info }, written),
  };
}

/**
 * The query of the lines with the series (sql/evaluate/billing_grid.sql) over the view billing_located,
 * through the views billing_evaluated, billing_timed and billing_grid_located; DuckDB reads the
 * knots by position, in the lines' order.
 */
export async function createGridViews<Written>(
  connection: DuckDBConnection,
  impactsQuery: string,
  impactColumns: readonly string[],
  queries: BillQueries<Written>,
): Promise<string> {
  await connection.run(`CREATE OR REPLACE VIEW billing_evaluated AS ${impactsQuery}`);
  await connection.run(
    `CREATE OR REPLACE VIEW billing_timed AS ${queries.sql("evaluate/billing_periods.sql")}`,
  );
  await connection.run(
    `CREATE OR REPLACE TABLE grid_knot_lists AS
     SELECT list(intensity_hours ORDER BY knot) AS intensity_hours, list(covered_hours ORDER BY knot) AS covered_hours
     FROM grid_knots`,
  );
  const reads = ["start", "end"].flatMap((end) =>
    KNOT_READS.map(
      ([name, column, offset]) =>
        `x.${column}[CAST(t.billing_grid_${end}_knot AS BIGINT) + ${offset}] AS billing_grid_${end}_${name}`,
    ),
  );
  await connection.run(
    `CREATE OR REPLACE VIEW billing_grid_located AS
     SELECT t.*, ${reads.join(", ")} FROM billing_timed t CROSS JOIN grid_knot_lists x`,
  );
  return queries.gridQuery(impactColumns);
}

/** The column a series adds to the output, after energy_kwh (an inventory's too). */
export const GRID_INTENSITY_COLUMN = GRID_COLUMN;

/**
 * How the series reached a line, as sql/evaluate/billing_grid.sql decides it (its column
 * billing_grid_coverage): wholly (`series`), `partly`, `not covered` in its zone's span, its zone
 * not in the series (`zone not in series`), its place in no zone (`no zone`), or a line without a
 * period read at its zone's mean (`no period`). The line's warning words are written from it there;
 * the account reads the code.
 */
export const GRID_COVERAGES = [
  "series",
  "partly",
  "not covered",
  "zone not in series",
  "no zone",
  "no period",
] as const;

export type GridCoverage = (typeof GRID_COVERAGES)[number];

/** A coverage code read back from SQL, checked. */
function gridCoverage(code: unknown): GridCoverage {
  const found = GRID_COVERAGES.find((coverage) => coverage === code);
  if (found === undefined) throw new Error(`grid series: no coverage ${String(code)}`);
  return found;
}

/** How the evaluated lines of a run fared with the series: one row per coverage and zone or place. */
export interface GridCoverageRow {
  readonly coverage: GridCoverage;
  /** The line's zone (null for `series` and `no zone`). */
  readonly zone: string | null;
  /** The place of no zone (`no zone` only; '' for the default place). */
  readonly place: string | null;
  readonly lines: number;
  /** The first start and last end of these lines' periods, ISO 8601 UTC (null without a period, or not read). */
  readonly first: string | null;
  readonly last: string | null;
}

/** The gwp use (series applied) of the lines that used the series, by a part of their start time. */
export interface GridUseShare {
  readonly name: string;
  readonly lines: number;
  readonly energyKwh: number;
  readonly gwpUse: number;
}

export interface GridRun {
  readonly file: string;
  readonly series: GridSeriesInfo;
  /** The series' zones the bill's places fall in. */
  readonly zones: readonly string[];
  readonly coverage: readonly GridCoverageRow[];
  /** Sums of the evaluated lines' gwp use columns as written (series applied), by column. */
  readonly useTotals: ReadonlyMap<string, number>;
  /** Lines that used the series (wholly or partly), by their start's hour of the day (UTC) and month. */
  readonly byHour: readonly GridUseShare[];
  readonly byMonth: readonly GridUseShare[];
  /** How the bill's dates of day and month were read (sql/evaluate/billing_date_order.sql); null: it has none. */
  readonly dates: GridDateOrder | null;
}

/** The order of a bill's dates of day and month: decided, or not (undecided, inconsistent), with the dates that say so. */
export interface GridDateOrder {
  readonly order: "day first" | "month first" | "undecided" | "inconsistent";
  /** A date of the bill that writes the day first (a first field above 12), else null. */
  readonly dayFirst: string | null;
  /** One that writes the month first (a second field above 12), else null. */
  readonly monthFirst: string | null;
  /** A date of slashes of the bill. */
  readonly example: string;
}

/** The order billing_date_order decided (classifyLines writes it with a series), null without dates of day and month. */
async function dateOrder(connection: DuckDBConnection): Promise<GridDateOrder | null> {
  const [row] = (await connection.runAndReadAll("SELECT * FROM billing_date_order")).getRowObjects();
  if (row === undefined || Number(row.billing_dates_slashed) !== 1) return null;
  const day = Number(row.billing_dates_day_first) === 1;
  const month = Number(row.billing_dates_month_first) === 1;
  return {
    order: day ? (month ? "inconsistent" : "day first") : month ? "month first" : "undecided",
    dayFirst: text(row.billing_dates_day_first_example),
    monthFirst: text(row.billing_dates_month_first_example),
    example: String(row.billing_dates_slashed_example),
  };
}

const iso = (second: unknown) =>
  second === null || second === undefined
    ? null
    : new Date(Number(second) * 1000).toISOString().replace(".000Z", "Z");

const text = (value: unknown) => (value === null || value === undefined ? null : String(value));

/** The zones of the lines with a period the series can weigh. */
async function zonesWithPeriods(connection: DuckDBConnection): Promise<string[]> {
  const reader = await connection.runAndReadAll(
    "SELECT DISTINCT billing_grid_zone AS zone FROM billing_keys WHERE billing_grid_first_second IS NOT NULL ORDER BY zone",
  );
  return reader.getRowObjects().map((row) => String(row.zone));
}

/** The SQL sums of the gwp use columns as written, over `lines` (gridQuery's), by output column. */
function writtenUseSums<Written>(
  queries: BillQueries<Written>,
  impactColumns: readonly string[],
  written: Written,
): string {
  return queries
    .gridUseColumns(impactColumns)
    .map((column) => {
      const value = queries.writtenNumber(
        written,
        identifier(queries.gridSourceColumn(column, impactColumns)),
      );
      return `SUM(CASE WHEN applied THEN ${value} END) AS ${identifier(column)}`;
    })
    .join(", ");
}

/**
 * How the lines fared with the series, in one pass over the writing pass's views, by the codes
 * the query gives each line: lines per coverage and zone or place (with the lines' first start and
 * last end where their periods were not wholly covered, or for the report), the gwp use totals as
 * the lines are written (a CSV's numbers as their text reads back), and for the report the use by
 * hour and month. Counted as the written lines are: those with the intensity applied.
 */
export async function gridRunOf<Written>(
  connection: DuckDBConnection,
  queries: BillQueries<Written>,
  impactColumns: readonly string[],
  series: { file: string; info: GridSeriesInfo },
  written: Written & { readonly detailed: boolean },
): Promise<GridRun> {
  const query = queries.gridQuery(impactColumns);
  const columns = queries.gridUseColumns(impactColumns);
  const zones = await zonesWithPeriods(connection);
  // The columns read, by name (the file's own columns may be named `zone` or `place`)
  const read = [
    ...new Set([
      "billing_grid_start_second",
      "billing_grid_end_second",
      "energy_kwh",
      "billing_grid_gwp_use_kgco2eq",
      ...columns.map((column) => queries.gridSourceColumn(column, impactColumns)),
    ]),
  ];
  const lines = `SELECT billing_grid_coverage AS coverage, billing_grid_zone AS zone,
      CASE WHEN billing_grid_coverage IN ('series', 'no zone') THEN NULL ELSE billing_grid_zone END AS shown_zone,
      CASE WHEN billing_grid_coverage = 'no zone' THEN billing_place END AS place,
      grid_gco2_per_kwh IS NOT NULL AS applied, ${read.map(identifier).join(", ")}
    FROM (${query}) lines WHERE billing_grid_coverage IS NOT NULL`;
  const sums = columns.length > 0 ? `, ${writtenUseSums(queries, impactColumns, written)}` : "";
  await connection.run(
    `CREATE OR REPLACE TEMP TABLE grid_coverage AS
     SELECT coverage, shown_zone, place, applied, COUNT(*)::DOUBLE AS lines,
       MIN(billing_grid_start_second) AS first, MAX(billing_grid_end_second) AS last${sums}
     FROM (${lines}) GROUP BY ALL`,
  );
  const rows = async (sql: string) => (await connection.runAndReadAll(sql)).getRowObjects();
  const whole = await rows("SELECT * FROM grid_coverage WHERE applied ORDER BY coverage, shown_zone, place");
  const totals = new Map(
    columns.map((column) => [column, whole.reduce((sum, row) => sum + Number(row[column] ?? 0), 0)]),
  );
  const periodsMissed = whole.some((row) => row.coverage === "partly" || row.coverage === "not covered");
  const base = {
    file: series.file,
    series: series.info,
    zones,
    useTotals: totals,
    dates: await dateOrder(connection),
  };
  const timed = written.detailed || periodsMissed;
  const coverage = await coverageRows(rows, timed);
  if (!written.detailed) return { ...base, coverage, byHour: [], byMonth: [] };
  return { ...base, coverage, ...(await useByTime(connection, lines)) };
}

/** The report's use by hour of the day and by month: the lines of the series by the hour they start. */
async function useByTime(
  connection: DuckDBConnection,
  lines: string,
): Promise<Pick<GridRun, "byHour" | "byMonth">> {
  await connection.run(
    `CREATE OR REPLACE TEMP TABLE grid_run AS
     SELECT coverage, zone, place, CAST(FLOOR(billing_grid_start_second / 3600) AS BIGINT) AS hour_number,
       COUNT(*)::DOUBLE AS lines, SUM(energy_kwh) AS energy_kwh, SUM(billing_grid_gwp_use_kgco2eq) AS gwp_use
     FROM (${lines}) GROUP BY ALL`,
  );
  const shares = async (part: "hour" | "month") =>
    (
      await connection.runAndReadAll(
        `SELECT CAST(${part} AS VARCHAR) AS name, SUM(lines) AS lines, SUM(energy_kwh) AS energy_kwh,
           SUM(gwp_use) AS gwp_use
         FROM (SELECT *, CAST(hour_number % 24 AS INTEGER) AS hour,
             strftime(make_timestamp(hour_number * 3600000000), '%Y-%m') AS month FROM grid_run)
         WHERE coverage IN ('series', 'partly') GROUP BY ${part} ORDER BY ${part}`,
      )
    )
      .getRowObjects()
      .map((row) => ({
        name: String(row.name),
        lines: Number(row.lines),
        energyKwh: Number(row.energy_kwh ?? 0),
        gwpUse: Number(row.gwp_use ?? 0),
      }));
  return { byHour: await shares("hour"), byMonth: await shares("month") };
}

/**
 * The lines per coverage and zone or place, from grid_coverage: with the report or where some periods
 * were missed (`timed`), every line the query covers with the first start and last end of their
 * periods; else the lines written with the intensity applied.
 */
async function coverageRows(
  read: (sql: string) => Promise<Record<string, unknown>[]>,
  timed: boolean,
): Promise<GridCoverageRow[]> {
  const rows = await read(
    `SELECT coverage, shown_zone AS zone, place, SUM(lines) AS lines, MIN(first) AS first, MAX(last) AS last
     FROM grid_coverage ${timed ? "" : "WHERE applied"} GROUP BY ALL ORDER BY coverage, zone, place`,
  );
  return rows.map((row) => {
    const coverage = gridCoverage(row.coverage);
    return {
      coverage,
      zone: coverage === "no zone" || coverage === "series" ? null : text(row.zone),
      place: coverage === "no zone" ? text(row.place) : null,
      lines: Number(row.lines),
      first: timed ? iso(row.first) : null,
      last: timed ? iso(row.last) : null,
    };
  });
}
