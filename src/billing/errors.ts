/*
 * How a billing run fails, apart from its engine: the command line tells them apart (exit codes)
 * without loading DuckDB.
 */

import { InputFileError } from "../duckdb/errors.js";

export { FileReadError } from "../duckdb/readErrors.js";

/** The export or the request cannot be read as asked (the command's usage): nothing was written. */
export class BillingInputError extends InputFileError {}

/** --strict and a bad row: nothing was written. */
export class BillingStrictStop extends Error {}
