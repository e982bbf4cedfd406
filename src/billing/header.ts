/*
 * A CSV export's header, read from the file's start (gunzipped when it is gzip): what recognises
 * its format and names its columns to DuckDB, which then reads the file without guessing its
 * dialect (a guess over a sample fails without a line number on a file cut short).
 */

import { closeSync, openSync, readSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { parse } from "csv-parse/sync";

/** Bytes of a file's start read to find its header (a header longer than this is not a billing export's). */
const HEADER_BYTES = 1 << 20;

/** A CSV file's header (gzipped or not), or null when it has no complete first line. */
export function csvHeader(file: string): string[] | null {
  const descriptor = openSync(file, "r");
  let bytes: Buffer;
  try {
    const buffer = Buffer.alloc(HEADER_BYTES);
    bytes = buffer.subarray(0, readSync(descriptor, buffer, 0, HEADER_BYTES, 0));
  } finally {
    closeSync(descriptor);
  }
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = gunzipSync(bytes, { finishFlush: 2 });
    } catch {
      return null;
    }
  }
  const text = bytes.toString("utf8").replace(/^\uFEFF/, "");
  const end = text.indexOf("\n");
  if (end < 0) return null;
  try {
    const [header] = parse(text.slice(0, end), { relax_quotes: true }) as string[][];
    return header ?? null;
  } catch {
    return null;
  }
}
