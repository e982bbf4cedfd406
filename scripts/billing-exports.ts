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
 * `--wide` writes an export as wide as a real one, a resource's lines its hours of a day: FOCUS
 * 1.2 with 56 columns (every column its generator writes and 30 more of the specification:
 * descriptions, resource ids, prices, commitment discounts), CUR 2.0 with 100 (AWS Data Exports' CUR 2.0 table dictionary:
 * bill_, line_item_, pricing_, product_, reservation_, savings_plan_ columns and the `product`
 * and `resource_tags` maps as JSON text), most of them empty on most lines as in a real bill.
 *
 * `--daily` writes a CUR's lines a day each (AWS's daily granularity) instead of an hour.
 *
 *   tsx scripts/billing-exports.ts --format focus|cur|azure --rows 5000 [--focus-version 1.2] [--wide] [--daily] out.csv
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

/** A wide export's lines of one resource: its hours of a day. */
const LINES_PER_RESOURCE = 24;

/** The instance type or size a line names (its usage type's end, its meter), for descriptions. */
const NAMED_SIZE = `CASE WHEN provider = 'Microsoft' THEN meter ELSE regexp_extract(usage_type, ':([^:]+)$', 1) END`;

/**
 * The 30 columns of FOCUS 1.2 a real export has besides the generator's 26, as providers fill them
 * (FOCUS 1.2 specification; AWS Data Exports' "FOCUS 1.2 with AWS columns").
 */
const FOCUS_WIDE = `,
  CASE WHEN region = '' THEN NULL ELSE region || 'a' END AS AvailabilityZone,
  'Example Corp ' || (i % 3) AS BillingAccountName,
  CASE WHEN provider = 'AWS' THEN 'Payer Account' WHEN provider = 'Microsoft' THEN 'Billing Profile' ELSE 'Billing Account' END AS BillingAccountType,
  NULL AS ChargeClass,
  CASE WHEN kind = 'tax' THEN 'Tax for billing period'
    WHEN kind IN ('aws-storage', 'azure-storage', 'gcp-storage') THEN '$0.023 per GB-Mo for ' || meter || ' in ' || region
    WHEN kind = 'gcp' THEN 'N2 Instance Core running in ' || region
    ELSE '$' || CAST(round(0.05 + (i % 13) * 0.07, 4) AS VARCHAR) || ' per On Demand Linux ' || ${NAMED_SIZE} || ' Instance Hour' END AS ChargeDescription,
  CASE WHEN kind = 'tax' THEN 'One-Time' ELSE 'Usage-Based' END AS ChargeFrequency,
  CASE WHEN i % 20 = 4 THEN 'Spend' WHEN i % 20 = 5 THEN 'Usage' END AS CommitmentDiscountCategory,
  CASE WHEN i % 20 IN (4, 5) THEN 'arn:aws:savingsplans::111111111111:savingsplan/' || md5(CAST(i % 5 AS VARCHAR)) END AS CommitmentDiscountId,
  CASE WHEN i % 20 IN (4, 5) THEN 'Compute Savings Plan ' || (i % 5) END AS CommitmentDiscountName,
  CASE WHEN i % 20 IN (4, 5) THEN 'Used' END AS CommitmentDiscountStatus,
  CASE WHEN i % 20 = 4 THEN 'Savings Plan' WHEN i % 20 = 5 THEN 'Reserved Instance' END AS CommitmentDiscountType,
  round(cost, 6) AS ContractedCost, round(cost / (quantity + 1), 8) AS ContractedUnitPrice,
  provider AS HostProviderName, 'INV-2026-10-' || (i % 3) AS InvoiceId,
  CASE WHEN provider = 'AWS' THEN 'Amazon Web Services EMEA SARL' WHEN provider = 'Microsoft' THEN 'Microsoft Ireland Operations Ltd' ELSE 'Google Cloud EMEA Ltd' END AS InvoiceIssuerName,
  round(cost * 1.1, 6) AS ListCost, round(cost * 1.1 / (quantity + 1), 8) AS ListUnitPrice,
  CASE WHEN i % 20 IN (4, 5) THEN 'Committed' WHEN i % 20 = 6 THEN 'Dynamic' ELSE 'Standard' END AS PricingCategory,
  quantity AS PricingQuantity, unit AS PricingUnit, provider AS PublisherName,
  CASE WHEN region = '' THEN NULL ELSE 'Region ' || region END AS RegionName,
  CASE WHEN kind = 'tax' THEN NULL
    WHEN provider = 'Microsoft' THEN '/subscriptions/00000000-0000-0000-0000-00000000000' || (i % 7) || '/resourceGroups/rg-' || (i % 11) || '/providers/Microsoft.Compute/virtualMachines/vm-' || (i % 1000)
    WHEN provider = 'Google Cloud' THEN '//compute.googleapis.com/projects/project-' || (i % 5) || '/zones/' || region || '-b/instances/instance-' || (i % 1000)
    ELSE 'arn:aws:ec2:' || region || ':22222222222' || (i % 7) || ':instance/i-0' || substr(md5(CAST(i % 100000 AS VARCHAR)), 1, 16) END AS ResourceId,
  CASE WHEN kind = 'tax' THEN NULL ELSE 'resource-' || (i % 1000) END AS ResourceName,
  CASE WHEN kind IN ('ec2', 'unknown') THEN 'Instance' WHEN kind = 'vm' THEN 'Virtual machine'
    WHEN kind = 'rds' THEN 'DB Instance' WHEN kind = 'search' THEN 'Domain' WHEN kind = 'gcp' THEN 'Instance'
    WHEN kind = 'tax' THEN NULL ELSE 'Bucket' END AS ResourceType,
  CASE WHEN kind IN ('aws-storage', 'azure-storage', 'gcp-storage') THEN 'Object Storage' WHEN kind = 'tax' THEN 'Other'
    ELSE 'Virtual Machines' END AS ServiceSubcategory,
  'price-' || (i % 997) AS SkuPriceId, 'Team account ' || (i % 7) AS SubAccountName,
  CASE WHEN provider = 'AWS' THEN 'Linked Account' WHEN provider = 'Microsoft' THEN 'Subscription' ELSE 'Project' END AS SubAccountType`;

function focusQuery(rows: number, version: string, wide: boolean): string {
  const provider = version === "1.2" ? "ServiceProviderName" : "ProviderName";
  const meter =
    version === "1.0" ? "" : `, CASE WHEN provider = 'AWS' THEN usage_type ELSE meter END AS SkuMeter`;
  return `
SELECT
  round(cost, 6) AS BilledCost, 'acct-' || (i % 3) AS BillingAccountId, 'USD' AS BillingCurrency,
  TIMESTAMP '2026-10-01' AS BillingPeriodStart, TIMESTAMP '2026-11-01' AS BillingPeriodEnd,
  charge AS ChargeCategory, TIMESTAMP '2026-10-01' + INTERVAL (line % 720) HOUR AS ChargePeriodStart,
  TIMESTAMP '2026-10-01' + INTERVAL (line % 720 + 1) HOUR AS ChargePeriodEnd,
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
  CASE WHEN kind = 'gcp' THEN ${pick(GCP, 31)} END AS x_MachineType${meter}${wide ? FOCUS_WIDE : ""}
FROM (${linesQuery(rows, FOCUS_KIND, wide ? LINES_PER_RESOURCE : 1)})`;
}

/**
 * The provider-neutral lines every format is written from. `line` numbers them; `i` numbers their
 * resource, whose lines (`linesPerResource` of them, an hour each) share all but their quantity
 * and hour, as a real export's lines of one resource do.
 */
function linesQuery(rows: number, kindOf: string, linesPerResource = 1): string {
  return `
SELECT *, quantity * 0.05 AS cost FROM (
SELECT line, i, kind,
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
  CASE WHEN kind = 'tax' THEN 1 ELSE ((line * 37) % 720) / 4 + 0.25 END AS quantity
FROM (SELECT line, i, ${kindOf} AS kind FROM (SELECT line, line // ${linesPerResource} AS i FROM range(${rows}) t(line))))`;
}

/** Savings Plan (`i % 20 = 4`) and reservation (`i % 20 = 5`) lines' own columns, else empty. */
const savingsPlan = (value: string) => `CASE WHEN i % 20 = 4 THEN ${value} END`;
const reservation = (value: string) => `CASE WHEN i % 20 = 5 THEN ${value} END`;

/**
 * The 85 columns of CUR 2.0 a real export has besides the generator's 15 (AWS Data Exports, "Cost
 * and Usage Report (CUR) 2.0" table dictionary), as AWS fills them: most empty on most lines.
 */
const CUR_WIDE: readonly (readonly [string, string])[] = [
  ["identity_time_interval", "'2026-10-01T00:00:00Z/2026-10-01T01:00:00Z'"],
  ["bill_bill_type", "'Anniversary'"],
  ["bill_billing_entity", "'AWS'"],
  ["bill_billing_period_end_date", "TIMESTAMP '2026-11-01'"],
  ["bill_invoice_id", "'EUINFR26-' || (i % 3)"],
  ["bill_invoicing_entity", "'Amazon Web Services EMEA SARL'"],
  ["bill_payer_account_name", "'Example Corp'"],
  ["cost_category", '\'{"team":"platform"}\''],
  ["discount", "CASE WHEN i % 20 = 4 THEN '{\"bundled_discount\":0.0}' END"],
  ["discount_bundled_discount", "NULL"],
  ["discount_total_discount", "NULL"],
  ["line_item_availability_zone", "CASE WHEN region = '' THEN NULL ELSE region || 'a' END"],
  ["line_item_blended_cost", "round(cost, 6)"],
  ["line_item_blended_rate", "round(cost / (quantity + 1), 8)"],
  ["line_item_currency_code", "'USD'"],
  ["line_item_legal_entity", "'Amazon Web Services EMEA SARL'"],
  [
    "line_item_line_item_description",
    "CASE WHEN kind = 'tax' THEN 'Tax for product code ' || service_code WHEN kind = 'aws-storage' THEN '$0.023 per GB - first 50 TB / month of storage used' ELSE '$' || CAST(round(0.05 + (i % 13) * 0.07, 4) AS VARCHAR) || ' per On Demand Linux ' || regexp_extract(usage_type, ':([^:]+)$', 1) || ' Instance Hour' END",
  ],
  ["line_item_net_unblended_cost", "round(cost * 0.97, 6)"],
  ["line_item_net_unblended_rate", "round(cost * 0.97 / (quantity + 1), 8)"],
  ["line_item_normalization_factor", "CASE WHEN kind IN ('ec2', 'rds') THEN 4 END"],
  ["line_item_normalized_usage_amount", "CASE WHEN kind IN ('ec2', 'rds') THEN quantity * 4 END"],
  [
    "line_item_resource_id",
    "CASE WHEN kind = 'tax' THEN NULL ELSE 'arn:aws:ec2:' || region || ':22222222222' || (i % 7) || ':instance/i-0' || substr(md5(CAST(i % 100000 AS VARCHAR)), 1, 16) END",
  ],
  ["line_item_tax_type", "CASE WHEN kind = 'tax' THEN 'VAT' END"],
  ["line_item_unblended_rate", "round(cost / (quantity + 1), 8)"],
  ["line_item_usage_account_name", "'Team account ' || (i % 7)"],
  ["line_item_usage_end_date", "TIMESTAMP '2026-10-01' + INTERVAL (line % 720 + 1) HOUR"],
  ["pricing_currency", "'USD'"],
  ["pricing_lease_contract_length", reservation("'1yr'")],
  ["pricing_offering_class", reservation("'standard'")],
  ["pricing_public_on_demand_cost", "round(cost * 1.1, 6)"],
  ["pricing_public_on_demand_rate", "round(cost * 1.1 / (quantity + 1), 8)"],
  ["pricing_purchase_option", reservation("'No Upfront'")],
  ["pricing_rate_code", "'SKU' || (i % 997) || '.JRTCKXETXF.6YS6EN2CT7'"],
  ["pricing_rate_id", "CAST(100000000 + i % 997 AS VARCHAR)"],
  ["pricing_term", "CASE WHEN i % 20 = 5 THEN 'Reserved' WHEN kind = 'tax' THEN NULL ELSE 'OnDemand' END"],
  [
    "product",
    '\'{"product_name":"\' || service_code || \'","servicename":"\' || service || \'","tenancy":"Shared"}\'',
  ],
  ["product_fee_code", "NULL"],
  ["product_fee_description", "NULL"],
  ["product_from_location", "NULL"],
  ["product_from_location_type", "NULL"],
  ["product_from_region_code", "CAST(NULL AS VARCHAR)"],
  ["product_instance_family", "CASE WHEN kind IN ('ec2', 'rds', 'search') THEN 'General purpose' END"],
  ["product_instanceSKU", "NULL"],
  ["product_location", "CASE WHEN region = '' THEN NULL ELSE 'EU (' || region || ')' END"],
  ["product_location_type", "CASE WHEN region = '' THEN NULL ELSE 'AWS Region' END"],
  ["product_operation", "operation"],
  ["product_pricing_unit", "unit"],
  [
    "product_product_family",
    "CASE WHEN kind IN ('ec2', 'unknown') THEN 'Compute Instance' WHEN kind = 'rds' THEN 'Database Instance' WHEN kind = 'search' THEN 'Amazon OpenSearch Service Instance' WHEN kind = 'aws-storage' THEN 'Storage' END",
  ],
  ["product_servicecode", "service_code"],
  ["product_sku", "'SKU' || (i % 997)"],
  ["product_to_location", "NULL"],
  ["product_to_location_type", "NULL"],
  ["product_to_region_code", "NULL"],
  ["product_usagetype", "usage_type"],
  ["reservation_amortized_upfront_cost_for_usage", reservation("0.0")],
  ["reservation_amortized_upfront_fee_for_billing_period", reservation("0.0")],
  ["reservation_availability_zone", "NULL"],
  ["reservation_effective_cost", reservation("round(cost * 0.6, 6)")],
  ["reservation_end_time", reservation("'2027-01-01T00:00:00.000Z'")],
  ["reservation_modification_status", "NULL"],
  ["reservation_number_of_reservations", reservation("'1'")],
  ["reservation_recurring_fee_for_usage", reservation("round(cost * 0.6, 6)")],
  [
    "reservation_reservation_a_r_n",
    reservation("'arn:aws:ec2:eu-west-3:111111111111:reserved-instances/' || md5(CAST(i % 5 AS VARCHAR))"),
  ],
  ["reservation_start_time", reservation("'2026-01-01T00:00:00.000Z'")],
  ["reservation_subscription_id", reservation("CAST(1000000000 + i % 5 AS VARCHAR)")],
  ["reservation_total_reserved_units", reservation("'720'")],
  ["reservation_units_per_reservation", reservation("'720'")],
  ["reservation_unused_amortized_upfront_fee_for_billing_period", "NULL"],
  ["reservation_unused_quantity", "NULL"],
  ["reservation_unused_recurring_fee", "NULL"],
  ["reservation_upfront_value", reservation("0.0")],
  ["savings_plan_amortized_upfront_commitment_for_billing_period", savingsPlan("0.0")],
  ["savings_plan_end_time", savingsPlan("'2027-01-01T00:00:00.000Z'")],
  ["savings_plan_instance_type_family", savingsPlan("'m5'")],
  ["savings_plan_net_savings_plan_effective_cost", savingsPlan("round(cost * 0.7, 6)")],
  ["savings_plan_offering_type", savingsPlan("'ComputeSavingsPlans'")],
  ["savings_plan_payment_option", savingsPlan("'No Upfront'")],
  ["savings_plan_purchase_term", savingsPlan("'1yr'")],
  ["savings_plan_recurring_commitment_for_billing_period", savingsPlan("round(cost * 0.7, 6)")],
  ["savings_plan_region", savingsPlan("region")],
  [
    "savings_plan_savings_plan_a_r_n",
    savingsPlan("'arn:aws:savingsplans::111111111111:savingsplan/' || md5(CAST(i % 5 AS VARCHAR))"),
  ],
  ["savings_plan_savings_plan_effective_cost", savingsPlan("round(cost * 0.7, 6)")],
  ["savings_plan_savings_plan_rate", savingsPlan("round(cost * 0.7 / (quantity + 1), 8)")],
  ["savings_plan_start_time", savingsPlan("'2026-01-01T00:00:00.000Z'")],
  ["savings_plan_used_commitment", savingsPlan("round(cost * 0.7, 6)")],
];

/** A CUR line's period: an hour of the month (AWS's hourly granularity), or with `daily` a day of it. */
const curPeriod = (daily: boolean, end: boolean) =>
  daily
    ? `TIMESTAMP '2026-10-01' + INTERVAL (line % 31 + ${end ? 1 : 0}) DAY`
    : `TIMESTAMP '2026-10-01' + INTERVAL (line % 720 + ${end ? 1 : 0}) HOUR`;

function curQuery(rows: number, wide: boolean, daily = false): string {
  const columns = CUR_WIDE.map(([name, value]): readonly [string, string] =>
    name === "line_item_usage_end_date" ? [name, curPeriod(daily, true)] : [name, value],
  );
  const extra = wide ? columns.map(([name, value]) => `,\n  ${value} AS ${name}`).join("") : "";
  return `
SELECT
  'li-' || line AS identity_line_item_id, TIMESTAMP '2026-10-01' AS bill_billing_period_start_date,
  '111111111111' AS bill_payer_account_id, '22222222222' || (i % 7) AS line_item_usage_account_id,
  CASE WHEN kind = 'tax' THEN 'Tax' WHEN i % 20 = 4 THEN 'SavingsPlanCoveredUsage' WHEN i % 20 = 5 THEN 'DiscountedUsage'
    WHEN i % 20 = 6 THEN 'RIFee' ELSE 'Usage' END AS line_item_line_item_type,
  ${curPeriod(daily, false)} AS line_item_usage_start_date,
  service_code AS line_item_product_code, usage_type AS line_item_usage_type, operation AS line_item_operation,
  quantity AS line_item_usage_amount, round(cost, 6) AS line_item_unblended_cost, unit AS pricing_unit,
  CASE WHEN kind IN ('ec2', 'rds', 'search') AND i % 2 = 0 THEN regexp_extract(usage_type, ':([^:]+)$', 1) ELSE '' END
    AS product_instance_type,
  region AS product_region_code, '{"user:team":"web"}' AS resource_tags${extra}
FROM (${linesQuery(rows, CUR_KIND, wide ? LINES_PER_RESOURCE : 1)})`;
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
  wide = false,
  daily = false,
): Promise<void> {
  const query =
    format === "focus"
      ? focusQuery(rows, focusVersion, wide)
      : format === "cur"
        ? curQuery(rows, wide, daily)
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
      wide: { type: "boolean", default: false },
      daily: { type: "boolean", default: false },
    },
  });
  const [out] = positionals;
  if (out === undefined || !["focus", "cur", "azure"].includes(values.format)) {
    process.stderr.write(
      "usage: tsx scripts/billing-exports.ts --format focus|cur|azure --rows N [--wide] [--daily] out.csv|.csv.gz|.parquet\n",
    );
    process.exit(2);
  }
  await writeBillingExport(
    values.format,
    Number(values.rows),
    out,
    values["focus-version"],
    values.wide,
    values.daily,
  );
}
