/*
 * A file (a billing export, a grid series) DuckDB cannot read to its end, said in one line: where (its line) and why (cut
 * short, not UTF-8, a malformed line), and that nothing was written.
 */

import { createReadStream } from "node:fs";
import { createGunzip } from "node:zlib";
import { fileContent } from "../support/fileSignature.js";

/** The file is not readable to its end (cut short, not UTF-8, a malformed line): nothing was written. */
export class FileReadError extends Error {}

/**
 * Runs a reading of the file, DuckDB's failure said in one line (a FileReadError naming the file).
 * `said`: the errors the run throws already worded for the user, passed on as they are.
 */
export async function readFailing<T>(
  run: () => Promise<T>,
  file: string,
  said: (error: unknown) => boolean = () => false,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (said(error)) throw error;
    throw new FileReadError(await readFailure(file, (error as Error).message));
  }
}

/** The lines of a gzipped file before its stream ends early, or null when it is whole. */
async function gzipCutAfter(file: string): Promise<number | null> {
  let lines = 0;
  try {
    for await (const chunk of createReadStream(file).pipe(createGunzip())) {
      for (const byte of chunk as Buffer) if (byte === 10) lines += 1;
    }
    return null;
  } catch {
    return lines;
  }
}

/** Whether a file is gzip by its first bytes (a file that cannot be opened is not). */
function isGzipFile(file: string): boolean {
  try {
    return fileContent(file) === "gzip";
  } catch {
    return false;
  }
}

/** A gzip file whose stream ends before its end mark, said with the lines it holds. */
export function gzipCutShort(file: string, lines: number): string {
  return `${file}: the gzip file is cut short after line ${lines}; nothing written`;
}

/** What DuckDB's failure to read a file says, in a line: where (its line) and why. */
async function readFailure(file: string, message: string): Promise<string> {
  if (isGzipFile(file)) {
    const cutAfter = await gzipCutAfter(file);
    if (cutAfter !== null) return gzipCutShort(file, cutAfter);
  }
  const line = /Line: (\d+)/.exec(message)?.[1];
  const reason = /Invalid unicode/i.test(message)
    ? "not UTF-8"
    : /unterminated quote|Expected Number of Columns|columns/i.test(message)
      ? "a malformed line (is the file cut short?)"
      : (message.split("\n")[0] ?? message).slice(0, 300);
  return `${file}: ${line === undefined ? "" : `line ${line}: `}${reason}; nothing written`;
}
