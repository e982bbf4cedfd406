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
const QUOTE = 0x22;

/**
 * The CSV's bytes with every record longer than `maxBytes` left out — replaced by its line
 * breaks, so the parser's line numbers stay the input's — and reported by its first line. A
 * line break ends a record where the quotes before it are balanced (RFC 4180: a quoted field's
 * quotes come in pairs), so an over-long field costs one error and the next rows are read.
 */
async function* boundedRecords(
  chunks: AsyncIterable<Uint8Array | string>,
  maxBytes: number,
  tooLong: (line: number) => void,
): AsyncGenerator<Uint8Array> {
  let line = 1;
  let quoted = false;
  // The record being read: its first line, its bytes kept from earlier chunks, its line breaks.
  let recordLine = 1;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let breaks = 0;
  let skipping = false;
  for await (const chunk of chunks) {
    const bytes =
      typeof chunk === "string"
        ? Buffer.from(chunk)
        : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const out: Uint8Array[] = [];
    // Whole records of this chunk not yet handed on start at `run`; the current one at `start`.
    let run = 0;
    let start = 0;
    for (let index = 0; index < bytes.length; index++) {
      const byte = bytes[index];
      if (byte === QUOTE) quoted = !quoted;
      if (byte !== NEWLINE) continue;
      line += 1;
      breaks += 1;
      if (quoted) continue;
      const size = pendingBytes + index + 1 - start;
      if (skipping || size > maxBytes) {
        if (!skipping) tooLong(recordLine);
        // The parser is handed the record's line breaks alone: blank lines, skipped.
        out.push(bytes.subarray(run, start), Buffer.alloc(breaks, NEWLINE));
        run = index + 1;
      } else if (pending.length > 0) {
        out.push(...pending, bytes.subarray(start, index + 1));
        run = index + 1;
      }
      pending = [];
      pendingBytes = 0;
      skipping = false;
      breaks = 0;
      start = index + 1;
      recordLine = line;
    }
    out.push(bytes.subarray(run, start));
    if (!skipping && pendingBytes + bytes.length - start > maxBytes) {
      // Past the bound: what was kept of the record is dropped, and the rest of it as it comes.
      skipping = true;
      tooLong(recordLine);
      pending = [];
      pendingBytes = 0;
    } else if (!skipping && start < bytes.length) {
      // A copy: the chunk's buffer may be reused once this generator moves on.
      pending.push(Buffer.from(bytes.subarray(start)));
      pendingBytes += bytes.length - start;
    }
    for (const piece of out) if (piece.length > 0) yield piece;
  }
  if (pending.length > 0) yield Buffer.concat(pending);
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
  const pending: { number: number; problem: string }[] = [];
  const parser = parse({
    bom: true,
    info: true,
    skip_empty_lines: true,
    relax_column_count: true,
    skip_records_with_error: true,
    // Records are bounded before the parser (boundedRecords); this only guards the parser itself.
    max_record_size: maxRecordBytes + 1,
    on_skip: (error) => {
      if (error) pending.push({ number: lineOf(error), problem: error.message });
      return undefined;
    },
  });
  const input = Readable.from(
    boundedRecords(bytes, maxRecordBytes, (number) =>
      pending.push({ number, problem: `the row exceeds ${maxRecordBytes} bytes (MAX_BODY_BYTES)` }),
    ),
  );
  input.on("error", (error) => parser.destroy(error));
  input.pipe(parser);
  let names: string[] | undefined;
  let width = 0;
  const problems = function* (before: number): Generator<SourceItem> {
    // The parser's problems and the over-long records' arrive in two orders: merged by line.
    pending.sort((a, b) => a.number - b.number);
    while (pending.length > 0 && pending[0].number < before) {
      const { number, problem } = pending.shift() as { number: number; problem: string };
      yield { number, cells: new Array(width).fill(""), problem };
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
    // A row of empty cells (`,,,`, what a spreadsheet leaves of a cleared row) is a blank line.
    if (record.every((cell) => cell.trim() === "")) continue;
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

function lineOf(error: CsvError): number {
  return typeof error.lines === "number" ? error.lines : 0;
}
