/*
 * The export's own columns as a run reads and writes them. A column named like one the run adds
 * (`status`, `hours`, `method`, `energy_kwh`, an impact column, `matched_instance_type`,
 * `warnings`, a group's `lines`…) or like the SQL's working columns (`billing_…`, `key_…`, `…_per_hour`) is kept under the name
 * `input_<name>` (again prefixed while that name is taken): the run's columns keep their names and
 * values, and no working column can meet a column of the file. Names compare without case, as
 * SQL's do.
 */

import { keptInputNames } from "../output/columns.js";
import { BillingInputError } from "./errors.js";
import type { BillingFormat } from "./formats.js";
import { addedColumns, GROUP_LINES_COLUMN } from "./writing.js";

/**
 * Columns a run reads at most. DuckDB holds a chunk of 2,048 lines of every column per operator
 * and thread: 10,000 columns × 3 lines ran out of memory after 9 s, 100,000 ran for minutes. Real
 * exports have 40–200 (FOCUS ~50, CUR 2.0 ~125, Azure ~70).
 */
export const MAX_INPUT_COLUMNS = 500;

/** Prefixes and suffixes of the SQL's working columns. */
const WORKING_PREFIXES = ["billing_", "key_"];
const WORKING_SUFFIX = "_per_hour";

const isWorking = (lower: string) =>
  WORKING_PREFIXES.some((prefix) => lower.startsWith(prefix)) || lower.endsWith(WORKING_SUFFIX);

/**
 * The name each column of the header is read and written as, in order (src/output/columns.ts,
 * keptInputNames): its own, or `input_<name>` when it would meet a column the run writes (after
 * the file's, the grid's intensity whether or not a series is given, and a group's `lines`), a
 * working column of its SQL, or an earlier column. `impactColumns`: the impact columns it writes.
 */
export function inputColumnNames(header: readonly string[], impactColumns: readonly string[]): string[] {
  return keptInputNames(
    header,
    [...addedColumns(impactColumns, true).map(({ name }) => name), GROUP_LINES_COLUMN],
    isWorking,
  );
}

/** Refuses a header of more columns than a run reads, before the engine sees it. */
export function checkColumnCount(file: string, columns: number): void {
  if (columns > MAX_INPUT_COLUMNS) {
    throw new BillingInputError(
      `${file}: ${columns} columns; a billing export is read with ${MAX_INPUT_COLUMNS} columns at most`,
    );
  }
}

const NUMBER_TYPES = /^(DOUBLE|FLOAT|REAL|DECIMAL.*|(U?(TINY|SMALL|BIG|HUGE)?INT(EGER)?))$/;
const DATE_TYPES = /^(DATE|TIMESTAMP(_S|_MS|_NS| WITH TIME ZONE)?)$/;

/**
 * Refuses a Parquet column the format's query reads whose type it cannot read: text, and a number
 * or text for the columns it reads as numbers (quantity, cost). `types`: each column's DuckDB type,
 * by name.
 */
export function checkColumnTypes(
  file: string,
  format: BillingFormat,
  types: ReadonlyMap<string, string>,
): void {
  const read = [...format.required.flat(), ...format.optional];
  for (const [column, type] of types) {
    const lower = column.toLowerCase();
    if (!read.some((name) => name.toLowerCase() === lower) || type === "VARCHAR") continue;
    const number = format.numbers.some((name) => name.toLowerCase() === lower);
    if (number && NUMBER_TYPES.test(type)) continue;
    const date = format.dates.some((name) => name.toLowerCase() === lower);
    if (date && DATE_TYPES.test(type)) continue;
    const expected = number
      ? "a number or text (DOUBLE or VARCHAR)"
      : date
        ? "a date, a timestamp or text (DATE, TIMESTAMP or VARCHAR)"
        : "text (VARCHAR)";
    throw new BillingInputError(
      `${file}: column ${column} is ${type.length > 60 ? `${type.slice(0, 60)}…` : type}; ${format.title} reads it as ${expected}`,
    );
  }
}
