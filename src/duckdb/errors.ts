/*
 * How reading a file through DuckDB fails, apart from the engine: the command line tells the two
 * apart (exit 2: the file cannot be read as asked; exit 1: it is unreadable to its end) without
 * loading DuckDB.
 */

/** The file is not readable to its end (cut short, not UTF-8, a malformed line): nothing was written. */
export class FileReadError extends Error {}

/** A file cannot be read as asked (its name, its header, the request): nothing was written. */
export class InputFileError extends Error {}

/**
 * The engine stopped at its memory bound (`Out of Memory Error: …`, wherever the run was), as one
 * line for the user; null for any other failure.
 */
export function outOfMemoryLine(error: unknown): string | null {
  const message = error instanceof Error ? error.message : "";
  return message.startsWith("Out of Memory Error") ? `${message.split("\n")[0]}; nothing written` : null;
}
