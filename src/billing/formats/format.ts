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

import type { DuckDBConnection } from "@duckdb/node-api";
import { PROVIDERS, type ProviderId } from "../providers/index.js";

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

/**
 * A format, by its name (`Name`: `--input`'s); the names the command reads, BillingFormatName,
 * are derived from the list of these (src/billing/formats/knownFormats.ts).
 */
export interface BillingFormat<Name extends string = string> {
  readonly name: Name;
  /** As the summary and errors name it (a version's own title when the header is one's). */
  readonly title: string;
  /** As the command's usage lists it among the formats read, with the versions read (`AWS CUR 2.0 and 1.0`). */
  readonly listed: string;
  /** Versions named apart from the format's title, read by the same query. */
  readonly versions: readonly BillingFormatVersion[];
  /**
   * The provider every line of its bills (its module's id: CUR's `aws`), written into its lines' query
   * at `-- @provider of format <name>` (src/billing/queries.ts); null where a column of each line
   * names it (FOCUS's ServiceProviderName).
   */
  readonly provider: ProviderId | null;
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
  /** The columns the report's dimensions read (src/billing/stages/writtenLines.ts). */
  readonly dimensions: Readonly<Record<Dimension, DimensionSources>>;
  /**
   * Units its quantities are in that the methods read in another (Google Cloud's `byte-seconds` as
   * GiB-hours), written into its usage query at `-- @rescaled <units|scales> of format <name>`.
   */
  readonly rescaled?: readonly RescaledUnit[];
  /**
   * The unit a line written without one is in, by what its column says it measures (a CUR's usage
   * type `…-Bytes` in GB), the first that matches; written into its usage query at `-- @implied
   * units of format <name> over <alias>`. A line none matches stays without a unit.
   */
  readonly impliedUnits?: readonly ImpliedUnit[];
  /**
   * The values of a column of its marking a line as an instance's hours (Azure's MeterCategory
   * `Virtual Machines`), written into its lines' query at `-- @compute lines of format <name> over
   * <alias>`; absent where its query's own rules say it.
   */
  readonly computeWhen?: { readonly column: string; readonly oneOf: readonly string[] };
  /**
   * How its lines of an instance's hours are told by the service that bills them (a CUR's product
   * code), written into its lines' query at `-- @instance hours <kinds|unit> of format <name> over
   * <alias>`; absent where its query's own rules say it.
   */
  readonly instanceHours?: InstanceHours;
  /**
   * The column writing an instance's memory as a number and a unit (`8 GiB`), read in GiB at
   * `-- @instance memory of format <name> over <alias>`.
   */
  readonly instanceMemory?: { readonly column: string; readonly unit: string };
}

/**
 * A format's instance hours by service: a service whose operation tells them (the type then named
 * by the type column or by a usage type of `namedBy`), or a managed service whose nodes are instance
 * types, told by its usage type. LIKE patterns as written; `lower`: matched on the lower case.
 */
export interface InstanceHours {
  readonly columns: {
    readonly service: string;
    readonly operation: string;
    readonly usageType: string;
    readonly instanceType: string;
  };
  readonly byOperation: readonly { readonly service: string; readonly operation: string }[];
  readonly namedBy: readonly string[];
  readonly byNode: readonly {
    readonly services: readonly string[];
    readonly usageType: string;
    readonly lower?: true;
    /** Its lines without a unit are in `hoursUnit` (SageMaker's, which no usage type pattern marks). */
    readonly hourly?: true;
  }[];
  /** The unit of an instance's line written without one, and the usage types that mark it as such. */
  readonly hoursUnit: { readonly unit: string; readonly usageTypes: readonly string[] };
}

/** A unit a format's line without one is in: its column's value matches one of the LIKE patterns, as written. */
export interface ImpliedUnit {
  readonly unit: string;
  readonly column: string;
  readonly like: readonly string[];
}

/** A unit a format's quantities are in, read as another: its quantity divided by the units of it in one of that. */
export interface RescaledUnit {
  /** As the export writes it, lower case, trimmed (`byte-seconds`). */
  readonly unit: string;
  /** The unit the methods read it as (`GiB Hours`). */
  readonly readAs: string;
  /** The factors whose product is how many of `unit` one of `readAs` is (`GiB Hours`: 1,073,741,824 bytes × 3,600 seconds). */
  readonly per: readonly number[];
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

/*
 * The line relation: what every format maps its columns to, and every later stage reads. A format
 * is its detection (its module of this folder) and its two queries (linesQueryOf, usageQueryOf),
 * which keep the export's own columns and add each column below; the methods, the look-up and the
 * impacts read a line through these alone, never a format's own column. Declared once here: the
 * columns that differ line by line (LINE_COLUMNS), the recipe's table of docs/billing-code.md
 * (`npm run docs`) and the check of each format's queries on DuckDB (relationGaps, run before a
 * line is read) derive from it.
 */

/** A column of the line relation. */
export interface RelationColumn {
  readonly name: string;
  readonly type: "text" | "number";
  /** The format's query that gives it: its lines query, or its usage query (which reads the lines'). */
  readonly query: "lines" | "usage";
  /**
   * What differs line by line (`line`: computed on each line, never a tuple's: its quantity, costs,
   * account, resource, period) or is told by the columns that describe a line (`tuple`: the format's
   * queries run once per distinct tuple of them: src/billing/stages/evaluate.ts).
   */
  readonly of: "line" | "tuple";
  readonly meaning: string;
}

export const LINE_RELATION: readonly RelationColumn[] = [
  {
    name: "billing_provider",
    type: "text",
    query: "lines",
    of: "tuple",
    meaning: `${PROVIDERS.map((provider) => `\`${provider.id}\``).join(", ")}; NULL for a provider not recognised`,
  },
  {
    name: "billing_line_kind",
    type: "text",
    query: "lines",
    of: "tuple",
    meaning:
      "`compute` (an instance's hours), `not compute`, or a reason its machine type is not billed (`machine type not billed`)",
  },
  {
    name: "billing_instance_type",
    type: "text",
    query: "lines",
    of: "tuple",
    meaning: "the instance type the line bills, as billed (matched later); NULL for none",
  },
  {
    name: "billing_instance_vcpus",
    type: "number",
    query: "lines",
    of: "tuple",
    meaning: "the vCPUs the bill gives the instance type (a CUR's `product/vcpu`), else NULL",
  },
  {
    name: "billing_instance_memory_gib",
    type: "number",
    query: "lines",
    of: "tuple",
    meaning: "its memory in GiB as the bill gives it (`384 GiB`), else NULL",
  },
  {
    name: "billing_unit",
    type: "text",
    query: "lines",
    of: "tuple",
    meaning: "the unit of the quantity, as billed (an instance's hours: `Hrs`, `1 Hour`)",
  },
  {
    name: "billing_region",
    type: "text",
    query: "lines",
    of: "tuple",
    meaning: "the region as the export writes it (placed later: src/billing/places.ts)",
  },
  {
    name: "billing_service",
    type: "text",
    query: "usage",
    of: "tuple",
    meaning: "the service (FOCUS `ServiceName`, a CUR's product code, Azure's meter category)",
  },
  {
    name: "billing_service_category",
    type: "text",
    query: "usage",
    of: "tuple",
    meaning: "the service's family (`ServiceCategory`, `product_product_family`)",
  },
  {
    name: "billing_charge",
    type: "text",
    query: "usage",
    of: "tuple",
    meaning:
      "the charge's category as FOCUS names them: `usage`, `unused`, `purchase`, `tax`, `credit`, `adjustment`, `fee`, `other`",
  },
  {
    name: "billing_usage_text",
    type: "text",
    query: "usage",
    of: "tuple",
    meaning:
      "the texts saying what a line uses (service, product, SKU, meter, usage type, operation), lower case, joined by ` | `: what the rules read",
  },
  {
    name: "billing_usage_unit",
    type: "text",
    query: "usage",
    of: "tuple",
    meaning:
      "the unit the methods read (the billed one, or the one its usage type measures where the bill has none)",
  },
  {
    name: "billing_usage_scale",
    type: "number",
    query: "usage",
    of: "tuple",
    meaning:
      "units of `billing_usage_unit` per unit of the quantity where they differ (Google's byte-seconds), else NULL",
  },
  {
    name: "billing_quantity",
    type: "number",
    query: "lines",
    of: "line",
    meaning: "the quantity, in `billing_unit`",
  },
  {
    name: "billing_cost",
    type: "number",
    query: "usage",
    of: "line",
    meaning: "the billed cost",
  },
  {
    name: "billing_paid_cost",
    type: "number",
    query: "usage",
    of: "line",
    meaning:
      "the cost paid for the hours, the one the coverage, the report and by-cost read (FOCUS `EffectiveCost`, a CUR's amortised cost), else the billed cost",
  },
  {
    name: "billing_account",
    type: "text",
    query: "usage",
    of: "line",
    meaning: "the account (sub-account, subscription, project, tenancy)",
  },
  {
    name: "billing_resource",
    type: "text",
    query: "usage",
    of: "line",
    meaning: "the resource's id",
  },
  {
    name: "billing_period_start_text",
    type: "text",
    query: "lines",
    of: "line",
    meaning: "the period's start as written (sql/evaluate/billing_periods.sql reads it)",
  },
  {
    name: "billing_period_end_text",
    type: "text",
    query: "lines",
    of: "line",
    meaning: "the period's end as written",
  },
  {
    name: "billing_period_end_days",
    type: "number",
    query: "lines",
    of: "line",
    meaning:
      "days after the end's date the period ends (1 where the end is its last day, Azure's `Date`), else 0",
  },
];

/** The relation's columns that differ line by line, in the relation's order. */
export const LINE_COLUMNS: readonly string[] = LINE_RELATION.filter((column) => column.of === "line").map(
  (column) => column.name,
);

/** The relation's columns read as numbers. */
export const RELATION_NUMBERS: ReadonlySet<string> = new Set(
  LINE_RELATION.filter((column) => column.type === "number").map((column) => column.name),
);

/** DuckDB's type of each type of the relation: its texts are VARCHAR, its numbers DOUBLE. */
export const RELATION_DUCKDB_TYPES: Readonly<Record<RelationColumn["type"], string>> = {
  text: "VARCHAR",
  number: "DOUBLE",
};

/** The columns of a format's two queries as DuckDB made them (DESCRIBE), by name: their types. */
export type DescribedRelation = Readonly<Record<RelationColumn["query"], ReadonlyMap<string, string>>>;

/**
 * What a format's queries lack of the relation, or give with another type, each as a sentence
 * naming the column, the type it has and the query that must give it; none for a format every
 * stage can read. `described`: the queries' relations as DuckDB made them (describedRelation), so
 * that a name in a comment or a text named as a number is no column of the relation.
 */
export function relationGaps(format: Pick<BillingFormat, "name">, described: DescribedRelation): string[] {
  const queries = { lines: linesQueryOf(format), usage: usageQueryOf(format) };
  return LINE_RELATION.flatMap((column) => {
    const type = described[column.query].get(column.name);
    const wanted = RELATION_DUCKDB_TYPES[column.type];
    if (type === wanted) return [];
    const what =
      type === undefined
        ? `maps no ${column.name}`
        : `maps ${column.name} as ${type}, not ${wanted} (a ${column.type})`;
    return [`the ${format.name} format ${what} (sql/${queries[column.query]}: ${column.meaning})`];
  });
}

/** The view of each of a format's queries (src/billing/stages/classify.ts, createLineViews). */
const RELATION_VIEWS: Readonly<Record<RelationColumn["query"], string>> = {
  lines: "billing_lines",
  usage: "billing_usage",
};

/** The columns and types DuckDB gives the views of a format's two queries (billing_lines, billing_usage). */
export async function describedRelation(connection: DuckDBConnection): Promise<DescribedRelation> {
  const described = async (view: string) =>
    new Map(
      (await connection.runAndReadAll(`DESCRIBE ${view}`))
        .getRowObjects()
        .map((row) => [String(row.column_name), String(row.column_type)] as const),
    );
  return { lines: await described(RELATION_VIEWS.lines), usage: await described(RELATION_VIEWS.usage) };
}

/**
 * Throws, before a line is read, where the views of a format's queries on `connection` lack a
 * column of the relation or give it another type, naming each.
 */
export async function checkRelation(
  connection: DuckDBConnection,
  format: Pick<BillingFormat, "name">,
): Promise<void> {
  const gaps = relationGaps(format, await describedRelation(connection));
  if (gaps.length > 0)
    throw new Error(
      `billing: ${gaps.join("; ")}; every format maps its columns to the line relation (src/billing/formats/format.ts)`,
    );
}

/** The recipe's table of the relation (docs/billing-code.md, `npm run docs`). */
export function relationTable(): string {
  const rows = LINE_RELATION.map(
    (column) =>
      `| \`${column.name}\` | ${column.type} | ${column.query === "lines" ? "lines" : "usage"} | ${column.of === "line" ? "each line" : "the line's description"} | ${column.meaning} |`,
  );
  return ["| Column | Type | Query | Read from | What it is |", "|---|---|---|---|---|", ...rows].join("\n");
}
