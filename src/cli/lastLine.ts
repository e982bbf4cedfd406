import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { createGunzip } from "node:zlib";
import type { CsvLayout, LineEnd } from "../billing/reading/layout.js";
import type { BillingSummary } from "../billing/stages/summarise.js";
import { FileReadError, gzipCutShort } from "../duckdb/readErrors.js";

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
  try {
    for await (const chunk of createReadStream(file).pipe(createGunzip()) as AsyncIterable<Buffer>) {
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

/** Each part's overlong last line, the part named where there are several (src/billing/reading/parts.ts). */
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

/** The bad row of a last line too long to be read. */
export function overlongProblem(overlong: OverlongLine): string {
  const line = overlong.line === null ? "the last line" : `line ${overlong.line}, the last`;
  const where = overlong.part === undefined ? line : `${overlong.part}: ${line} of its part`;
  return `bad row: ${where}, is longer than ${MAX_BILLING_LINE_BYTES} bytes; not read`;
}

/** The summary with the last lines too long to be read (a part's each) counted among its bad rows. */
export function withOverlongLines(
  summary: BillingSummary,
  overlong: readonly OverlongLine[],
): BillingSummary {
  if (overlong.length === 0) return summary;
  const dropped = overlong.map((line) => ({
    provider: null,
    instanceType: null,
    place: null,
    problem: overlongProblem(line),
    lines: 1,
    hours: 0,
    method: null,
    methodKey: null,
    methodQuantity: 0,
    service: null,
    cost: 0,
    placeWarning: null,
  }));
  return { ...summary, groups: [...summary.groups, ...dropped] };
}
