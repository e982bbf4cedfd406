/*
 * How reading a grid series or a zone table fails: one line naming the file (and its line and
 * column where a value is wrong); the command line exits 2 on it, as for any bad input.
 */

import { InputFileError } from "../duckdb/errors.js";

export class GridInputError extends InputFileError {}
