import type { CpuSpec } from "../../data/types.js";
import type { EditionRules } from "../model/edition.js";
import { flatText } from "../model/flatText.js";
import { roundSigFig } from "../model/rounding.js";

/** A CPU's core count as read by the die-size rule: value and bounds. */
export interface CoreCount {
  readonly value: number;
  readonly min: number;
  readonly max: number;
}

export interface DieSizeEstimate {
  readonly value: number;
  readonly min: number;
  readonly max: number;
  readonly source: string;
}

const r3 = (x: number) => roundSigFig(x, 3);

function mean(values: readonly number[]): number {
  let total = 0;
  for (const v of values) total += v;
  return total / values.length;
}

const sizes = (rows: readonly CpuSpec[]) => rows.map((r) => r.totalDieSize as number);

/** Ordinary least squares y = a + b·x; null when x has no spread (the reference's NaN case). */
function linearRegression(
  xs: readonly number[],
  ys: readonly number[],
): { intercept: number; slope: number } | null {
  if (xs.length < 2) return null;
  const mx = mean(xs);
  const my = mean(ys);
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < xs.length; i++) {
    sxy += (xs[i] - mx) * (ys[i] - my);
    sxx += (xs[i] - mx) ** 2;
  }
  if (sxx === 0) return null;
  const slope = sxy / sxx;
  return { intercept: my - slope * mx, slope };
}

/**
 * §4.2.3 step 4: one row, or (where the edition says so) rows all sharing the first row's core
 * count — the regression of 1.2.4 has no spread there and fails (NaN, HTTP 500).
 */
function scalesByRuleOfThree(rows: readonly CpuSpec[], rule: EditionRules["ruleOfThree"]): boolean {
  if (rows.length === 1) return true;
  return rule === "sharedCoreCount" && rows.every((row) => row.cores === rows[0].cores);
}

/**
 * docs/methodology.md §4.2.3 steps 2–5: a die size (mm²) estimated from the `cpu_specs.csv` rows that have
 * one (`rows`, already restricted to the matched family, labelled `label`), from the core count
 * when it is known. A pure function of its inputs (so its results can be shared).
 */
export function estimateDieSize(
  rows: readonly CpuSpec[],
  label: string,
  cores: CoreCount | null,
  ruleOfThree: EditionRules["ruleOfThree"],
): DieSizeEstimate {
  const average = (): DieSizeEstimate => ({
    value: r3(mean(sizes(rows))),
    min: r3(Math.min(...sizes(rows))),
    max: r3(Math.max(...sizes(rows))),
    source: flatText(`Average value for ${label}`),
  });
  if (cores === null) return average();
  const withCores = (n: number) => rows.filter((r) => r.cores === n);
  const exact = withCores(cores.value);
  if (exact.length > 0) {
    const low = withCores(cores.min);
    const high = withCores(cores.max);
    return {
      value: r3(mean(sizes(exact))),
      min: r3(Math.min(...sizes(low.length > 0 ? low : exact))),
      max: r3(Math.max(...sizes(high.length > 0 ? high : exact))),
      source: flatText(`Average value of ${label} with ${cores.value} cores`),
    };
  }
  if (rows.length > 0 && rows[0].cores && scalesByRuleOfThree(rows, ruleOfThree)) {
    // With one row min = max = t₀; with rows sharing one core count (docs/methodology.md §19.4.2) the
    // bounds scale the smallest and largest die sizes by the first row's core count.
    const [first] = rows;
    const k0 = first.cores as number;
    const t0 = first.totalDieSize as number;
    return {
      value: r3((t0 * cores.value) / k0),
      min: r3((Math.min(...sizes(rows)) * cores.min) / k0),
      max: r3((Math.max(...sizes(rows)) * cores.max) / k0),
      source: flatText(`Rule of three on ${first.name}`),
    };
  }
  const points = rows.filter((r) => r.cores !== null);
  const fit = linearRegression(
    points.map((r) => r.cores as number),
    sizes(points),
  );
  // The reference ends in NaN (HTTP 500) when the family cannot be regressed; the family's
  // average is the honest answer.
  if (!fit) return average();
  const at = (n: number) => r3(fit.intercept + fit.slope * n);
  return {
    value: at(cores.value),
    min: at(cores.min),
    max: at(cores.max),
    source: flatText(`Linear regression on ${label}`),
  };
}
