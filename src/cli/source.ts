import { Readable } from "node:stream";
import { type CsvError, parse } from "csv-parse";
import { ndjsonLines } from "../batch/index.js";
import { csvRecords, type RecordProblem } from "./csvRecords.js";
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
    const item = rowItem(names, width, info.lines, record);
    if (item !== null) yield item;
  }
  if (names === undefined) yield { header: [] };
  yield* problems(Number.POSITIVE_INFINITY);
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
  const converted = rowLine(row as InventoryRow);
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
