/*
 * The billing exports read as they are, each recognised by its header: the columns it must have
 * (one of several spellings where its versions differ) and the other columns its query reads
 * (present and empty when a file lacks them). A format's query reads its columns under one name
 * each (CUR's `line_item_usage_type`); a file may spell them otherwise, and the view the query
 * reads names them so (src/billing/stages/classify.ts):
 * - the same letters and digits, whatever the case and the signs between them: CUR 1.0's CSV
 *   `lineItem/UsageType` is `line_item_usage_type`, BigQuery's `usage.amount` and `usage_amount`
 *   are `usage_amount`, the EA file's `Meter Category` is `MeterCategory`, Oracle's
 *   `usage/billedQuantity` is `usage_billed_quantity`;
 * - the other names a format lists for a column (`aliases`: Azure's legacy `PreTaxCost`, its
 *   German headers).
 */

/** The formats' names (`--input`), in the order they are tried and listed: BILLING_FORMATS' keys. */
export type BillingFormatName = "focus" | "cur" | "azure" | "gcp" | "oci";

/** A version of a format told apart by a column only it has. */
export interface BillingFormatVersion {
  readonly title: string;
  /** A column only this version's header has, as it spells it; the first version whose column the header has is its. */
  readonly column: string;
  /**
   * How a header must spell the column to be this version's: by default as a format finds any
   * column (any case, any signs between its words or none: `resource.name`, `resource__name`,
   * `ResourceName`: bareName); `exactly` as spelled, any case; `words` with any signs between its
   * words, any case (`lineItem__UsageType`, `lineItem.UsageType`: a loader's flattening, whose
   * words still tell the legacy CUR's `lineItem` from CUR 2.0's `line_item`, which the bare names
   * would not).
   */
  readonly spelled?: "exactly" | "words";
}

export interface BillingFormat {
  readonly name: BillingFormatName;
  /** As the summary and errors name it (a version's own title when the header is one's). */
  readonly title: string;
  /** As the command's usage lists it among the formats read, with the versions read (`AWS CUR 2.0 and 1.0`). */
  readonly listed: string;
  /** Versions named apart from the format's title, read by the same query. */
  readonly versions: readonly BillingFormatVersion[];
  /** Columns it must have; an inner list is one column spelled as any of its versions spell it. */
  readonly required: readonly (string | readonly string[])[];
  /** Columns its query reads besides (added empty when the file lacks them). */
  readonly optional: readonly string[];
  /** Other names of its columns in the files of its versions, by the name the query reads. */
  readonly aliases: Readonly<Record<string, readonly string[]>>;
  /**
   * Columns its query reads that a version carries as a key of a map column instead (CUR 2.0's
   * `product`: a MAP in Parquet, its JSON text in CSV), by the name the query reads: the command
   * reads the key where the file lacks the column (exportAddedColumns).
   */
  readonly keyed?: Readonly<Record<string, { readonly map: string; readonly key: string }>>;
  /**
   * The columns read as numbers, each a number or its text: quantity, then the costs (the first
   * the billed cost; src/billing/stages/summarise.ts says which the coverage reads). Every other is text.
   */
  readonly numbers: readonly string[];
  /**
   * Columns of the cost paid for the hours, where the export has them (FOCUS EffectiveCost, CUR's
   * amortisation): billing_cost reads them (sql/classify/billing_usage_<format>.sql), else the billed cost.
   */
  readonly amortisedCost: readonly string[];
  /**
   * Where the export's lines themselves say its cost is amortised, when no column does: a column
   * the query reads and the values only an amortised dataset writes (Azure's ChargeType
   * `UnusedReservation`, `UnusedSavingsPlan`). src/billing/stages/summarise.ts reads it.
   */
  readonly amortisedCharges?: { readonly column: string; readonly values: readonly string[] };
  /** The columns of a line's period (sql/evaluate/billing_periods.sql), each a date, a timestamp or its text. */
  readonly dates: readonly string[];
  /**
   * The columns naming a line's account and resource: read into billing_account and
   * billing_resource only, never to tell what a line is (src/billing/stages/classify.ts reads them per line).
   */
  readonly identities: readonly string[];
  /**
   * The columns naming the currency its costs are in, the first found first: the summary's
   * currency (billCurrency, src/billing/stages/summarise.ts) and the report's read them.
   */
  readonly currency: readonly string[];
  /** Its query (sql/), from the file as it is to billing lines. */
  readonly linesQuery: string;
  /** Its query (sql/) adding what the methods of other lines read: service, usage text, cost. */
  readonly usageQuery: string;
}

const FOCUS: BillingFormat = {
  name: "focus",
  title: "FOCUS 1.0–1.2",
  listed: "FOCUS 1.0-1.4",
  // FOCUS 1.3 (ratified December 2025) and 1.4 (June 2026) keep the Cost and Usage dataset, read
  // by the same query; the columns each introduced name it, the later first (the specification's
  // datasets/cost_and_usage/columns, "Introduced (version)": 1.4's TagDetails and
  // CommitmentProgramEligibilityDetails, 1.3's ContractApplied and HostProviderName)
  versions: [
    { title: "FOCUS 1.4 (Cost and Usage)", column: "TagDetails" },
    { title: "FOCUS 1.4 (Cost and Usage)", column: "CommitmentProgramEligibilityDetails" },
    { title: "FOCUS 1.3 (Cost and Usage)", column: "ContractApplied" },
    { title: "FOCUS 1.3 (Cost and Usage)", column: "HostProviderName" },
  ],
  required: [
    ["ServiceProviderName", "ProviderName"],
    "ChargeCategory",
    "ServiceName",
    "ConsumedQuantity",
    "ConsumedUnit",
    "RegionId",
  ],
  // Both provider spellings are read (1.2's first); the x_ columns are the providers' own.
  optional: [
    "ServiceProviderName",
    "ProviderName",
    "SkuMeter",
    "ChargeDescription",
    "ServiceCategory",
    "ResourceType",
    "SkuPriceDetails",
    "ChargeSubcategory",
    "CommitmentDiscountStatus",
    "x_ServiceCode",
    "x_Operation",
    "x_UsageType",
    "x_SkuMeterCategory",
    "x_SkuMeterName",
    "x_SkuDetails",
    "x_SkuMeterSubcategory",
    "BilledCost",
    "EffectiveCost",
    "BillingAccountId",
    "SubAccountId",
    "ResourceId",
    "ChargePeriodStart",
    "ChargePeriodEnd",
  ],
  aliases: {},
  numbers: ["ConsumedQuantity", "BilledCost", "EffectiveCost"],
  amortisedCost: ["EffectiveCost"],
  dates: ["ChargePeriodStart", "ChargePeriodEnd"],
  identities: ["BillingAccountId", "SubAccountId", "ResourceId"],
  currency: ["BillingCurrency"],
  linesQuery: "classify/billing_lines_focus.sql",
  usageQuery: "classify/billing_usage_focus.sql",
};

/**
 * AWS's Cost and Usage Reports: CUR 2.0 (Data Exports), the legacy CUR's CSV (`lineItem/…`,
 * `product/region`, docs.aws.amazon.com/cur/latest/userguide/data-dictionary.html) and its
 * Athena/Glue Parquet (the same names in snake_case: `product_region`). The amortised cost's
 * columns are read where present (sql/classify/billing_usage_cur.sql).
 */
const CUR: BillingFormat = {
  name: "cur",
  title: "AWS CUR 2.0",
  listed: "AWS CUR 2.0 and 1.0",
  versions: [
    {
      title: "AWS CUR 1.0 (legacy CSV, lineItem/… columns)",
      column: "lineItem/UsageType",
      spelled: "exactly",
    },
    {
      title: "AWS CUR 1.0 (legacy, lineItem/… columns flattened by a loader)",
      column: "lineItem/UsageType",
      spelled: "words",
    },
    { title: "AWS CUR 1.0 (legacy, Athena/Parquet snake_case columns)", column: "product_region" },
  ],
  required: [
    "line_item_line_item_type",
    "line_item_product_code",
    "line_item_operation",
    "line_item_usage_type",
    "line_item_usage_amount",
  ],
  optional: [
    "product_instance_type",
    "pricing_unit",
    "product_region_code",
    "product_region",
    "product_from_region_code",
    "product_product_family",
    "line_item_unblended_cost",
    "reservation_effective_cost",
    "reservation_unused_amortized_upfront_fee_for_billing_period",
    "reservation_unused_recurring_fee",
    "savings_plan_savings_plan_effective_cost",
    "savings_plan_total_commitment_to_date",
    "savings_plan_used_commitment",
    "reservation_reservation_a_r_n",
    "line_item_usage_account_id",
    "line_item_resource_id",
    "line_item_usage_start_date",
    "line_item_usage_end_date",
    "product_vcpu",
    "product_memory",
  ],
  aliases: {},
  // CUR 2.0 keeps the legacy product columns its fixed schema lacks as keys of `product`, named
  // as the legacy columns in snake case (AWS, "Cost and Usage Report (CUR) 2.0", product columns)
  keyed: {
    product_vcpu: { map: "product", key: "vcpu" },
    product_memory: { map: "product", key: "memory" },
  },
  numbers: [
    "line_item_usage_amount",
    "line_item_unblended_cost",
    "reservation_effective_cost",
    "reservation_unused_amortized_upfront_fee_for_billing_period",
    "reservation_unused_recurring_fee",
    "savings_plan_savings_plan_effective_cost",
    "savings_plan_total_commitment_to_date",
    "savings_plan_used_commitment",
  ],
  // AWS's amortised cost (CUR user guide, "Understanding your reservations" and "Savings Plans
  // line items"): a covered hour at its effective cost, the unused part of a commitment's fee, the
  // upfront fees and negations nothing (sql/classify/billing_usage_cur.sql).
  amortisedCost: ["reservation_effective_cost", "savings_plan_savings_plan_effective_cost"],
  dates: ["line_item_usage_start_date", "line_item_usage_end_date"],
  identities: ["line_item_usage_account_id", "line_item_resource_id"],
  currency: ["line_item_currency_code"],
  linesQuery: "classify/billing_lines_cur.sql",
  usageQuery: "classify/billing_usage_cur.sql",
};

/**
 * Azure's cost exports: EA and MCA cost details (PascalCase or camelCase), the legacy
 * pay-as-you-go usage file (`UsageQuantity`, `PreTaxCost`, `UsageDateTime`, `SubscriptionGuid`,
 * `InstanceId`), the EA portal's usage file (`Meter Category`, `Consumed Quantity`,
 * `ExtendedCost`) and its German headers (as Microsoft's German documentation names them:
 * "Kategorie der Verbrauchseinheit", "Verbrauchte Menge", "Maßeinheit", "Instanz-ID").
 */
const AZURE: BillingFormat = {
  name: "azure",
  title: "Azure cost export",
  listed: "Azure",
  versions: [
    { title: "Azure legacy pay-as-you-go usage export", column: "PreTaxCost" },
    { title: "Azure EA usage file (German headers)", column: "Verbrauchte Menge" },
    { title: "Azure EA usage file", column: "Consumed Quantity" },
  ],
  required: ["MeterCategory", "MeterName", "Quantity", "UnitOfMeasure", "ResourceLocation"],
  optional: [
    "ChargeType",
    "MeterSubCategory",
    "AdditionalInfo",
    "CostInBillingCurrency",
    "SubscriptionId",
    "ResourceId",
    "Date",
    "BillingPeriodStartDate",
    "BillingPeriodEndDate",
  ],
  aliases: {
    MeterCategory: ["Kategorie der Verbrauchseinheit"],
    MeterSubCategory: ["Unterkategorie der Verbrauchseinheit"],
    MeterName: ["Name der Verbrauchseinheit"],
    Quantity: ["UsageQuantity", "ConsumedQuantity", "Verbrauchte Menge"],
    UnitOfMeasure: ["Maßeinheit"],
    ResourceLocation: ["Ressourcenstandort", "Ressourcenspeicherort"],
    CostInBillingCurrency: ["PreTaxCost", "ExtendedCost", "Cost", "Erweiterte Kosten", "Kosten"],
    AdditionalInfo: ["Zusätzliche Informationen"],
    SubscriptionId: ["SubscriptionGuid", "Abonnement-GUID"],
    ResourceId: ["InstanceId", "Instanz-ID"],
    Date: ["UsageDateTime", "UsageDate", "Datum"],
  },
  numbers: ["Quantity", "CostInBillingCurrency"],
  amortisedCost: [],
  // Microsoft Learn, "Get Enterprise Agreement reservation costs and usage" and "Understand the
  // terms in your Azure usage and charges file": the amortized cost dataset alone carries the
  // unused hours of a reservation or savings plan as charges of their own; its cost column is
  // named as the actual cost's (CostInBillingCurrency, an EA's Cost)
  amortisedCharges: { column: "ChargeType", values: ["UnusedReservation", "UnusedSavingsPlan"] },
  dates: ["Date", "BillingPeriodStartDate", "BillingPeriodEndDate"],
  identities: ["SubscriptionId", "ResourceId"],
  currency: ["BillingCurrency", "BillingCurrencyCode", "Currency"],
  linesQuery: "classify/billing_lines_azure.sql",
  usageQuery: "classify/billing_usage_azure.sql",
};

/**
 * Google Cloud's billing export as BigQuery holds it (standard and resource-level tables,
 * cloud.google.com/billing/docs/how-to/export-data-bigquery-tables), saved as CSV with its nested
 * names flattened (`usage.amount_in_pricing_units`, or with underscores).
 */
const GCP: BillingFormat = {
  name: "gcp",
  title: "Google Cloud billing export (BigQuery, standard)",
  listed: "Google Cloud",
  versions: [{ title: "Google Cloud billing export (BigQuery, resource-level)", column: "resource.name" }],
  required: [
    "service_description",
    "sku_description",
    "usage_amount",
    "usage_unit",
    "location_region",
    "cost",
  ],
  optional: [
    "usage_pricing_unit",
    "usage_amount_in_pricing_units",
    "cost_type",
    "location_location",
    "project_id",
    "resource_name",
    "usage_start_time",
    "usage_end_time",
  ],
  aliases: { resource_name: ["resource_global_name"] },
  numbers: ["usage_amount", "cost"],
  amortisedCost: [],
  dates: ["usage_start_time", "usage_end_time"],
  identities: ["project_id", "resource_name"],
  currency: ["currency"],
  linesQuery: "classify/billing_lines_gcp.sql",
  usageQuery: "classify/billing_usage_gcp.sql",
};

/**
 * Oracle Cloud Infrastructure's cost reports (docs.oracle.com/en-us/iaas/Content/Billing/Concepts/
 * usagereportsoverview.htm): `product/service`, `product/Description`, `usage/billedQuantity`,
 * `cost/myCost`, `cost/skuUnitDescription` (`cost/billingUnitReadable` in older ones).
 */
const OCI: BillingFormat = {
  name: "oci",
  title: "Oracle OCI cost report",
  listed: "Oracle OCI",
  versions: [],
  required: ["product_service", "product_region", "usage_billed_quantity", "cost_my_cost"],
  optional: [
    "product_description",
    "product_resource",
    "cost_product_sku",
    "cost_sku_unit_description",
    "cost_billing_unit_readable",
    "line_item_is_correction",
    "line_item_tenant_id",
    "product_resource_id",
    "line_item_interval_usage_start",
    "line_item_interval_usage_end",
  ],
  aliases: {},
  numbers: ["usage_billed_quantity", "cost_my_cost"],
  amortisedCost: [],
  dates: ["line_item_interval_usage_start", "line_item_interval_usage_end"],
  identities: ["line_item_tenant_id", "product_resource_id"],
  currency: ["cost_currency_code"],
  linesQuery: "classify/billing_lines_oci.sql",
  usageQuery: "classify/billing_usage_oci.sql",
};

/** Every format, described once: a new one is its entry here and its two queries (sql/classify/). */
export const BILLING_FORMATS: Readonly<Record<BillingFormatName, BillingFormat>> = {
  focus: FOCUS,
  cur: CUR,
  azure: AZURE,
  gcp: GCP,
  oci: OCI,
};

export const BILLING_FORMAT_NAMES = Object.keys(BILLING_FORMATS) as readonly BillingFormatName[];

/** A column name's letters and digits, lower case: how spellings of one column compare. */
export function bareName(name: string): string {
  return name
    .normalize("NFC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, "");
}

function spellings(column: string | readonly string[]): readonly string[] {
  return typeof column === "string" ? [column] : column;
}

/** The columns a format's queries read, each once, as they read them. */
export function readColumns(format: BillingFormat): readonly string[] {
  return [...new Set([...format.required.flat(), ...format.optional])];
}

/**
 * The columns whose text tells what a line is: every column a format's query reads but its
 * numbers, dates and identities (read per line, never to tell a line's kind). An empty text in one
 * is read as none (emptyAsNone), on every engine alike: DuckDB's CSV reader gives an empty cell as
 * NULL, Hive's and Athena's as an empty text, a Parquet file may hold either.
 */
export function decidingColumns(format: BillingFormat): readonly string[] {
  const perLine = new Set([...format.numbers, ...format.dates, ...format.identities]);
  return readColumns(format).filter((name) => !perLine.has(name));
}

/**
 * The file's spellings of a format's deciding columns in a header (headerColumn's), each once.
 */
export function decidingFileColumns(format: BillingFormat, header: readonly string[]): ReadonlySet<string> {
  return new Set(
    decidingColumns(format).flatMap((name) => {
      const found = headerColumn(format, name, header);
      return found === null ? [] : [found];
    }),
  );
}

/**
 * A cell read with an empty text (blanks alone) as none, whatever its type: a number or a date is
 * never empty, so it is read as it is (the cast to text only tests it). Written in the dialect the
 * engines share (src/billing/portable/render.ts renders the cast's type).
 */
export const emptyAsNone = (cell: string) =>
  `CASE WHEN TRIM(CAST(${cell} AS VARCHAR)) = '' THEN NULL ELSE ${cell} END`;

/**
 * The English name a localised header gives in parentheses (the portals' bilingual form
 * `Kategorie der Verbrauchseinheit (MeterCategory)`, `Quantité (Quantity)`), else null.
 */
function englishName(name: string): string | null {
  const match = /\(([^()]+)\)\s*$/.exec(name);
  return match === null || match.index === 0 ? null : match[1];
}

/**
 * The header's column a format reads as `column`: the one of its name (any case), else of its
 * letters and digits, else one of its aliases, else a localised name with it or an alias in
 * parentheses; null when the header has none.
 */
export function headerColumn(
  format: BillingFormat,
  column: string,
  header: readonly string[],
): string | null {
  const lower = column.toLowerCase();
  const exact = header.find((name) => name.toLowerCase() === lower);
  if (exact !== undefined) return exact;
  for (const spelling of [column, ...(format.aliases[column] ?? [])]) {
    const bare = bareName(spelling);
    const found = header.find((name) => bareName(name) === bare);
    if (found !== undefined) return found;
  }
  // The English name in parentheses may be an alias (OpenCost's German pay-as-you-go header:
  // `UsageQuantity (UsageQuantity)`, `PreTaxCost (PreTaxCost)`)
  for (const spelling of [column, ...(format.aliases[column] ?? [])]) {
    const bare = bareName(spelling);
    const found = header.find((name) => bareName(englishName(name) ?? "") === bare);
    if (found !== undefined) return found;
  }
  return null;
}

/** A run's columns as a format looks them up: see filedColumns. */
export interface FiledColumns {
  /** The run's names, each renamed one under the file's name. */
  readonly header: readonly string[];
  /** The run's name of a column of `header`. */
  readonly runName: (column: string) => string;
}

/**
 * A run's column names (`names`) as a format finds its columns among them: a column the run renamed
 * (`renamed`: the file's name to the run's) is looked up by the file's name, since a format spells
 * the file's columns — snake_case FOCUS's `billing_currency`, which the run writes as
 * `input_billing_currency` (a working column's prefix), is FOCUS's `BillingCurrency`.
 */
export function filedColumns(names: readonly string[], renamed: ReadonlyMap<string, string>): FiledColumns {
  const fileName = new Map([...renamed].map(([file, run]) => [run, file]));
  const header = names.map((name) => fileName.get(name) ?? name);
  return { header, runName: (column) => names[header.indexOf(column)] ?? column };
}

/**
 * The columns naming the currency of a bill's amounts (the format's `currency`, the first found
 * first), as the run names them: found by the file's spelling among the run's `names`.
 */
export function currencyColumns(
  format: BillingFormat,
  names: readonly string[],
  renamed: ReadonlyMap<string, string>,
): string[] {
  const { header, runName } = filedColumns(names, renamed);
  return format.currency.flatMap((name) => headerColumn(format, name, header) ?? []).map(runName);
}

/** The required columns a header lacks for a format (each named by its spellings). */
export function missingColumns(format: BillingFormat, header: readonly string[]): string[] {
  return format.required
    .filter((column) => spellings(column).every((name) => headerColumn(format, name, header) === null))
    .map((column) => spellings(column).join(" or "));
}

/** The columns of a format's query that a header lacks (added empty to its view). */
export function absentColumns(format: BillingFormat, header: readonly string[]): string[] {
  return readColumns(format).filter((name) => headerColumn(format, name, header) === null);
}

/**
 * The columns of a format's query the header lacks that a map column of it keys (keyed):
 * [the query's name, the header's map column, the key].
 */
export function keyedColumns(format: BillingFormat, header: readonly string[]): [string, string, string][] {
  return Object.entries(format.keyed ?? {}).flatMap(([name, { map, key }]): [string, string, string][] => {
    if (headerColumn(format, name, header) !== null) return [];
    const found = header.find((column) => column.toLowerCase() === map);
    return found === undefined ? [] : [[name, found, key]];
  });
}

/** The columns of a format's query a header spells otherwise: [the header's name, the query's]. */
export function aliasedColumns(format: BillingFormat, header: readonly string[]): [string, string][] {
  return readColumns(format).flatMap((name): [string, string][] => {
    const found = headerColumn(format, name, header);
    return found === null || found.toLowerCase() === name.toLowerCase() ? [] : [[found, name]];
  });
}

/** A column name's words, lower case, whatever signs stand between them (`lineItem__UsageType`: lineitem usagetype). */
const words = (name: string) =>
  name
    .normalize("NFC")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== "")
    .join(" ");

/** What a run says it reads a header as: its version's title, else its format's. */
export function readAs(format: BillingFormat, header: readonly string[]): string {
  const spellings = {
    exactly: (name: string) => name.toLowerCase(),
    words,
    bare: bareName,
  };
  // A bilingual header's English name (`PreTaxCost (PreTaxCost)`) tells a version too
  const names = header.flatMap((name) => {
    const english = englishName(name);
    return english === null ? [name] : [name, english];
  });
  const has = ({ column, spelled }: BillingFormatVersion) => {
    const spelling = spellings[spelled ?? "bare"];
    return names.some((name) => spelling(name) === spelling(column));
  };
  return format.versions.find(has)?.title ?? format.title;
}

/** The columns of the cost paid for the hours a header has, as it spells them. */
export function amortisedCostColumns(format: BillingFormat, header: readonly string[]): string[] {
  return format.amortisedCost.flatMap((name) => headerColumn(format, name, header) ?? []);
}

/** The cost the coverage reads, as the summary names it: the paid cost's columns, else the billed cost's. */
export function coverageCostColumn(format: BillingFormat, header: readonly string[]): string {
  const billed = headerColumn(format, format.numbers[1], header) ?? format.numbers[1];
  const amortised = amortisedCostColumns(format, header);
  if (amortised.length === 0) return billed;
  return format.name === "focus" ? amortised.join(", ") : `${billed} amortised by ${amortised.join(", ")}`;
}

/** The format a header fits, the first that fits. */
export function recognisedFormat(header: readonly string[]): BillingFormat | null {
  for (const name of BILLING_FORMAT_NAMES) {
    if (missingColumns(BILLING_FORMATS[name], header).length === 0) return BILLING_FORMATS[name];
  }
  return null;
}

/** What a header is: a format's, nearly one's (at least half its required columns, two or more), or neither. */
export type HeaderClass =
  | { readonly format: BillingFormat }
  | { readonly nearMiss: BillingFormat; readonly missing: readonly string[] }
  | null;

/**
 * The class of a header: the billing path takes a format's header and a near miss (to say what it
 * lacks, exit 2), the inventory reader any other. Of near misses, the format the header has the
 * largest share of the required columns of (the first of equals).
 */
export function classifyHeader(header: readonly string[]): HeaderClass {
  const format = recognisedFormat(header);
  if (format !== null) return { format };
  let closest: { nearMiss: BillingFormat; missing: string[]; share: number } | null = null;
  for (const name of BILLING_FORMAT_NAMES) {
    const candidate = BILLING_FORMATS[name];
    const missing = missingColumns(candidate, header);
    const present = candidate.required.length - missing.length;
    const share = present / candidate.required.length;
    if (present >= 2 && share >= 0.5 && (closest === null || share > closest.share)) {
      closest = { nearMiss: candidate, missing, share };
    }
  }
  return closest === null ? null : { nearMiss: closest.nearMiss, missing: closest.missing };
}

/**
 * FOCUS's datasets besides Cost and Usage (the specification's datasets/<name>/dataset.md): each
 * told by a mandatory column only it has. They hold no usage to estimate: such a file is named
 * and refused, never read as a bill that lacks columns, nor as an inventory.
 */
const FOCUS_SUPPORTING_DATASETS: readonly {
  readonly name: string;
  readonly introduced: string;
  readonly column: string;
  readonly holds: string;
}[] = [
  {
    name: "Contract Commitment",
    introduced: "1.3",
    column: "ContractCommitmentId",
    holds: "the terms of contract commitments",
  },
  {
    name: "Billing Period",
    introduced: "1.4",
    column: "BillingPeriodStatus",
    holds: "billing periods and their status",
  },
  { name: "Invoice Detail", introduced: "1.4", column: "InvoiceDetailId", holds: "the charges as invoiced" },
];

/** Why a header of one of FOCUS's supporting datasets is not evaluated; null for any other header. */
export function focusDatasetProblem(header: readonly string[]): string | null {
  const present = new Set(header.map(bareName));
  const dataset = FOCUS_SUPPORTING_DATASETS.find(({ column }) => present.has(bareName(column)));
  if (dataset === undefined) return null;
  return `FOCUS's ${dataset.name} dataset (FOCUS ${dataset.introduced} and later, told by its ${dataset.column} column): it holds ${dataset.holds}, no usage to estimate; it is not evaluated (the same export's Cost and Usage dataset is)`;
}

/** Why a header fits no format (or not the one asked for): what each lacks, and the formats known. */
export function unrecognisedHeader(header: readonly string[], asked: BillingFormatName | null): string {
  const dataset = asked === null || asked === "focus" ? focusDatasetProblem(header) : null;
  if (dataset !== null) return `the file is ${dataset}`;
  const near = asked === null ? classifyHeader(header) : null;
  if (near !== null && "nearMiss" in near) {
    const { title, name } = near.nearMiss;
    const article = /^[AEIOU]/.test(title) ? "an" : "a";
    return `the header is nearly ${article} ${title} export's (--input ${name}) but lacks ${near.missing.join(", ")}`;
  }
  const formats =
    asked === null ? BILLING_FORMAT_NAMES.map((name) => BILLING_FORMATS[name]) : [BILLING_FORMATS[asked]];
  const lacks = formats.map(
    (format) => `${format.title} (--input ${format.name}) lacks ${missingColumns(format, header).join(", ")}`,
  );
  const known = BILLING_FORMAT_NAMES.map((name) => BILLING_FORMATS[name].title).join(", ");
  return `the header fits no known billing export: ${lacks.join("; ")}. Known formats: ${known}.`;
}
