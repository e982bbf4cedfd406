/*
 * The relation DuckDB reads a billing export's lines from, as its layout says
 * (src/billing/reading/layout.ts): Parquet and a comma-separated text with its header first as
 * before (src/duckdb/database.ts, sourceOf); a text with another separator, lines above its header
 * or a decimal comma read so; newline-delimited JSON with its records' fields as columns.
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { fileLiteral, identifier, literal, sourceOf } from "../../duckdb/database.js";
import { readFailing } from "../../duckdb/readErrors.js";
import { DECIMAL_COMMA_PATTERN } from "../../support/numbers.js";
import { BillingInputError } from "../errors.js";
import { BILLING_FORMATS, type BillingFormatName, headerColumn, recognisedFormat } from "../formats.js";
import { checkColumnCount } from "../inputColumns.js";
import { type BillLayout, type CsvLayout, isPlainCsv, PREAMBLE_BYTES, PREAMBLE_LINES } from "./layout.js";

/**
 * A number cell written with a decimal comma as the text SQL casts (`1.234,56` → `1234.56`); an
 * empty cell as it is; a cell that is no such number `NaN`, which the checks of every quantity and
 * cost make a bad row (src/billing/views.ts), rather than a number read otherwise (`12.5`, 125 or
 * 12.5, is neither).
 */
function decimalCommaRead(column: string): string {
  const cell = `TRIM(${identifier(column)})`;
  return `CASE WHEN ${cell} IS NULL OR ${cell} = '' THEN ${identifier(column)}
      WHEN regexp_full_match(${cell}, ${literal(DECIMAL_COMMA_PATTERN)}) THEN replace(replace(${cell}, '.', ''), ',', '.')
      ELSE 'NaN' END AS ${identifier(column)}`;
}

/** Refuses a header found below the lines a billing export may have above it. */
function checkPreamble(file: string, layout: CsvLayout): void {
  if (layout.skipped < PREAMBLE_LINES) return;
  throw new BillingInputError(
    `${file}: line ${layout.skipped + 1} is a billing export's header, below the ${PREAMBLE_LINES} lines (${PREAMBLE_BYTES / 1024} KiB) read above a header; remove the lines above it`,
  );
}

/**
 * A text export's relation, its columns named `names` (the header's, as the run names them):
 * read with its separator, past the lines above its header, and with a decimal comma the numbers
 * the format reads (quantity, costs) read as SQL reads numbers. `input`: the format asked for.
 */
export function csvSource(
  file: string,
  layout: CsvLayout,
  names: readonly string[],
  input: BillingFormatName | null,
): string {
  if (isPlainCsv(layout) && layout.decimalMark === ".") return sourceOf(file, names);
  checkPreamble(file, layout);
  const columns = names.map((name) => `${literal(name)}: 'VARCHAR'`).join(", ");
  const skip = layout.skipped > 0 ? `, skip = ${layout.skipped}` : "";
  const read = `read_csv(${fileLiteral(file)}, auto_detect = false, header = true, columns = {${columns}}, delim = ${literal(layout.separator)}, quote = '"', escape = '"', compression = 'auto', strict_mode = true${skip})`;
  const format = input === null ? recognisedFormat(layout.header) : BILLING_FORMATS[input];
  if (layout.decimalMark === "." || format === null) return read;
  const numbers = format.numbers.flatMap((name) => {
    const column = headerColumn(format, name, layout.header);
    return column === null ? [] : [names[layout.header.indexOf(column)]];
  });
  if (numbers.length === 0) return read;
  return `(SELECT * REPLACE (${[...new Set(numbers)].map(decimalCommaRead).join(", ")}) FROM ${read})`;
}

/** Whether a DuckDB type is a record's (a list of records is not). */
const isRecord = (type: string) => type.startsWith("STRUCT(") && !type.endsWith("]");

/**
 * Newline-delimited JSON as a relation of its records' fields: a record's own fields each a column
 * named `record.field`, as BigQuery's console names them in CSV and the format reads them; lists
 * (labels, credits) whole; a field null in every record (JSON to DuckDB) as text. The types are
 * read from every record (`sample_size = -1`): over a sample, a quantity of whole numbers then
 * `0.5` was read as 0 (DuckDB 1.5), and a field first met past it refused the file.
 */
export async function jsonSource(connection: DuckDBConnection, file: string): Promise<string> {
  const options = "format = 'newline_delimited', records = true, compression = 'auto_detect'";
  const detected = await connection.runAndReadAll(
    `DESCRIBE SELECT * FROM read_json(${fileLiteral(file)}, ${options}, sample_size = -1)`,
  );
  const columns = detected.getRowObjects().map((row) => [String(row.column_name), String(row.column_type)]);
  checkColumnCount(file, columns.length);
  // The types found named, so that the passes after read the file without detecting them again.
  const read = `read_json(${fileLiteral(file)}, ${options}, columns = {${columns.map(([name, type]) => `${literal(name)}: ${literal(type)}`).join(", ")}})`;
  const typed = (expression: string, type: string, name: string) =>
    `${type === "JSON" ? `CAST(${expression} AS VARCHAR)` : expression} AS ${identifier(name)}`;
  const selected: string[] = [];
  for (const [name, type] of columns) {
    if (!isRecord(type)) {
      selected.push(typed(identifier(name), type, name));
      continue;
    }
    const fields = await connection.runAndReadAll(`DESCRIBE SELECT ${identifier(name)}.* FROM ${read}`);
    for (const field of fields.getRowObjects()) {
      const [fieldName, fieldType] = [String(field.column_name), String(field.column_type)];
      selected.push(typed(`${identifier(name)}.${identifier(fieldName)}`, fieldType, `${name}.${fieldName}`));
    }
  }
  checkColumnCount(file, selected.length);
  return `(SELECT ${selected.join(", ")} FROM ${read})`;
}

/**
 * The relation a billing export's lines are read from: `names`, a text export's columns as the run
 * names them (its header's cells before they are known).
 */
export async function billSource(
  connection: DuckDBConnection,
  file: string,
  layout: BillLayout,
  names: readonly string[] | null,
  input: BillingFormatName | null,
): Promise<string> {
  // JSON is read to find its fields' types: a file that cannot be is said so, by its line.
  if (layout.kind === "json") return readFailing(() => jsonSource(connection, file), file);
  if (layout.kind === "csv") return csvSource(file, layout, names ?? layout.header, input);
  return sourceOf(file, null);
}
