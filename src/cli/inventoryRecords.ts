import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import { type CsvError, parse } from "csv-parse";
import type ExcelJS from "exceljs";
import { ndjsonLines } from "../batch/index.js";
import { SEPARATORS, type Separator } from "../billing/reading/layout.js";
import { separatorNote } from "../billing/reading/notes.js";
import { cellCounter, firstSheet, WorkbookBoundError } from "../support/boundedWorkbook.js";
import {
  contentOf,
  foreignContentMessage,
  MARK_BYTES,
  SIGNATURE_BYTES,
  ZIP_ON_A_PIPE,
} from "../support/fileStart.js";
import { trailingBytesRefusal, trailingOffset } from "../support/gzipEnd.js";
import { FileMisuse } from "../support/namedFiles.js";
import { type DecimalMark, type DecimalReading, decimalMarkOfCells } from "../support/numbers.js";
import { RecordEnds } from "../support/recordEnds.js";
import { csvRecords, type RecordProblem } from "./csvRecords.js";
import { columnName, INVENTORY_COLUMNS, type InventoryRow, rowLine } from "./inventory/inventory.js";

/*
 * The command line's input, item by item in input order: the header (CSV), then per row a batch
 * line to evaluate or a row that cannot be one (reported with its line number, never a crash),
 * each with the row's cells as read, for the output to keep.
 */

export type SourceItem =
  /** The header; `notes`: how the file is read, for stderr (a `;` text's separator and decimal mark). */
  | { readonly header: readonly string[]; readonly notes?: readonly string[] }
  | { readonly number: number; readonly cells: readonly string[]; readonly line: string }
  | { readonly number: number; readonly cells: readonly string[]; readonly problem: string };

/** An inventory as a table (CSV, a workbook: its header's columns) or a batch (NDJSON). */
export type InputFormat = "csv" | "xlsx" | "ndjson";

/** The input columns of a batch (NDJSON) input, as its output shows them. */
const NDJSON_COLUMNS = ["path"] as const;

function pathOf(text: string): string {
  try {
    const path = (JSON.parse(text) as { path?: unknown } | null)?.path;
    return typeof path === "string" ? path : "";
  } catch {
    return "";
  }
}

/** Batch NDJSON: each line as the batch route reads it. */
export async function* ndjsonItems(
  bytes: AsyncIterable<Uint8Array | string>,
  maxLineBytes: number,
): AsyncGenerator<SourceItem> {
  yield { header: NDJSON_COLUMNS };
  for await (const line of ndjsonLines(bytes, maxLineBytes)) {
    yield "tooLarge" in line
      ? {
          number: line.number,
          cells: [""],
          problem: `the line exceeds ${maxLineBytes} bytes (MAX_BODY_BYTES)`,
        }
      : { number: line.number, cells: [pathOf(line.text)], line: line.text };
  }
}

const KNOWN_COLUMNS: ReadonlySet<string> = new Set(INVENTORY_COLUMNS.map(({ column }) => column));

/**
 * The separator of a header line: the one whose cells name the most inventory columns (a
 * spreadsheet where the comma is the decimal mark saves `kind;quantity`), a comma when none does.
 */
export function separatorOf(headerLine: string): Separator {
  let best: { separator: Separator; known: number } = { separator: ",", known: 0 };
  // The separators a bill's header is tried with (src/billing/reading/layout.ts), a comma first.
  for (const separator of SEPARATORS) {
    const known = headerLine.split(separator).filter((cell) => KNOWN_COLUMNS.has(columnName(cell))).length;
    if (known > best.known) best = { separator, known };
  }
  return best.separator;
}

/**
 * An input's first chunks, held until `enough` says so of the last one and of all held so far (or
 * the input ends), and the input whole again.
 */
async function heldStart(
  bytes: AsyncIterable<Uint8Array | string>,
  enough: (chunk: Buffer, heldBytes: number) => boolean,
): Promise<{ start: Buffer; bytes: AsyncIterable<Uint8Array | string> }> {
  const chunks = bytes[Symbol.asyncIterator]();
  const held: Buffer[] = [];
  let heldBytes = 0;
  for (;;) {
    const next = await chunks.next();
    if (next.done === true) break;
    const chunk = Buffer.from(next.value);
    held.push(chunk);
    heldBytes += chunk.length;
    if (enough(chunk, heldBytes)) break;
  }
  async function* again(): AsyncGenerator<Uint8Array | string> {
    yield* held;
    for (let next = await chunks.next(); next.done !== true; next = await chunks.next()) yield next.value;
  }
  return { start: Buffer.concat(held), bytes: again() };
}

/**
 * The input's first record (its first `maxBytes` at most, without a byte-order mark), and the
 * input whole again: its first chunks held until that record ends, at a line end (LF, CR or
 * CRLF) outside quotes (a header cell may hold a line break: src/support/recordEnds.ts).
 */
async function firstLine(
  input: AsyncIterable<Uint8Array | string>,
  maxBytes: number,
): Promise<{ line: string; bytes: AsyncIterable<Uint8Array | string> }> {
  const scanner = new RecordEnds("any");
  let end = -1;
  const { start, bytes } = await heldStart(input, (chunk, heldBytes) => {
    const found = scanner.next(chunk).end;
    if (end < 0 && found >= 0) end = heldBytes - chunk.length + found;
    return end >= 0 || heldBytes > maxBytes;
  });
  const line = start.subarray(0, end < 0 ? Math.min(start.length, maxBytes) : end).toString("utf8");
  return { line: line.replace(/^\uFEFF/, ""), bytes };
}

/**
 * Rows read after a `;` or tab header before the items go on, their numbers telling the decimal
 * mark: 200 rows, and no more once they hold 1 MiB (a row may be MAX_BODY_BYTES long).
 */
const SAMPLED_ROWS = 200;
const SAMPLED_BYTES = 1024 * 1024;

const NUMBER_COLUMNS: ReadonlySet<string> = new Set(
  INVENTORY_COLUMNS.filter((column) => column.type === "number").map(({ column }) => column),
);

/** The decimal mark the number cells of a `;` or tab text's first rows tell (src/support/numbers.ts). */
function sampledDecimalMark(names: readonly string[], rows: readonly (readonly string[])[]): DecimalReading {
  const indexes = [...names.keys()].filter((index) => NUMBER_COLUMNS.has(names[index]));
  return decimalMarkOfCells(rows.flatMap((cells) => indexes.map((index) => cells[index] ?? "")));
}

/** A CSV's record with the line it ends on, or a line it could not read. */
type CsvEntry = { readonly record: string[]; readonly lines: number } | { readonly broken: RecordProblem };

/**
 * A CSV's records and the lines it could not read (a broken quote, more cells than the header, no
 * UTF-8, a record past its bound), in the file's order.
 */
async function* csvEntries(
  bytes: AsyncIterable<Uint8Array | string>,
  maxRecordBytes: number,
  name: string,
  separator: Separator,
): AsyncGenerator<CsvEntry> {
  const pending: RecordProblem[] = [];
  const parser = parse({
    delimiter: separator,
    bom: true,
    info: true,
    // A quote amid an unquoted cell (`24" screen`) is text.
    relax_quotes: true,
    skip_empty_lines: true,
    relax_column_count: true,
    skip_records_with_error: true,
    // Records are bounded before the parser (csvRecords); this only guards the parser itself.
    max_record_size: maxRecordBytes + 1,
    on_skip: (error) => {
      if (error) pending.push({ line: lineOf(error), problem: error.message });
      return undefined;
    },
  });
  const records = Readable.from(
    csvRecords(bytes, maxRecordBytes, (problem) => pending.push(problem), name, separator),
  );
  records.on("error", (error) => parser.destroy(error));
  records.pipe(parser);
  const brokenBefore = function* (line: number): Generator<CsvEntry> {
    // The parser's problems and the records' arrive in two orders: merged by line.
    pending.sort((a, b) => a.line - b.line);
    while (pending.length > 0 && pending[0].line < line) yield { broken: pending.shift() as RecordProblem };
  };
  for await (const { record, info } of parser as AsyncIterable<{
    record: string[];
    info: { lines: number };
  }>) {
    yield* brokenBefore(info.lines);
    yield { record, lines: info.lines };
  }
  yield* brokenBefore(Number.POSITIVE_INFINITY);
}

/** A CSV's start: its header record, and the entries after it read to tell the decimal mark. */
interface CsvStart {
  readonly header: { readonly record: string[]; readonly lines: number } | null;
  /** Entries read before the items go on: broken lines before the header, the sampled rows. */
  readonly held: readonly CsvEntry[];
}

/**
 * The header, then — for a `;` or tab text — up to SAMPLED_ROWS rows (SAMPLED_BYTES at most),
 * whose number cells tell the decimal mark before any row goes on.
 */
async function csvStart(entries: AsyncIterator<CsvEntry>, separator: Separator): Promise<CsvStart> {
  let header: CsvStart["header"] = null;
  const held: CsvEntry[] = [];
  let rows = 0;
  let bytes = 0;
  for (let next = await entries.next(); next.done !== true; next = await entries.next()) {
    const entry = next.value;
    if (header === null && "record" in entry) {
      header = entry;
      if (separator === ",") break;
      continue;
    }
    held.push(entry);
    if ("record" in entry) {
      rows += 1;
      bytes += entry.record.reduce((sum, cell) => sum + cell.length, 0);
      if (rows >= SAMPLED_ROWS || bytes >= SAMPLED_BYTES) break;
    }
  }
  return { header, held };
}

/**
 * CSV with a header row (column names: src/cli/inventory/inventory.ts), its separator told by that row
 * (separatorOf). A `;` or tab text's numbers are read with the decimal mark its first rows'
 * number cells tell (a comma where none does, as a spreadsheet that saves `;` writes them), said
 * in the header's notes. A row that cannot be read (a broken quote, more cells than the header,
 * no UTF-8) is reported and skipped; a row with fewer cells has the missing ones empty.
 */
export async function* csvItems(
  input: AsyncIterable<Uint8Array | string>,
  maxRecordBytes: number,
  name: string,
): AsyncGenerator<SourceItem> {
  const { line, bytes } = await firstLine(input, maxRecordBytes);
  const separator = separatorOf(line);
  const entries = csvEntries(bytes, maxRecordBytes, name, separator);
  const { header, held } = await csvStart(entries, separator);
  const names = header?.record.map(columnName) ?? [];
  const width = header?.record.length ?? 0;
  const sampled = held.flatMap((entry) => ("record" in entry ? [entry.record] : []));
  const decimal: DecimalReading =
    separator === "," ? { mark: ".", told: false } : sampledDecimalMark(names, sampled);
  const numbers = names.filter((column) => NUMBER_COLUMNS.has(column));
  const trimmed = header?.record.map((cell) => cell.trim()) ?? [];
  yield separator === "," || header === null
    ? { header: trimmed }
    : { header: trimmed, notes: [separatorNote(name, separator, decimal, numbers)] };
  const itemOf = (entry: CsvEntry): SourceItem | null =>
    "broken" in entry
      ? {
          number: entry.broken.line,
          cells: brokenLineCells(entry.broken.text, width),
          problem: entry.broken.problem,
        }
      : rowItem(names, width, entry.lines, entry.record, decimal.mark);
  for (const entry of held) {
    const item = itemOf(entry);
    if (item !== null) yield item;
  }
  for await (const entry of entries) {
    const item = itemOf(entry);
    if (item !== null) yield item;
  }
}

/**
 * A table's row (a CSV record, a worksheet's row) as the item to evaluate, under the header's
 * column names and width; null for a row of empty cells.
 */
export function rowItem(
  names: readonly string[],
  width: number,
  number: number,
  record: readonly string[],
  mark: DecimalMark = ".",
): SourceItem | null {
  // A row of empty cells (`,,,`, what a spreadsheet leaves of a cleared row) is a blank line.
  if (record.every((cell) => cell.trim() === "")) return null;
  const cells =
    record.length >= width ? record : [...record, ...new Array<string>(width - record.length).fill("")];
  if (record.length > width) {
    return {
      number,
      cells: cells.slice(0, width),
      problem: `${record.length} cells where the header has ${width}`,
    };
  }
  const row: Record<string, string> = {};
  for (const [index, name] of names.entries()) row[name] ??= cells[index];
  const converted = rowLine(row as InventoryRow, mark);
  return "line" in converted
    ? { number, cells, line: converted.line }
    : { number, cells, problem: converted.problem };
}

/** A broken line's cells as written, split at its commas (a failed row keeps its cells); none known: empty. */
function brokenLineCells(text: string | undefined, width: number): string[] {
  const cells = text?.split(",").slice(0, width) ?? [];
  return [...cells, ...new Array<string>(width - cells.length).fill("")];
}

function lineOf(error: CsvError): number {
  return typeof error.lines === "number" ? error.lines : 0;
}

/*
 * An inventory as an Excel workbook (.xlsx): its first worksheet read as a CSV is (the header row,
 * then one asset per row, src/cli/inventoryRecords.ts), streamed by exceljs's WorkbookReader so that a large
 * workbook is never held whole. Each cell is written as the text a CSV export of the sheet holds:
 * a number as JavaScript writes it, a date as ISO 8601, a formula as its cached result.
 */

/** A workbook that cannot be read (corrupt, password-protected, no worksheet): one line, exit 2. */
export class WorkbookError extends FileMisuse {}

/** A cell the row cannot be evaluated with (a formula without a result, an error value). */
class CellProblem extends Error {}

/** A date as ISO 8601: the day alone at midnight UTC (a date cell), else the time to the second. */
function isoText(date: Date): string {
  if (Number.isNaN(date.getTime())) throw new CellProblem("a date out of range");
  const iso = date.toISOString();
  if (iso.endsWith("T00:00:00.000Z")) return iso.slice(0, 10);
  return iso.endsWith(".000Z") ? `${iso.slice(0, 19)}Z` : iso;
}

/** A cell's value as text (what a CSV export holds). */
function cellText(value: ExcelJS.CellValue, column: number): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value instanceof Date) return isoText(value);
  if ("error" in value) throw new CellProblem(`column ${column} holds the error ${value.error}`);
  if ("richText" in value) return value.richText.map((run) => run.text).join("");
  if ("formula" in value || "sharedFormula" in value) {
    const result = (value as ExcelJS.CellFormulaValue).result;
    if (result === undefined || result === null) {
      throw new CellProblem(
        `column ${column} holds a formula without a saved result (recalculate and save the workbook)`,
      );
    }
    return cellText(result as ExcelJS.CellValue, column);
  }
  if ("hyperlink" in value) return String(value.text ?? "");
  throw new CellProblem(`column ${column} holds a value that is not text, a number or a date`);
}

/** A row's cells as text (exceljs's row.values is 1-based and sparse), or the first cell's problem. */
function rowCells(row: ExcelJS.Row): { cells: string[] } | { cells: string[]; problem: string } {
  const values = (row.values as ExcelJS.CellValue[]).slice(1);
  const cells: string[] = [];
  let problem: string | undefined;
  for (const [index, value] of Array.from(values).entries()) {
    try {
      cells.push(cellText(value, index + 1));
    } catch (error) {
      if (!(error instanceof CellProblem)) throw error;
      problem ??= error.message;
      cells.push("");
    }
  }
  // Trailing empty cells are not cells (a sheet's formatted but empty columns).
  while (cells.length > 0 && cells[cells.length - 1] === "") cells.pop();
  return problem === undefined ? { cells } : { cells, problem };
}

/** Its text's bytes as a CSV record would count them (cells and separators). */
function rowBytes(cells: readonly string[]): number {
  return cells.reduce((sum, cell) => sum + Buffer.byteLength(cell), Math.max(0, cells.length - 1));
}

/**
 * The first worksheet's rows, as csvItems gives a CSV's: the header, then each row (its number the
 * sheet's) to evaluate or a bad row. A row longer than `maxRowBytes` is a bad row, as a CSV record.
 * The workbook is read within its bounds (src/support/boundedWorkbook.ts), each named when passed.
 */
export async function* xlsxItems(input: Readable, maxRowBytes: number): AsyncGenerator<SourceItem> {
  // The workbook's library loads with a workbook only.
  const { default: excel } = await import("exceljs");
  const reader = new excel.stream.xlsx.WorkbookReader(input, {
    worksheets: "emit",
    sharedStrings: "cache",
    // Styles tell a date from a number (a date is a number formatted as one).
    styles: "cache",
    hyperlinks: "ignore",
    entries: "ignore",
  });
  let names: string[] | undefined;
  let width = 0;
  let opened: Awaited<ReturnType<typeof firstSheet>> | undefined;
  try {
    opened = await firstSheet(input, reader).catch(unreadableWorkbook);
    if (opened.sheet === null) throw new WorkbookError("the workbook has no worksheet");
    for await (const row of rowsOf(opened.sheet)) {
      const read = rowCells(row);
      if (names === undefined) {
        names = read.cells.map(columnName);
        width = read.cells.length;
        yield { header: read.cells.map((cell) => cell.trim()) };
        continue;
      }
      const padded = [...read.cells, ...new Array<string>(Math.max(0, width - read.cells.length)).fill("")];
      if (rowBytes(read.cells) > maxRowBytes) {
        yield {
          number: row.number,
          cells: padded.slice(0, width).map(() => ""),
          problem: `the row exceeds ${maxRowBytes} bytes (MAX_BODY_BYTES)`,
        };
      } else if ("problem" in read) {
        yield { number: row.number, cells: padded.slice(0, width), problem: read.problem };
      } else {
        const item = rowItem(names, width, row.number, read.cells);
        if (item !== null) yield item;
      }
    }
  } finally {
    await opened?.close();
  }
  // An empty first sheet: an empty CSV's header.
  if (names === undefined) yield { header: [] };
}

/**
 * A sheet's rows, rows × columns counted (cellCounter), its reading's failure said as the
 * workbook's (a bound's own line kept).
 */
async function* rowsOf(sheet: ExcelJS.stream.xlsx.WorksheetReader): AsyncGenerator<ExcelJS.Row> {
  const cells = cellCounter();
  try {
    for await (const row of sheet) {
      // row.values is 1-based: its length is the last cell's column + 1.
      cells((row.values as unknown[]).length - 1);
      yield row;
    }
  } catch (error) {
    unreadableWorkbook(error);
  }
}

/** A workbook that cannot be read, in one line: a bound's, or why it is not a workbook. */
function unreadableWorkbook(error: unknown): never {
  if (error instanceof WorkbookError) throw error;
  if (error instanceof WorkbookBoundError) throw new WorkbookError(error.message);
  throw new WorkbookError(`not a readable Excel workbook (.xlsx): ${workbookProblem(error)}`);
}

/** Why the workbook cannot be read, in a few words (a password-protected workbook is not a zip). */
function workbookProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // yauzl's check of a part's bytes against its directory (a lying archive stops there).
  if (/^too (many|few) bytes in the stream/.test(message)) {
    return `damaged, a part inflating past the size its directory declares (${message.split("\n")[0].slice(0, 200)})`;
  }
  if (/signature|zip|end of central directory|invalid|FILE_ENDED/i.test(message.slice(0, 200))) {
    return "corrupt, or protected by a password (save it without one)";
  }
  return message.split("\n")[0].slice(0, 200);
}

/*
 * An inventory's bytes as text, told by their first bytes as they arrive — a file or standard
 * input alike, nothing read ahead: gzip inflated as it is read (an inventory.csv.gz, or a pipe from
 * `gzip -c`), UTF-16 or an image refused in one line (src/support/fileStart.ts), text as it
 * is. A regular file no reader takes was refused before, and a ZIP file unpacked
 * (src/billing/reading/layout.ts, inputKindOf); a pipe's is refused here, a ZIP on a pipe too.
 */

/** A gzip stream that ends early or is damaged, said in one line (the rows before it are read). */
function damagedGzip(name: string, error: unknown): FileMisuse {
  return new FileMisuse(`${name}: the gzip stream is damaged or cut short (${(error as Error).message})`);
}

export async function* inputText(
  input: AsyncIterable<Uint8Array | string>,
  name: string,
): AsyncGenerator<Uint8Array | string> {
  // A pipe may send the mark in pieces: held until it can tell.
  const { start, bytes } = await heldStart(input, (_chunk, heldBytes) => heldBytes >= MARK_BYTES);
  if (start.length === 0) return;
  const content = contentOf(start.subarray(0, SIGNATURE_BYTES));
  if (typeof content === "object") throw new FileMisuse(foreignContentMessage(name, content));
  if (content === "zip") throw new FileMisuse(foreignContentMessage(name, ZIP_ON_A_PIPE));
  if (content !== "gzip") return yield* bytes;
  const inflate = createGunzip();
  let given = 0;
  async function* counted() {
    for await (const chunk of bytes) {
      given += typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.byteLength;
      yield chunk;
    }
  }
  // The pipeline's failure (a cut stream) ends the reading below with it, said as the file's.
  const piped = pipeline(Readable.from(counted()), inflate).catch((error: unknown) => {
    inflate.destroy(damagedGzip(name, error));
  });
  try {
    for await (const chunk of inflate as AsyncIterable<Buffer>) yield chunk;
  } catch (error) {
    throw error instanceof FileMisuse ? error : damagedGzip(name, error);
  }
  await piped;
  // Bytes after its last member, which gunzip stops at without a word: refused (exit 2), as a cut
  // stream is, the rows of its members before it written
  const trailing = trailingOffset(inflate, given);
  if (trailing !== null) throw new FileMisuse(`${name}: ${trailingBytesRefusal(trailing)}`);
}
