/*
 * How much of a bill is estimated: lines and positive cost of the evaluated lines — the cost paid
 * for the hours (FOCUS EffectiveCost, a CUR's amortised cost where it has the columns, else the
 * billed cost: sql/classify/billing_usage_<format>.sql, src/billing/formats.ts `amortisedCost`), so that a
 * reservation's fee counts where its hours are estimated —
 * per method and per service, and the services left unestimated, largest cost first. Credits and
 * refunds (negative costs) are left out of every sum: a share of a bill is a share of what it
 * charges.
 */

import type { LineGroup } from "./stages/evaluate.js";

export interface CoverageRow {
  /** A method or a service; "" for lines without one. */
  readonly name: string;
  readonly lines: number;
  readonly cost: number;
  readonly estimatedLines: number;
  readonly estimatedCost: number;
}

export interface Coverage {
  readonly total: CoverageRow;
  /** Evaluated lines per method, largest cost first. */
  readonly byMethod: readonly CoverageRow[];
  /** Every service, largest cost first. */
  readonly byService: readonly CoverageRow[];
  /** Services with cost left unestimated, largest unestimated cost first. */
  readonly unestimated: readonly CoverageRow[];
}

/** Whether a group's lines are estimated (its status `evaluated`), given its instance match. */
export type EstimatedTest = (group: LineGroup) => boolean;

function tally(rows: Map<string, CoverageRow>, name: string, group: LineGroup, estimated: boolean): void {
  const row = rows.get(name) ?? { name, lines: 0, cost: 0, estimatedLines: 0, estimatedCost: 0 };
  rows.set(name, {
    name,
    lines: row.lines + group.lines,
    cost: row.cost + group.cost,
    estimatedLines: row.estimatedLines + (estimated ? group.lines : 0),
    estimatedCost: row.estimatedCost + (estimated ? group.cost : 0),
  });
}

const byCost = (a: CoverageRow, b: CoverageRow) => b.cost - a.cost || a.name.localeCompare(b.name);

export function billingCoverage(groups: readonly LineGroup[], isEstimated: EstimatedTest): Coverage {
  const total = new Map<string, CoverageRow>();
  const methods = new Map<string, CoverageRow>();
  const services = new Map<string, CoverageRow>();
  for (const group of groups) {
    const estimated = isEstimated(group);
    tally(total, "", group, estimated);
    if (estimated) tally(methods, group.method ?? "", group, true);
    tally(services, group.service ?? "", group, estimated);
  }
  const byService = [...services.values()].sort(byCost);
  const left = (row: CoverageRow) => row.cost - row.estimatedCost;
  return {
    total: total.get("") ?? { name: "", lines: 0, cost: 0, estimatedLines: 0, estimatedCost: 0 },
    byMethod: [...methods.values()].sort(byCost),
    byService,
    unestimated: byService
      .filter((row) => left(row) > 0)
      .sort((a, b) => left(b) - left(a) || a.name.localeCompare(b.name)),
  };
}

/** A share in per cent, one decimal ("n/a" for nothing to share). */
export function percent(part: number, whole: number): string {
  return whole > 0 ? `${((100 * part) / whole).toFixed(1)} %` : "n/a";
}
