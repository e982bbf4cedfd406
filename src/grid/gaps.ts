/*
 * A series' gaps: the intervals between a zone's first start and its last end without a value —
 * unpublished (an empty cell, the exporter's note) or absent (a start left out). A row's or a
 * line's period over a gap takes the edition's factor there, with a warning; the summary lists
 * them per zone.
 */

import type { DuckDBConnection } from "@duckdb/node-api";

export interface GridGap {
  readonly zone: string;
  readonly intervals: number;
  readonly hours: number;
  /** The first gap's start and the last one's end, ISO 8601 UTC. */
  readonly first: string;
  readonly last: string;
}

/** The gaps of grid_interval, per zone (its intervals with a NULL intensity). */
export async function seriesGaps(connection: DuckDBConnection): Promise<GridGap[]> {
  const reader = await connection.runAndReadAll(
    `SELECT zone, count(*)::DOUBLE AS intervals,
      sum(epoch(interval_end) - epoch(interval_start)) / 3600 AS hours,
      strftime(min(interval_start), '%Y-%m-%dT%H:%M:%SZ') AS first,
      strftime(max(interval_end), '%Y-%m-%dT%H:%M:%SZ') AS last
    FROM grid_interval WHERE gco2_per_kwh IS NULL GROUP BY zone ORDER BY zone`,
  );
  return reader.getRowObjects().map((row) => ({
    zone: String(row.zone),
    intervals: Number(row.intervals),
    hours: Number(row.hours),
    first: String(row.first),
    last: String(row.last),
  }));
}

/** Zones whose gaps a summary lists (the rest counted). */
const LISTED_ZONES = 10;

/** One zone's gaps, as the summaries write them: `FRA 2 intervals (48 h) from … to …`. */
function gapText(gap: GridGap): string {
  const hours = Number(gap.hours.toPrecision(10));
  return `${gap.zone} ${gap.intervals} interval${gap.intervals === 1 ? "" : "s"} (${hours} h) from ${gap.first} to ${gap.last}`;
}

/** The gaps per zone, at most ten, then how many zones more. */
export function gapTexts(gaps: readonly GridGap[]): string[] {
  const listed = gaps.slice(0, LISTED_ZONES).map(gapText);
  if (gaps.length > LISTED_ZONES) listed.push(`and ${gaps.length - LISTED_ZONES} zones more`);
  return listed;
}
