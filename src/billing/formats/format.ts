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
  /** The columns the report's dimensions read (src/billing/report/lines.ts). */
  readonly dimensions: Readonly<Record<Dimension, DimensionSources>>;
}

/** A column of the export, or a key of one of its maps (a CUR 2.0's `product`, `resource_tags`). */
export type DimensionSource =
  | string
  | { readonly map: string; readonly key: string; readonly sameAs?: readonly [string, string] }
  | { readonly column: string; readonly sameAs: readonly [string, string] };

/**
 * The format's columns a dimension of the report reads: on each line, the first of them the file
 * has that is not empty (a name before its id, a sub-account before the billing account). `id`:
 * what tells its rows apart, where the name may be shared or absent (a service's code, a
 * resource's id); the rows are named by `name`, else by their id.
 */
export interface DimensionSources {
  readonly name: readonly DimensionSource[];
  readonly id?: readonly DimensionSource[];
}

export type Dimension = "service" | "region" | "account" | "resource";

/** A format's query (sql/), from the file as it is to billing lines: named after the format. */
export const linesQueryOf = (format: Pick<BillingFormat, "name">) =>
  `classify/billing_lines_${format.name}.sql`;

/**
 * A format's query (sql/) adding what the methods of other lines read (service, usage text,
 * cost): named after the format.
 */
export const usageQueryOf = (format: Pick<BillingFormat, "name">) =>
  `classify/billing_usage_${format.name}.sql`;
