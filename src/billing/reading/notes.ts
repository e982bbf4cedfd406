/*
 * What a run says on stderr of how it reads a file laid out otherwise than a comma-separated text
 * with its header first (src/billing/reading/layout.ts): its separator and decimal mark, the lines
 * it skipped above the header, JSON records' fields as columns; and, after the run, the first
 * number cells it could not read with the decimal mark said, by their line in the file.
 */

import { createReadStream } from "node:fs";
import { open, stat } from "node:fs/promises";
import { createGunzip } from "node:zlib";
import { parse } from "csv-parse";
import { FileReadError, gzipCutShort } from "../../duckdb/readErrors.js";
import { trailingBytesRefusal, trailingOffset } from "../../support/gzipEnd.js";
import { type DecimalReading, decimalPointText } from "../../support/numbers.js";
import { printable } from "../../support/terminalText.js";
import {
  BILLING_FORMATS,
  type BillingFormat,
  type BillingFormatName,
  headerColumn,
  recognisedFormat,
} from "../formats/knownFormats.js";
import type { LineEnd } from "./layout.js";
import { type BillLayout, type CsvLayout, PREAMBLE_LINES, readNames, type Separator } from "./layout.js";

const SEPARATOR_NAMES = { ",": "','", ";": "';'", "\t": "a tab" } as const;

/** The columns a format reads as numbers, as the header names them. */
function numberColumns(format: BillingFormat | null, header: readonly string[]): string[] {
  if (format === null) return [];
  return [...new Set(format.numbers.flatMap((name) => headerColumn(format, name, header) ?? []))];
}

function formatOf(layout: CsvLayout, input: BillingFormatName | null): BillingFormat | null {
  return input === null ? recognisedFormat(layout.header) : BILLING_FORMATS[input];
}

/** How the run reads the file, a line each, when not as a comma-separated text with its header first. */
export function layoutNotes(file: string, layout: BillLayout, input: BillingFormatName | null): string[] {
  if (layout.kind === "parquet") return [];
  return [...misnamedNote(file, layout), ...textNotes(file, layout, input)];
}

/** A text named `.parquet`: read as the text it is (its kind is its content's, not its name's). */
function misnamedNote(file: string, layout: Exclude<BillLayout, { kind: "parquet" }>): string[] {
  if (!file.toLowerCase().endsWith(".parquet")) return [];
  const text = `${layout.gzip ? "gzipped " : ""}${layout.kind === "json" ? "newline-delimited JSON" : "CSV"} text`;
  return [`${file}: named .parquet but holds ${text} (no Parquet mark, PAR1), read as such`];
}

function textNotes(
  file: string,
  layout: Exclude<BillLayout, { kind: "parquet" }>,
  input: BillingFormatName | null,
): string[] {
  if (layout.kind === "json") {
    return [
      `${file}: read as newline-delimited JSON (BigQuery's export), each record's fields as columns (service.description, usage.amount…)`,
    ];
  }
  const notes: string[] = renamedNote(file, layout.header);
  // A header further down is refused (src/billing/reading/exportScan.ts), not read.
  if (layout.skipped >= PREAMBLE_LINES) return [];
  if (layout.skipped > 0) {
    notes.push(
      `${file}: its header is line ${layout.skipped + 1}; the ${layout.skipped} line${layout.skipped === 1 ? "" : "s"} above it (a report's title, not lines of the bill) skipped; line numbers are the file's`,
    );
  }
  if (layout.lineEnd === "\r") {
    notes.push(
      `${file}: its lines end in CR alone (a classic Mac CSV), read so; line numbers are the file's`,
    );
  }
  if (layout.separator !== ",") {
    const columns = numberColumns(formatOf(layout, input), layout.header);
    const decimal = { mark: layout.decimalMark, told: layout.decimalTold };
    notes.push(separatorNote(file, layout.separator, decimal, columns));
  }
  return notes;
}

/** Columns named in a note at most: a header of many duplicated tags is said by its first ones. */
const RENAMED_SHOWN = 5;

/**
 * The columns a run reads under another name than the header's (readNames), each as `name (column
 * N) as its name read`, the first RENAMED_SHOWN and how many more; "" when every name is read as it is.
 */
export function renamedColumns(header: readonly string[]): string {
  const names = readNames(header);
  const renamed = header.flatMap((name, index) =>
    names[index] === name
      ? []
      : [
          `${name === "" ? `column ${index + 1} (no name)` : `${name} (column ${index + 1})`} as ${names[index]}`,
        ],
  );
  const more = renamed.length > RENAMED_SHOWN ? `, and ${renamed.length - RENAMED_SHOWN} more` : "";
  return renamed.length === 0 ? "" : `${renamed.slice(0, RENAMED_SHOWN).join("; ")}${more}`;
}

/** The columns read under another name, in one line; none when every name is read as it is. */
function renamedNote(file: string, header: readonly string[]): string[] {
  const renamed = renamedColumns(header);
  return renamed === ""
    ? []
    : [`${file}: columns renamed, since SQL names ignore case and cannot be empty: ${renamed}`];
}

/**
 * How a text whose columns are not separated by commas is read, in one line: its separator, and
 * the decimal mark of its number columns (a bill's, an inventory's) with why.
 */
export function separatorNote(
  file: string,
  separator: Separator,
  decimal: DecimalReading,
  columns: readonly string[],
): string {
  const mark =
    decimal.mark === ","
      ? `',' as the decimal mark (12,5; 1.234,56 is 1234.56)`
      : `'.' as the decimal mark (12.5)`;
  const why = decimal.told
    ? "as its first lines write them"
    : "no number of its first lines tells: the mark that goes with it";
  const named = columns.length === 0 ? "" : ` (${columns.join(", ")})`;
  return `${file}: columns separated by ${SEPARATOR_NAMES[separator]}; numbers${named} read with ${mark}, ${why}`;
}

/** Unreadable number cells named after a run, at most. */
const NAMED_CELLS = 3;

/**
 * The first number cells (NAMED_CELLS) of a decimal-comma text that are no such number, each
 * named by its file (a bill's part), its line there and its column: read after a run that found
 * such bad rows, each part read again up to the last one named.
 */
export async function unreadableNumbers(
  parts: readonly string[],
  layout: CsvLayout,
  input: BillingFormatName | null,
): Promise<string[]> {
  const columns = numberColumns(formatOf(layout, input), layout.header);
  if (layout.decimalMark !== "," || columns.length === 0) return [];
  const named: string[] = [];
  for (const part of parts) {
    if (named.length >= NAMED_CELLS) break;
    named.push(...(await unreadableCells(part, layout, columns, NAMED_CELLS - named.length)));
  }
  return named;
}

/** The first `most` number cells of one file that are no number written with a decimal comma. */
async function unreadableCells(
  file: string,
  layout: CsvLayout,
  columns: readonly string[],
  most: number,
): Promise<string[]> {
  const indexes = columns.map((column) => layout.header.indexOf(column));
  const stream = createReadStream(file);
  const bytes = layout.gzip ? stream.pipe(createGunzip()) : stream;
  const parser = bytes.pipe(
    parse({
      delimiter: layout.separator,
      from_line: layout.skipped + layout.headerLines + 1,
      relax_column_count: true,
      relax_quotes: true,
      bom: true,
      info: true,
    }),
  );
  const named: string[] = [];
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: string[];
      info: { lines: number };
    }>) {
      for (const [at, index] of indexes.entries()) {
        const cell = record[index] ?? "";
        if (cell.trim() === "" || decimalPointText(cell, ",") !== null) continue;
        named.push(
          `${file}: line ${info.lines}, ${columns[at]}: ${JSON.stringify(printable(cell.slice(0, 40)))} is not a number written with ',' as the decimal mark (12,5 or 1.234,56); its line is a bad row`,
        );
      }
      if (named.length >= most) break;
    }
  } catch {
    // A file that cannot be read to its end was said so by the run.
  } finally {
    stream.destroy();
  }
  return named.slice(0, most);
}

/*
 * The one line of a billing export DuckDB can lose without a word: a last line longer than its
 * reader's buffer (32 MiB by default; a gzip bomb's 1.5 GB line of one character) is dropped, the
 * lines before it read, no error raised (DuckDB 1.5; a longer line anywhere else is an error). Such
 * a line is found here, before the run, so that it is counted and named as a bad row.
 */

/**
 * A last line longer than this is counted as not read. DuckDB's reader refuses a line over its
 * `max_line_size` (2,000,000 bytes in 1.5) with an error, the last one too, unless that line runs
 * past its 32 MiB buffer: then it is dropped without a word, and only this check finds it.
 */
export const MAX_BILLING_LINE_BYTES = 2 * 1024 * 1024;

/** The file's last line, when longer than MAX_BILLING_LINE_BYTES: its number when known. */
export interface OverlongLine {
  /** Its line number (1 is the header), or null where only its end was read (a plain file). */
  readonly line: number | null;
  /** The part of a bill it ends, where the bill has several (each part's last line is read so). */
  readonly part?: string;
}

/** The byte ending a line: LF (CRLF alike), or CR alone (src/billing/reading/layout.ts, LineEnd). */
const lineEndByte = (lineEnd: LineEnd) => (lineEnd === "\r" ? 0x0d : 0x0a);

/** A plain file's last line, from its last bytes only: overlong when no line end is among them. */
async function plainLastLine(file: string, lineEnd: LineEnd): Promise<OverlongLine | null> {
  const NEWLINE = lineEndByte(lineEnd);
  const handle = await open(file, "r");
  try {
    const { size } = await handle.stat();
    // The last line with its line end (\r\n), and one byte more to find the end before it.
    const window = Math.min(size, MAX_BILLING_LINE_BYTES + 3);
    const tail = Buffer.alloc(window);
    await handle.read(tail, 0, window, size - window);
    let end = tail.length;
    while (end > 0 && (tail[end - 1] === NEWLINE || tail[end - 1] === 0x0d)) end -= 1;
    const start = tail.lastIndexOf(NEWLINE, end - 1);
    // No line end within the window, and the window is not the whole file: the line is longer.
    return start < 0 && window < size ? { line: null } : null;
  } finally {
    await handle.close();
  }
}

/** A gzipped file's last line, inflated as a stream (nothing held but the counts). */
async function gzippedLastLine(file: string, lineEnd: LineEnd): Promise<OverlongLine | null> {
  const NEWLINE = lineEndByte(lineEnd);
  let lines = 0;
  let current = 0;
  let previous = 0;
  const inflate = createGunzip();
  const { size } = await stat(file);
  try {
    for await (const chunk of createReadStream(file).pipe(inflate) as AsyncIterable<Buffer>) {
      let from = 0;
      for (let at = chunk.indexOf(NEWLINE); at >= 0; at = chunk.indexOf(NEWLINE, from)) {
        previous = current + (at - from);
        current = 0;
        lines += 1;
        from = at + 1;
      }
      current += chunk.length - from;
    }
  } catch {
    // DuckDB 1.5 reads some gzip streams cut short to their last whole block without an error:
    // the cut is said here, before the run, in the words of its own read errors.
    throw new FileReadError(gzipCutShort(file, lines));
  }
  // Bytes after its last member, which gunzip (and DuckDB, in other words) stops at: not read in part
  const trailing = trailingOffset(inflate, size);
  if (trailing !== null)
    throw new FileReadError(`${file}: ${trailingBytesRefusal(trailing)}; nothing written`);
  // The last line: the one after the last line end, or, when the file ends with one, before it.
  const last = current > 0 ? current : previous;
  const number = current > 0 ? lines + 1 : lines;
  return last > MAX_BILLING_LINE_BYTES + 1 ? { line: number } : null;
}

/** A text export's last line when it is longer than MAX_BILLING_LINE_BYTES, as its layout reads it (gzip, line end). */
function overlongLastLine(
  file: string,
  layout: Pick<CsvLayout, "gzip" | "lineEnd">,
): Promise<OverlongLine | null> {
  return layout.gzip ? gzippedLastLine(file, layout.lineEnd) : plainLastLine(file, layout.lineEnd);
}

/** Each part's overlong last line, the part named where there are several (checkPartLayout, src/billing/reading/layout.ts). */
export async function overlongLastLines(
  parts: readonly string[],
  layout: Pick<CsvLayout, "gzip" | "lineEnd">,
): Promise<OverlongLine[]> {
  const found: OverlongLine[] = [];
  for (const part of parts) {
    const overlong = await overlongLastLine(part, layout);
    if (overlong !== null) found.push(parts.length > 1 ? { ...overlong, part } : overlong);
  }
  return found;
}

/** Why a last line too long to be read is a bad row. */
export function overlongReason(overlong: OverlongLine): string {
  const line = overlong.line === null ? "the last line" : `line ${overlong.line}, the last`;
  const where = overlong.part === undefined ? line : `${overlong.part}: ${line} of its part`;
  return `${where}, is longer than ${MAX_BILLING_LINE_BYTES} bytes; not read`;
}

/** The bad row of a last line too long to be read. */
export function overlongProblem(overlong: OverlongLine): string {
  return `bad row: ${overlongReason(overlong)}`;
}
