/*
 * The run's climate change of use by hour of day and month, from the rows that used a grid
 * series: rows over the same span of the same zone (an inventory's year, usually) are one
 * distribution of their summed energy, since addUseByTime is linear in the energy; a row spanning
 * a year of hourly intervals costs 8,760 steps (0.17 ms measured), so each span is walked once.
 */

import { addUseByTime, emptyUseByTime, type GridSeries, useByMonth } from "./weighting.js";

/**
 * Distinct spans held before they are walked: bounds the memory, and how long a walk holds the
 * thread (~0.2 s for year-long spans of an hourly series).
 */
const HELD_SPANS = 1_000;

interface HeldSpan {
  readonly zone: string;
  readonly span: readonly [number, number];
  readonly otherGco2PerKwh: number;
  energyKwh: number;
}

export interface UseCollector {
  /** A row's energy over its span in its zone, the part the series lacks at `otherGco2PerKwh`. */
  add(zone: string, span: readonly [number, number], energyKwh: number, otherGco2PerKwh: number): void;
  /** The zones, kgCO2eq by hour of day (UTC, 0–23) and by month (`YYYY-MM`, the months between at 0). */
  result(): {
    readonly zones: string[];
    readonly byHour: number[];
    readonly byMonth: [string, number][];
  };
}

export function useCollector(series: GridSeries): UseCollector {
  const totals = emptyUseByTime();
  const held = new Map<string, HeldSpan>();
  const zones = new Set<string>();
  const walk = () => {
    for (const { zone, span, energyKwh, otherGco2PerKwh } of held.values())
      addUseByTime(totals, series, zone, span, energyKwh, otherGco2PerKwh);
    held.clear();
  };
  return {
    add(zone, span, energyKwh, otherGco2PerKwh) {
      zones.add(zone);
      const key = `${zone}\u0000${span[0]}\u0000${span[1]}\u0000${otherGco2PerKwh}`;
      const same = held.get(key);
      if (same !== undefined) {
        same.energyKwh += energyKwh;
        return;
      }
      if (held.size >= HELD_SPANS) walk();
      held.set(key, { zone, span, otherGco2PerKwh, energyKwh });
    },
    result() {
      walk();
      return { zones: [...zones].sort(), byHour: [...totals.byHour], byMonth: useByMonth(totals) };
    },
  };
}
