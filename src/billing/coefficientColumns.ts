/*
 * The coefficient table as CSV: what `impact-service coefficients` writes and another SQL engine
 * loads (its columns: src/service/coefficientColumns.ts).
 */

import {
  coefficientCells,
  coefficientColumns,
  type ImpactSlot,
  impactSlots,
} from "../service/coefficientColumns.js";
import type { CoefficientRow, CoefficientTable } from "../service/coefficients.js";

/** A CSV cell (quoted when it needs to be). */
export function csvCell(value: string | null): string {
  if (value === null) return "";
  return /[",\n\r]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/**
 * A row as CSV. Numbers are written in full (shortest round-trip form): the table is an input of
 * further computation (× hours), so it keeps every digit the single route computed with.
 */
export function coefficientCsvLine(
  table: CoefficientTable,
  slots: readonly ImpactSlot[],
  row: CoefficientRow,
): string {
  const cells = coefficientCells(table.edition, table.load, slots, row);
  return `${cells.map((cell) => csvCell(cell === null ? null : String(cell))).join(",")}\n`;
}

/** The whole table as CSV text chunks (header first), computed as it is read. */
export async function* coefficientCsv(table: CoefficientTable): AsyncGenerator<string> {
  const slots = impactSlots(table.criteria);
  yield `${coefficientColumns(table.criteria).join(",")}\n`;
  let chunk = "";
  for await (const row of table.rows) {
    chunk += coefficientCsvLine(table, slots, row);
    if (chunk.length >= 1 << 16) {
      yield chunk;
      chunk = "";
    }
  }
  if (chunk !== "") yield chunk;
}
