/*
 * How a billing run fails, apart from its engine: the command line tells them apart (exit codes)
 * without loading DuckDB.
 */

export { BillingReadError } from "./readErrors.js";

/** The export or the request cannot be read as asked (the command's usage): nothing was written. */
export class BillingInputError extends Error {}

/** --strict and a bad row: nothing was written. */
export class BillingStrictStop extends Error {}
