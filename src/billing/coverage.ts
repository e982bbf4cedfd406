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

/** A service with cost left unestimated, and the status of most of that cost. */
export interface UnestimatedRow extends CoverageRow {
  /** The `status` its unestimated lines are written with that bears the most of their cost (then lines). */
  readonly status: string;
}

export interface Coverage {
  readonly total: CoverageRow;
  /** Evaluated lines per method, largest cost first. */
  readonly byMethod: readonly CoverageRow[];
  /** Every service, largest cost first. */
  readonly byService: readonly CoverageRow[];
  /** Services with cost left unestimated, largest unestimated cost first. */
  readonly unestimated: readonly UnestimatedRow[];
}

/** A group's `status` as the output writes it (its lines are estimated when `evaluated`). */
export type GroupStatus = (group: LineGroup) => string;

/** The status of an estimated line, as the output writes it (sql/evaluate/billing_impacts.sql). */
export const EVALUATED = "evaluated";

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

/** The status bearing the most of a service's unestimated cost, then lines, then the first by name. */
function mainStatus(statuses: ReadonlyMap<string, { cost: number; lines: number }> | undefined): string {
  const ranked = [...(statuses ?? new Map()).entries()].sort(
    ([a, x], [b, y]) => y.cost - x.cost || y.lines - x.lines || a.localeCompare(b),
  );
  return ranked[0]?.[0] ?? "";
}

export function billingCoverage(groups: readonly LineGroup[], statusOf: GroupStatus): Coverage {
  const total = new Map<string, CoverageRow>();
  const methods = new Map<string, CoverageRow>();
  const services = new Map<string, CoverageRow>();
  const left = new Map<string, Map<string, { cost: number; lines: number }>>();
  for (const group of groups) {
    const status = statusOf(group);
    const estimated = status === EVALUATED;
    const service = group.service ?? "";
    tally(total, "", group, estimated);
    if (estimated) tally(methods, group.method ?? "", group, true);
    tally(services, service, group, estimated);
    if (estimated) continue;
    const statuses = left.get(service) ?? new Map<string, { cost: number; lines: number }>();
    const sum = statuses.get(status) ?? { cost: 0, lines: 0 };
    statuses.set(status, { cost: sum.cost + group.cost, lines: sum.lines + group.lines });
    left.set(service, statuses);
  }
  const byService = [...services.values()].sort(byCost);
  const leftCost = (row: CoverageRow) => row.cost - row.estimatedCost;
  return {
    total: total.get("") ?? { name: "", lines: 0, cost: 0, estimatedLines: 0, estimatedCost: 0 },
    byMethod: [...methods.values()].sort(byCost),
    byService,
    unestimated: byService
      .filter((row) => leftCost(row) > 0)
      .sort((a, b) => leftCost(b) - leftCost(a) || a.name.localeCompare(b.name))
      .map((row) => ({ ...row, status: mainStatus(left.get(row.name)) })),
  };
}

/** A share in per cent, one decimal ("n/a" for nothing to share). */
export function percent(part: number, whole: number): string {
  return whole > 0 ? `${((100 * part) / whole).toFixed(1)} %` : "n/a";
}
