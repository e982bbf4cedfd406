/*
 * An inventory's rows with a grid series (`--grid-intensity`): each row's gwp use from its zone's
 * intervals over its period, the edition's factor for what the series does not cover, and the
 * run's line saying how many rows used the series and what it lacked (docs/methodology.md, "Grid
 * intensity series").
 */

import type { Config } from "../config/serviceConfig.js";
import { openDatabase } from "../duckdb/database.js";
import type { ImpactRounding } from "../engine/index.js";
import { formatNumber } from "../output/columns.js";
import type { GridUse } from "../output/report.js";
import type { GwpFactor } from "../service/energy.js";
import { openEdition } from "../service/open.js";
import { printable } from "../support/terminalText.js";
import { gapTexts } from "./gaps.js";
import { type GridOptions, type GridSeriesInfo, loadGridSeries } from "./series.js";
import { isoUtc } from "./times.js";
import { useCollector } from "./useCollector.js";
import { type GridSeries, readGridSeries, weightedIntensity, zoneSpan } from "./weighting.js";
import { editionGridPlaces, loadGridZones, normalisedZone } from "./zones.js";

export { InputFileError } from "../duckdb/errors.js";

/**
 * What the series needs of an inventory row's outcome: its answer, how many of the asset it stands
 * for, its warnings, and the energy behind its use with the edition's factor of it.
 */
export interface GriddedOutcome {
  readonly body: unknown;
  readonly quantity: number;
  readonly warnings?: readonly string[];
  readonly energyKwh?: number;
  readonly gwpFactor?: GwpFactor;
  readonly gridGco2PerKwh?: number;
}

/** How the command line reads an inventory's columns and a row's period (src/cli/inventory). */
export interface InventoryReading {
  columnName(header: string): string;
  rowPeriod(
    row: Readonly<Record<string, string | undefined>>,
  ): { readonly period: readonly [number, number] | null } | { readonly problem: string };
}

/** A series read, and the zone of each of the edition's places (`provider\0place` → zone). */
export interface LoadedGrid {
  readonly file: string;
  /** How the edition rounds an impact (the rows' other values are the routes' rounded answers). */
  readonly roundImpact: ImpactRounding;
  readonly info: GridSeriesInfo;
  readonly series: GridSeries;
  readonly zones: ReadonlyMap<string, string>;
}

const placeKey = (provider: string, place: string) => `${provider}\u0000${place}`;

/** Reads the series and the zones of the edition's places (a GridInputError on bad input). */
export async function loadGrid(grid: GridOptions, edition: string, config: Config): Promise<LoadedGrid> {
  const { context, knownRegions } = openEdition(config, edition, true);
  const places = editionGridPlaces(context.service.data, knownRegions);
  const db = await openDatabase();
  try {
    const info = await loadGridSeries(db.connection, grid.series);
    await loadGridZones(db.connection, places, grid.zones);
    const series = await readGridSeries(db.connection);
    const rows = (await db.connection.runAndReadAll("SELECT provider, place, zone FROM grid_zone")).getRows();
    const zones = new Map(
      rows.map(([provider, place, zone]) => [placeKey(String(provider), String(place)), String(zone)]),
    );
    return { file: grid.series, roundImpact: context.service.rules.roundImpact, info, series, zones };
  } finally {
    db.close();
  }
}

/** How much of a row's span the series covers, and its intensity over that part. */
interface Coverage {
  readonly gco2PerKwh: number | null;
  /** Share of the span covered, 0–1. */
  readonly share: number;
  readonly coveredHours: number;
  readonly spanHours: number;
}

/**
 * A row's coverage: over its period, or (without one) the zone's mean over the intervals the
 * series gives (its gaps left out, as a billing line's).
 */
function coverageOf(series: GridSeries, zone: string, period: readonly [number, number] | null): Coverage {
  const span = period ?? zoneSpan(series, zone);
  if (span === null) return { gco2PerKwh: null, share: 0, coveredHours: 0, spanHours: 0 };
  const weighted = weightedIntensity(series, zone, span[0], span[1]);
  const share = period === null ? 1 : weighted.spanHours > 0 ? weighted.coveredHours / weighted.spanHours : 0;
  return { ...weighted, share: weighted.gco2PerKwh === null ? 0 : share };
}

const spanText = ([start, end]: readonly [number, number]) => `${isoUtc(start)} to ${isoUtc(end)}`;

/** What the summary lists of the series' gaps: at most this many zones or periods. */
const LISTED_MISSING = 10;

type UseBounds = { readonly value: number; readonly min?: unknown; readonly max?: unknown };

/**
 * The row's answer with its gwp use at the intensity applied, rounded as the edition rounds the
 * route's impacts (the row's other values are those answers).
 */
function withGwpUse<Outcome extends GriddedOutcome>(
  outcome: Outcome,
  use: UseBounds,
  applied: number,
  edition: number,
  energy: number,
  roundImpact: ImpactRounding,
) {
  const raw = (energy * applied) / 1000;
  // The energy's margin kept, the series taken as exact: min and max scale as the value does.
  const scale = (bound: unknown) =>
    typeof bound !== "number" ? raw : edition > 0 ? (bound * applied) / edition : raw;
  const { value, min, max } = roundImpact(raw, scale(use.min), scale(use.max));
  const body = outcome.body as { impacts: Record<string, Record<string, unknown>> };
  const gwp = body.impacts.gwp as Record<string, unknown>;
  return {
    ...outcome,
    body: {
      ...body,
      impacts: { ...body.impacts, gwp: { ...gwp, use: { ...use, value, min, max } } },
    },
    gridGco2PerKwh: applied,
  };
}

export interface GridRows {
  /** The row's outcome with its gwp use from the series (unchanged when it has no energy or gwp use). */
  apply<Outcome extends GriddedOutcome>(cells: readonly string[], outcome: Outcome): Outcome;
  /** The run's line: how many rows used the series, which zones or periods it lacked. */
  summary(): string;
  /** The gwp use of the rows that used the series, by hour of day and month (null when none did, or no report was asked). */
  use(): GridUse | null;
}

/** The zone of a row: its cloud region's (`--grid-zones` or the region's country), else its location's. */
function zoneFinder(grid: LoadedGrid, names: readonly string[]) {
  const [kind, region, provider] = ["kind", "region", "provider"].map((name) => names.indexOf(name));
  const at = (cells: readonly string[], index: number | undefined) => cells[index ?? -1]?.trim() ?? "";
  return (cells: readonly string[], location: string): string => {
    const cloudRegion = at(cells, kind).toLowerCase() === "cloud" ? at(cells, region) : "";
    const regional =
      cloudRegion === ""
        ? undefined
        : grid.zones.get(placeKey(at(cells, provider).toLowerCase(), cloudRegion));
    return regional ?? grid.zones.get(placeKey("", location)) ?? normalisedZone(location);
  };
}

/** What the rows found of the series: rows evaluated, rows that used it, and what it lacked. */
interface Found {
  rows: number;
  used: number;
  wholeSeries: number;
  /** A zone (or zone and period) missing → the rows that missed it. */
  readonly missing: Map<string, number>;
}

/** A row's warnings about the series (counted in `found`). */
function warningsOf(
  found: Found,
  series: GridSeries,
  zone: string,
  period: readonly [number, number] | null,
  covered: Coverage,
): string[] {
  const where = period === null ? zone : `${zone} ${spanText(period)}`;
  const miss = (what: string) => found.missing.set(what, (found.missing.get(what) ?? 0) + 1);
  if (covered.gco2PerKwh === null) {
    miss(where);
    return [`grid series: no interval of ${where}: the edition's factor`];
  }
  found.used += 1;
  if (period === null) {
    found.wholeSeries += 1;
    const span = zoneSpan(series, zone) as readonly [number, number];
    return [`no period: the mean grid intensity of ${zone} over the whole series (${spanText(span)})`];
  }
  if (covered.share >= 1) return [];
  miss(`${where}, partly`);
  return [
    `grid series: ${zone} covers ${formatNumber(covered.coveredHours)} of the period's ${formatNumber(covered.spanHours)} h: the edition's factor for the rest`,
  ];
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;

/** The run's line on the series (zones and the file's name shown without their control characters). */
function summaryOf(grid: LoadedGrid, found: Found): string {
  return printable(summaryText(grid, found));
}

function summaryText(grid: LoadedGrid, found: Found): string {
  const { info } = grid;
  const listed = [...found.missing]
    .slice(0, LISTED_MISSING)
    .map(([what, rows]) => `${what} (${plural(rows, "row")})`);
  const more = found.missing.size > LISTED_MISSING ? `, and ${found.missing.size - LISTED_MISSING} more` : "";
  return (
    `grid series ${grid.file} (${info.shape}, ${plural(info.zones, "zone")}, ${plural(info.intervals, "interval")}, ${info.first} to ${info.last}): ` +
    `${found.used} of ${found.rows} rows' gwp use from the series` +
    (found.wholeSeries > 0 ? ` (${found.wholeSeries} without a period: their zone's mean)` : "") +
    (listed.length > 0 ? `; missing: ${listed.join(", ")}${more}` : "; nothing missing") +
    (info.gaps.length > 0
      ? `; gaps in the series (the edition's factor): ${gapTexts(info.gaps).join(", ")}`
      : "")
  );
}

/** The rows' use of the series: each row's gwp use, the run's summary, and (for a report) its use over time. */
export function gridRows(
  grid: LoadedGrid,
  inputColumns: readonly string[],
  report: boolean,
  { columnName, rowPeriod }: InventoryReading,
): GridRows {
  // Where each column read stands, found once for the run.
  const names = inputColumns.map(columnName);
  const zoneOf = zoneFinder(grid, names);
  const [start, end] = [names.indexOf("period_start"), names.indexOf("period_end")];
  const periodCells = (cells: readonly string[]) => ({ period_start: cells[start], period_end: cells[end] });
  const found: Found = { rows: 0, used: 0, wholeSeries: 0, missing: new Map() };
  const byTime = report ? useCollector(grid.series) : null;
  return {
    apply(cells, outcome) {
      const use = (outcome.body as { impacts?: { gwp?: { use?: UseBounds } } } | null)?.impacts?.gwp?.use;
      const { energyKwh, gwpFactor } = outcome;
      const read = rowPeriod(periodCells(cells));
      if (
        energyKwh === undefined ||
        gwpFactor === undefined ||
        typeof use?.value !== "number" ||
        !("period" in read)
      )
        return outcome;
      found.rows += 1;
      const zone = zoneOf(cells, gwpFactor.location);
      const covered = coverageOf(grid.series, zone, read.period);
      const warnings = [
        ...(outcome.warnings ?? []),
        ...warningsOf(found, grid.series, zone, read.period, covered),
      ];
      const edition = gwpFactor.kgPerKwh * 1000;
      // A row the series does not cover keeps the route's answer, at the edition's factor.
      if (covered.gco2PerKwh === null) return { ...outcome, gridGco2PerKwh: edition, warnings };
      const applied = covered.share * covered.gco2PerKwh + (1 - covered.share) * edition;
      // Over the span coverageOf weighed: the period, or the zone's whole series (its gaps at the
      // zone's mean, which the row takes, so its hours add up to its gwp use).
      const span = read.period ?? (zoneSpan(grid.series, zone) as readonly [number, number]);
      byTime?.add(zone, span, energyKwh * outcome.quantity, read.period === null ? applied : edition);
      const scaled = withGwpUse(outcome, use, applied, edition, energyKwh, grid.roundImpact);
      return warnings.length > 0 ? { ...scaled, warnings } : scaled;
    },
    summary: () => summaryOf(grid, found),
    use: () =>
      byTime === null || found.used === 0 ? null : { rows: found.used, of: found.rows, ...byTime.result() },
  };
}
