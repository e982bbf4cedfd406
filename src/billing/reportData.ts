/*
 * What the report of a billing run shows, read back from the lines it wrote: the first
 * criterion's impacts (embedded and use) and the cost of the evaluated lines by method, service,
 * region and account, the largest resources, and the bill's currency. Every cost is the one the
 * coverage reads (billing_paid_cost of sql/classify/billing_usage_<format>.sql: FOCUS
 * EffectiveCost, a CUR's amortised cost where it has the columns, else the billed cost), computed
 * by the same query over the written lines, so that each table sums to the coverage's estimated
 * cost. A line is named by the export's name where it has one (FOCUS ServiceName, a CUR's product
 * name, a resource's `Name` tag), its id kept for the reader's hover.
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { identifier, literal } from "../duckdb/database.js";
import { createExactSumMacros, exactSumParts, finishedSums } from "../duckdb/exactSum.js";
import { impactColumn } from "../output/columns.js";
import { BILLING_FORMATS, type BillingFormatName, filedColumns, headerColumn } from "./formats.js";
import { spellingKey } from "./places.js";
import { sqlQuery } from "./queries.js";
import { NO_REGION_SPELLINGS } from "./registry/regions.js";
import { exportAddedColumns } from "./stages/classify.js";

/**
 * A column of the export, a key of one of its maps (a CUR 2.0's `product`, `resource_tags`), or a
 * column read only on lines where it names the line's own id (`sameAs`: two columns whose cells are
 * equal there; a CUR's `product_servicename` names `product_servicecode`, which is the product
 * code's own only on some lines: an EC2 line of data transfer is `AWSDataTransfer`'s).
 */
type Source =
  | string
  | { readonly map: string; readonly key: string; readonly sameAs?: readonly [string, string] }
  | { readonly column: string; readonly sameAs: readonly [string, string] };

/**
 * The format's columns a dimension of the report reads: on each line, the first of them the file
 * has that is not empty (a name before its id, a sub-account before the billing account). `id`:
 * what tells its rows apart, where the name may be shared or absent (a service's code, a
 * resource's id); the rows are named by `name`, else by their id.
 */
interface DimensionSources {
  readonly name: readonly Source[];
  readonly id?: readonly Source[];
}

const DIMENSIONS: Readonly<Record<BillingFormatName, Readonly<Record<Dimension, DimensionSources>>>> = {
  focus: {
    service: { name: ["ServiceName"] },
    region: { name: ["RegionId"] },
    account: { name: ["SubAccountName", "SubAccountId", "BillingAccountName", "BillingAccountId"] },
    resource: { name: ["ResourceName"], id: ["ResourceId", "ResourceName"] },
  },
  cur: {
    // AWS's product names (legacy product/ProductName, CUR 2.0's product map), the code as id
    service: {
      name: [
        "product_product_name",
        { column: "product_servicename", sameAs: ["product_servicecode", "line_item_product_code"] },
        { map: "product", key: "servicename", sameAs: ["product_servicecode", "line_item_product_code"] },
      ],
      id: ["line_item_product_code"],
    },
    region: { name: ["product_region_code", "product_region", "product_from_region_code"] },
    account: { name: ["line_item_usage_account_name", "line_item_usage_account_id"] },
    resource: {
      name: [
        "resource_tags_user_name",
        { map: "resource_tags", key: "user_name" },
        { map: "resource_tags", key: "user:Name" },
      ],
      id: ["line_item_resource_id"],
    },
  },
  azure: {
    service: { name: ["MeterCategory"] },
    region: { name: ["ResourceLocation"] },
    account: { name: ["SubscriptionName", "SubscriptionId"] },
    resource: { name: ["ResourceName"], id: ["ResourceId", "ResourceName"] },
  },
  gcp: {
    service: { name: ["service_description"] },
    region: { name: ["location_region", "location_location"] },
    account: { name: ["project_name", "project_id"] },
    resource: { name: ["resource_name"] },
  },
  oci: {
    service: { name: ["product_service"] },
    region: { name: ["product_region"] },
    account: { name: ["line_item_tenant_id"] },
    resource: { name: ["product_resource_id"] },
  },
};
type Dimension = "service" | "region" | "account" | "resource";
type Ranking = "method" | "service" | "region" | "account" | "resource";

/** Rows of each ranking kept; the rest are summed in one row (`others`). */
const RANKED = 12;

export interface RankedImpact {
  readonly name: string;
  /** The id the export gives besides the name, when it differs from it (shown on hover). */
  readonly id?: string;
  readonly lines: number;
  readonly cost: number;
  readonly embedded: number;
  readonly use: number;
}

/** A ranking: its largest rows, and the rest summed (null when there is no rest). */
export interface Ranked {
  readonly rows: readonly RankedImpact[];
  /** The rows past the largest, summed; `name` counts them ("37 more"). */
  readonly others: RankedImpact | null;
}

export interface BillReportData {
  readonly byMethod: Ranked;
  readonly byService: Ranked;
  readonly byRegion: Ranked;
  readonly byAccount: Ranked;
  readonly resources: Ranked;
  /** The bill's currency (`USD`), several joined (`EUR, USD`), or null when the export has none. */
  readonly currency: string | null;
}

interface Written {
  readonly file: string;
  readonly format: "csv" | "parquet";
  readonly header: readonly string[];
  /** The file's names the run wrote otherwise (`billing_currency` as input_billing_currency): the file's, the run's. */
  readonly renamed: ReadonlyMap<string, string>;
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

/** A source's cell as text, or null where the written file lacks it. */
function cellOf(written: Written, source: Source, textColumns: ReadonlySet<string>): string | null {
  const format = BILLING_FORMATS[written.input];
  const { header, runName } = filedColumns(written.header, written.renamed);
  const fileColumn = (name: string) => {
    const found = headerColumn(format, name, header);
    return found === null ? null : `CAST(${identifier(runName(found))} AS VARCHAR)`;
  };
  if (typeof source === "string") return fileColumn(source);
  const cell = "column" in source ? fileColumn(source.column) : mapCell(written, source, textColumns);
  if (cell === null || source.sameAs === undefined) return cell;
  const [a, b] = source.sameAs.map(fileColumn);
  return a === null || b === null ? null : `CASE WHEN ${a} = ${b} THEN ${cell} END`;
}

/** A map's key as text, from Parquet's MAP or its JSON text as CSV writes it; null where the file lacks the map. */
function mapCell(
  written: Written,
  source: { readonly map: string; readonly key: string },
  textColumns: ReadonlySet<string>,
): string | null {
  const { header, runName } = filedColumns(written.header, written.renamed);
  const found = headerColumn(BILLING_FORMATS[written.input], source.map, header);
  if (found === null) return null;
  const column = runName(found);
  const key = literal(source.key);
  return textColumns.has(column)
    ? `TRY(json_extract_string(${identifier(column)}, ${literal(`$."${source.key}"`)}))`
    : `TRY(CAST(element_at(${identifier(column)}, ${key})[1] AS VARCHAR))`;
}

/** The first non-empty cell of the sources the file has, or NULL. */
function firstCell(
  written: Written,
  sources: readonly Source[],
  textColumns: ReadonlySet<string>,
  region = false,
): string {
  const cells = sources
    .map((source) => cellOf(written, source, textColumns))
    .filter((cell) => cell !== null)
    // An empty cell and the text `NULL` (the FinOps Foundation's sample writes it for none) are none
    .map((cell) => `NULLIF(NULLIF(TRIM(${cell}), ''), 'NULL')`)
    .map((cell) => (region ? regionCell(cell) : cell));
  if (cells.length === 0) return "CAST(NULL AS VARCHAR)";
  return cells.length === 1 ? cells[0] : `COALESCE(${cells.join(", ")})`;
}

/** The source of the written lines, as DuckDB reads them. */
const sourceOf = (written: Written) =>
  written.format === "parquet"
    ? `read_parquet(${literal(written.file)})`
    : `read_csv(${literal(written.file)}, header = true, all_varchar = true)`;

/** The names of the text columns of the written lines (a map is text in CSV). */
async function textColumnsOf(connection: DuckDBConnection, written: Written): Promise<Set<string>> {
  const reader = await connection.runAndReadAll(`DESCRIBE SELECT * FROM ${sourceOf(written)}`);
  return new Set(
    reader
      .getRowObjects()
      .filter((row) => String(row.column_type) === "VARCHAR")
      .map((row) => String(row.column_name)),
  );
}

/** The table the report's rankings read: one row per evaluated line. */
export const REPORT_LINES = "report_lines";

/**
 * The evaluated lines as the report ranks them: each dimension's name and id, and the line's cost
 * as the coverage reads it — the format's own queries (its lines, then its usage with
 * billing_paid_cost) over the written file, the file's columns read under the queries' names.
 */
async function createReportLines(connection: DuckDBConnection, written: Written): Promise<void> {
  const format = BILLING_FORMATS[written.input];
  const text = await textColumnsOf(connection, written);
  const dimension = (name: Dimension) =>
    firstCell(written, DIMENSIONS[written.input][name].name, text, name === "region");
  const idOf = (name: Dimension) => {
    const sources = DIMENSIONS[written.input][name].id;
    return sources === undefined ? dimension(name) : firstCell(written, sources, text);
  };
  const number = (column: string) => `COALESCE(TRY_CAST(${identifier(column)} AS DOUBLE), 0)`;
  const { header, runName } = filedColumns(written.header, written.renamed);
  const added = exportAddedColumns(format, header, "CAST(NULL AS VARCHAR)", (column) =>
    identifier(runName(column)),
  );
  const exported = `SELECT *, ${added} FROM ${sourceOf(written)}`;
  await connection.run(
    `CREATE OR REPLACE TEMP TABLE ${REPORT_LINES} AS
     WITH billing_export AS (${exported}),
       billing_lines AS (${sqlQuery(format.linesQuery)}),
       billing_usage AS (${sqlQuery(format.usageQuery)})
     SELECT method, ${dimension("service")} AS service, ${idOf("service")} AS service_id,
       ${dimension("region")} AS region, ${dimension("account")} AS account,
       ${dimension("resource")} AS resource, ${idOf("resource")} AS resource_id,
       CASE WHEN billing_paid_cost > 0 THEN billing_paid_cost ELSE 0 END AS cost,
       ${number(written.embeddedColumn)} AS embedded, ${number(written.useColumn)} AS use
     FROM billing_usage WHERE status = 'evaluated'`,
  );
}

/** Currencies listed before the rest are counted: a bill has one, a merged export a few. */
const LISTED_CURRENCIES = 3;

async function currencyOf(connection: DuckDBConnection, written: Written): Promise<string | null> {
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

/** What a ranking groups by (its id, where it has one) and names its rows with. */
const RANKINGS: Readonly<Record<Ranking, { readonly id: string; readonly name: string }>> = {
  method: { id: "method", name: "method" },
  service: { id: "COALESCE(service_id, service)", name: "service" },
  region: { id: "region", name: "region" },
  account: { id: "account", name: "account" },
  // A line without a resource id is a resource of its own kind, named so
  resource: { id: "resource_id", name: "COALESCE(resource, resource_id, '(no resource)')" },
};

export async function ranked(connection: DuckDBConnection, ranking: Ranking): Promise<Ranked> {
  const { id, name } = RANKINGS[ranking];
  // Summed exactly (src/duckdb/exactSum.ts), the groups and the rows past the ranked ones: a row's
  // sums, and so the ranks, whatever DuckDB's threads
  await createExactSumMacros(connection);
  const sums = ["cost", "embedded", "use"];
  const parts = sums.map((column) => exactSumParts(column, column)).join(", ");
  const groups = finishedSums(
    `SELECT ${id} AS id, MIN(${name}) AS name, COUNT(*)::DOUBLE AS lines, ${parts}
     FROM ${REPORT_LINES} GROUP BY 1`,
    sums,
  );
  const places = finishedSums(
    `SELECT CASE WHEN rank <= ${RANKED} THEN rank ELSE ${RANKED + 1} END AS place,
       MIN(id) AS id, MIN(name) AS name, COUNT(*)::DOUBLE AS groups, SUM(lines) AS lines, ${parts}
     FROM (SELECT *, ROW_NUMBER() OVER (ORDER BY embedded + use DESC, name, id) AS rank FROM (${groups}))
     GROUP BY 1`,
    sums,
  );
  const reader = await connection.runAndReadAll(`SELECT * FROM (${places}) ORDER BY place`);
  const rows = reader.getRowObjects().map((row) => {
    const name = row.name === null ? "" : String(row.name);
    const id = row.id === null ? undefined : String(row.id);
    return {
      place: Number(row.place),
      groups: Number(row.groups),
      impact: {
        name,
        ...(id !== undefined && id !== name ? { id } : {}),
        lines: Number(row.lines),
        cost: Number(row.cost ?? 0),
        embedded: Number(row.embedded ?? 0),
        use: Number(row.use ?? 0),
      },
    };
  });
  const rest = rows.find((row) => row.place > RANKED);
  return {
    rows: rows.filter((row) => row.place <= RANKED).map((row) => row.impact),
    others:
      rest === undefined
        ? null
        : { ...rest.impact, name: `${rest.groups.toLocaleString("en-US")} more`, id: undefined },
  };
}

export async function billReportData(
  connection: DuckDBConnection,
  written: Written,
): Promise<BillReportData> {
  await createReportLines(connection, written);
  try {
    return {
      byMethod: await ranked(connection, "method"),
      byService: await ranked(connection, "service"),
      byRegion: await ranked(connection, "region"),
      byAccount: await ranked(connection, "account"),
      resources: await ranked(connection, "resource"),
      currency: await currencyOf(connection, written),
    };
  } finally {
    await connection.run(`DROP TABLE IF EXISTS ${REPORT_LINES}`);
  }
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
