/*
 * A grid series file read into `grid_interval(zone, interval_start, interval_end, gco2_per_kwh)`:
 * one row per zone and interval, UTC, each interval ending where the zone's next one starts
 * (docs/methodology.md, "Grid intensity series").
 */

import { statSync } from "node:fs";
import type { DuckDBConnection } from "@duckdb/node-api";
import { csvHeader } from "../duckdb/csvHeader.js";
import { createTable, fileLiteral, identifier, literal, sourceOf } from "../duckdb/database.js";
import { FileReadError, readFailing } from "../duckdb/readErrors.js";
import { GridInputError } from "./errors.js";
import { EXPECTED_SHAPES, type GridSeriesShape, recognisedShape, type ShapeColumns } from "./shapes.js";
import { isoCountryCodes } from "./zones.js";

export type { GridSeriesShape } from "./shapes.js";

export interface GridSeriesInfo {
  readonly shape: GridSeriesShape;
  readonly zones: number;
  readonly intervals: number;
  /** The earliest interval's start, ISO 8601 UTC. */
  readonly first: string;
  /** The latest interval's end, ISO 8601 UTC: the series covers [first, last) where its zones do. */
  readonly last: string;
}

/**
 * A series' bounds, checked before it is read into a table (docs/limits.md, "The command line"):
 * a year of hours for 100 zones (876,000 intervals, an Electricity Maps CSV of ~150 MB) fits with
 * room; Ember's whole monthly release (every variable of ~200 areas since 2000) stays under the size.
 */
export const GRID_SERIES_LIMITS = {
  bytes: 1024 * 1024 * 1024,
  intervals: 2_000_000,
  zones: 1_000,
} as const;

/** Seconds of the steps a series' gap is rounded to: a month from 28 days, a year from 365. */
const DAY = 86_400;

/**
 * A text of a time as a UTC TIMESTAMP: with an offset (`Z`, `+02:00`) converted, without taken as
 * UTC. DuckDB reads an offset only after seconds: `T00:00Z` is given its `:00` first.
 */
function utcTime(text: string): string {
  const withSeconds = `regexp_replace(${text}, '([T ]\\d\\d:\\d\\d)(\\s*[zZ+-])', '\\1:00\\2')`;
  return `CASE WHEN regexp_matches(${text}, '\\d:\\d\\d(:\\d\\d(\\.\\d+)?)?\\s*([zZ]|[+-]\\d\\d(:?\\d\\d)?)$')
    THEN timezone('UTC', try_cast(${withSeconds} AS TIMESTAMPTZ)) ELSE try_cast(${text} AS TIMESTAMP) END`;
}

/** The columns of a Parquet file. */
async function parquetHeader(connection: DuckDBConnection, file: string): Promise<string[]> {
  const reader = await connection.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${fileLiteral(file)})`);
  return reader.getRowObjects().map((row) => String(row.column_name));
}

/** DuckDB's failure to read the file, as a grid input error (one line: where and why). */
async function reading<T>(file: string, run: () => Promise<T>): Promise<T> {
  try {
    return await readFailing(run, file);
  } catch (error) {
    if (error instanceof FileReadError)
      throw new GridInputError(error.message.replace(/; nothing written$/, ""));
    throw error;
  }
}

function checkedSize(file: string): void {
  let size: number;
  try {
    const stat = statSync(file);
    if (!stat.isFile()) throw new Error("not a file");
    size = stat.size;
  } catch {
    throw new GridInputError(`${file}: cannot read the grid intensity file`);
  }
  if (size > GRID_SERIES_LIMITS.bytes)
    throw new GridInputError(
      `${file}: a grid intensity file holds at most ${GRID_SERIES_LIMITS.bytes} bytes (${size})`,
    );
}

interface SeriesSource {
  readonly file: string;
  readonly columns: ShapeColumns;
  /** The table expression the file is read through. */
  readonly from: string;
  /** How a position is named in errors: a CSV's line, a Parquet file's row. */
  readonly position: "line" | "row";
  /** The position of a row of `from`, in SQL. */
  readonly positionSql: string;
}

async function seriesSource(connection: DuckDBConnection, file: string): Promise<SeriesSource> {
  const parquet = file.toLowerCase().endsWith(".parquet");
  const header = parquet ? await reading(file, () => parquetHeader(connection, file)) : csvHeader(file);
  const columns = header === null ? null : recognisedShape(header);
  if (columns === null)
    throw new GridInputError(`${file}: not a grid intensity series; expected ${EXPECTED_SHAPES}`);
  return parquet
    ? {
        file,
        columns,
        from: `read_parquet(${fileLiteral(file)}, file_row_number = true)`,
        position: "row",
        positionSql: "file_row_number + 1",
      }
    : // A CSV's line: its header is line 1 (a series' cells hold no line breaks).
      {
        file,
        columns,
        from: sourceOf(file, header),
        position: "line",
        positionSql: "row_number() OVER () + 1",
      };
}

/** The series' rows of the file, as text with their position (Ember's rows of other variables left out). */
function seriesRows(source: SeriesSource): string {
  const { columns } = source;
  const text = (name: string) => `trim(CAST(${identifier(name)} AS VARCHAR))`;
  const filters = columns.rowsWhere.map(([name], index) => `, ${text(name)} AS filter_${index}`);
  const where = columns.rowsWhere.map(([, value], index) => `filter_${index} = ${literal(value)}`);
  // Ember's aggregates (World, EU, regions) have no ISO code: they are no country's zone.
  if (columns.shape === "ember") where.push("coalesce(zone_text, '') <> ''");
  return `SELECT position, zone_text, start_text, value_text FROM (
      SELECT ${source.positionSql} AS position, ${text(columns.zone)} AS zone_text,
        ${text(columns.start)} AS start_text, ${text(columns.intensity)} AS value_text ${filters.join("")}
      FROM ${source.from}) AS file_rows
    ${where.length === 0 ? "" : `WHERE ${where.join(" AND ")}`}`;
}

/** One value of a query's first row. */
async function firstRow(connection: DuckDBConnection, sql: string): Promise<Record<string, unknown> | null> {
  const reader = await connection.runAndReadAll(sql);
  return reader.getRowObjects()[0] ?? null;
}

/** The bounds, from a count over the file, before any table is filled. */
async function checkBounds(connection: DuckDBConnection, source: SeriesSource): Promise<void> {
  const counts = await reading(source.file, () =>
    firstRow(
      connection,
      `SELECT count(*) AS intervals, approx_count_distinct(zone_text) AS zones FROM (${seriesRows(source)})`,
    ),
  );
  const intervals = Number(counts?.intervals ?? 0);
  const zones = Number(counts?.zones ?? 0);
  if (intervals > GRID_SERIES_LIMITS.intervals)
    throw new GridInputError(
      `${source.file}: a grid intensity series holds at most ${GRID_SERIES_LIMITS.intervals} intervals (${intervals})`,
    );
  if (zones > GRID_SERIES_LIMITS.zones)
    throw new GridInputError(
      `${source.file}: a grid intensity series holds at most ${GRID_SERIES_LIMITS.zones} zones (about ${zones})`,
    );
  if (intervals === 0)
    throw new GridInputError(
      `${source.file}: no interval in the file${source.columns.shape === "ember" ? " (no CO2 intensity row of a country)" : ""}`,
    );
}

/** The first row that is not an interval (no zone, a time or intensity unread, a negative intensity), in one line. */
async function checkValues(connection: DuckDBConnection, source: SeriesSource): Promise<void> {
  const bad = await firstRow(
    connection,
    `SELECT * FROM (
      SELECT position, start_text, value_text, CASE
        WHEN coalesce(zone_text, '') = '' THEN 'zone'
        WHEN start IS NULL THEN 'start'
        WHEN value IS NULL OR NOT isfinite(value) THEN 'value'
        WHEN value < 0 THEN 'negative' END AS problem
      FROM grid_read) AS checked
    WHERE problem IS NOT NULL ORDER BY position LIMIT 1`,
  );
  if (bad === null) return;
  const { columns } = source;
  const [column, what] = {
    zone: [columns.zone, "no zone"],
    start: [columns.start, `${JSON.stringify(bad.start_text ?? "")} is not a date or time (ISO 8601, UTC)`],
    value: [columns.intensity, `${JSON.stringify(bad.value_text ?? "")} is not an intensity in gCO2eq/kWh`],
    negative: [columns.intensity, `${bad.value_text} is a negative intensity`],
  }[String(bad.problem) as "zone" | "start" | "value" | "negative"];
  throw new GridInputError(`${source.file}: ${source.position} ${bad.position}, column "${column}": ${what}`);
}

/** A zone's second interval with the same start (zones compared once normalised: `FR` is `FRA`). */
async function checkDuplicates(connection: DuckDBConnection, source: SeriesSource): Promise<void> {
  const duplicate = await firstRow(
    connection,
    `SELECT position, zone, strftime(start, '%Y-%m-%dT%H:%M:%SZ') AS start FROM (
      SELECT position, zone, start, row_number() OVER (PARTITION BY zone, start ORDER BY position) AS nth
      FROM grid_read) AS numbered
    WHERE nth > 1 ORDER BY position LIMIT 1`,
  );
  if (duplicate === null) return;
  throw new GridInputError(
    `${source.file}: ${source.position} ${duplicate.position}, column "${source.columns.start}": a second interval of zone ${duplicate.zone} starting ${duplicate.start}`,
  );
}

/**
 * The step of the series' last interval of each zone, from its smallest gap between two starts: a
 * calendar month (28 days or more) or year (365 or more), else the gap itself (an hour for hourly
 * exports); a series with no gap is hourly, or monthly for Ember (which publishes months).
 */
async function lastStep(connection: DuckDBConnection, shape: GridSeriesShape): Promise<string> {
  const row = await firstRow(
    connection,
    `SELECT min(gap) AS gap FROM (
      SELECT epoch(start) - epoch(lag(start) OVER (PARTITION BY zone ORDER BY start)) AS gap FROM grid_read)`,
  );
  const gap = row?.gap === null || row?.gap === undefined ? null : Number(row.gap);
  if (gap === null) return shape === "ember" ? "INTERVAL 1 MONTH" : "INTERVAL 1 HOUR";
  if (gap >= 365 * DAY) return "INTERVAL 1 YEAR";
  if (gap >= 28 * DAY) return "INTERVAL 1 MONTH";
  return `to_microseconds(${Math.round(gap * 1e6)})`;
}

/**
 * Reads a grid series (CSV, gzipped or not, or Parquet; an Electricity Maps export, Ember's
 * monthly data or `zone,start,gco2_per_kwh`) into the table `grid_interval`.
 */
export async function loadGridSeries(connection: DuckDBConnection, file: string): Promise<GridSeriesInfo> {
  checkedSize(file);
  const source = await seriesSource(connection, file);
  await checkBounds(connection, source);
  await createTable(
    connection,
    "grid_iso_country",
    [
      ["alpha2", "VARCHAR"],
      ["alpha3", "VARCHAR"],
    ],
    isoCountryCodes(),
  );
  try {
    await reading(file, () =>
      connection.run(`CREATE OR REPLACE TEMP TABLE grid_read AS
        SELECT position, zone_text, start_text, value_text,
          CASE WHEN length(zone_text) = 2 THEN coalesce(iso.alpha3, zone_text) ELSE zone_text END AS zone,
          ${utcTime("start_text")} AS start, try_cast(value_text AS DOUBLE) AS value
        FROM (${seriesRows(source)}) AS series
        LEFT JOIN grid_iso_country AS iso ON length(series.zone_text) = 2 AND iso.alpha2 = upper(series.zone_text)`),
    );
    await checkValues(connection, source);
    await checkDuplicates(connection, source);
    const step = await lastStep(connection, source.columns.shape);
    await connection.run(`CREATE OR REPLACE TABLE grid_interval AS
      SELECT zone, start AS interval_start,
        coalesce(lead(start) OVER (PARTITION BY zone ORDER BY start), start + ${step}) AS interval_end,
        value AS gco2_per_kwh
      FROM grid_read ORDER BY zone, interval_start`);
  } finally {
    await connection.run("DROP TABLE IF EXISTS grid_read; DROP TABLE IF EXISTS grid_iso_country");
  }
  const info = await firstRow(
    connection,
    `SELECT count(DISTINCT zone) AS zones, count(*) AS intervals,
      strftime(min(interval_start), '%Y-%m-%dT%H:%M:%SZ') AS first,
      strftime(max(interval_end), '%Y-%m-%dT%H:%M:%SZ') AS last
    FROM grid_interval`,
  );
  const zones = Number(info?.zones ?? 0);
  if (zones > GRID_SERIES_LIMITS.zones)
    throw new GridInputError(
      `${file}: a grid intensity series holds at most ${GRID_SERIES_LIMITS.zones} zones (${zones})`,
    );
  return {
    shape: source.columns.shape,
    zones,
    intervals: Number(info?.intervals ?? 0),
    first: String(info?.first),
    last: String(info?.last),
  };
}
