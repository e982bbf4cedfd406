/*
 * The coefficient table as columns: what `impact-service coefficients` writes (CSV, Parquet), what
 * the billing query joins (sql/evaluate/billing_impacts.sql), what the REST route and the GraphQL field
 * answer and what another SQL engine loads; and as CSV text (the command line's, the streamed route's). One row per provider, instance type and place; one
 * column per criterion, phase and bound, per hour, named as the billing output's impact columns
 * with `_per_hour`.
 */

import type { RequestedCriterion } from "../engine/index.js";
import { type Bound, impactColumn, PHASES, type Phase } from "../output/columns.js";
import type { CoefficientRow, CoefficientTable } from "./coefficients.js";

/** The columns naming a row, before the impacts. */
export const KEY_COLUMNS = [
  "edition",
  "provider",
  "instance_type",
  "region",
  "usage_location",
  "load",
] as const;

const BOUNDS: readonly Bound[] = ["value", "min", "max"];

/** A per-hour impact column: the billing output's column with `_per_hour` (`gwp_use_kgco2eq_min_per_hour`). */
function perHourColumn(criterion: RequestedCriterion, phase: Phase, bound: Bound): string {
  return `${impactColumn(criterion.info.name, criterion.info.unit, phase, bound)}_per_hour`;
}

interface ImpactSlot {
  readonly index: number;
  readonly criterion: RequestedCriterion;
  readonly phase: Phase;
  readonly bound: Bound;
  readonly column: string;
}

/** The impact columns of a table's criteria, in order: criterion, then phase, then value/min/max. */
export function impactSlots(criteria: readonly RequestedCriterion[]): ImpactSlot[] {
  return criteria.flatMap((criterion, index) =>
    PHASES.flatMap((phase) =>
      BOUNDS.map((bound) => ({
        index,
        criterion,
        phase,
        bound,
        column: perHourColumn(criterion, phase, bound),
      })),
    ),
  );
}

/** Every column of a coefficient table. */
export function coefficientColumns(criteria: readonly RequestedCriterion[]): string[] {
  return [...KEY_COLUMNS, ...impactSlots(criteria).map((slot) => slot.column)];
}

/** A row's per-hour number in a slot, or null (not implemented). */
function slotValue(row: CoefficientRow, slot: ImpactSlot): number | null {
  const impact = row.perHour[slot.index][slot.phase];
  return impact === null ? null : impact[slot.bound];
}

/** A row's cells, in the order of `coefficientColumns` (null: no place, default load, not implemented). */
export function coefficientCells(
  edition: string,
  load: number | null,
  slots: readonly ImpactSlot[],
  row: CoefficientRow,
): (string | number | null)[] {
  return [
    edition,
    row.provider,
    row.instanceType,
    row.region,
    row.usageLocation,
    load,
    ...slots.map((slot) => slotValue(row, slot)),
  ];
}

/** A CSV cell (quoted when it needs to be). */
function csvCell(value: string | null): string {
  if (value === null) return "";
  return /[",\n\r]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/**
 * A row as CSV. Numbers are written in full (shortest round-trip form): the table is an input of
 * further computation (× hours), so it keeps every digit the single route computed with.
 */
function coefficientCsvLine(
  table: CoefficientTable,
  slots: readonly ImpactSlot[],
  row: CoefficientRow,
): string {
  const cells = coefficientCells(table.edition, table.load, slots, row);
  return `${cells.map((cell) => csvCell(cell === null ? null : String(cell))).join(",")}\n`;
}

/** The whole table as CSV text chunks (header first) of about `chunkCharacters`, computed as it is read. */
export async function* coefficientCsv(
  table: CoefficientTable,
  chunkCharacters = 1 << 16,
): AsyncGenerator<string> {
  const slots = impactSlots(table.criteria);
  yield `${coefficientColumns(table.criteria).join(",")}\n`;
  let chunk = "";
  for await (const row of table.rows) {
    chunk += coefficientCsvLine(table, slots, row);
    if (chunk.length >= chunkCharacters) {
      yield chunk;
      chunk = "";
    }
  }
  if (chunk !== "") yield chunk;
}
