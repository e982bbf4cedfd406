/*
 * How reading a grid series or a zone table fails: one line naming the file (and its line and
 * column where a value is wrong); the command line exits 2 on it, as for any bad input. The line
 * quotes the input (a zone, a cell, the file's name): its control characters are written visibly,
 * never sent to the terminal.
 */

import { InputFileError } from "../duckdb/errors.js";
import { printable } from "../support/terminalText.js";

export class GridInputError extends InputFileError {
  constructor(message: string) {
    super(printable(message));
  }
}
