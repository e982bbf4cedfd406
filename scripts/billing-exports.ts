/**
 * Generated billing exports for tests and the bench: FOCUS (1.0, 1.1 or 1.2), AWS CUR 2.0 or an
 * Azure cost export, as CSV, gzipped CSV or Parquet, with the columns as the formats' specifications
 * name them. Lines cycle through every kind the billing reader tells apart: compute lines of every
 * provider (EC2 usage, discounted and Savings-Plan-covered; RDS `db.` types; OpenSearch `.search`
 * domains; Azure VMs with Spot and Low Priority meters and units of 1, 10 and 100 hours; Google
 * Compute Engine cores), non-compute lines (storage, tax, fees), unknown instance types, and the
 * regions in their several spellings. Instance types are those of edition 2.4.1's data. The rows
 * are made by DuckDB from `range(rows)`: deterministic, and 10,000,000 rows in seconds.
 *
 *   tsx scripts/billing-exports.ts --format focus|cur|azure --rows 5000 [--focus-version 1.2] out.csv
 *   (out.csv.gz, out.parquet)
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { DuckDBInstance } from "@duckdb/node-api";

const DATA = new URL("../data/2.4.1/archetypes/cloud/", import.meta.url);

function ids(provider: string): string[] {
  const lines = readFileSync(new URL(`${provider}.csv`, DATA), "utf8")
    .trim()
    .split("\n")
    .slice(1);
  return lines.map((line) => line.split(",")[0]).filter((id) => /^[A-Za-z0-9._-]+$/.test(id));
}

function regions(provider: string): string[] {
  const lines = readFileSync(new URL("regions.csv", DATA), "utf8").trim().split("\n").slice(1);
  return lines
    .map((line) => line.split(","))
    .filter(([p]) => p === provider)
    .map(([, region]) => region);
}

const list = (values: readonly string[]) =>
  `[${values.map((v) => `'${v.replaceAll("'", "''")}'`).join(", ")}]`;

/** `list[i mod n]` for a DuckDB list literal, `i` spread by a prime so neighbouring rows differ. */
const pick = (values: readonly string[], prime: number) =>
  `${list(values)}[((i * ${prime}) % ${values.length}) + 1]`;

const AWS_EC2 = ids("aws").filter((id) => !id.startsWith("db.") && !id.includes(".elasticsearch"));
const AWS_RDS = ["db.m5.large", "db.r5.xlarge", "db.t3.medium", "db.m6g.large", "db.r6g.2xlarge"];
const AWS_SEARCH = ["r5.large.search", "m5.large.search", "c5.xlarge.search", "r6g.large.search"];
const AZURE = ids("azure");
const GCP = ids("gcp");
const AWS_REGIONS = regions("aws");
const AZURE_REGIONS = regions("azure");
/** Azure's location spellings: id, display name, billing zone name. */
const AZURE_SPELLINGS = ["westeurope", "West Europe", "EU West", "northeurope", "East US 2", "francecentral"];

/** An Azure instance id as its meter names it: d4ads_v5 → D4ads v5. */
const AZURE_METERS = AZURE.map((id) => id.replace(/^standard_/, "")).map((id) =>
  (id.charAt(0).toUpperCase() + id.slice(1)).replaceAll("_", " "),
);

/** The kind of a FOCUS line (every provider), by `i mod 20`. */
const FOCUS_KIND = `CASE
  WHEN i % 20 < 7 THEN 'ec2' WHEN i % 20 = 7 THEN 'rds' WHEN i % 20 = 8 THEN 'search'
  WHEN i % 20 = 9 THEN 'unknown' WHEN i % 20 < 12 THEN 'aws-storage' WHEN i % 20 = 12 THEN 'tax'
  WHEN i % 20 < 16 THEN 'vm' WHEN i % 20 = 16 THEN 'azure-storage'
  WHEN i % 20 = 17 THEN 'gcp' ELSE 'gcp-storage' END`;
/** The kind of a CUR line (AWS only). */
const CUR_KIND = `CASE
  WHEN i % 10 < 6 THEN 'ec2' WHEN i % 10 = 6 THEN 'rds' WHEN i % 10 = 7 THEN 'search'
  WHEN i % 10 = 8 THEN 'unknown' WHEN i % 50 = 9 THEN 'tax' ELSE 'aws-storage' END`;
/** The kind of an Azure line. */
const AZURE_KIND = `CASE WHEN i % 5 < 4 THEN 'vm' ELSE 'azure-storage' END`;

function focusQuery(rows: number, version: string): string {
  const provider = version === "1.2" ? "ServiceProviderName" : "ProviderName";
  const meter =
    version === "1.0" ? "" : `, CASE WHEN provider = 'AWS' THEN usage_type ELSE meter END AS SkuMeter`;
  return `
SELECT
  round(cost, 6) AS BilledCost, 'acct-' || (i % 3) AS BillingAccountId, 'USD' AS BillingCurrency,
  TIMESTAMP '2026-10-01' AS BillingPeriodStart, TIMESTAMP '2026-11-01' AS BillingPeriodEnd,
  charge AS ChargeCategory, TIMESTAMP '2026-10-01' + INTERVAL (i % 720) HOUR AS ChargePeriodStart,
  TIMESTAMP '2026-10-01' + INTERVAL (i % 720 + 1) HOUR AS ChargePeriodEnd,
  quantity AS ConsumedQuantity, unit AS ConsumedUnit, round(cost * 0.9, 6) AS EffectiveCost,
  provider AS ${provider}, region AS RegionId, service AS ServiceName,
  CASE WHEN kind IN ('ec2', 'rds', 'search', 'unknown', 'vm', 'gcp') THEN 'Compute' ELSE 'Storage' END AS ServiceCategory,
  'sku-' || (i % 97) AS SkuId, 'sub-' || (i % 7) AS SubAccountId,
  '{"team":"' || ${list(["web", "data", "ml"])}[(i % 3) + 1] || '"}' AS Tags,
  CASE WHEN provider = 'AWS' THEN service_code END AS x_ServiceCode,
  CASE WHEN provider = 'AWS' THEN operation END AS x_Operation,
  CASE WHEN provider = 'AWS' THEN usage_type END AS x_UsageType,
  CASE WHEN provider = 'Microsoft' THEN meter_category END AS x_SkuMeterCategory,
  CASE WHEN provider = 'Microsoft' THEN meter_subcategory END AS x_SkuMeterSubcategory,
  CASE WHEN provider = 'Microsoft' THEN meter END AS x_SkuMeterName,
  CASE WHEN kind = 'gcp' THEN ${pick(GCP, 31)} END AS x_MachineType${meter}
FROM (${linesQuery(rows, FOCUS_KIND)})`;
}

/** The provider-neutral lines every format is written from. */
function linesQuery(rows: number, kindOf: string): string {
  return `
SELECT *, quantity * 0.05 AS cost FROM (
SELECT i, kind,
  CASE WHEN kind IN ('vm', 'azure-storage') THEN 'Microsoft' WHEN kind LIKE 'gcp%' THEN 'Google Cloud' ELSE 'AWS' END AS provider,
  CASE WHEN kind = 'tax' THEN 'Tax' ELSE 'Usage' END AS charge,
  CASE kind WHEN 'rds' THEN 'Amazon Relational Database Service' WHEN 'search' THEN 'Amazon OpenSearch Service'
    WHEN 'aws-storage' THEN 'Amazon Simple Storage Service' WHEN 'vm' THEN 'Virtual Machines'
    WHEN 'azure-storage' THEN 'Storage' WHEN 'gcp' THEN 'Compute Engine' WHEN 'gcp-storage' THEN 'Cloud Storage'
    ELSE 'Amazon Elastic Compute Cloud' END AS service,
  CASE kind WHEN 'rds' THEN 'AmazonRDS' WHEN 'search' THEN 'AmazonES' WHEN 'aws-storage' THEN 'AmazonS3'
    ELSE 'AmazonEC2' END AS service_code,
  CASE kind WHEN 'rds' THEN 'CreateDBInstance:0002' WHEN 'search' THEN 'ESDomain' WHEN 'aws-storage' THEN 'StandardStorage'
    WHEN 'tax' THEN '' ELSE ${list(["RunInstances", "RunInstances:0002", "RunInstances:SV001"])}[(i % 3) + 1] END AS operation,
  CASE kind WHEN 'rds' THEN 'EUW3-InstanceUsage:' || ${pick(AWS_RDS, 7)}
    WHEN 'search' THEN 'EUW3-ESInstance:' || ${pick(AWS_SEARCH, 7)}
    WHEN 'unknown' THEN 'EUW3-BoxUsage:' || ${list(["z9.mega", "m99.huge"])}[(i % 2) + 1]
    WHEN 'aws-storage' THEN 'EUW3-TimedStorage-ByteHrs' WHEN 'tax' THEN ''
    ELSE ${list(["EUW3-BoxUsage:", "EUW3-SpotUsage:", "BoxUsage:"])}[(i % 3) + 1] || ${pick(AWS_EC2, 7919)} END AS usage_type,
  CASE WHEN kind IN ('vm', 'azure-storage') THEN ${pick(AZURE_REGIONS, 13)}
    WHEN kind LIKE 'gcp%' THEN ${list(["europe-west1", "us-central1", "asia-east1"])}[(i % 3) + 1]
    WHEN kind = 'tax' THEN '' ELSE ${pick(AWS_REGIONS, 11)} END AS region,
  CASE WHEN kind = 'vm' THEN 'Virtual Machines' ELSE 'Storage' END AS meter_category,
  CASE WHEN kind = 'vm' THEN 'Virtual Machines Series' ELSE 'Tiered Block Blob' END AS meter_subcategory,
  CASE WHEN kind = 'vm' THEN ${pick(AZURE_METERS, 101)} || ${list(["", "", " Spot", " Low Priority"])}[(i % 4) + 1]
    ELSE 'Hot LRS Data Stored' END AS meter,
  CASE WHEN kind IN ('aws-storage', 'azure-storage', 'gcp-storage') THEN 'GB-Mo' WHEN kind = 'tax' THEN ''
    WHEN kind IN ('vm', 'gcp') THEN 'Hours' ELSE 'Hrs' END AS unit,
  CASE WHEN kind = 'tax' THEN 1 ELSE ((i * 37) % 720) / 4 + 0.25 END AS quantity
FROM (SELECT i, ${kindOf} AS kind FROM range(${rows}) t(i)))`;
}

function curQuery(rows: number): string {
  return `
SELECT
  'li-' || i AS identity_line_item_id, TIMESTAMP '2026-10-01' AS bill_billing_period_start_date,
  '111111111111' AS bill_payer_account_id, '22222222222' || (i % 7) AS line_item_usage_account_id,
  CASE WHEN kind = 'tax' THEN 'Tax' WHEN i % 20 = 4 THEN 'SavingsPlanCoveredUsage' WHEN i % 20 = 5 THEN 'DiscountedUsage'
    WHEN i % 20 = 6 THEN 'RIFee' ELSE 'Usage' END AS line_item_line_item_type,
  TIMESTAMP '2026-10-01' + INTERVAL (i % 720) HOUR AS line_item_usage_start_date,
  service_code AS line_item_product_code, usage_type AS line_item_usage_type, operation AS line_item_operation,
  quantity AS line_item_usage_amount, round(cost, 6) AS line_item_unblended_cost, unit AS pricing_unit,
  CASE WHEN kind IN ('ec2', 'rds', 'search') AND i % 2 = 0 THEN regexp_extract(usage_type, ':([^:]+)$', 1) ELSE '' END
    AS product_instance_type,
  region AS product_region_code, '{"user:team":"web"}' AS resource_tags
FROM (${linesQuery(rows, CUR_KIND)})`;
}

function azureQuery(rows: number): string {
  return `
SELECT
  'ea-1' AS BillingAccountId, 'sub-' || (i % 7) AS SubscriptionId, DATE '2026-10-01' + CAST(i % 30 AS INTEGER) AS Date,
  CASE WHEN kind = 'vm' THEN 'Virtual Machines' ELSE 'Storage' END AS MeterCategory,
  meter_subcategory AS MeterSubCategory, meter AS MeterName,
  CASE WHEN kind = 'vm' THEN ${pick(AZURE_SPELLINGS, 5)} ELSE 'West Europe' END AS ResourceLocation,
  CASE WHEN kind = 'vm' AND i % 3 = 1 THEN quantity / 10 ELSE quantity END AS Quantity,
  CASE WHEN kind = 'vm' AND i % 3 = 1 THEN '10 Hours' WHEN kind = 'vm' THEN '1 Hour' ELSE '1 GB/Month' END AS UnitOfMeasure,
  round(cost, 6) AS CostInBillingCurrency, CASE WHEN i % 50 = 3 THEN 'Purchase' ELSE 'Usage' END AS ChargeType,
  '/subscriptions/sub/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm-' || (i % 100) AS ResourceId,
  '{"env":"prod"}' AS Tags
FROM (${linesQuery(rows, AZURE_KIND)})`;
}

/** Writes a generated export; the rows are those of `--rows` (CUR and Azure keep their provider's). */
export async function writeBillingExport(
  format: string,
  rows: number,
  out: string,
  focusVersion = "1.2",
): Promise<void> {
  const query =
    format === "focus"
      ? focusQuery(rows, focusVersion)
      : format === "cur"
        ? curQuery(rows)
        : azureQuery(rows);
  const options = out.endsWith(".parquet")
    ? "(FORMAT parquet, COMPRESSION zstd)"
    : `(FORMAT csv, HEADER true${out.endsWith(".gz") ? ", COMPRESSION gzip" : ""})`;
  const instance = await DuckDBInstance.create(":memory:", { memory_limit: "500MB" });
  const connection = await instance.connect();
  try {
    await connection.run(`COPY (${query}) TO '${out.replaceAll("'", "''")}' ${options}`);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      format: { type: "string", default: "focus" },
      rows: { type: "string", default: "5000" },
      "focus-version": { type: "string", default: "1.2" },
    },
  });
  const [out] = positionals;
  if (out === undefined || !["focus", "cur", "azure"].includes(values.format)) {
    process.stderr.write(
      "usage: tsx scripts/billing-exports.ts --format focus|cur|azure --rows N out.csv|.csv.gz|.parquet\n",
    );
    process.exit(2);
  }
  await writeBillingExport(values.format, Number(values.rows), out, values["focus-version"]);
}
