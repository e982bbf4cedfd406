import { Readable } from "node:stream";
import { type CsvError, parse } from "csv-parse";
import { ndjsonLines } from "../batch/index.js";
import { columnName, type InventoryRow, rowLine } from "./inventory.js";

/*
 * The command line's input, item by item in input order: the header (CSV), then per row a batch
 * line to evaluate or a row that cannot be one (reported with its line number, never a crash),
 * each with the row's cells as read, for the output to keep.
 */

export type SourceItem =
  | { readonly header: readonly string[] }
  | { readonly number: number; readonly cells: readonly string[]; readonly line: string }
  | { readonly number: number; readonly cells: readonly string[]; readonly problem: string };

export type InputFormat = "csv" | "ndjson";

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

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const QUOTE = 0x22;
const COMMA = 0x2c;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** Where a record's reading is: RFC 4180, a quote amid an unquoted cell being text (as csv-parse's relax_quotes reads it). */
const Cell = {
  Start: 0,
  Unquoted: 1,
  Quoted: 2,
  /** A quote in a quoted cell: its end, or the first of a doubled quote. */
  AfterQuote: 3,
} as const;

/** A record the parser is not handed: its first line and why; `text`: that line, when a broken quote is the reason. */
interface RecordProblem {
  readonly line: number;
  readonly problem: string;
  readonly text?: string;
}

/**
 * A quoted cell's line break continues its record; a quote that is never closed, or closed amid
 * a cell on a later line, would take the lines after it into one record: that record's first line
 * alone is the broken one, and the lines after it are read again as records of their own — when
 * found within MAX_BODY_BYTES of its start (past it, the record is an over-long one).
 */
const BROKEN_QUOTE = "a quote opened on this line is not closed where a cell ends; the line is not read";

/**
 * Splits CSV bytes into records for the parser: each handed on whole, except a record longer
 * than `maxBytes` — replaced by its line breaks, so the parser's line numbers stay the input's,
 * and reported by its first line — and a broken quote's line (above), replaced by a line break.
 */
function recordSplitter(maxBytes: number, report: (problem: RecordProblem) => void) {
  // `buffer` holds the current record from `start` on (earlier records were handed on);
  // `index` is the next byte to read.
  let buffer: Buffer = Buffer.alloc(0);
  let start = 0;
  let index = 0;
  let cell: (typeof Cell)[keyof typeof Cell] = Cell.Start;
  let line = 1;
  let breaks = 0;
  /** The record's first line break, from its start (-1: none yet). */
  let firstBreak = -1;
  let skipping = false;
  let out: Uint8Array[] = [];

  const nextRecord = (end: number) => {
    line += breaks + 1;
    breaks = 0;
    firstBreak = -1;
    cell = Cell.Start;
    skipping = false;
    start = end;
  };
  const endRecord = (at: number) => {
    if (skipping) out.push(Buffer.alloc(breaks + 1, NEWLINE));
    else if (at + 1 - start > maxBytes) {
      report({ line, problem: `the row exceeds ${maxBytes} bytes (MAX_BODY_BYTES)` });
      out.push(Buffer.alloc(breaks + 1, NEWLINE));
    } else out.push(buffer.subarray(start, at + 1));
    nextRecord(at + 1);
  };
  /** The record's first line is broken: reported, and the bytes after it read again. */
  const brokenFirstLine = (end: number) => {
    const text = buffer
      .subarray(start, end)
      .toString("utf8")
      .replace(/\r?\n$/, "");
    report({ line, problem: BROKEN_QUOTE, text });
    out.push(Buffer.from([NEWLINE]));
    breaks = 0;
    nextRecord(end);
    index = end;
  };
  const step = (byte: number) => {
    switch (cell) {
      case Cell.Start:
        if (byte === QUOTE) cell = Cell.Quoted;
        else if (byte === NEWLINE) endRecord(index);
        else if (byte !== COMMA && byte !== CARRIAGE_RETURN) cell = Cell.Unquoted;
        break;
      case Cell.Unquoted:
        if (byte === COMMA) cell = Cell.Start;
        else if (byte === NEWLINE) endRecord(index);
        break;
      case Cell.Quoted:
        if (byte === QUOTE) cell = Cell.AfterQuote;
        else if (byte === NEWLINE) {
          if (firstBreak < 0) firstBreak = index - start;
          breaks += 1;
        }
        break;
      case Cell.AfterQuote:
        if (byte === QUOTE) cell = Cell.Quoted;
        else if (byte === COMMA) cell = Cell.Start;
        else if (byte === NEWLINE) endRecord(index);
        else if (byte !== CARRIAGE_RETURN) {
          // Closed amid a cell: on its own line, text (relax_quotes); after line breaks, broken.
          if (breaks > 0) return brokenFirstLine(start + firstBreak + 1);
          cell = Cell.Unquoted;
        }
        break;
    }
    index += 1;
  };
  const scan = () => {
    while (index < buffer.length) {
      if (!skipping && index + 1 - start > maxBytes) {
        // Past the bound: what was kept of the record is dropped, and the rest of it as it comes
        // (a quoted cell's line breaks too, as an over-long cell's: one error).
        skipping = true;
        report({ line, problem: `the row exceeds ${maxBytes} bytes (MAX_BODY_BYTES)` });
      }
      const byte = buffer[index];
      // Most bytes change nothing but an unquoted cell's start: read without the step's tests.
      if (byte > QUOTE && byte !== COMMA && cell !== Cell.AfterQuote) {
        if (cell === Cell.Start) cell = Cell.Unquoted;
        index += 1;
        continue;
      }
      step(byte);
    }
  };
  const taken = () => {
    const pieces = out;
    out = [];
    return pieces;
  };
  return {
    push(chunk: Uint8Array): Uint8Array[] {
      const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      const first = line === 1 && buffer.length === 0 && index === 0;
      // A copy of the record's start: the chunk's buffer may be reused once the parser moves on.
      buffer = start < buffer.length ? Buffer.concat([buffer.subarray(start), bytes]) : bytes;
      index -= start;
      start = 0;
      if (first && buffer.subarray(0, 3).equals(BOM)) index = 3;
      scan();
      if (start < buffer.length) {
        buffer = Buffer.from(buffer.subarray(skipping ? buffer.length : start));
        index -= skipping ? index : start;
        start = 0;
      }
      return taken();
    },
    end(): Uint8Array[] {
      while (start < buffer.length && !skipping) {
        if (cell !== Cell.Quoted) {
          out.push(buffer.subarray(start));
          break;
        }
        // An unclosed quote at the end of the input.
        brokenFirstLine(breaks > 0 ? start + firstBreak + 1 : buffer.length);
        scan();
      }
      return taken();
    },
  };
}

/** The CSV's records (recordSplitter), a chunk's at a time. */
async function* csvRecords(
  chunks: AsyncIterable<Uint8Array | string>,
  maxBytes: number,
  report: (problem: RecordProblem) => void,
): AsyncGenerator<Uint8Array> {
  const splitter = recordSplitter(maxBytes, report);
  for await (const chunk of chunks) {
    for (const piece of splitter.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk)) {
      if (piece.length > 0) yield piece;
    }
  }
  for (const piece of splitter.end()) if (piece.length > 0) yield piece;
}

/**
 * CSV with a header row (column names: src/cli/inventory.ts). A row that cannot be read (a
 * broken quote, more cells than the header) is reported and skipped; a row with fewer cells has
 * the missing ones empty.
 */
export async function* csvItems(
  bytes: AsyncIterable<Uint8Array | string>,
  maxRecordBytes: number,
): AsyncGenerator<SourceItem> {
  const pending: RecordProblem[] = [];
  const parser = parse({
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
  const input = Readable.from(csvRecords(bytes, maxRecordBytes, (problem) => pending.push(problem)));
  input.on("error", (error) => parser.destroy(error));
  input.pipe(parser);
  let names: string[] | undefined;
  let width = 0;
  const problems = function* (before: number): Generator<SourceItem> {
    // The parser's problems and the records' arrive in two orders: merged by line.
    pending.sort((a, b) => a.line - b.line);
    while (pending.length > 0 && pending[0].line < before) {
      const { line, problem, text } = pending.shift() as RecordProblem;
      yield { number: line, cells: brokenLineCells(text, width), problem };
    }
  };
  for await (const { record, info } of parser as AsyncIterable<{
    record: string[];
    info: { lines: number };
  }>) {
    if (names === undefined) {
      names = record.map(columnName);
      width = record.length;
      yield { header: record.map((cell) => cell.trim()) };
      yield* problems(info.lines);
      continue;
    }
    yield* problems(info.lines);
    const cells = record.length >= width ? record : [...record, ...new Array(width - record.length).fill("")];
    if (record.length > width) {
      yield {
        number: info.lines,
        cells: cells.slice(0, width),
        problem: `${record.length} cells where the header has ${width}`,
      };
      continue;
    }
    const row: Record<string, string> = {};
    for (const [index, name] of (names as string[]).entries()) row[name] ??= cells[index];
    const converted = rowLine(row as InventoryRow);
    yield "line" in converted
      ? { number: info.lines, cells, line: converted.line }
      : { number: info.lines, cells, problem: converted.problem };
  }
  if (names === undefined) yield { header: [] };
  yield* problems(Number.POSITIVE_INFINITY);
}

/** A broken line's cells as written, split at its commas (a failed row keeps its cells); none known: empty. */
function brokenLineCells(text: string | undefined, width: number): string[] {
  const cells = text?.split(",").slice(0, width) ?? [];
  return [...cells, ...new Array<string>(width - cells.length).fill("")];
}

function lineOf(error: CsvError): number {
  return typeof error.lines === "number" ? error.lines : 0;
}
