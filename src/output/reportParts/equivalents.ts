/*
 * A gwp total as equivalents a reader grasps, as Cloud Carbon Footprint shows them: the distance an
 * average passenger car drives, the smartphones charged, the tree seedlings that take it up in ten
 * years. Each factor is the United States Environmental Protection Agency's, from its "Greenhouse
 * Gas Equivalencies Calculator — Calculations and References" page
 * (https://www.epa.gov/energy/greenhouse-gas-equivalencies-calculator-calculations-and-references),
 * in the revision the figures below were taken from (2024; each factor's value as that page writes
 * it, in metric tons of CO2 or CO2-equivalent). The equivalents are orders of magnitude for a
 * reader, not a methodology: the gwp total itself is the report's figure.
 */

import { figure } from "../readable.js";
import { escapeHtml } from "../text.js";

export interface Equivalent {
  /** What the total equals, after its figure: `km driven by an average passenger car`. */
  readonly what: string;
  /** kgCO2eq per unit of `what`. */
  readonly kgPerUnit: number;
  /** The factor as its source writes it, and the source. */
  readonly source: string;
}

/** Kilometres in a mile (international mile). */
const KM_PER_MILE = 1.609344;

export const EQUIVALENTS: readonly Equivalent[] = [
  {
    what: "km driven by an average gasoline passenger car",
    // 3.93 × 10⁻⁴ metric tons CO2E per mile: 393 g a mile, 244.2 g a km
    kgPerUnit: 393e-3 / KM_PER_MILE,
    source: "EPA, Greenhouse Gas Equivalencies Calculator (2024): 3.93 × 10⁻⁴ t CO2e per mile",
  },
  {
    what: "smartphones charged",
    // 8.22 × 10⁻⁶ metric tons CO2 per smartphone charged
    kgPerUnit: 8.22e-3,
    source: "EPA, Greenhouse Gas Equivalencies Calculator (2024): 8.22 × 10⁻⁶ t CO2 per smartphone charged",
  },
  {
    what: "tree seedlings grown for 10 years to take it up",
    // 0.060 metric ton CO2 per urban tree planted (grown for 10 years)
    kgPerUnit: 60,
    source:
      "EPA, Greenhouse Gas Equivalencies Calculator (2024): 0.060 t CO2 per urban tree seedling grown 10 years",
  },
];

/** A gwp total (kgCO2eq) as each equivalent's count. */
export function equivalentsOf(
  kgCo2eq: number,
): { readonly equivalent: Equivalent; readonly count: number }[] {
  return EQUIVALENTS.map((equivalent) => ({ equivalent, count: kgCo2eq / equivalent.kgPerUnit }));
}

/** The equivalents' line under a gwp total: each count, its factor and source on hover. */
export function equivalentsLine(kgCo2eq: number): string {
  if (!(kgCo2eq > 0)) return "";
  const items = equivalentsOf(kgCo2eq).map(
    ({ equivalent, count }) =>
      `<span title="${escapeHtml(equivalent.source)}">${escapeHtml(figure(count))} ${escapeHtml(equivalent.what)}</span>`,
  );
  return `<p class="sub equivalents">As much CO2 as ${items.join(", ")} (EPA's factors, on hover).</p>`;
}
