/*
 * The billing exports read as they are, each recognised by its header: the columns it must have
 * (one of several spellings where its versions differ) and the other columns its query reads
 * (present and empty when a file lacks them). Column names are matched without regard to case:
 * Azure writes `MeterCategory` in some exports and `meterCategory` in others.
 */

export const BILLING_FORMAT_NAMES = ["focus", "cur", "azure"] as const;
export type BillingFormatName = (typeof BILLING_FORMAT_NAMES)[number];

export interface BillingFormat {
  readonly name: BillingFormatName;
  /** As the summary and errors name it. */
  readonly title: string;
  /** Columns it must have; an inner list is one column spelled as any of its versions spell it. */
  readonly required: readonly (string | readonly string[])[];
  /** Columns its query reads besides (added empty when the file lacks them). */
  readonly optional: readonly string[];
  /** The columns read as numbers, each a number or its text: quantity and cost (every other is text). */
  readonly numbers: readonly string[];
  /** The columns of a line's period (sql/billing_periods.sql), each a date, a timestamp or its text. */
  readonly dates: readonly string[];
  /**
   * The columns naming a line's account and resource: read into billing_account and
   * billing_resource only, never to tell what a line is (src/billing/tuples.ts reads them per line).
   */
  readonly identities: readonly string[];
  /** Its query (sql/), from the file as it is to billing lines. */
  readonly linesQuery: string;
  /** Its query (sql/) adding what the methods of other lines read: service, usage text, cost. */
  readonly usageQuery: string;
}

export const BILLING_FORMATS: Readonly<Record<BillingFormatName, BillingFormat>> = {
  focus: {
    name: "focus",
    title: "FOCUS 1.0–1.2",
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
      "x_ServiceCode",
      "x_Operation",
      "x_UsageType",
      "x_SkuMeterCategory",
      "x_SkuMeterName",
      "x_SkuDetails",
      "x_SkuMeterSubcategory",
      "BilledCost",
      "BillingAccountId",
      "SubAccountId",
      "ResourceId",
      "ChargePeriodStart",
      "ChargePeriodEnd",
    ],
    numbers: ["ConsumedQuantity", "BilledCost"],
    dates: ["ChargePeriodStart", "ChargePeriodEnd"],
    identities: ["BillingAccountId", "SubAccountId", "ResourceId"],
    linesQuery: "billing_lines_focus.sql",
    usageQuery: "billing_usage_focus.sql",
  },
  cur: {
    name: "cur",
    title: "AWS CUR 2.0",
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
      "product_product_family",
      "line_item_unblended_cost",
      "line_item_usage_account_id",
      "line_item_resource_id",
      "line_item_usage_start_date",
      "line_item_usage_end_date",
    ],
    numbers: ["line_item_usage_amount", "line_item_unblended_cost"],
    dates: ["line_item_usage_start_date", "line_item_usage_end_date"],
    identities: ["line_item_usage_account_id", "line_item_resource_id"],
    linesQuery: "billing_lines_cur.sql",
    usageQuery: "billing_usage_cur.sql",
  },
  azure: {
    name: "azure",
    title: "Azure cost export",
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
    numbers: ["Quantity", "CostInBillingCurrency"],
    dates: ["Date", "BillingPeriodStartDate", "BillingPeriodEndDate"],
    identities: ["SubscriptionId", "ResourceId"],
    linesQuery: "billing_lines_azure.sql",
    usageQuery: "billing_usage_azure.sql",
  },
};

function spellings(column: string | readonly string[]): readonly string[] {
  return typeof column === "string" ? [column] : column;
}

/** The required columns a header lacks for a format (each named by its first spelling). */
export function missingColumns(format: BillingFormat, header: readonly string[]): string[] {
  const present = new Set(header.map((name) => name.toLowerCase()));
  return format.required
    .filter((column) => !spellings(column).some((name) => present.has(name.toLowerCase())))
    .map((column) => spellings(column).join(" or "));
}

/** The columns of a format's query that a header lacks (added empty to its view). */
export function absentColumns(format: BillingFormat, header: readonly string[]): string[] {
  const present = new Set(header.map((name) => name.toLowerCase()));
  return format.optional.filter((name) => !present.has(name.toLowerCase()));
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
 * lacks, exit 2), the inventory reader any other.
 */
export function classifyHeader(header: readonly string[]): HeaderClass {
  const format = recognisedFormat(header);
  if (format !== null) return { format };
  for (const name of BILLING_FORMAT_NAMES) {
    const candidate = BILLING_FORMATS[name];
    const missing = missingColumns(candidate, header);
    const present = candidate.required.length - missing.length;
    if (present >= 2 && present * 2 >= candidate.required.length) return { nearMiss: candidate, missing };
  }
  return null;
}

/** Why a header fits no format (or not the one asked for): what each lacks, and the formats known. */
export function unrecognisedHeader(header: readonly string[], asked: BillingFormatName | null): string {
  const near = asked === null ? classifyHeader(header) : null;
  if (near !== null && "nearMiss" in near) {
    const { title, name } = near.nearMiss;
    return `the header is nearly a ${title} export's (--input ${name}) but lacks ${near.missing.join(", ")}`;
  }
  const formats =
    asked === null ? BILLING_FORMAT_NAMES.map((name) => BILLING_FORMATS[name]) : [BILLING_FORMATS[asked]];
  const lacks = formats.map(
    (format) => `${format.title} (--input ${format.name}) lacks ${missingColumns(format, header).join(", ")}`,
  );
  const known = BILLING_FORMAT_NAMES.map((name) => BILLING_FORMATS[name].title).join(", ");
  return `the header fits no known billing export: ${lacks.join("; ")}. Known formats: ${known}.`;
}
