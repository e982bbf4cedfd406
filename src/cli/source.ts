import { Readable } from "node:stream";
import { type CsvError, parse } from "csv-parse";
import { ndjsonLines } from "../batch/index.js";
import { columnName, type InventoryRow, rowLine } from "./inventory.js";

/*
 * The command line's input, item by item in input order: a batch line to evaluate, or a row
 * that cannot be one (reported with its line number, never a crash).
 */

export type SourceItem =
  | { readonly number: number; readonly line: string }
  | { readonly number: number; readonly problem: string };

export type InputFormat = "csv" | "ndjson";

/** Batch NDJSON: each line as the batch route reads it. */
export async function* ndjsonItems(
  bytes: AsyncIterable<Uint8Array>,
  maxLineBytes: number,
): AsyncGenerator<SourceItem> {
  for await (const line of ndjsonLines(bytes, maxLineBytes)) {
    yield "tooLarge" in line
      ? { number: line.number, problem: `the line exceeds ${maxLineBytes} bytes (MAX_BODY_BYTES)` }
      : { number: line.number, line: line.text };
  }
}

/**
 * CSV with a header row (column names: src/cli/inventory.ts). A row csv-parse cannot read (a
 * wrong number of cells, a broken quote, a record past `maxRecordBytes`) is reported and skipped.
 */
export async function* csvItems(
  bytes: AsyncIterable<Uint8Array>,
  maxRecordBytes: number,
): AsyncGenerator<SourceItem> {
  const skipped: SourceItem[] = [];
  const parser = parse({
    columns: (header: string[]) => header.map(columnName),
    bom: true,
    info: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    max_record_size: maxRecordBytes,
    on_skip: (error) => {
      if (error) skipped.push({ number: lineOf(error), problem: error.message });
      return undefined;
    },
  });
  const input = Readable.from(bytes);
  input.on("error", (error) => parser.destroy(error));
  input.pipe(parser);
  for await (const { record, info } of parser as AsyncIterable<{
    record: InventoryRow;
    info: { lines: number };
  }>) {
    yield* skipped.splice(0);
    const converted = rowLine(record);
    yield "line" in converted
      ? { number: info.lines, line: converted.line }
      : { number: info.lines, problem: converted.problem };
  }
  yield* skipped.splice(0);
}

function lineOf(error: CsvError): number {
  return typeof error.lines === "number" ? error.lines : 0;
}
