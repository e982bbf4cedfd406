/*
 * A file (a billing export, a grid series) DuckDB cannot read to its end, said in one line: where (its line) and why (cut
 * short, not UTF-8, a malformed line), and that nothing was written. A billing run sends its
 * statements through one connection that words its files' failures so (readingConnection), once,
 * not around each stage's statements.
 */

import { createReadStream } from "node:fs";
import { createGunzip } from "node:zlib";
import type { DuckDBConnection } from "@duckdb/node-api";
import { fileContent } from "../support/fileStart.js";
import { FileReadError, InputFileError, outOfMemoryLine } from "./errors.js";

export { FileReadError };

/**
 * What a reading reads: the file (or a bill's parts, all of one compression), and whether it is
 * gzip — what the caller knows of it (a bill's layout), else its first bytes (fileRead).
 */
export interface FilesRead {
  readonly files: string | readonly string[];
  readonly gzip: boolean;
}

/** A file's reading, its compression told by its first bytes. */
export function fileRead(file: string): FilesRead {
  return { files: file, gzip: isGzipFile(file) };
}

/**
 * Runs a reading of the file (or of a bill's parts), DuckDB's failure said in one line (a
 * FileReadError naming the file, or the part it failed in). `said`: the errors the run throws
 * already worded for the user, passed on as they are.
 */
export async function readFailing<T>(
  run: () => Promise<T>,
  read: FilesRead,
  said: (error: unknown) => boolean = () => false,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (said(error)) throw error;
    const { message } = error as Error;
    const file = await failingPart(read, message);
    throw new FileReadError(await readFailure(file, read.gzip, message));
  }
}

/**
 * DuckDB's line naming the file a reader failed in (`  file = report-00002.csv`), among its
 * options after the line it quotes: the last such line is DuckDB's (a quoted cell may hold one).
 */
export const FAILED_FILE = /^ {2}file = (.*)$/gm;

/**
 * The part a reading of several failed in: the one DuckDB's message names, else the first gzip
 * part cut short (its stream's end is told apart from a malformed line by reading it), else the
 * first part, which the message is then said of.
 */
async function failingPart({ files, gzip }: FilesRead, message: string): Promise<string> {
  if (typeof files === "string") return files;
  // DuckDB names the file as it was given, its glob characters bracketed (fileLiteral).
  const named = [...message.matchAll(FAILED_FILE)].at(-1)?.[1];
  const part = files.find((file) => file === named || file === named?.replace(/\[([[*?])\]/g, "$1"));
  if (part !== undefined || files.length === 1) return part ?? files[0];
  if (!gzip) return files[0];
  for (const file of files) if ((await gzipCutAfter(file)) !== null) return file;
  return files[0];
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
async function readFailure(file: string, gzip: boolean, message: string): Promise<string> {
  if (gzip) {
    const cutAfter = await gzipCutAfter(file);
    if (cutAfter !== null) return gzipCutShort(file, cutAfter);
  }
  const line = /Line: (\d+)/.exec(message)?.[1];
  // DuckDB's longest line (its max_line_size, 2,000,000 bytes in 1.5), as its message says it.
  const longest = /Maximum line size of (\d+) bytes exceeded/.exec(message)?.[1];
  const reason = /Invalid unicode/i.test(message)
    ? "not UTF-8"
    : longest !== undefined
      ? `longer than ${Number(longest).toLocaleString("en-US")} bytes, the longest line read`
      : /unterminated quote|Expected Number of Columns|columns/i.test(message)
        ? "a malformed line (is the file cut short?)"
        : (message.split("\n")[0] ?? message).slice(0, 300);
  return `${file}: ${line === undefined ? "" : `line ${line}: `}${reason}; nothing written`;
}

/** The connection's methods that send a statement: each may read the run's files. */
const STATEMENTS: ReadonlySet<PropertyKey> = new Set([
  "run",
  "runAndReadAll",
  "runAndReadUntil",
  "stream",
  "streamAndReadAll",
  "streamAndReadUntil",
]);

/**
 * A run's connection whose statements word DuckDB's failure to read the run's files in one line
 * (readFailing), so that no stage wraps its statements: the stages and the helpers below them take
 * DuckDB's own connection, and this is that connection. A failure already worded (a grid series'
 * or a zone table's, a file of the run's said by a reading inside) passes as it is, and so does
 * one DuckDB says of a file that is not the run's (a series read on the same connection, which its
 * own reading words).
 */
export function readingConnection(connection: DuckDBConnection, read: FilesRead): DuckDBConnection {
  const runFiles = new Set(typeof read.files === "string" ? [read.files] : read.files);
  const said = (error: unknown) => {
    if (error instanceof FileReadError || error instanceof InputFileError) return true;
    // The engine's memory bound is the command's to word, wherever the run was.
    if (outOfMemoryLine(error) !== null) return true;
    const named = [...String((error as Error).message).matchAll(FAILED_FILE)].at(-1)?.[1];
    return named !== undefined && !runFiles.has(named) && !runFiles.has(named.replace(/\[([[*?])\]/g, "$1"));
  };
  return new Proxy(connection, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== "function") return value;
      if (!STATEMENTS.has(key)) return value.bind(target);
      return (...args: unknown[]) => readFailing(() => value.apply(target, args), read, said);
    },
  });
}
