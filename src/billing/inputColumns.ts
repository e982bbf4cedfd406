/*
 * The export's own columns as a run reads and writes them. A column named like one the run adds
 * (`status`, `hours`, `method`, `energy_kwh`, an impact column, `matched_instance_type`,
 * `warnings`, a group's `lines`…) or like the SQL's working columns (`billing_…`, `key_…`, `…_per_hour`) is kept under the name
 * `input_<name>` (again prefixed while that name is taken): the run's columns keep their names and
 * values, and no working column can meet a column of the file. Names compare without case, as
 * SQL's do. The columns are checked here once, as DuckDB read them: the format's (the one asked
 * for, else the header's) and the types its query can read.
 */

import { keptInputNames } from "../output/columns.js";
import { BillingInputError } from "./errors.js";
import {
  BILLING_FORMATS,
  type BillingFormat,
  type BillingFormatName,
  missingColumns,
  readAs,
  recognisedFormat,
  unrecognisedHeader,
} from "./formats.js";
import { addedColumns, GROUP_LINES_COLUMN, type WrittenColumns } from "./writing.js";

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

const NUMBER_TYPES = /^(DOUBLE|FLOAT|REAL|DECIMAL.*|(U?(TINY|SMALL|BIG|HUGE)?INT(EGER)?))$/;
const DATE_TYPES = /^(DATE|TIMESTAMP(_S|_MS|_NS| WITH TIME ZONE)?)$/;

/**
 * Refuses a Parquet column the format's query reads whose type it cannot read: text, and a number
 * or text for the columns it reads as numbers (quantity, cost). `types`: each column's DuckDB type,
 * by name.
 */
function checkColumnTypes(file: string, format: BillingFormat, types: ReadonlyMap<string, string>): void {
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

/** The export's columns as the run reads them: its format, and each column's name and whether it is nested. */
export interface ExportColumns {
  /** The header as the file names it. */
  readonly header: readonly string[];
  readonly format: BillingFormat;
  /** Its columns as the run writes them. */
  readonly columns: WrittenColumns;
  /** The header's names the run writes otherwise: the file's name, the run's. */
  readonly renamed: ReadonlyMap<string, string>;
}

/** Whether a DuckDB type is nested: a map, a record or a list. */
const isNested = (type: string) => /^(MAP|STRUCT)\(|\[\]$/.test(type);

/**
 * The columns DuckDB read (`described`: each name and type, in order) checked and named: the
 * format `input` asks for or the header's, refused when the header lacks its columns or has a type
 * it cannot read; each column named as the run writes it (`impactColumns`: the impact columns it
 * writes).
 */
export function exportColumns(
  file: string,
  described: readonly (readonly [string, string])[],
  input: BillingFormatName | null,
  impactColumns: readonly string[],
): ExportColumns {
  const header = described.map(([name]) => name);
  const recognised = input === null ? recognisedFormat(header) : BILLING_FORMATS[input];
  if (recognised === null || missingColumns(recognised, header).length > 0) {
    throw new BillingInputError(unrecognisedHeader(header, input));
  }
  const format = { ...recognised, title: readAs(recognised, header) };
  checkColumnTypes(file, recognised, new Map(described));
  const names = inputColumnNames(header, impactColumns);
  const nested = new Set(names.filter((_, index) => isNested(described[index][1])));
  const renamed = new Map(
    header.flatMap((name, index): [string, string][] =>
      names[index] === name ? [] : [[name, names[index]]],
    ),
  );
  return { header, format, columns: { names, nested }, renamed };
}
