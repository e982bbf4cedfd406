/*
 * How reading a grid series or a zone table fails: one line naming the file (and its line and
 * column where a value is wrong); the command line exits 2 on it, as for any bad input. The line
 * quotes the input (a zone, a cell, the file's name): its control characters are written visibly,
 * never sent to the terminal.
 */

import { InputFileError } from "../duckdb/errors.js";
import { FileReadError, fileRead, readFailing } from "../duckdb/readErrors.js";
import { printable } from "../support/terminalText.js";

export class GridInputError extends InputFileError {
  constructor(message: string) {
    super(printable(message));
  }
}

/** The series does not read to its end (DuckDB's failure, in one line: where and why). */
export class SeriesReadError extends GridInputError {}

/** What reads the series file with DuckDB, its failure as a grid input error (one line: where and why). */
export async function seriesReading<T>(file: string, run: () => Promise<T>): Promise<T> {
  try {
    return await readFailing(run, fileRead(file));
  } catch (error) {
    if (error instanceof FileReadError)
      throw new SeriesReadError(error.message.replace(/; nothing written$/, ""));
    throw error;
  }
}
