/*
 * How a billing export's file is laid out, read from its first bytes only (src/support/fileStart.ts,
 * fileStart): Parquet (by its name), newline-delimited JSON (BigQuery's `bq extract
 * --destination_format=NEWLINE_DELIMITED_JSON`: its first record's fields), or text whose header is
 * a format's (src/billing/formats/) — with its separator (`,` `;` or a tab), the lines above it
 * (the EA portal's report lines) and its decimal mark. What is not the default is said on stderr
 * (src/billing/reading/notes.ts), never guessed in silence.
 */

import { statSync } from "node:fs";
import { basename, dirname } from "node:path";
import { parse } from "csv-parse/sync";
import { keptInputNames } from "../../output/columns.js";
import {
  type FileStart,
  fileContent,
  fileStart,
  foreignContentMessage,
  type HeldStart,
  isRegularFile,
  nestedArchiveRefusal,
  regularFileStart,
} from "../../support/fileStart.js";
import { FileMisuse } from "../../support/namedFiles.js";
import { type DecimalMark, type DecimalReading, decimalMarkOfCells } from "../../support/numbers.js";
import { wholeRecords } from "../../support/recordEnds.js";
import { BillingInputError } from "../errors.js";
import {
  BILLING_FORMAT_NAMES,
  BILLING_FORMATS,
  type BillingFormat,
  type BillingFormatName,
  bareName,
  classifyHeader,
  focusDatasetProblem,
  type HeaderClass,
  headerColumn,
} from "../formats/knownFormats.js";

/** What separates a text export's columns: a comma, or a semicolon or tab (a spreadsheet's choice). */
export type Separator = "," | ";" | "\t";

/** The separators a header is tried with, in order: a comma first (a line that fits with it is read so). */
export const SEPARATORS: readonly Separator[] = [",", ";", "\t"];

/** Lines above a header read at most, and their bytes: the EA portal writes two to five. */
export const PREAMBLE_LINES = 50;
export const PREAMBLE_BYTES = 64 * 1024;

/** Lines of the file's start searched for a header, to name one found below the bound (not read). */
export const SEARCHED_LINES = 200;

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
 * A billing export's layout from its first bytes: Parquet by its `PAR1` mark, else its first
 * HEADER_BYTES as text (gunzipped as far as needed, gzip told by its mark) — JSON when it starts
 * with `{`, else CSV —, whatever its name (a CSV named `.parquet` is read as the CSV it is). Null
 * when it has no whole first line (or is gzip that cannot be read).
 */
export function billLayout(file: string): BillLayout | null {
  return layoutOfStart(file, regularFileStart(file, SEARCHED_LINES));
}

/**
 * billLayout from the file's start read before (regularFileStart, SEARCHED_LINES): the error of
 * its reading thrown, as a read here would throw it. A file whose start is not read first (no
 * regular file) is Parquet by its name alone.
 */
export function layoutOfStart(file: string, held: HeldStart): BillLayout | null {
  if (held === null) {
    return file.toLowerCase().endsWith(".parquet")
      ? { kind: "parquet" }
      : textLayout(fileStart(file, SEARCHED_LINES));
  }
  if (held instanceof Error) throw held;
  if (held.content === "parquet") return { kind: "parquet" };
  return textLayout(held.text());
}

/**
 * A bill's part after the first, from its start read once: a file the command reads (no file of
 * another kind; a ZIP part was unpacked before, src/cli/main.ts, so this one was inside an archive)
 * and its layout, refused in one line otherwise.
 */
export function partLayout(
  part: string,
  input: BillingFormatName | null,
  held: HeldStart,
): BillLayout | null {
  const kind = inputKindOfStart(part, input ?? undefined, held);
  if (kind.kind === "foreign") throw new FileMisuse(kind.problem);
  if (kind.kind === "archive") throw new FileMisuse(nestedArchiveRefusal(part));
  return kind.kind === "billing" && kind.layout !== undefined ? kind.layout : layoutOfStart(part, held);
}

/** A text export's layout from its start (billLayout). */
function textLayout(start: FileStart | null): BillLayout | null {
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

/*
 * Which `evaluate` invocations are billing exports (src/billing/bill.ts) rather than inventories:
 * a Parquet file, `--input` naming a billing format (src/billing/formats/), a text file (gzipped or not) with a header
 * that is a billing format's or nearly one's (to say what it lacks) — on its first line with commas,
 * or with semicolons or tabs, or below a few report lines (src/billing/reading/layout.ts) — or
 * newline-delimited JSON whose first record's fields are. Light on purpose: an inventory run never
 * loads the billing engine.
 */

/** What `evaluate` reads; a billing export's layout when it was read to decide (read once). */
export type InputKind =
  /** `records`: newline-delimited JSON named otherwise than .ndjson or .jsonl (read as a batch). */
  | { readonly kind: "inventory"; readonly records?: boolean }
  /** An AWS CUR's manifest: its parts are read as one bill (src/billing/reading/manifest.ts). */
  | { readonly kind: "manifest"; readonly manifest: { reportKeys: unknown[] } }
  | { readonly kind: "billing"; readonly layout: BillLayout | undefined }
  /** A ZIP archive (not read as a workbook): its one file is read (src/support/zipArchive.ts). */
  | { readonly kind: "archive" }
  /** A file no reader takes (UTF-16, an image…): refused, the sentence says what it is. */
  | { readonly kind: "foreign"; readonly problem: string };

/** Whether a regular file is a ZIP archive by its first bytes (a bill's part: src/cli/main.ts). */
export function isZipFile(file: string): boolean {
  if (!isRegularFile(file)) return false;
  try {
    // Its first bytes alone: each of up to MAX_BILL_PARTS parts is asked.
    return fileContent(file) === "zip";
  } catch {
    // Unreadable: its reader says why.
    return false;
  }
}

/**
 * The one decision between inventory and billing export: a file that no reader takes is refused
 * first and a ZIP archive unpacked (a workbook is a ZIP: a file read as one is not asked; `--input`
 * then says how its one file is read), then `--input` when given, else a
 * Parquet file (by its name or its first bytes), else the file's start (src/billing's reading of
 * it). Standard input, a pipe or a file that cannot be read is an inventory's (its reading says
 * what is wrong).
 */
export function inputKindOf(file: string, input: string | undefined): InputKind {
  return inputKindOfStart(
    file,
    input,
    isWorkbook(file, input) ? null : regularFileStart(file, SEARCHED_LINES),
  );
}

/** Whether `file` is read as an Excel workbook (its sheet, not its start). */
const isWorkbook = (file: string, input: string | undefined) =>
  input === "xlsx" || (input === undefined && file.toLowerCase().endsWith(".xlsx"));

/** inputKindOf, from the file's start read before (regularFileStart): one that could not be read is an inventory's. */
function inputKindOfStart(file: string, input: string | undefined, held: HeldStart): InputKind {
  const workbook = isWorkbook(file, input);
  const start = workbook || held instanceof Error ? null : held;
  const content = start === null ? null : start.content;
  if (typeof content === "object" && content !== null) {
    return { kind: "foreign", problem: foreignContentMessage(file, content) };
  }
  if (content === "zip") return { kind: "archive" };
  // Its reader tells a gzip inventory by the same first bytes, as it reads them (src/cli/inventoryRecords.ts, inputText).
  const inventory: InputKind = { kind: "inventory" };
  if (input !== undefined) {
    return (BILLING_FORMAT_NAMES as readonly string[]).includes(input)
      ? { kind: "billing", layout: undefined }
      : inventory;
  }
  if (workbook) return inventory;
  // Parquet by its mark; by its name only where its start is not read (a CSV named .parquet is a CSV)
  if (content === "parquet" || (start === null && file.toLowerCase().endsWith(".parquet"))) {
    return { kind: "billing", layout: { kind: "parquet" } };
  }
  if (start === null) return inventory;
  try {
    const json =
      content === "text" && !startsAsJson(start.bytes) ? null : jsonDocumentKind(file, start.text());
    if (json !== null && json.kind !== "inventory") return json;
    const layout = textLayout(start.text());
    if (layout !== null && layoutClass(layout) !== null) return { kind: "billing", layout };
    const dataset = layout?.kind === "csv" ? focusDatasetProblem(layout.header) : null;
    if (dataset !== null) return { kind: "foreign", problem: `${file} is ${dataset}` };
    return json ?? inventory;
  } catch {
    return inventory;
  }
}

/**
 * What a text starting with `{` or `[` is: newline-delimited JSON (a record on its first line: a
 * bill's, else a batch's, whatever the file's name), an AWS CUR's manifest (one object over one
 * line or several), or a JSON document of another kind, refused: the CSV reader would take it for
 * a column of braces, or no row at all, without a word. Null for any other text.
 */
function jsonDocumentKind(file: string, start: FileStart | null): InputKind | null {
  const text = start?.text.trimStart() ?? "";
  if (!text.startsWith("{") && !text.startsWith("[")) return null;
  const end = text.indexOf("\n");
  const first = parsedJson(end < 0 ? text : text.slice(0, end));
  const whole =
    first !== undefined || start?.gzip || statSync(file).size > MAX_MANIFEST_BYTES ? first : parsedJson(text);
  if (isCurManifest(whole)) return { kind: "manifest", manifest: whole };
  const exports = dataExportsManifestProblem(file, whole);
  if (exports !== null) return { kind: "foreign", problem: exports };
  if (first !== null && typeof first === "object" && !Array.isArray(first))
    return { kind: "inventory", records: true };
  const what = Array.isArray(whole ?? first) ? "a JSON array" : "a JSON document over several lines";
  return {
    kind: "foreign",
    problem: `${file} is ${what}, not newline-delimited JSON (one record a line, as BigQuery exports a bill or a batch is written); it is not read`,
  };
}

/**
 * Whether a plain text's first character (past a byte-order mark and blanks, in its first
 * SIGNATURE_BYTES) opens JSON: the start read whole (jsonDocumentKind) only then. A start of blanks
 * alone is read whole too.
 */
function startsAsJson(start: Buffer): boolean {
  const first = start
    .toString("utf8")
    .replace(/^\uFEFF/, "")
    .trimStart()[0];
  return first === undefined || first === "{" || first === "[";
}

/** A JSON text's value, or undefined when it is none. */
function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Where an inventory reader met a bill's header: a pipe (not read ahead) or a workbook's first sheet. */
export type BillPlace = "pipe" | "workbook";

/**
 * What refuses an inventory read from a pipe (standard input, a FIFO: not read ahead, so taken
 * for an inventory) or from a workbook (Excel's "Save as" of an export, a portal's "Download to
 * Excel") whose header is a billing export's, rather than a bad row per line; null for any other
 * header. A bill is read from a file DuckDB reads, more than once: CSV, CSV.gz, Parquet or JSON.
 */
export function billElsewhere(name: string, header: readonly string[], place: BillPlace): string | null {
  const found = classifyHeader(header);
  if (found === null || !("format" in found)) return null;
  const what = `${name}: a billing export's header (${found.format.title})`;
  return place === "pipe"
    ? `${what}; a billing export is read from a file, not from a pipe: save it to a file and name that file`
    : `${what} on the workbook's first sheet; a billing export is read as CSV, CSV.gz, Parquet or JSON: save the sheet as CSV UTF-8 and name that file`;
}

/*
 * A bill delivered in parts (AWS writes a large CUR as report-00001.csv.gz, report-00002.csv.gz, …;
 * Azure partitions its exports; `bq extract` with a wildcard splits a table): the parts are read as
 * one relation, in the order given, each cut as the first is. A text part's layout is told from its
 * own first bytes and held against the first part's here; its columns, and a Parquet part's, may
 * differ, joined by name where they are read (src/billing/reading/joinedParts.ts).
 */

/**
 * Parts one run reads at most: DuckDB opens each as it goes, and a bill's month in parts is tens
 * of files (AWS cuts a CUR's CSV at about 1 GB uncompressed). Checked before any part is opened.
 */
export const MAX_BILL_PARTS = 1_000;

/** What a part is read as, each a name and the text it is shown by: a difference is named by the first that differs. */
function traits(layout: BillLayout): [string, string][] {
  const kind: [string, string] = [
    "kind",
    layout.kind === "csv" ? "CSV text" : layout.kind === "json" ? "JSON lines" : "Parquet",
  ];
  if (layout.kind === "parquet") return [kind];
  const gzip: [string, string] = ["compression", layout.gzip ? "gzip" : "none"];
  if (layout.kind === "json") return [kind, gzip];
  return [
    kind,
    gzip,
    ["separator", JSON.stringify(layout.separator)],
    ["lines above the header", String(layout.skipped)],
    ["line end", layout.lineEnd === "\r" ? "CR" : "LF"],
    ["decimal mark", JSON.stringify(layout.decimalMark)],
  ];
}

/**
 * Refuses a part not read as the first part is (its kind, compression, separator, lines above the
 * header, line end or decimal mark), naming the part and the first trait that differs; a part with
 * no header at all is refused as such. Its header may differ: the parts are joined by their
 * columns' names (src/billing/reading/joinedParts.ts).
 */
export function checkPartLayout(
  first: string,
  firstLayout: BillLayout,
  part: string,
  layout: BillLayout | null,
): void {
  if (layout === null) {
    throw new BillingInputError(
      `${part}: no header (an empty file, or not CSV); it is a part of the bill ${first}`,
    );
  }
  const expected = new Map(traits(firstLayout));
  const found = traits(layout);
  for (const [trait, value] of found) {
    const wanted = expected.get(trait);
    if (wanted !== value) {
      throw new BillingInputError(
        `${part}: ${trait} ${value}, where ${first} has ${wanted ?? "none"}; the parts of one bill are read alike`,
      );
    }
  }
}

/**
 * A year and month in a file's name (`cur-2026-04.csv`, `bill_202604.csv.gz`, a CUR's
 * `20260401-20260501`): a month's export, whose number is no part's.
 */
export const MONTH_IN_NAME =
  /(?:^|\D)(?:19|20)\d\d[-_.]?(?:0[1-9]|1[0-2])(?:[-_.]?(?:0[1-9]|[12]\d|3[01]))?(?:\D|$)/;

/** Whether several files are each named by a month: a bill's months, not the numbered parts of one export. */
export function monthNamed(parts: readonly string[]): boolean {
  return parts.length > 1 && parts.every((part) => MONTH_IN_NAME.test(basename(part)));
}

/** A bill as its messages and summary name it: the file, or its first part (or month's file) and how many more there are. */
export function billName(parts: readonly string[]): string {
  const more = parts.length - 1;
  const what = monthNamed(parts) ? "monthly file" : "part";
  return more === 0 ? parts[0] : `${parts[0]} (and ${more} more ${what}${more === 1 ? "" : "s"})`;
}

/** A part's name as an exporter numbers it: its folder and the text around its last run of digits, and that number. */
function numbered(part: string): { series: string; number: number } | null {
  const name = basename(part);
  let end = name.length;
  while (end > 0 && !/\d/.test(name[end - 1])) end -= 1;
  let start = end;
  while (start > 0 && /\d/.test(name[start - 1])) start -= 1;
  if (start === end || end - start > 15) return null;
  return {
    series: `${dirname(part)}/${name.slice(0, start)}#${name.slice(end)}`,
    number: Number(name.slice(start, end)),
  };
}

/** Numbers of a series said missing at most, and the widest range looked into. */
const MISSING_SHOWN = 5;
const RANGE_CHECKED = 100_000;

/**
 * The numbers missing among parts named as one numbered series (`report-00001.csv.gz`,
 * `report-00003.csv.gz`: 2; `bill-000000000001.json` alone past 0: 0), said before the run: a
 * shell's `report-*` reads what was downloaded, and a part that was not is a bill read short.
 * Null when the parts are no such series, or none is missing. Exporters count from 0 (BigQuery)
 * or 1 (AWS, Azure): a series from 2 on lacks its first.
 */
export function missingPartsNote(parts: readonly string[]): string | null {
  if (monthNamed(parts)) return null;
  const series = parts.map(numbered);
  const first = series[0];
  if (parts.length < 2 || first === null || series.some((part) => part?.series !== first.series)) return null;
  const numbers = new Set(series.map((part) => part?.number ?? 0));
  const low = Math.min(...numbers);
  const high = Math.max(...numbers);
  if (high - low > RANGE_CHECKED) return null;
  const missing: number[] = low > 1 ? [1] : [];
  for (let number = low + 1; number < high && missing.length <= MISSING_SHOWN; number += 1) {
    if (!numbers.has(number)) missing.push(number);
  }
  if (missing.length === 0) return null;
  const shown = missing.slice(0, MISSING_SHOWN).join(", ");
  const more = missing.length > MISSING_SHOWN ? ", …" : "";
  return `${parts[0]}: the parts are numbered ${low} to ${high} and none is numbered ${shown}${more}: a part not given is a bill read short (name it too, or give the report's manifest)`;
}

/** A manifest's bytes at most: AWS's list the report's columns and keys, tens of KB. */
export const MAX_MANIFEST_BYTES = 1024 * 1024;

/**
 * What is said of an AWS Data Exports manifest (CUR 2.0's `Manifest.json`: the export's ARN, its
 * execution, its `dataFiles` and `columns`), null for another document: it names the data files in
 * S3 by URI, where a download's folder keeps them otherwise, so they are named, never guessed.
 */
function dataExportsManifestProblem(file: string, document: unknown): string | null {
  if (document === null || typeof document !== "object" || Array.isArray(document)) return null;
  const fields = new Map(Object.entries(document).map(([key, value]) => [key.toLowerCase(), value]));
  const files = fields.get("datafiles");
  if (!Array.isArray(files) && !fields.has("exportarn")) return null;
  const count = Array.isArray(files)
    ? `its ${files.length} data file${files.length === 1 ? "" : "s"}`
    : "its data files";
  return `${file} is an AWS Data Exports (CUR 2.0) manifest, not a bill: name ${count} instead (evaluate <export>/data/BILLING_PERIOD=…/*.csv.gz reads them as one bill); it is not read`;
}

/** Whether a parsed JSON document is a legacy CUR's manifest: its parts' keys, and its assembly. */
export function isCurManifest(document: unknown): document is { reportKeys: unknown[] } {
  if (document === null || typeof document !== "object" || Array.isArray(document)) return false;
  const fields = document as Record<string, unknown>;
  return Array.isArray(fields.reportKeys) && typeof fields.assemblyId === "string";
}
