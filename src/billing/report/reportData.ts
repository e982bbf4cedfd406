/*
 * What the report of a billing run shows, read back from the lines it wrote (src/billing/report/):
 * every criterion the run computed and the energy of the evaluated lines, by method, service,
 * region, account and resource, over time, and by every combination of the columns a reader may
 * group by on the page; and the bill's currency. Every cost is the one the coverage reads
 * (billing_paid_cost), computed by the same query over the written lines, so that each table sums
 * to the coverage's estimated cost. A line is named by the export's name where it has one (FOCUS
 * ServiceName, a CUR's product name, a resource's `Name` tag), its id kept for the reader's hover.
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { SUMS_MEMORY_LIMIT } from "../../duckdb/database.js";
import { literal } from "../../duckdb/sqlText.js";
import type { BillReportData } from "../../output/billReport.js";
import type { ReportCriterion } from "../../output/reportParts/model.js";
import { BILLING_FORMATS } from "../formats/knownFormats.js";
import {
  type DescribedLines,
  firstCell,
  type ReportedLines,
  sourceOf,
  withReportLines,
} from "../stages/writtenLines.js";
import { type Ranked, REPORT_SUMS, summedLines } from "./bounds.js";
import { billFacts, createFactTypes, dropFactTypes, factColumns, factExtra } from "./facts.js";
import { overTime } from "./overTime.js";
import { rankings } from "./rankings.js";

export { ranked } from "./rankings.js";

/**
 * What DuckDB may hold while the report's data is read back (the write stage's SUMS_MEMORY_LIMIT otherwise):
 * monthly exports of a 100-column daily CUR 2.0 (30,000 lines each) with a report took 512, 550
 * and 699 MB peak RSS for 1, 3 and 6 months at 700 MB; 420, 521 and 538 MB at 300 MB (2 cores
 * shared, /usr/bin/time), where a run without a report takes 289 MB for 1 month and 332 for 6.
 */
const REPORT_MEMORY_LIMIT = "300MB";

/** The report's rankings, read in one query (rankings). */
const RANKED_BY: readonly Ranked[] = ["method", "service", "region", "account", "resource"];

/** Currencies listed before the rest are counted: a bill has one, a merged export a few. */
const LISTED_CURRENCIES = 3;

async function currencyOf(connection: DuckDBConnection, written: ReportedLines): Promise<string | null> {
  const column = firstCell(written, BILLING_FORMATS[written.input].currency, new Set());
  const reader = await connection.runAndReadAll(
    `SELECT DISTINCT ${column} AS currency FROM ${sourceOf(written)} WHERE ${column} IS NOT NULL ORDER BY 1 LIMIT ${LISTED_CURRENCIES + 1}`,
  );
  const names = reader.getRowObjects().map((row) => String(row.currency));
  if (names.length === 0) return null;
  return names.length > LISTED_CURRENCIES
    ? `${names.slice(0, LISTED_CURRENCIES).join(", ")}, …`
    : names.join(", ");
}

export async function billReportData(
  connection: DuckDBConnection,
  written: ReportedLines,
): Promise<BillReportData> {
  // The report's sums are held within a bound of their own, DuckDB spilling what passes it, then
  // the write stage's for the sums read back after it (src/billing/stages/write.ts)
  await connection.run(`SET memory_limit = '${REPORT_MEMORY_LIMIT}'`);
  const { columns, left } = await factColumns(connection, written);
  await createFactTypes(connection, columns);
  const criteria = written.criteria.length;
  try {
    return await withReportLines(connection, written, factExtra(columns), async (lines) => {
      const bounds = await summedLines(connection, lines, criteria);
      try {
        const ranking = await rankings(connection, RANKED_BY, criteria);
        return {
          criteria: written.criteria,
          byMethod: ranking.method,
          byService: ranking.service,
          byRegion: ranking.region,
          byAccount: ranking.account,
          resources: ranking.resource,
          overTime: await overTime(connection, criteria, bounds),
          groups: await billFacts(connection, lines, columns, criteria, bounds, left),
          currency: await currencyOf(connection, written),
        };
      } finally {
        await connection.run(`DROP TABLE IF EXISTS ${REPORT_SUMS}`);
      }
    });
  } finally {
    await dropFactTypes(connection, columns);
    await connection.run(`SET memory_limit = ${literal(SUMS_MEMORY_LIMIT)}`);
  }
}

/** The report's data, read back from the written lines by every criterion the run wrote. */
export async function writtenReportData(
  connection: DuckDBConnection,
  lines: DescribedLines,
  criteria: readonly ReportCriterion[],
): Promise<BillReportData> {
  return billReportData(connection, { ...lines, criteria });
}
