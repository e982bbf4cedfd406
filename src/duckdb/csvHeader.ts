/*
 * A CSV export's header, read from the file's start (gunzipped when it is gzip): what recognises
 * its format and names its columns to DuckDB, which then reads the file without guessing its
 * dialect (a guess over a sample fails without a line number on a file cut short).
 */

import { closeSync, openSync, readSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { parse } from "csv-parse/sync";
import { contentOf } from "../support/fileSignature.js";
import { RecordEnds, wholeRecords } from "../support/recordEnds.js";

/** Bytes of a file's start read to find its header (a header longer than this is not a billing export's). */
export const HEADER_BYTES = 1 << 20;

/** Count of records a text ends (line ends outside quotes: src/support/recordEnds.ts), up to `most`. */
function recordEnds(text: Buffer, most: number): number {
  const scanner = new RecordEnds();
  let count = 0;
  for (let from = 0; count < most; count += 1) {
    const { end } = scanner.next(text, from);
    if (end < 0) break;
    from = end + 1;
  }
  return count;
}

/**
 * The first `HEADER_BYTES` of a gzip stream at most, from its compressed start. A kilobyte of gzip
 * may stand for a megabyte of text (a header that never ends: 1.5 MB of gzip took 2.2 GB whole), so
 * the compressed start grows fourfold until the text holds `lines` records or its bound.
 */
function gunzippedStart(compressed: Buffer, lines: number): Buffer | null {
  for (let size = 1 << 10; ; size *= 4) {
    const part = compressed.subarray(0, size);
    let text: Buffer;
    try {
      text = gunzipSync(part, { finishFlush: 2, maxOutputLength: 4 * HEADER_BYTES });
    } catch {
      return null;
    }
    if (recordEnds(text, lines) >= lines || text.length >= HEADER_BYTES || part.length === compressed.length)
      return text.subarray(0, HEADER_BYTES);
  }
}

/**
 * A file's first HEADER_BYTES as text (gunzipped when it is gzip: until it holds `lines`
 * records), its byte-order mark left out; null when it is gzip that cannot be read.
 */
export function fileStart(file: string, lines = 1): FileStart | null {
  const descriptor = openSync(file, "r");
  let bytes: Buffer | null;
  try {
    const buffer = Buffer.alloc(HEADER_BYTES);
    bytes = buffer.subarray(0, readSync(descriptor, buffer, 0, HEADER_BYTES, 0));
  } finally {
    closeSync(descriptor);
  }
  // gzip by its mark, whatever the file's name (a download may lose its .gz, or keep it unzipped)
  const gzip = contentOf(bytes.subarray(0, 2)) === "gzip";
  if (gzip) bytes = gunzippedStart(bytes, lines);
  return bytes === null ? null : { text: bytes.toString("utf8").replace(/^\uFEFF/, ""), gzip };
}

/** A file's start as text, and whether the file is gzip (its text then inflated). */
export interface FileStart {
  readonly text: string;
  readonly gzip: boolean;
}

/**
 * A CSV file's header (gzipped or not) and the lines it spans (a cell may hold a line break,
 * quoted), or null when it has no complete first record.
 */
export function csvHeader(file: string): { readonly cells: string[]; readonly lines: number } | null {
  const text = fileStart(file)?.text ?? null;
  if (text === null) return null;
  const [record] = wholeRecords(text, "\n", 1);
  if (record === undefined) return null;
  try {
    const [header] = parse(record.text, { relax_quotes: true }) as string[][];
    return header === undefined ? null : { cells: header, lines: record.lines };
  } catch {
    return null;
  }
}
