/*
 * What the report of a billing run shows, read back from the lines it wrote: the first
 * criterion's impacts (embedded and use) and the positive cost of the evaluated lines by method,
 * service, region and account, the largest resources, and the bill's currency. The columns are
 * the format's own (FOCUS ServiceName, RegionId, SubAccountName, ResourceName, BilledCost,
 * BillingCurrency; CUR and Azure alike): a name where the export has one, else the id.
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { identifier, literal } from "../duckdb/database.js";
import { impactColumn } from "../output/columns.js";
import { BILLING_FORMATS, type BillingFormatName, headerColumn } from "./formats.js";
import { spellingKey } from "./places.js";
import { NO_REGION_SPELLINGS } from "./registry/regions.js";

/**
 * The format's columns a dimension of the report reads: on each line, the first of them the file
 * has that is not empty (a name before its id, a sub-account before the billing account).
 */
const DIMENSIONS: Readonly<Record<BillingFormatName, Readonly<Record<Dimension, readonly string[]>>>> = {
  focus: {
    service: ["ServiceName"],
    region: ["RegionId"],
    account: ["SubAccountName", "SubAccountId", "BillingAccountName", "BillingAccountId"],
    resource: ["ResourceName", "ResourceId"],
    cost: ["BilledCost"],
    currency: ["BillingCurrency"],
  },
  cur: {
    service: ["line_item_product_code"],
    region: ["product_region_code", "product_region"],
    account: ["line_item_usage_account_name", "line_item_usage_account_id"],
    resource: ["line_item_resource_id"],
    cost: ["line_item_unblended_cost"],
    currency: ["line_item_currency_code"],
  },
  azure: {
    service: ["MeterCategory"],
    region: ["ResourceLocation"],
    account: ["SubscriptionName", "SubscriptionId"],
    resource: ["ResourceName", "ResourceId"],
    cost: ["CostInBillingCurrency"],
    currency: ["BillingCurrency", "BillingCurrencyCode"],
  },
  gcp: {
    service: ["service_description"],
    region: ["location_region", "location_location"],
    account: ["project_name", "project_id"],
    resource: ["resource_name"],
    cost: ["cost"],
    currency: ["currency"],
  },
  oci: {
    service: ["product_service"],
    region: ["product_region"],
    account: ["line_item_tenant_id"],
    resource: ["product_resource_id"],
    cost: ["cost_my_cost"],
    currency: ["cost_currency_code"],
  },
};
type Dimension = "service" | "region" | "account" | "resource" | "cost" | "currency";

/** The columns naming a format's currency, first found first (the summary's currency reads them too). */
export function currencyColumns(input: BillingFormatName): readonly string[] {
  return DIMENSIONS[input].currency;
}

/** Rows of each ranking kept. */
const RANKED = 12;

export interface RankedImpact {
  readonly name: string;
  readonly lines: number;
  readonly cost: number;
  readonly embedded: number;
  readonly use: number;
}

export interface BillReportData {
  readonly byMethod: readonly RankedImpact[];
  readonly byService: readonly RankedImpact[];
  readonly byRegion: readonly RankedImpact[];
  readonly byAccount: readonly RankedImpact[];
  readonly resources: readonly RankedImpact[];
  /** The bill's currency (`USD`), several joined (`EUR, USD`), or null when the export has none. */
  readonly currency: string | null;
}

interface Written {
  readonly file: string;
  readonly format: "csv" | "parquet";
  readonly header: readonly string[];
  readonly input: BillingFormatName;
  /** The first criterion's value columns, embedded then use. */
  readonly embeddedColumn: string;
  readonly useColumn: string;
}

/**
 * A region cell as the run reads it: a spelling of no region (the registry's: the FinOps
 * Foundation's sample writes `NULL`) is none, as the line was placed at the default place, keyed as
 * sql/classify/billing_classified.sql keys a line's region.
 */
function regionCell(cell: string): string {
  const key = `LOWER(REPLACE(REPLACE(REPLACE(${cell}, ' ', ''), '-', ''), '_', ''))`;
  const none = [...new Set(NO_REGION_SPELLINGS.map(spellingKey))].map(literal).join(", ");
  return `CASE WHEN ${key} IN (${none}) THEN NULL ELSE ${cell} END`;
}

function columnOf(written: Written, dimension: Dimension): string {
  // The file's spelling of the format's column (CUR 1.0's lineItem/ProductCode, Azure's PreTaxCost)
  const format = BILLING_FORMATS[written.input];
  const found = DIMENSIONS[written.input][dimension]
    .map((name) => headerColumn(format, name, written.header))
    .filter((name) => name !== null);
  if (found.length === 0) return "CAST(NULL AS VARCHAR)";
  const cells = found
    .map((name) => `NULLIF(TRIM(CAST(${identifier(name)} AS VARCHAR)), '')`)
    .map((cell) => (dimension === "region" ? regionCell(cell) : cell));
  return cells.length === 1 ? cells[0] : `COALESCE(${cells.join(", ")})`;
}

/** The source of the written lines, as DuckDB reads them. */
const sourceOf = (written: Written) =>
  written.format === "parquet"
    ? `read_parquet(${literal(written.file)})`
    : `read_csv(${literal(written.file)}, header = true, all_varchar = true)`;

/** Currencies listed before the rest are counted: a bill has one, a merged export a few. */
const LISTED_CURRENCIES = 3;

async function currencyOf(connection: DuckDBConnection, written: Written): Promise<string | null> {
  const column = columnOf(written, "currency");
  const reader = await connection.runAndReadAll(
    `SELECT DISTINCT ${column} AS currency FROM ${sourceOf(written)} WHERE ${column} IS NOT NULL ORDER BY 1 LIMIT ${LISTED_CURRENCIES + 1}`,
  );
  const names = reader.getRowObjects().map((row) => String(row.currency));
  if (names.length === 0) return null;
  return names.length > LISTED_CURRENCIES
    ? `${names.slice(0, LISTED_CURRENCIES).join(", ")}, …`
    : names.join(", ");
}

async function ranked(
  connection: DuckDBConnection,
  written: Written,
  name: string,
  where: string,
): Promise<RankedImpact[]> {
  const source = sourceOf(written);
  const number = (column: string) => `COALESCE(TRY_CAST(${identifier(column)} AS DOUBLE), 0)`;
  const cost = `TRY_CAST(${columnOf(written, "cost")} AS DOUBLE)`;
  const reader = await connection.runAndReadAll(
    `SELECT COALESCE(${name}, '') AS name, COUNT(*)::DOUBLE AS lines,
       SUM(CASE WHEN ${cost} > 0 THEN ${cost} ELSE 0 END) AS cost,
       SUM(${number(written.embeddedColumn)}) AS embedded, SUM(${number(written.useColumn)}) AS use
     FROM ${source} WHERE status = 'evaluated' ${where}
     GROUP BY 1 ORDER BY embedded + use DESC, name LIMIT ${RANKED}`,
  );
  return reader.getRowObjects().map((row) => ({
    name: String(row.name),
    lines: Number(row.lines),
    cost: Number(row.cost ?? 0),
    embedded: Number(row.embedded ?? 0),
    use: Number(row.use ?? 0),
  }));
}

export async function billReportData(
  connection: DuckDBConnection,
  written: Written,
): Promise<BillReportData> {
  const resource = columnOf(written, "resource");
  return {
    byMethod: await ranked(connection, written, "method", ""),
    byService: await ranked(connection, written, columnOf(written, "service"), ""),
    byRegion: await ranked(connection, written, columnOf(written, "region"), ""),
    byAccount: await ranked(connection, written, columnOf(written, "account"), ""),
    resources: await ranked(connection, written, resource, `AND ${resource} IS NOT NULL`),
    currency: await currencyOf(connection, written),
  };
}

/** A criterion as the report ranks by it: its name and unit. */
interface RankingCriterion {
  readonly name: string;
  readonly unit: string;
}

/**
 * The report's rankings, read back from the written lines by `first`, the first criterion's
 * impacts (null without a criterion).
 */
export async function writtenReportData(
  connection: DuckDBConnection,
  lines: Omit<Written, "embeddedColumn" | "useColumn">,
  first: RankingCriterion | undefined,
): Promise<BillReportData | null> {
  if (first === undefined) return null;
  return billReportData(connection, {
    ...lines,
    embeddedColumn: impactColumn(first.name, first.unit, "embedded", "value"),
    useColumn: impactColumn(first.name, first.unit, "use", "value"),
  });
}
