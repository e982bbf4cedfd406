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
  /** Before interval i: the integral of intensity over time (gCO2eq/kWh × h) and the hours covered. */
  readonly integral: Float64Array;
  readonly hours: Float64Array;
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
  const hours = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) {
    const length = ((ends[i] ?? 0) - (starts[i] ?? 0)) / HOUR_MS;
    integral[i + 1] = (integral[i] ?? 0) + (intensities[i] ?? 0) * length;
    hours[i + 1] = (hours[i] ?? 0) + length;
  }
  return { starts, ends, intensities, integral, hours };
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
 * took 360 MB), each zone a view of its part.
 */
export async function readGridSeries(connection: DuckDBConnection): Promise<GridSeries> {
  const counted = await connection.runAndReadAll("SELECT count(*) AS intervals FROM grid_interval");
  const n = Number(counted.getRowObjects()[0]?.intervals ?? 0);
  const starts = new Float64Array(n);
  const ends = new Float64Array(n);
  const intensities = new Float64Array(n);
  const firsts: [string, number][] = [];
  const result = await connection.stream(
    `SELECT zone, CAST(epoch_ms(interval_start) AS DOUBLE), CAST(epoch_ms(interval_end) AS DOUBLE), gco2_per_kwh
    FROM grid_interval ORDER BY zone, interval_start`,
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

/** The integral of intensity and the hours covered from the zone's first start to `time`. */
function runningTotals(series: ZoneSeries, time: number): readonly [number, number] {
  const i = lastStartingBy(series.starts, time);
  if (i < 0) return [0, 0];
  const start = series.starts[i] ?? 0;
  const hours = (Math.min(time, series.ends[i] ?? 0) - start) / HOUR_MS;
  return [(series.integral[i] ?? 0) + (series.intensities[i] ?? 0) * hours, (series.hours[i] ?? 0) + hours];
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
  const [integralAtStart, hoursAtStart] = runningTotals(zoneSeries, start);
  const [integralAtEnd, hoursAtEnd] = runningTotals(zoneSeries, end);
  const coveredHours = hoursAtEnd - hoursAtStart;
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
