/*
 * A CSV export's header, read from the file's start (gunzipped when it is gzip): what recognises
 * its format and names its columns to DuckDB, which then reads the file without guessing its
 * dialect (a guess over a sample fails without a line number on a file cut short).
 */

import { closeSync, openSync, readSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { parse } from "csv-parse/sync";
import { contentOf } from "../support/fileSignature.js";

/** Bytes of a file's start read to find its header (a header longer than this is not a billing export's). */
export const HEADER_BYTES = 1 << 20;

/** Count of line ends in a text, up to `most`. */
function lineEnds(text: Buffer, most: number): number {
  let count = 0;
  for (let at = text.indexOf(10); at >= 0 && count < most; at = text.indexOf(10, at + 1)) count += 1;
  return count;
}

/**
 * The first `HEADER_BYTES` of a gzip stream at most, from its compressed start. A kilobyte of gzip
 * may stand for a megabyte of text (a header that never ends: 1.5 MB of gzip took 2.2 GB whole), so
 * the compressed start grows fourfold until the text holds `lines` line ends or its bound.
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
    if (lineEnds(text, lines) >= lines || text.length >= HEADER_BYTES || part.length === compressed.length)
      return text.subarray(0, HEADER_BYTES);
  }
}

/**
 * A file's first HEADER_BYTES as text (gunzipped when it is gzip: until it holds `lines` line
 * ends), its byte-order mark left out; null when it is gzip that cannot be read.
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

/** A CSV file's header (gzipped or not), or null when it has no complete first line. */
export function csvHeader(file: string): string[] | null {
  const text = fileStart(file)?.text ?? null;
  if (text === null) return null;
  const end = text.indexOf("\n");
  if (end < 0) return null;
  try {
    const [header] = parse(text.slice(0, end), { relax_quotes: true }) as string[][];
    return header ?? null;
  } catch {
    return null;
  }
}
