/*
 * The views every pass of a billing run reads: the export as it is (billing_export, with the
 * columns its format's query reads), its billing lines (sql/classify/billing_lines_<format>.sql), what
 * the methods of other lines read (sql/classify/billing_usage_<format>.sql), their methods
 * (sql/classify/billing_methods.sql) and their hours and region keys (sql/classify/billing_classified.sql).
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { identifier } from "../duckdb/database.js";
import { reasonableSql } from "../support/numbers.js";
import { absentColumns, aliasedColumns, amortisedCostColumns, type BillingFormat } from "./formats.js";
import { sqlQuery } from "./queries.js";

/** Where a pass reads the export's lines from. */
export interface LineSource {
  /** A table expression (a table function, or a query in parentheses). */
  readonly from: string;
  /** Its columns as the run names them (src/billing/inputColumns.ts). */
  readonly header: readonly string[];
  /** Columns of `from` (named as the file names them) read under another name. */
  readonly renamed: ReadonlyMap<string, string>;
  readonly format: BillingFormat;
  /** The header's column holding Google Cloud lines' machine type (--instance-type-column). */
  readonly typeHintColumn: string | null;
  /**
   * Whether its quantities and costs were checked already (the first pass's sums of checked lines,
   * which may pass the bound that each line is held to).
   */
  readonly numbersChecked?: boolean;
}

/**
 * The format's usage query with each line's quantity and cost held to the numbers every input is
 * (src/support/numbers.ts): a line whose quantity or cost is not finite, or out of the reasonable
 * range (`NaN`, `Infinity`, `1e308`), has neither, so that it is a bad row (sql/evaluate/billing_impacts.sql)
 * and adds nothing to the sums; -0 is read as 0. The format's query casts them with TRY_CAST.
 */
function checkedUsageQuery(query: string): string {
  const unreasonable = (column: string) => `(${column} IS NOT NULL AND NOT ${reasonableSql(column)})`;
  const bad = `${unreasonable("u.billing_quantity")} OR ${unreasonable("u.billing_cost")}`;
  return `SELECT u.* REPLACE (
      CASE WHEN ${bad} THEN NULL ELSE u.billing_quantity + 0.0 END AS billing_quantity,
      CASE WHEN ${bad} THEN NULL ELSE u.billing_cost + 0.0 END AS billing_cost)
    FROM (${query}) u`;
}

/**
 * The columns billing_export adds to the file's, as a select list: each column of the format's
 * query the file spells otherwise under the query's name (CUR 1.0's lineItem/UsageType as
 * line_item_usage_type), each it lacks empty, billing_type_hint (`hint`: an expression) and
 * billing_amortised (whether the file has the columns of the cost paid for the hours). What
 * another engine adds to run the queries (docs/billing.md). `read`: how a column of the header is
 * read (another engine's script reads a nested export's `service.description` as a record's field).
 */
export function exportAddedColumns(
  format: BillingFormat,
  header: readonly string[],
  hint: string,
  read: (column: string) => string = identifier,
): string {
  const aliased = aliasedColumns(format, header).map(
    ([spelled, name]) => `${read(spelled)} AS ${identifier(name)}`,
  );
  const absent = absentColumns(format, header).map((name) => `CAST(NULL AS VARCHAR) AS ${identifier(name)}`);
  const amortised = `${amortisedCostColumns(format, header).length > 0} AS billing_amortised`;
  return [...aliased, ...absent, `${hint} AS billing_type_hint`, amortised].join(", ");
}

/** Creates the views billing_export, billing_lines, billing_usage, billing_methods and billing_classified over a source. */
export async function createLineViews(connection: DuckDBConnection, source: LineSource): Promise<void> {
  const hint =
    source.typeHintColumn === null
      ? "CAST(NULL AS VARCHAR)"
      : `NULLIF(TRIM(CAST(${identifier(source.typeHintColumn)} AS VARCHAR)), '')`;
  const rename =
    source.renamed.size === 0
      ? ""
      : ` RENAME (${[...source.renamed].map(([from, to]) => `${identifier(from)} AS ${identifier(to)}`).join(", ")})`;
  await connection.run(
    `CREATE OR REPLACE VIEW billing_export AS SELECT *${rename}, ${exportAddedColumns(source.format, source.header, hint)} FROM ${source.from}`,
  );
  await connection.run(`CREATE OR REPLACE VIEW billing_lines AS ${sqlQuery(source.format.linesQuery)}`);
  const usage = sqlQuery(source.format.usageQuery);
  await connection.run(
    `CREATE OR REPLACE VIEW billing_usage AS ${source.numbersChecked === true ? usage : checkedUsageQuery(usage)}`,
  );
  await connection.run(
    `CREATE OR REPLACE VIEW billing_methods AS ${sqlQuery("classify/billing_methods.sql")}`,
  );
  await connection.run(
    `CREATE OR REPLACE VIEW billing_classified AS ${sqlQuery("classify/billing_classified.sql")}`,
  );
}
