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
import type { BillReportModel } from "../output/billReport.js";
import type { GroupCube, ReportCriterion } from "../output/reportParts/model.js";
import { BILLING_FORMATS } from "./formats/registry.js";
import { REPORT_SUMS } from "./report/bounds.js";
import { cubeColumns, cubeExtra, cubeWithin, groupCube } from "./report/groups.js";
import { createReportLines, firstCell, sourceOf, type WrittenLines } from "./report/lines.js";
import { overTime } from "./report/overTime.js";
import { ranked } from "./report/rankings.js";

export { ranked } from "./report/rankings.js";

/** The report's tables as the page model has them (src/output/billReport.ts), read from the lines. */
export interface BillReportData
  extends Pick<
    BillReportModel,
    "byMethod" | "byService" | "byRegion" | "byAccount" | "resources" | "overTime"
  > {
  readonly criteria: readonly ReportCriterion[];
  /** The sums by the columns a reader may group by once the page is open. */
  readonly groups: GroupCube;
  /** The bill's currency (`USD`), several joined (`EUR, USD`), or null when the export has none. */
  readonly currency: string | null;
}

/** Currencies listed before the rest are counted: a bill has one, a merged export a few. */
const LISTED_CURRENCIES = 3;

async function currencyOf(connection: DuckDBConnection, written: WrittenLines): Promise<string | null> {
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
  written: WrittenLines,
): Promise<BillReportData> {
  const { columns, left } = await cubeColumns(connection, written);
  try {
    const bounds = await createReportLines(
      connection,
      written,
      cubeExtra(columns),
      cubeWithin(columns.length),
    );
    const criteria = written.criteria.length;
    return {
      criteria: written.criteria,
      byMethod: await ranked(connection, "method", criteria),
      byService: await ranked(connection, "service", criteria),
      byRegion: await ranked(connection, "region", criteria),
      byAccount: await ranked(connection, "account", criteria),
      resources: await ranked(connection, "resource", criteria),
      overTime: await overTime(connection, criteria, bounds),
      groups: await groupCube(connection, columns, criteria, left, bounds.cube),
      currency: await currencyOf(connection, written),
    };
  } finally {
    await connection.run(`DROP TABLE IF EXISTS ${REPORT_SUMS}`);
  }
}

/** The report's data, read back from the written lines by every criterion the run wrote. */
export async function writtenReportData(
  connection: DuckDBConnection,
  lines: Omit<WrittenLines, "criteria">,
  criteria: readonly ReportCriterion[],
): Promise<BillReportData> {
  return billReportData(connection, { ...lines, criteria });
}
