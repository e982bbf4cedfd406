/*
 * A billing export evaluated at any size, as a list of stages (src/billing/stages/), each taking
 * what the one before returned: DuckDB reads the file as it is (read: its format, header and
 * columns, once), the format's queries (sql/) sort its lines into kinds (classify), the kinds'
 * instance types and methods name the rows of a lookup table built from the coefficient table
 * (look up), each kind is evaluated through the same queries as its lines (evaluate), every line
 * is written with its impacts (write), and the run's summary is made (summarise) — no evaluation
 * per line. docs/architecture.md, "A billing run".
 */

import { openDatabase } from "../duckdb/database.js";
import type { GridFiles } from "./grid.js";
import { classifyLines } from "./stages/classify.js";
import { evaluateKinds } from "./stages/evaluate.js";
import { lookUpKinds } from "./stages/lookUp.js";
import { readExport } from "./stages/read.js";
import type { BillingRequest, BillingTerms } from "./stages/request.js";
import { type BillingSummary, summarise } from "./stages/summarise.js";
import { writeOutputs } from "./stages/write.js";

export { FileReadError } from "../duckdb/readErrors.js";
export { BillingInputError, BillingStrictStop } from "./errors.js";

/**
 * Evaluates a billing export on `terms` checked by the caller (billingTerms, where it resolves the
 * edition). `grid`: a grid intensity series (--grid-intensity, --grid-zones) for the lines' gwp
 * use, a request of its own: only the look-up stage reads it.
 */
export async function evaluateBillingExport(
  terms: BillingTerms,
  request: BillingRequest,
  grid: GridFiles | null = null,
): Promise<BillingSummary> {
  const db = await openDatabase();
  try {
    const { connection } = db;
    const read = await readExport(connection, request, terms.impactColumnNames);
    await classifyLines(connection, read);
    const lookedUp = await lookUpKinds(connection, terms, grid);
    const groups = await evaluateKinds(connection, read, lookedUp, terms, request.strict);
    const written = await writeOutputs(connection, request, read, groups, lookedUp, terms);
    return summarise(read, lookedUp, groups, written, terms);
  } finally {
    db.close();
  }
}
