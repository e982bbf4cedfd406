/*
 * The one connection a billing run's stages send DuckDB their statements through: DuckDB's failure
 * to read the run's files is worded there, once, not around each stage's statements.
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { InputFileError, outOfMemoryLine } from "./errors.js";
import { FAILED_FILE, FileReadError, type FilesRead, readFailing } from "./readErrors.js";

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
