/*
 * The small tables from an export's kinds of lines (`impact-service tables --keys keys.csv
 * --tables DIR`): the keys script (script.ts) groups the export's lines into kinds on the engine
 * that holds it, and only that small result comes here. From it the same steps as `evaluate
 * <export> --tables` build and write the same files (src/billing/stages/lookUp.ts, write.ts): the places, the
 * instance types matched, the coefficient rows of the methods at the places billed, their
 * energy, and with a grid series its tables.
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import type { CloudRegion } from "../../data/types.js";
import { openDatabase } from "../../duckdb/database.js";
import { fileRead, readingConnection } from "../../duckdb/readErrors.js";
import { fileLiteral, identifier } from "../../duckdb/sqlText.js";
import type { GridFiles } from "../../grid/billLines.js";
import type { EditionContext } from "../../service/open.js";
import { billingTerms } from "../bill.js";
import { BillingInputError } from "../errors.js";
import {
  addBilledUnits,
  createRegistryTables,
  LINE_KIND_COLUMNS,
  LINE_KIND_NUMBERS,
} from "../stages/classify.js";
import { lookUpKinds } from "../stages/lookUp.js";
import { runThreads } from "../stages/read.js";
import { writePortableTables } from "../stages/write.js";

export interface KeysRequest {
  /** The keys script's result: Parquet, or CSV (an empty cell NULL, `""` an empty text). */
  readonly keys: string;
  /** The folder the tables are written to (created if absent). */
  readonly folder: string;
  /** The small tables as Parquet rather than CSV. */
  readonly parquet: boolean;
  readonly criteria: readonly string[] | null;
  readonly load: number | null;
  readonly grid: GridFiles | null;
}

/** The columns of keys.csv, in the keys script's order. */
export const KEY_COLUMNS = [
  ...LINE_KIND_COLUMNS,
  "billing_quantity",
  "billing_line_count",
  "billing_cost",
  "billing_paid_cost",
];

/** The table billing_line_kinds from the keys file: its texts as they are, its numbers as doubles. */
async function loadKinds(connection: DuckDBConnection, file: string): Promise<void> {
  const source = file.toLowerCase().endsWith(".parquet")
    ? `read_parquet(${fileLiteral(file)})`
    : `read_csv(${fileLiteral(file)}, header = true, all_varchar = true, allow_quoted_nulls = false)`;
  const described = await connection.runAndReadAll(`DESCRIBE SELECT * FROM ${source}`);
  const columns = new Set(described.getRowObjects().map((row) => String(row.column_name).toLowerCase()));
  const missing = KEY_COLUMNS.filter((column) => !columns.has(column));
  if (missing.length > 0) {
    throw new BillingInputError(`${file}: not the keys script's result; it lacks ${missing.join(", ")}`);
  }
  const read = (column: string) => {
    if (LINE_KIND_NUMBERS.has(column))
      return `CAST(${identifier(column)} AS DOUBLE) AS ${identifier(column)}`;
    const text = `CAST(${identifier(column)} AS VARCHAR)`;
    // A line without a region has the key '' (an engine may write it as an empty cell).
    return `${column === "billing_region_key" ? `COALESCE(${text}, '')` : text} AS ${identifier(column)}`;
  };
  await connection.run(
    `CREATE TABLE billing_line_kinds AS SELECT ${KEY_COLUMNS.map(read).join(", ")} FROM ${source}`,
  );
}

/** Writes the small tables of an export's kinds of lines to the folder, as `evaluate --tables` does. */
export async function writeTablesFromKeys(
  context: EditionContext,
  knownRegions: readonly CloudRegion[],
  request: KeysRequest,
): Promise<void> {
  // Every impact column, min and max included: the tables do not depend on them.
  const terms = billingTerms(context, knownRegions, { ...request, ranges: true });
  // A small keys file's run on one thread, as a small bill's (runThreads)
  const reading = fileRead(request.keys);
  const db = await openDatabase(runThreads(reading));
  try {
    // The keys file is the run's file: its read failures are worded of it.
    const connection = readingConnection(db.connection, reading);
    await loadKinds(connection, request.keys);
    // The registry, with the units the kinds spell (the first pass of `evaluate` adds them so)
    await createRegistryTables(connection);
    await addBilledUnits(connection, "billing_line_kinds");
    const { grid } = await lookUpKinds({ connection, terms, grid: request.grid }, "places");
    await writePortableTables(connection, request.folder, grid !== null, context, request.parquet);
  } finally {
    db.close();
  }
}
