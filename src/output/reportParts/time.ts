/*
 * The steps of a report's chart of impacts over time (OverTime): the input's own grain — by day
 * where its typical line or row spans a day or less, by month otherwise — coarser (month, year)
 * where the span would need more than MAX_STEPS steps; and, for the rows an inventory gathers in
 * the process, each period's sums spread over the steps it spans in proportion to the time it
 * shares with each (a bill's lines are spread by DuckDB the same way: src/billing/report/overTime.ts).
 */

import type { Measured, TimeGrain } from "./model.js";

/** Steps of the chart at most: a year by day; past it, by month, then by year. */
export const MAX_STEPS = 400;

/** Series of the chart: the largest (services, kinds), the rest summed in one. */
export const TIME_SERIES = 8;

const DAY = 86_400;
const SECONDS: Readonly<Record<TimeGrain, number>> = { day: DAY, month: 31 * DAY, year: 366 * DAY };

/** The input's own grain: by day where its typical period (`median`, in seconds) spans a day or less, else by month. */
export function inputGrainOf(median: number): TimeGrain {
  return median <= DAY ? "day" : "month";
}

/** The grain of the chart: the input's own (`median`, its typical period's seconds), coarser where `span` asks; null past MAX_STEPS years. */
export function grainOf(median: number, span: number): TimeGrain | null {
  const grains: TimeGrain[] = inputGrainOf(median) === "day" ? ["day", "month", "year"] : ["month", "year"];
  return grains.find((grain) => span / SECONDS[grain] <= MAX_STEPS - 2) ?? null;
}

/** The start (seconds since 1970, UTC) of the step holding `seconds`, and of the next. */
function stepAt(grain: TimeGrain, seconds: number): [number, number] {
  const date = new Date(seconds * 1000);
  const y = date.getUTCFullYear();
  const m = date.getUTCMonth();
  const start =
    grain === "day"
      ? Date.UTC(y, m, date.getUTCDate())
      : grain === "month"
        ? Date.UTC(y, m, 1)
        : Date.UTC(y, 0, 1);
  const next =
    grain === "day" ? start + DAY * 1000 : grain === "month" ? Date.UTC(y, m + 1, 1) : Date.UTC(y + 1, 0, 1);
  return [start / 1000, next / 1000];
}

/** A step's label: `2024-09-01`, `2024-09`, `2024`. */
export function stepLabel(grain: TimeGrain, seconds: number): string {
  const text = new Date(seconds * 1000).toISOString();
  return grain === "day" ? text.slice(0, 10) : grain === "month" ? text.slice(0, 7) : text.slice(0, 4);
}

/** Every step's label from the one holding `first` to the one holding the second before `last`. */
export function stepLabels(grain: TimeGrain, first: number, last: number): string[] {
  const labels: string[] = [];
  for (let [start, next] = stepAt(grain, first); start < last; [start, next] = stepAt(grain, next)) {
    labels.push(stepLabel(grain, start));
  }
  return labels;
}

/** A period's sums spread over its steps: each step's label and share of the period. */
export function spreadShares(grain: TimeGrain, start: number, end: number): [string, number][] {
  const shares: [string, number][] = [];
  for (let [from, next] = stepAt(grain, start); from < end; [from, next] = stepAt(grain, next)) {
    shares.push([stepLabel(grain, from), (Math.min(end, next) - Math.max(start, from)) / (end - start)]);
  }
  return shares;
}

/** Sums with every measure × `share`. */
export function scaled(sums: Measured, share: number): Measured {
  return {
    lines: sums.lines * share,
    cost: sums.cost * share,
    energy: sums.energy * share,
    impacts: sums.impacts.map((phases) => ({ embedded: phases.embedded * share, use: phases.use * share })),
  };
}

/** Two sums added, measure by measure. */
export function added(a: Measured, b: Measured): Measured {
  return {
    lines: a.lines + b.lines,
    cost: a.cost + b.cost,
    energy: a.energy + b.energy,
    impacts: a.impacts.map((phases, index) => ({
      embedded: phases.embedded + (b.impacts[index]?.embedded ?? 0),
      use: phases.use + (b.impacts[index]?.use ?? 0),
    })),
  };
}
