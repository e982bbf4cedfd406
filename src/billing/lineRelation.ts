/*
 * The line relation: what every format maps its columns to, and every later stage reads. A format
 * is its detection (src/billing/formats/) and its two queries (sql/classify/billing_lines_<format>.sql,
 * then billing_usage_<format>.sql over its result), which keep the export's own columns and add each
 * column below; the methods, the look-up and the impacts read a line through these alone, never a
 * format's own column. Declared once here: the columns that differ line by line (LINE_COLUMNS), the
 * kinds' sums, the recipe's table of docs/billing-code.md (`npm run docs`) and the check of each
 * format's queries (relationGaps, run before a line is read) derive from it.
 */

import { linesQueryOf, usageQueryOf } from "./formats/format.js";
import type { BillingFormat } from "./formats/registry.js";
import { sqlQuery } from "./queries.js";

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
    meaning: "`aws`, `azure`, `gcp`, `oracle`; NULL for a provider not recognised",
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
    meaning: "the region as the export spells it (placed later: src/billing/places.ts)",
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

/**
 * What a format's queries lack of the relation, each as a sentence naming the column and the query
 * that must give it; none for a format every stage can read. `texts`: the queries as the command
 * composes them (src/billing/queries.ts), read from sql/ unless given.
 */
export function relationGaps(
  format: Pick<BillingFormat, "name">,
  texts: { readonly lines: string; readonly usage: string } = {
    lines: sqlQuery(linesQueryOf(format)),
    usage: sqlQuery(usageQueryOf(format)),
  },
): string[] {
  const queries = { lines: linesQueryOf(format), usage: usageQueryOf(format) };
  return LINE_RELATION.filter(
    (column) => !new RegExp(`\\bAS ${column.name}\\b`).test(texts[column.query]),
  ).map(
    (column) =>
      `the ${format.name} format maps no ${column.name} (sql/${queries[column.query]}: ${column.meaning})`,
  );
}

const checked = new Set<string>();

/**
 * Throws, before a line is read, where a format's queries lack a column of the relation, naming
 * each; checked once per format and process.
 */
export function checkRelation(format: Pick<BillingFormat, "name">): void {
  if (checked.has(format.name)) return;
  const gaps = relationGaps(format);
  if (gaps.length > 0)
    throw new Error(
      `billing: ${gaps.join("; ")}; every format maps its columns to the line relation (src/billing/lineRelation.ts)`,
    );
  checked.add(format.name);
}

/** The recipe's table of the relation (docs/billing-code.md, `npm run docs`). */
export function relationTable(): string {
  const rows = LINE_RELATION.map(
    (column) =>
      `| \`${column.name}\` | ${column.type} | ${column.query === "lines" ? "lines" : "usage"} | ${column.of === "line" ? "each line" : "the line's description"} | ${column.meaning} |`,
  );
  return ["| Column | Type | Query | Read from | What it is |", "|---|---|---|---|---|", ...rows].join("\n");
}
