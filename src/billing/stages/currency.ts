/*
 * The currency a bill's amounts are in, for the summary: the format's currency column (FOCUS
 * BillingCurrency, CUR line_item_currency_code, Azure BillingCurrency, Google currency, Oracle
 * cost/currencyCode: each format's `currency`, src/billing/formats.ts), read on the bill's first CURRENCY_LINES lines — a
 * bill is billed in one currency; a merged export's few are each named — so that the summary costs
 * no second pass over the file. Null when the export has no such column or leaves it empty.
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { identifier } from "../../duckdb/database.js";
import { filedColumns, headerColumn } from "../formats.js";
import type { ReadExport } from "./read.js";

/** Lines read for the currency: a bill's first lines name it (LIMIT stops DuckDB's reader there). */
export const CURRENCY_LINES = 100_000;

/** Currencies named before the rest are counted. */
const NAMED = 3;

/** The bill's currency (`USD`), several joined (`EUR, USD`), or null. */
export async function billCurrency(connection: DuckDBConnection, read: ReadExport): Promise<string | null> {
  const { format } = read.views;
  // Found by the file's spelling, read by the run's name (`billing_currency` as input_billing_currency)
  const { header, runName } = filedColumns(read.views.header, read.views.renamed);
  const found = format.currency.flatMap((name) => headerColumn(format, name, header) ?? []).map(runName);
  if (found.length === 0) return null;
  const cells = found.map((name) => `NULLIF(TRIM(CAST(${identifier(name)} AS VARCHAR)), '')`);
  const cell = cells.length === 1 ? cells[0] : `COALESCE(${cells.join(", ")})`;
  const reader = await connection.runAndReadAll(
    `SELECT DISTINCT currency FROM (SELECT ${cell} AS currency FROM billing_export LIMIT ${CURRENCY_LINES})
     WHERE currency IS NOT NULL ORDER BY 1 LIMIT ${NAMED + 1}`,
  );
  const names = reader.getRowObjects().map((row) => String(row.currency));
  if (names.length === 0) return null;
  return names.length > NAMED ? `${names.slice(0, NAMED).join(", ")}, …` : names.join(", ");
}
