/*
 * How a billing export's file is laid out, read from its first bytes only (src/duckdb/csvHeader.ts,
 * fileStart): Parquet (by its name), newline-delimited JSON (BigQuery's `bq extract
 * --destination_format=NEWLINE_DELIMITED_JSON`: its first record's fields), or text whose header is
 * a format's (src/billing/formats.ts) — with its separator (`,` `;` or a tab), the lines above it
 * (the EA portal's report lines) and its decimal mark. What is not the default is said on stderr
 * (src/billing/reading/notes.ts), never guessed in silence.
 */

import { parse } from "csv-parse/sync";
import { fileStart } from "../../duckdb/csvHeader.js";
import { keptInputNames } from "../../output/columns.js";
import { wholeRecords } from "../../support/csvRecords.js";
import { type DecimalMark, type DecimalReading, decimalMarkOfCells } from "../../support/numbers.js";
import {
  BILLING_FORMAT_NAMES,
  BILLING_FORMATS,
  type BillingFormat,
  bareName,
  classifyHeader,
  type HeaderClass,
  headerColumn,
} from "../formats.js";

/** What separates a text export's columns: a comma, or a semicolon or tab (a spreadsheet's choice). */
export type Separator = "," | ";" | "\t";

/** The separators a header is tried with, in order: a comma first (a line that fits with it is read so). */
export const SEPARATORS: readonly Separator[] = [",", ";", "\t"];

/** Lines above a header read at most, and their bytes: the EA portal writes two to five. */
export const PREAMBLE_LINES = 50;
export const PREAMBLE_BYTES = 64 * 1024;

/** Lines of the file's start searched for a header, to name one found below the bound (not read). */
const SEARCHED_LINES = 200;

/** Lines after the header whose numbers tell the decimal mark (when the separator is not a comma). */
const SAMPLED_LINES = 200;

export interface CsvLayout {
  readonly kind: "csv";
  /** The header's cells, as the file names its columns. */
  readonly header: readonly string[];
  readonly separator: Separator;
  /** Lines above the header, skipped: the header is line `skipped + 1` of the file. */
  readonly skipped: number;
  /** Lines the header spans: 1, more when a cell of it holds a line break (quoted). */
  readonly headerLines: number;
  readonly decimalMark: DecimalMark;
  /** Whether the first lines' numbers told the decimal mark, or the separator's convention did. */
  readonly decimalTold: boolean;
  /** Whether the file is gzip, by its first bytes (not its name). */
  readonly gzip: boolean;
  /**
   * What ends its lines: LF (CRLF read alike), or CR alone (a classic Mac CSV, as Excel for Mac
   * saves "CSV (Macintosh)"), told by the start having no LF.
   */
  readonly lineEnd: LineEnd;
}

/** What ends a text's lines (CRLF is read as LF). */
export type LineEnd = "\n" | "\r";

export interface JsonLayout {
  readonly kind: "json";
  /** The first record's fields, a record's own fields named `record.field` (`service.description`). */
  readonly fields: readonly string[];
  /** Whether the file is gzip, by its first bytes (not its name). */
  readonly gzip: boolean;
}

export type BillLayout = CsvLayout | JsonLayout | { readonly kind: "parquet" };

/** A text's line end: LF where it has one, else CR where it has one (a classic Mac CSV). */
function lineEndOf(text: string): LineEnd {
  return !text.includes("\n") && text.includes("\r") ? "\r" : "\n";
}

/** A line's cells with a separator, or null when it is not a CSV record. */
function cellsOf(line: string, separator: Separator): string[] | null {
  try {
    const [cells] = parse(line, { delimiter: separator, relax_quotes: true }) as string[][];
    return cells ?? null;
  } catch {
    return null;
  }
}

/** Every spelling of every format's required columns, as bareName writes them. */
const REQUIRED_NAMES: ReadonlySet<string> = new Set(
  BILLING_FORMAT_NAMES.flatMap((name) => {
    const format = BILLING_FORMATS[name];
    return format.required
      .flat()
      .flatMap((column) => [column, ...(format.aliases[column] ?? [])].map(bareName));
  }),
);

/**
 * Whether cells may be a header, a format's or nearly (two of its required columns or more): a
 * test cheaper than classifyHeader's, which an inventory's lines rarely pass.
 */
function mayBeHeader(cells: readonly string[]): boolean {
  let found = 0;
  for (const cell of cells) if (REQUIRED_NAMES.has(bareName(cell)) && ++found >= 2) return true;
  return false;
}

/** A line's class as a header with each separator, the first that is a format's (else a near miss's). */
function headerAt(line: string): { separator: Separator; cells: string[]; class: HeaderClass } | null {
  let near: { separator: Separator; cells: string[]; class: HeaderClass } | null = null;
  for (const separator of SEPARATORS) {
    if (separator !== "," && !line.includes(separator)) continue;
    const cells = cellsOf(line, separator);
    if (cells === null || !mayBeHeader(cells)) continue;
    const found = classifyHeader(cells);
    if (found !== null && "format" in found) return { separator, cells, class: found };
    if (found !== null && near === null) near = { separator, cells, class: found };
  }
  return near;
}

/**
 * The decimal mark of the numbers a format reads in the lines after its header: a comma file
 * writes `.` (`;` is the list separator where `,` is the decimal mark); otherwise what its number
 * cells tell (decimalMarkOfCells).
 */
function decimalMarkIn(
  lines: readonly string[],
  separator: Separator,
  format: BillingFormat,
  header: readonly string[],
): DecimalReading {
  if (separator === ",") return { mark: ".", told: false };
  const indexes = format.numbers.flatMap((name) => {
    const column = headerColumn(format, name, header);
    return column === null ? [] : [header.indexOf(column)];
  });
  const sampled = lines.slice(0, SAMPLED_LINES).map((line) => cellsOf(line, separator) ?? []);
  return decimalMarkOfCells(sampled.flatMap((cells) => indexes.map((index) => cells[index] ?? "")));
}

/**
 * A text export's layout: the first line within PREAMBLE_LINES and PREAMBLE_BYTES whose cells are
 * a format's header, else the first that nearly is (to say what it lacks), else one further down
 * (to refuse it, naming its line), else the first line read with commas as today.
 */
function csvLayout(text: string): Omit<CsvLayout, "gzip"> | null {
  const lineEnd = lineEndOf(text);
  // Records, not lines: a header cell may hold a line break (quoted), as a CSV parser reads it.
  const records = wholeRecords(text, lineEnd, SEARCHED_LINES);
  const lines = records.map((record) => record.text);
  if (lines.length === 0) return null;
  let near: Omit<CsvLayout, "gzip"> | null = null;
  let below: Omit<CsvLayout, "gzip"> | null = null;
  let bytes = 0;
  let skipped = 0;
  for (const [index, text] of lines.entries()) {
    const above = skipped;
    const within = above < PREAMBLE_LINES && bytes <= PREAMBLE_BYTES;
    bytes += Buffer.byteLength(text) + 1;
    skipped += records[index].lines;
    // A byte-order mark opens a header below report lines too (a file saved with one, then
    // prefixed): not part of its first column's name.
    const line = text.replace(/^\uFEFF/, "");
    if (!within && (near !== null || below !== null)) break;
    const found = headerAt(line);
    if (found === null) continue;
    const layout = (decimal: { mark: DecimalMark; told: boolean }): Omit<CsvLayout, "gzip"> => ({
      kind: "csv",
      header: found.cells,
      separator: found.separator,
      skipped: above,
      headerLines: records[index].lines,
      decimalMark: decimal.mark,
      decimalTold: decimal.told,
      lineEnd,
    });
    if (found.class !== null && "format" in found.class) {
      const decimal = decimalMarkIn(lines.slice(index + 1), found.separator, found.class.format, found.cells);
      if (within) return layout(decimal);
      below ??= layout(decimal);
    } else if (within) near ??= layout({ mark: ".", told: false });
  }
  if (near !== null || below !== null) return near ?? below;
  const header = cellsOf(lines[0], ",");
  return header === null
    ? null
    : {
        kind: "csv",
        header,
        separator: ",",
        skipped: 0,
        headerLines: records[0].lines,
        decimalMark: ".",
        decimalTold: false,
        lineEnd,
      };
}

/** A record's fields, a record's own (an object, not a list) each named `record.field`, as BigQuery's console names them. */
function flatFields(record: Record<string, unknown>): string[] {
  return Object.entries(record).flatMap(([name, value]) =>
    value !== null && typeof value === "object" && !Array.isArray(value)
      ? Object.keys(value).map((field) => `${name}.${field}`)
      : [name],
  );
}

/** Newline-delimited JSON: its first line's record's fields, or null when that line is no JSON object. */
function jsonLayout(text: string): Omit<JsonLayout, "gzip"> | null {
  const end = text.indexOf("\n");
  try {
    const record: unknown = JSON.parse(end < 0 ? text : text.slice(0, end));
    if (record === null || typeof record !== "object" || Array.isArray(record)) return null;
    return { kind: "json", fields: flatFields(record as Record<string, unknown>) };
  } catch {
    return null;
  }
}

/**
 * A billing export's layout from its name (Parquet) or its first HEADER_BYTES (gunzipped as far as
 * needed, gzip told by its mark): JSON when it starts with `{`, else text. Null when it has no whole first line (or is
 * gzip that cannot be read).
 */
export function billLayout(file: string): BillLayout | null {
  if (file.toLowerCase().endsWith(".parquet")) return { kind: "parquet" };
  const start = fileStart(file, SEARCHED_LINES);
  if (start === null) return null;
  const { text, gzip } = start;
  const layout = text.trimStart().startsWith("{") ? jsonLayout(text.trimStart()) : csvLayout(text);
  return layout === null ? null : { ...layout, gzip };
}

/** What a layout's header (a JSON record's fields) is: a format's, nearly one's, or neither (an inventory's). */
export function layoutClass(layout: BillLayout): HeaderClass {
  if (layout.kind === "parquet") return null;
  return classifyHeader(layout.kind === "csv" ? layout.header : layout.fields);
}

/** Whether a text layout is read as the command read every CSV before: commas, a header on line 1. */
export function isPlainCsv(layout: CsvLayout): boolean {
  return layout.separator === "," && layout.skipped === 0 && layout.lineEnd === "\n";
}

/**
 * The names a text's columns are read under: each its own, except one SQL cannot tell from an
 * earlier one (names compare without case: a CUR's tags `resourceTags/user:Name` and
 * `…:name` are two columns), kept as `input_<name>` as the output keeps a name it cannot write
 * twice (src/output/columns.ts), and one without a name (a header's trailing comma), read as
 * `column_<its position>`: DuckDB's reader takes neither as a column's name.
 */
export function readNames(header: readonly string[]): string[] {
  return keptInputNames(
    header.map((name, index) => (name === "" ? `column_${index + 1}` : name)),
    [],
  );
}
