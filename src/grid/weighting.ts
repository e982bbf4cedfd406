/*
 * A grid series in memory, for rows evaluated outside SQL (inventories): per zone its intervals
 * sorted by start, and the running integral of intensity over time, so that the intensity over any
 * span costs two binary searches (docs/methodology.md, "Grid intensity series").
 */

import type { DuckDBConnection } from "@duckdb/node-api";

const HOUR_MS = 3_600_000;

/** One zone's intervals (times in epoch milliseconds, UTC), sorted by start, not overlapping. */
interface ZoneSeries {
  readonly starts: Float64Array;
  readonly ends: Float64Array;
  readonly intensities: Float64Array;
  /**
   * Before interval i: the integral of intensity over time (gCO2eq/kWh × h) and the milliseconds
   * covered, whole numbers summed exactly, so a period the series covers whole is covered exactly.
   */
  readonly integral: Float64Array;
  readonly coveredMs: Float64Array;
}

export interface GridSeries {
  readonly zones: ReadonlyMap<string, ZoneSeries>;
}

export interface GridInterval {
  readonly zone: string;
  /** Epoch milliseconds, UTC. */
  readonly start: number;
  readonly end: number;
  readonly gco2PerKwh: number;
}

/** A zone's series from its intervals' columns, sorted by start: the running sums added. */
function zoneSeries(starts: Float64Array, ends: Float64Array, intensities: Float64Array): ZoneSeries {
  const n = starts.length;
  const integral = new Float64Array(n + 1);
  const coveredMs = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) {
    const length = (ends[i] ?? 0) - (starts[i] ?? 0);
    integral[i + 1] = (integral[i] ?? 0) + ((intensities[i] ?? 0) * length) / HOUR_MS;
    coveredMs[i + 1] = (coveredMs[i] ?? 0) + length;
  }
  return { starts, ends, intensities, integral, coveredMs };
}

/** A series from its intervals (any order; a zone's intervals must not overlap). */
export function gridSeriesOf(intervals: Iterable<GridInterval>): GridSeries {
  const byZone = new Map<string, GridInterval[]>();
  for (const interval of intervals) {
    const list = byZone.get(interval.zone);
    if (list === undefined) byZone.set(interval.zone, [interval]);
    else list.push(interval);
  }
  const zones = new Map<string, ZoneSeries>();
  for (const [zone, list] of byZone) {
    list.sort((a, b) => a.start - b.start);
    zones.set(
      zone,
      zoneSeries(
        Float64Array.from(list, (interval) => interval.start),
        Float64Array.from(list, (interval) => interval.end),
        Float64Array.from(list, (interval) => interval.gco2PerKwh),
      ),
    );
  }
  return { zones };
}

/**
 * The series of the table `grid_interval` (loadGridSeries), pulled into memory chunk by chunk
 * into three columns of doubles (a year of hours for 100 zones: 21 MB, where a row object each
 * took 360 MB), each zone a view of its part. Its gaps (a NULL intensity) are left out: a span
 * over one is not covered there.
 */
export async function readGridSeries(connection: DuckDBConnection): Promise<GridSeries> {
  const counted = await connection.runAndReadAll(
    "SELECT count(gco2_per_kwh) AS intervals FROM grid_interval",
  );
  const n = Number(counted.getRowObjects()[0]?.intervals ?? 0);
  const starts = new Float64Array(n);
  const ends = new Float64Array(n);
  const intensities = new Float64Array(n);
  const firsts: [string, number][] = [];
  const result = await connection.stream(
    `SELECT zone, CAST(epoch_ms(interval_start) AS DOUBLE), CAST(epoch_ms(interval_end) AS DOUBLE), gco2_per_kwh
    FROM grid_interval WHERE gco2_per_kwh IS NOT NULL ORDER BY zone, interval_start`,
  );
  let row = 0;
  for (
    let chunk = await result.fetchChunk();
    chunk !== null && chunk.rowCount > 0;
    chunk = await result.fetchChunk()
  ) {
    const [zones = [], chunkStarts = [], chunkEnds = [], chunkIntensities = []] = chunk.getColumns();
    for (let i = 0; i < chunk.rowCount && row < n; i++, row++) {
      const zone = String(zones[i]);
      if (firsts[firsts.length - 1]?.[0] !== zone) firsts.push([zone, row]);
      starts[row] = Number(chunkStarts[i]);
      ends[row] = Number(chunkEnds[i]);
      intensities[row] = Number(chunkIntensities[i]);
    }
  }
  const zones = new Map<string, ZoneSeries>();
  firsts.forEach(([zone, first], index) => {
    const last = firsts[index + 1]?.[1] ?? row;
    zones.set(
      zone,
      zoneSeries(starts.subarray(first, last), ends.subarray(first, last), intensities.subarray(first, last)),
    );
  });
  return { zones };
}

/** The index of the last interval starting at or before `time`, or -1. */
function lastStartingBy(starts: Float64Array, time: number): number {
  let low = 0;
  let high = starts.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((starts[middle] ?? 0) <= time) low = middle + 1;
    else high = middle;
  }
  return low - 1;
}

/** The integral of intensity and the milliseconds covered from the zone's first start to `time`. */
function runningTotals(series: ZoneSeries, time: number): readonly [number, number] {
  const i = lastStartingBy(series.starts, time);
  if (i < 0) return [0, 0];
  const start = series.starts[i] ?? 0;
  const covered = Math.min(time, series.ends[i] ?? 0) - start;
  return [
    (series.integral[i] ?? 0) + ((series.intensities[i] ?? 0) * covered) / HOUR_MS,
    (series.coveredMs[i] ?? 0) + covered,
  ];
}

export interface WeightedIntensity {
  /** The intensity over the covered part of the span, weighted by time (null when none is covered). */
  readonly gco2PerKwh: number | null;
  /** Hours of the span the zone's intervals cover. */
  readonly coveredHours: number;
  readonly spanHours: number;
}

/**
 * The intensity of a zone over [start, end) (epoch milliseconds, UTC), energy taken as spread
 * uniformly over it: each interval weighs by its overlap with the span.
 */
export function weightedIntensity(
  series: GridSeries,
  zone: string,
  start: number,
  end: number,
): WeightedIntensity {
  const spanHours = Math.max(0, end - start) / HOUR_MS;
  const zoneSeries = series.zones.get(zone);
  if (zoneSeries === undefined || end <= start) return { gco2PerKwh: null, coveredHours: 0, spanHours };
  const [integralAtStart, coveredAtStart] = runningTotals(zoneSeries, start);
  const [integralAtEnd, coveredAtEnd] = runningTotals(zoneSeries, end);
  const coveredHours = (coveredAtEnd - coveredAtStart) / HOUR_MS;
  return {
    gco2PerKwh: coveredHours > 0 ? (integralAtEnd - integralAtStart) / coveredHours : null,
    coveredHours,
    spanHours,
  };
}

/** A zone's whole span [first start, last end] in epoch milliseconds, or null when the series lacks it. */
export function zoneSpan(series: GridSeries, zone: string): readonly [number, number] | null {
  const zoneSeries = series.zones.get(zone);
  if (zoneSeries === undefined || zoneSeries.starts.length === 0) return null;
  return [zoneSeries.starts[0] ?? 0, zoneSeries.ends[zoneSeries.ends.length - 1] ?? 0];
}

const DAY_MS = 24 * HOUR_MS;

/**
 * Climate change of use (kgCO2eq) spread over time, summed over rows: by hour of day (UTC, 0–23)
 * and by calendar month (UTC; key year × 12 + month 0–11). A span's whole months are not walked:
 * its rate is added where they begin and taken off where they end (`monthRates`), so that the
 * work of a row is its intervals, not the months its period spans (a period of 9,000 years is
 * 108,000 months); useByMonth sums the rates once, month by month.
 */
export interface UseByTime {
  readonly byHour: Float64Array;
  /** kgCO2eq of the parts of months a span covers in part. */
  readonly byMonth: Map<number, number>;
  /** kgCO2eq per millisecond starting (or, negative, ending) with each month, over whole months. */
  readonly monthRates: Map<number, number>;
}

export const emptyUseByTime = (): UseByTime => ({
  byHour: new Float64Array(24),
  byMonth: new Map(),
  monthRates: new Map(),
});

/** The first instant of year `year`, month `month` (0–11; 12 is the next year's January), UTC. */
function firstOfMonth(year: number, month: number): number {
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC: years 0–99 are not taken as 1900–1999.
  date.setUTCFullYear(year, month, 1);
  return date.getTime();
}

/** The first instant of the month of key `key` (year × 12 + month). */
const startOfMonthKey = (key: number) => firstOfMonth(Math.floor(key / 12), key % 12);

/** The key (year × 12 + month) of the month holding `time`. */
function monthKeyOf(time: number): number {
  const date = new Date(time);
  return date.getUTCFullYear() * 12 + date.getUTCMonth();
}

/** A row's current month, its share summed before it is added to the totals' map once. */
interface MonthCursor {
  start: number;
  end: number;
  key: number;
  kg: number;
}

function flushMonth(totals: UseByTime, cursor: MonthCursor): void {
  if (cursor.kg !== 0) totals.byMonth.set(cursor.key, (totals.byMonth.get(cursor.key) ?? 0) + cursor.kg);
  cursor.kg = 0;
}

/** Adds `kg` over [from, to), a part of one month, through the row's cursor. */
function addInMonth(totals: UseByTime, month: MonthCursor, from: number, to: number, kgPerMs: number): void {
  if (from < month.start || from >= month.end) {
    flushMonth(totals, month);
    month.key = monthKeyOf(from);
    month.start = startOfMonthKey(month.key);
    month.end = startOfMonthKey(month.key + 1);
  }
  month.kg += kgPerMs * (to - from);
}

const addRate = (rates: Map<number, number>, key: number, rate: number) =>
  rates.set(key, (rates.get(key) ?? 0) + rate);

/** Adds a constant rate (kgCO2eq per millisecond) over [from, to) to the hours of day and months. */
function addSpan(totals: UseByTime, month: MonthCursor, from: number, to: number, kgPerMs: number): void {
  // Each whole day holds every hour of day once: the rest, under a day, is walked hour by hour.
  const days = Math.floor((to - from) / DAY_MS);
  if (days > 0) for (let hour = 0; hour < 24; hour++) totals.byHour[hour] += kgPerMs * days * HOUR_MS;
  for (let time = from + days * DAY_MS; time < to; ) {
    const hours = Math.floor(time / HOUR_MS);
    const next = Math.min(to, (hours + 1) * HOUR_MS);
    totals.byHour[((hours % 24) + 24) % 24] += kgPerMs * (next - time);
    time = next;
  }
  // The month of `from` in part, the whole months after it as a rate, the month of `to` in part.
  const firstKey = monthKeyOf(from);
  const firstEnd = startOfMonthKey(firstKey + 1);
  if (to <= firstEnd) {
    addInMonth(totals, month, from, to, kgPerMs);
    return;
  }
  addInMonth(totals, month, from, firstEnd, kgPerMs);
  const lastKey = monthKeyOf(to);
  if (lastKey > firstKey + 1) {
    addRate(totals.monthRates, firstKey + 1, kgPerMs);
    addRate(totals.monthRates, lastKey, -kgPerMs);
  }
  const lastStart = startOfMonthKey(lastKey);
  if (to > lastStart) addInMonth(totals, month, lastStart, to, kgPerMs);
}

/**
 * Adds a row's climate change of use to `totals`, as weightedIntensity computes it: its energy
 * (kWh) spread uniformly over [start, end), each interval of the zone's at its intensity, the rest
 * of the span at `otherGco2PerKwh` (the edition's factor), so the row adds energy × the intensity
 * applied ÷ 1000 in all. The work is the intervals the span meets, plus its months.
 */
export function addUseByTime(
  totals: UseByTime,
  series: GridSeries,
  zone: string,
  [start, end]: readonly [number, number],
  energyKwh: number,
  otherGco2PerKwh: number,
): void {
  if (end <= start) return;
  const perMs = energyKwh / 1000 / (end - start);
  const month: MonthCursor = { start: 0, end: 0, key: 0, kg: 0 };
  let time = start;
  const zoneSeries = series.zones.get(zone);
  if (zoneSeries !== undefined) {
    const { starts, ends, intensities } = zoneSeries;
    for (let i = Math.max(0, lastStartingBy(starts, start)); i < starts.length; i++) {
      const intervalStart = starts[i] ?? end;
      if (intervalStart >= end) break;
      if (time < intervalStart) {
        addSpan(totals, month, time, intervalStart, perMs * otherGco2PerKwh);
        time = intervalStart;
      }
      const to = Math.min(end, ends[i] ?? 0);
      if (to <= time) continue;
      addSpan(totals, month, time, to, perMs * (intensities[i] ?? 0));
      time = to;
    }
  }
  if (time < end) addSpan(totals, month, time, end, perMs * otherGco2PerKwh);
  flushMonth(totals, month);
}

/**
 * The months from the first to the last with a share (those between at 0), as `YYYY-MM`: the
 * work is the months of the report's span, once, whatever the number of rows.
 */
export function useByMonth(totals: UseByTime): [string, number][] {
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const key of totals.byMonth.keys()) {
    first = Math.min(first, key);
    last = Math.max(last, key);
  }
  // A run of whole months is recorded at its first month and at the month after its last.
  for (const key of totals.monthRates.keys()) {
    first = Math.min(first, key);
    last = Math.max(last, key - 1);
  }
  const months: [string, number][] = [];
  let rate = 0;
  for (let key = first; key <= last; key++) {
    rate += totals.monthRates.get(key) ?? 0;
    const whole = rate === 0 ? 0 : rate * (startOfMonthKey(key + 1) - startOfMonthKey(key));
    const month = String((key % 12) + 1).padStart(2, "0");
    months.push([
      `${String(Math.floor(key / 12)).padStart(4, "0")}-${month}`,
      (totals.byMonth.get(key) ?? 0) + whole,
    ]);
  }
  return months;
}
