/*
 * How an impact is named and written in tabular output (inventory and billing CSV, Parquet,
 * workbooks): one column per criterion, phase and bound, named with the criterion's unit so a
 * spreadsheet reader never has to look the unit up, and numbers without float noise.
 */

import type { Phase } from "../engine/index.js";

// The phases of an impact, in the order columns are written: the engine's list, one description.
export { PHASES, type Phase } from "../engine/index.js";

/** Which number of an impact a column holds: its value, or a bound of its error margin. */
export type Bound = "value" | "min" | "max";

/**
 * A unit as a column-name fragment: lower case letters and digits only (`kgCO2eq` → `kgco2eq`,
 * `kg CO2 eq.` → `kgco2eq`, `m3 eq.` → `m3eq`); a dimensionless criterion has no fragment.
 */
export function unitSlug(unit: string): string {
  if (unit.trim().toLowerCase() === "no dimension") return "";
  let slug = "";
  for (const char of unit.toLowerCase()) {
    if ((char >= "a" && char <= "z") || (char >= "0" && char <= "9")) slug += char;
  }
  return slug;
}

/** `gwp_embedded_kgco2eq`, `gwp_use_kgco2eq_min`, `lu_use` (dimensionless). */
export function impactColumn(criterion: string, unit: string, phase: Phase, bound: Bound = "value"): string {
  const slug = unitSlug(unit);
  const base =
    slug === "" ? `${criterion.toLowerCase()}_${phase}` : `${criterion.toLowerCase()}_${phase}_${slug}`;
  return bound === "value" ? base : `${base}_${bound}`;
}

/** Significant digits a written number keeps: enough for any sum, none of the float noise. */
const SIGNIFICANT_DIGITS = 10;

/**
 * A number as written in tabular output: at most `SIGNIFICANT_DIGITS` significant digits, plain
 * notation where JavaScript's shortest form uses it (`0.0012000000000000001` → `0.0012`,
 * `130492994.93300073` → `130492994.9`).
 */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return "";
  return String(withoutFloatNoise(value));
}

/** A number kept to `SIGNIFICANT_DIGITS` (`0.001145 × 1000` is 1.145, not 1.1450000000000002). */
export function withoutFloatNoise(value: number): number {
  return Number(value.toPrecision(SIGNIFICANT_DIGITS));
}

/**
 * The one rule for an input's column names in any output (CSV, workbook, NDJSON, Parquet; an
 * inventory's and a bill's): a column named like a column the output adds (`outputColumns`, or
 * one `reserved` says is the run's) is kept as `input_<name>` — again prefixed while that name is
 * taken — so that the run's columns keep their names and values and no name is written twice.
 * Names compare without case, as SQL's and spreadsheets' do. Returns each column's name, in order.
 */
export function keptInputNames(
  header: readonly string[],
  outputColumns: readonly string[],
  reserved: (lowerName: string) => boolean = () => false,
): string[] {
  const written = new Set(outputColumns.map((name) => name.toLowerCase()));
  const own = new Set(header.map((name) => name.toLowerCase()));
  const taken = new Set<string>();
  return header.map((name) => {
    const lower = name.toLowerCase();
    // A renamed column starts with input_: only the run's exact names and the file's others remain.
    let kept = written.has(lower) || reserved(lower) ? `input_${name}` : name;
    const free = (candidate: string) =>
      !written.has(candidate) && !taken.has(candidate) && (kept === name || !own.has(candidate));
    while (!free(kept.toLowerCase())) kept = `input_${kept}`;
    taken.add(kept.toLowerCase());
    return kept;
  });
}
