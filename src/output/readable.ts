/*
 * Numbers for a reader (the reports' cards, tables and charts): at most four significant figures
 * and at most one zero after the decimal mark to read. A mass (kgCO2eq, kgSbeq) is written in the
 * scale of its column (t, kg, g, mg: MASS_SCALES); a value too small for its column's scale is
 * written in its own, its unit beside it, and one too small for mg is "< 0.01 mg…". A cost has four
 * figures too (124,341 USD is 124,300; 1,305 stays 1,305), cents below 1,000. The exact value is
 * the cell's hover (`title`) and the downloads' (the output files are never rounded).
 */

import { escapeHtml } from "./text.js";

/**
 * The scales of a mass unit (`kgCO2eq`, `kgSbeq`): a value is written in the largest whose
 * figure is at least 1 (0.000002094 kgCO2eq is 2.094 mgCO2eq, 13,090 kgCO2eq 13.09 tCO2eq).
 * Other units (MJ, mol H+ eq, CTUh) are written as the edition gives them.
 */
export const MASS_SCALES: readonly { readonly prefix: string; readonly kg: number }[] = [
  { prefix: "t", kg: 1000 },
  { prefix: "kg", kg: 1 },
  { prefix: "g", kg: 1e-3 },
  { prefix: "mg", kg: 1e-6 },
];

/** The scales of an energy in kWh: a bill's lines are often below one (4.5 Wh), a fleet's above a thousand. */
export const ENERGY_SCALES: readonly { readonly unit: string; readonly kwh: number }[] = [
  { unit: "MWh", kwh: 1000 },
  { unit: "kWh", kwh: 1 },
  { unit: "Wh", kwh: 1e-3 },
];

export interface Scale {
  readonly unit: string;
  readonly divisor: number;
}

/** The unit and divisor `values` (all in `unit`) are written with: the scale of the largest. */
export function scaleOf(unit: string, values: readonly number[]): Scale {
  const largest = Math.max(0, ...values.map(Math.abs).filter(Number.isFinite));
  if (unit === "kWh") {
    const energy = ENERGY_SCALES.find(({ kwh }) => largest >= kwh) ?? ENERGY_SCALES[ENERGY_SCALES.length - 1];
    return { unit: energy.unit, divisor: energy.kwh };
  }
  if (!unit.startsWith("kg")) return { unit, divisor: 1 };
  const scale = MASS_SCALES.find(({ kg }) => largest >= kg) ?? MASS_SCALES[MASS_SCALES.length - 1];
  return { unit: `${scale.prefix}${unit.slice(2)}`, divisor: scale.kg };
}

/**
 * scaleOf, readable (in a column's scale: readableIn) and money in a page's script (over
 * `data.scales`, MASS_SCALES; `fmt` the page's figure): the charts' axes and the tables the page
 * draws itself written as the tables it is given, a tooltip's value in its own scale.
 */
export const SCALE_SCRIPT = `
function scaleOf(unit, values) {
  const largest = Math.max(0, ...values.map(Math.abs));
  if (unit === "kWh") {
    const energy = ${JSON.stringify(ENERGY_SCALES)}.find((s) => largest >= s.kwh) || { unit: "Wh", kwh: 1e-3 };
    return { unit: energy.unit, divisor: energy.kwh };
  }
  if (!unit.startsWith("kg")) return { unit, divisor: 1 };
  const scale = data.scales.find((s) => largest >= s.kg) || data.scales[data.scales.length - 1];
  return { unit: scale.prefix + unit.slice(2), divisor: scale.kg };
}
function readable(value, unit) {
  const scale = scaleOf(unit, [value]);
  const figure = value / scale.divisor;
  return (value === 0 || Math.abs(figure) >= 0.01 ? fmt(figure) : "< 0.01") + " " + scale.unit;
}
function readableIn(value, unit, scale) {
  const inScale = value / scale.divisor;
  if (value === 0 || !Number.isFinite(value) || Math.abs(inScale) >= 0.01) return fmt(inScale);
  const own = scaleOf(unit, [value]);
  const inOwn = value / own.divisor;
  if (own.divisor !== scale.divisor && Math.abs(inOwn) >= 0.01) return fmt(inOwn) + " " + own.unit;
  return (value < 0 ? "> −" : "< ") + fmt(0.01) + (own.divisor === scale.divisor ? "" : " " + own.unit);
}
function money(value) {
  const size = Math.abs(value);
  const figures = Number(value.toPrecision(4));
  if (size >= 1000) return new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 }).format(figures);
  if (size > 0 && size < 0.005) return value < 0 ? "> −0.01" : "< 0.01";
  return new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 }).format(figures);
}
const fmtCount = (value) => new Intl.NumberFormat("en-US").format(Math.round(value));
`;

/** Four significant figures, thousands separated. */
export const FIGURES: Intl.NumberFormatOptions = { maximumSignificantDigits: 4 };
const figures = new Intl.NumberFormat("en-US", FIGURES);
/** A figure as the reports write it: `13,090`, `0.01234`; counts are written whole. */
export const figure = (value: number | undefined) => (value === undefined ? "" : figures.format(value));

/** The smallest figure written as itself: one zero after the decimal mark. */
const SMALLEST = 0.01;

/**
 * `value` (in `unit`) as a reader reads it in a column of scale `scale`: its figure, or with its
 * own unit where the column's scale would need more than one zero after the decimal mark.
 */
export function readable(value: number, unit: string, scale: Scale = scaleOf(unit, [value])): string {
  const inScale = value / scale.divisor;
  if (value === 0 || !Number.isFinite(value) || Math.abs(inScale) >= SMALLEST) return figure(inScale);
  const own = scaleOf(unit, [value]);
  const inOwn = value / own.divisor;
  if (own.divisor !== scale.divisor && Math.abs(inOwn) >= SMALLEST) return `${figure(inOwn)} ${own.unit}`;
  const named = own.divisor === scale.divisor ? "" : ` ${own.unit}`;
  return `${value < 0 ? "> −" : "< "}${figure(SMALLEST)}${named}`;
}

/** `value` readable in `scale` (by default its own), followed by the scale's unit: `2.094 mgCO2eq`. */
export function readableWithUnit(value: number, unit: string, scale: Scale = scaleOf(unit, [value])): string {
  return `${readable(value, unit, scale)} ${scale.unit}`;
}

/** The exact value of a quantity, as the downloads write it: the hover of its cell. */
export const exact = (value: number, unit: string) => `${value} ${unit}`.trim();

/** A table cell of a quantity: readable, the exact value on hover. */
export function quantityCell(value: number, unit: string, scale: Scale, className = "n"): string {
  const text = readable(value, unit, scale);
  // A figure with its own unit may wrap before the unit (a phone's narrow column)
  const own = text.includes(" ") && !text.startsWith("<") ? " own" : "";
  return `<td class="${className}${own}" title="${escapeHtml(exact(value, unit))}">${escapeHtml(text)}</td>`;
}

const wholeCosts = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const cents = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });

/** A cost: four figures (whole units from 1,000 up) and at most cents; `< 0.01` below a cent. */
export function money(value: number): string {
  const size = Math.abs(value);
  if (size >= 1000) return wholeCosts.format(Number(value.toPrecision(4)));
  if (size > 0 && size < 0.005) return value < 0 ? "> −0.01" : "< 0.01";
  return cents.format(Number(value.toPrecision(4)));
}

/** A table cell of a cost: readable, the exact value on hover. */
export function costCell(value: number, currency: string | null, className = "n"): string {
  return `<td class="${className}" title="${escapeHtml(exact(value, currency ?? ""))}">${escapeHtml(money(value))}</td>`;
}
