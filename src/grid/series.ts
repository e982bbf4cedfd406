/*
 * A grid series file read into `grid_interval(zone, interval_start, interval_end, gco2_per_kwh)`:
 * one row per zone and interval, UTC, each interval ending where the zone's next one starts
 * (docs/methodology.md, "Grid intensity series").
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { createTable, sourceOf } from "../duckdb/database.js";
import { fileLiteral, identifier, literal } from "../duckdb/sqlText.js";
import { csvHeader } from "../support/fileStart.js";
import { GridInputError, seriesReading as reading, SeriesReadError } from "./errors.js";
import { type GridGap, seriesGaps } from "./gaps.js";
import { checkedInput } from "./inputFile.js";
import { lfCopy } from "./lineEnds.js";
import {
  EXPECTED_SHAPES,
  type GridSeriesShape,
  recognisedShape,
  type ShapeColumns,
} from "./seriesFormats.js";
import { createIntervals } from "./steps.js";
import { MAX_OFFSET_MINUTES } from "./times.js";
import { isoCountryCodes } from "./zones.js";

/** The series a run reads (--grid-intensity) and the table of zones it names (--grid-zones). */
export interface GridOptions {
  readonly series: string;
  readonly zones: string | null;
}

export type { GridGap } from "./gaps.js";
export type { GridSeriesShape } from "./seriesFormats.js";

export interface GridSeriesInfo {
  readonly shape: GridSeriesShape;
  readonly zones: number;
  readonly intervals: number;
  /** The earliest interval's start, ISO 8601 UTC. */
  readonly first: string;
  /** The latest interval's end, ISO 8601 UTC: the series covers [first, last) where its zones do. */
  readonly last: string;
  /** Per zone, the intervals between its first and its last the series does not give (unpublished or absent). */
  readonly gaps: readonly GridGap[];
}

/**
 * A series' bounds, checked before it is read into a table (docs/limits.md, "The command line"):
 * a year of hours for 100 zones (876,000 intervals, an Electricity Maps CSV of ~150 MB) fits with
 * room; Ember's whole monthly release (every variable of ~200 areas since 2000) stays under the size.
 * An intensity is at most 10,000 gCO2eq/kWh: about ten times the most carbon-intense grids'
 * yearly figures (~1,000 g/kWh, coal and oil grids in Ember's data), so a real hour fits and a
 * huge value (1e17, 1e308) is the line's error rather than a sum that loses its neighbours' digits.
 */
export const GRID_SERIES_LIMITS = {
  bytes: 1024 * 1024 * 1024,
  intervals: 2_000_000,
  zones: 1_000,
  gco2PerKwh: 10_000,
} as const;

/**
 * ISO 8601 as the series write a time, in RE2 (no backtracking): a date, then optionally a time to
 * the minute, second or fraction, then optionally an offset (`Z`, `+02:00`, `+0200`, `+02`).
 * Groups: date, hours and minutes, seconds and fraction, offset sign, hours, minutes.
 */
const ISO_TIME_SQL =
  "^(\\d{4}-\\d\\d-\\d\\d)(?:[T ]([01]\\d:[0-5]\\d|2[0-3]:[0-5]\\d)(:[0-5]\\d(?:\\.\\d{1,9})?)?\\s*(?:[zZ]|([+-])(\\d\\d)(?::?([0-5]\\d))?)?)?$";

/** The parts of a text of a time (a struct; every part empty when it is not ISO 8601). */
function timeParts(text: string): string {
  return `regexp_extract(${text}, '${ISO_TIME_SQL}', ['date', 'clock', 'seconds', 'sign', 'oh', 'om'])`;
}

/**
 * A time's parts (timeParts) as a UTC TIMESTAMP, or NULL when they are no time: with an offset
 * converted, without taken as UTC; `infinity`, a field out of range (`24:00`, `02-30`) or an
 * offset beyond ±14:00 (`+99:99`) is no time.
 */
function utcTime(parts: string): string {
  const offset = `(CAST(${parts}.oh AS INTEGER) * 60 + CAST(coalesce(nullif(${parts}.om, ''), '0') AS INTEGER))`;
  return `CASE
      WHEN ${parts}.date = '' THEN NULL
      WHEN ${parts}.oh = '' THEN try_cast(${parts}.date || ' ' || coalesce(nullif(${parts}.clock, ''), '00:00') || coalesce(nullif(${parts}.seconds, ''), ':00') AS TIMESTAMP)
      WHEN ${offset} > ${MAX_OFFSET_MINUTES} THEN NULL
      ELSE try_cast(${parts}.date || ' ' || ${parts}.clock || coalesce(nullif(${parts}.seconds, ''), ':00') AS TIMESTAMP)
        - to_minutes(CASE ${parts}.sign WHEN '-' THEN -1 ELSE 1 END * ${offset})
    END`;
}

interface SeriesSource {
  /** The file as given (errors name it). */
  readonly file: string;
  /** The file DuckDB reads: the file, or its copy with LF line ends (checkedSource). */
  readonly reads: string;
  /** A CSV's header; null for a Parquet file. */
  readonly header: string[] | null;
  readonly columns: ShapeColumns;
  /** How a position is named in errors: a CSV's line, a Parquet file's row. */
  readonly position: "line" | "row";
  /** The position of a row of the file's relation (relationOf), in SQL. */
  readonly positionSql: string;
}

/** The table expression the series is read through: a Parquet file with its rows' numbers, a CSV as its header says. */
function relationOf(source: SeriesSource): string {
  return source.header === null
    ? `read_parquet(${fileLiteral(source.reads)}, file_row_number = true)`
    : sourceOf(source.reads, source.header);
}

/**
 * The series file as DuckDB reads it: a regular file within its bound, its header (a CSV's, read
 * from its start; a Parquet file's columns) of one of the three shapes.
 */
async function seriesSource(connection: DuckDBConnection, file: string): Promise<SeriesSource> {
  checkedInput({ file, role: "grid intensity file", maxBytes: GRID_SERIES_LIMITS.bytes });
  if (file.toLowerCase().endsWith(".parquet")) {
    const names = await reading(file, async () =>
      (await connection.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${fileLiteral(file)})`))
        .getRowObjects()
        .map((row) => String(row.column_name)),
    );
    const columns = recognisedShape(names);
    if (columns === null) throw notASeries(file);
    return { file, reads: file, header: null, columns, position: "row", positionSql: "file_row_number + 1" };
  }
  const header = csvHeader(file);
  const columns = header === null ? null : recognisedShape(header.cells);
  if (header === null || columns === null) throw notASeries(file);
  // A CSV's line: the header's lines (a quoted cell may hold a line break), then one a row (a
  // series' cells hold none).
  const positionSql = `row_number() OVER () + ${header.lines}`;
  return { file, reads: file, header: header.cells, columns, position: "line", positionSql };
}

const notASeries = (file: string) =>
  new GridInputError(`${file}: not a grid intensity series; expected ${EXPECTED_SHAPES}`);

/**
 * The series' rows of the file, as text with their position: Ember's rows of other variables, and
 * the header again where exports were concatenated, left out. A cell's BOM (a second export's
 * first) and blanks, CR included, are not part of its text.
 */
function seriesRows(source: SeriesSource): string {
  const { columns } = source;
  const text = (name: string) => `trim(replace(CAST(${identifier(name)} AS VARCHAR), '\uFEFF', ''), ' \t\r')`;
  const filters = columns.rowsWhere.map(([name], index) => `, ${text(name)} AS filter_${index}`);
  const where = columns.rowsWhere.map(([, value], index) => `filter_${index} = ${literal(value)}`);
  // Ember's aggregates (World, EU, regions) have no ISO code: they are no country's zone.
  if (columns.shape === "ember") where.push("coalesce(zone_text, '') <> ''");
  // A row whose intensity cell holds the column's name is the header again (one test: cheaper than three).
  where.push(`value_text IS DISTINCT FROM ${literal(columns.intensity.trim())}`);
  return `SELECT position, zone_text, start_text, value_text FROM (
      SELECT ${source.positionSql} AS position, ${text(columns.zone)} AS zone_text,
        ${text(columns.start)} AS start_text, ${text(columns.intensity)} AS value_text ${filters.join("")}
      FROM ${relationOf(source)}) AS file_rows
    WHERE ${where.join(" AND ")}`;
}

/** One value of a query's first row. */
async function firstRow(connection: DuckDBConnection, sql: string): Promise<Record<string, unknown> | null> {
  const reader = await connection.runAndReadAll(sql);
  return reader.getRowObjects()[0] ?? null;
}

/** A zone as the series names it, normalised (`FR`, `fr` → `FRA`; grid_iso_country joined as `iso`). */
const ZONE_SQL = "CASE WHEN length(zone_text) = 2 THEN coalesce(iso.alpha3, zone_text) ELSE zone_text END";
const ISO_JOIN =
  "LEFT JOIN grid_iso_country AS iso ON length(series.zone_text) = 2 AND iso.alpha2 = upper(series.zone_text)";

/**
 * The bounds, before any table is filled: the intervals counted up to one past their bound (the
 * reading stops there: 10^8 intervals are not read to be refused), then, within it, the zones as
 * written; only past their bound are they counted once normalised (`FR` and `FRA` one zone).
 */
async function checkBounds(connection: DuckDBConnection, source: SeriesSource): Promise<void> {
  const counted = await reading(source.file, () =>
    firstRow(
      connection,
      `SELECT count(*) AS intervals FROM (SELECT 1 FROM (${seriesRows(source)}) AS series LIMIT ${GRID_SERIES_LIMITS.intervals + 1})`,
    ),
  );
  const intervals = Number(counted?.intervals ?? 0);
  if (intervals > GRID_SERIES_LIMITS.intervals)
    throw new GridInputError(
      `${source.file}: a grid intensity series holds at most ${GRID_SERIES_LIMITS.intervals} intervals; it holds more (read up to the bound)`,
    );
  const counts = await reading(source.file, () =>
    firstRow(connection, `SELECT count(DISTINCT zone_text) AS zones FROM (${seriesRows(source)}) AS series`),
  );
  let zones = Number(counts?.zones ?? 0);
  if (zones > GRID_SERIES_LIMITS.zones) {
    const named = await reading(source.file, () =>
      firstRow(
        connection,
        `SELECT count(DISTINCT ${ZONE_SQL}) AS zones FROM (${seriesRows(source)}) AS series ${ISO_JOIN}`,
      ),
    );
    zones = Number(named?.zones ?? 0);
  }
  if (zones > GRID_SERIES_LIMITS.zones)
    throw new GridInputError(
      `${source.file}: a grid intensity series holds at most ${GRID_SERIES_LIMITS.zones} zones (${zones})`,
    );
  if (intervals === 0)
    throw new GridInputError(
      `${source.file}: no interval in the file${source.columns.shape === "ember" ? " (no CO2 intensity row of a country)" : ""}`,
    );
}

/**
 * The source, checked against its bounds; a CSV whose lines end both ways (exports concatenated)
 * read from its copy with LF line ends (`cleanUp` removes it once the series is read).
 */
async function checkedSource(
  connection: DuckDBConnection,
  file: string,
  cleanUp: (() => void)[],
): Promise<SeriesSource> {
  const source = await seriesSource(connection, file);
  try {
    await checkBounds(connection, source);
    return source;
  } catch (error) {
    if (!(error instanceof SeriesReadError) || source.header === null) throw error;
    const copy = await lfCopy(file, GRID_SERIES_LIMITS.bytes);
    if (copy === null) throw error;
    cleanUp.push(copy.remove);
    const copied = { ...source, reads: copy.file };
    await checkBounds(connection, copied);
    return copied;
  }
}

/**
 * An intensity's text as a number: a decimal (`40`, `40.5`, `4.05e1`), nothing else (`inf`,
 * `nan`, `0x10`, `1_000` are not; `-0` is 0); empty, or the exporter's note that the interval is
 * not published ("Data is not complete enough to be published"), is a gap.
 */
const VALUE_SQL = `CASE WHEN regexp_full_match(value_text, '[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d{1,3})?')
  THEN try_cast(value_text AS DOUBLE) + 0.0 END`;
const GAP_SQL = "(coalesce(value_text, '') = '' OR lower(value_text) LIKE '%published%')";

/** The first row that is not an interval (no zone, a time or intensity unread, out of range), in one line. */
async function checkValues(connection: DuckDBConnection, source: SeriesSource): Promise<void> {
  const bad = await firstRow(
    connection,
    `SELECT * FROM (
      SELECT position, start_text, value_text, CASE
        WHEN coalesce(zone_text, '') = '' THEN 'zone'
        WHEN start IS NULL THEN 'start'
        WHEN gap THEN NULL
        WHEN value IS NULL OR NOT isfinite(value) THEN 'value'
        WHEN value < 0 THEN 'negative'
        WHEN value > ${GRID_SERIES_LIMITS.gco2PerKwh} THEN 'range' END AS problem
      FROM grid_read) AS checked
    WHERE problem IS NOT NULL ORDER BY position LIMIT 1`,
  );
  if (bad === null) return;
  const { columns } = source;
  const [column, what] = {
    zone: [columns.zone, "no zone"],
    start: [
      columns.start,
      `${JSON.stringify(bad.start_text ?? "")} is not a date or time (ISO 8601, UTC or an offset within ±14:00)`,
    ],
    value: [columns.intensity, `${JSON.stringify(bad.value_text ?? "")} is not an intensity in gCO2eq/kWh`],
    negative: [columns.intensity, `${bad.value_text} is a negative intensity`],
    range: [
      columns.intensity,
      `${bad.value_text} is above ${GRID_SERIES_LIMITS.gco2PerKwh} gCO2eq/kWh, the most an intensity may be`,
    ],
  }[String(bad.problem) as "zone" | "start" | "value" | "negative" | "range"];
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

/** Reads the file's rows into grid_read (zone normalised, start in UTC, value or gap), checked. */
async function readRows(connection: DuckDBConnection, source: SeriesSource): Promise<void> {
  await reading(source.file, () =>
    connection.run(`CREATE OR REPLACE TEMP TABLE grid_read AS
      SELECT position, zone_text, start_text, value_text, zone, ${utcTime("time_parts")} AS start,
        CASE WHEN gap THEN NULL ELSE value END AS value, gap
      FROM (
        SELECT position, zone_text, start_text, value_text, ${ZONE_SQL} AS zone,
          ${timeParts("start_text")} AS time_parts, ${VALUE_SQL} AS value, ${GAP_SQL} AS gap
        FROM (${seriesRows(source)}) AS series ${ISO_JOIN})`),
  );
  await checkValues(connection, source);
  await checkDuplicates(connection, source);
}

/**
 * Reads a grid series (CSV, gzipped or not, or Parquet; an Electricity Maps export, Ember's
 * monthly data or `zone,start,gco2_per_kwh`; exports concatenated) into the table
 * `grid_interval`, each zone's intervals of its own step, its gaps with a NULL intensity.
 */
export async function loadGridSeries(connection: DuckDBConnection, file: string): Promise<GridSeriesInfo> {
  const cleanUp: (() => void)[] = [];
  let shape: GridSeriesShape;
  try {
    await createTable(
      connection,
      "grid_iso_country",
      [
        ["alpha2", "VARCHAR"],
        ["alpha3", "VARCHAR"],
      ],
      isoCountryCodes(),
    );
    const source = await checkedSource(connection, file, cleanUp);
    shape = source.columns.shape;
    await readRows(connection, source);
    await createIntervals(connection, shape);
  } finally {
    for (const remove of cleanUp) remove();
    await connection.run(
      "DROP TABLE IF EXISTS grid_read; DROP TABLE IF EXISTS grid_iso_country; DROP TABLE IF EXISTS grid_steps",
    );
  }
  const info = await firstRow(
    connection,
    `SELECT count(DISTINCT zone) AS zones, count(gco2_per_kwh) AS intervals,
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
    shape,
    zones,
    intervals: Number(info?.intervals ?? 0),
    first: String(info?.first),
    last: String(info?.last),
    gaps: await seriesGaps(connection),
  };
}
