/*
 * A line's kind, instance type, method and row of the lookup table are a function of the columns
 * the format's query reads to tell what it is (its describing columns): its quantity and cost,
 * account, resource and period aside (src/billing/formats.ts, `numbers`, `identities`, `dates`). An export's
 * lines share a few thousand of those tuples (a resource's lines of every hour, a service's SKUs).
 * So the first pass groups the lines by tuple, reading nothing else; the format's queries run on
 * the tuples, not on every line; and the writing pass reads each line's tuple row by position
 * (its tuple's hash an ENUM type: src/billing/lookup.ts), computing per line only its quantity,
 * cost, account and resource, which the same queries give, the rest of their expressions left
 * unevaluated by DuckDB.
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { identifier } from "../duckdb/database.js";
import { reasonableSql } from "../support/numbers.js";
import { type BillingFormat, headerColumn, readColumns } from "./formats.js";
import { enumPosition } from "./lookup.js";
import { sqlQuery } from "./queries.js";

/**
 * The SQL's working columns that differ line by line: quantity, cost, account, resource and the
 * period as written (the grid series reads it: sql/evaluate/billing_periods.sql).
 */
const LINE_COLUMNS = [
  "billing_quantity",
  "billing_cost",
  "billing_account",
  "billing_resource",
  "billing_period_start_text",
  "billing_period_end_text",
  "billing_period_end_days",
];

/**
 * Tuples above which the writing pass classifies each line instead (every line a tuple of its
 * own: an export of unique descriptions). Their rows are classified and held at once: 400,000
 * and 900,000 tuples of 10,000,000 lines took the run to 1.19 and 1.13 GB (28.5 s), each line
 * classified 1.0 GB (51.9 s); 191,925 tuples, 870 MB (bench/README.md, "A real width").
 */
const MAX_TUPLES = 200_000;

/** The export's describing columns, as the run names them, and its quantity and cost columns. */
export interface LineTuple {
  readonly columns: readonly string[];
  readonly quantity: string;
  /** The cost columns the file has (billed, then those of the cost paid for the hours). */
  readonly costs: readonly string[];
}

/**
 * The describing columns of an export: the columns of the format's query it has (and the column
 * of --instance-type-column), its quantity, cost and identities aside. `header`: the file's
 * names; `names`: the run's.
 */
export function lineTuple(
  format: BillingFormat,
  header: readonly string[],
  names: readonly string[],
  typeHintColumn: string | null,
): LineTuple {
  const named = (column: string) => {
    const spelled = headerColumn(format, column, header);
    return spelled === null ? null : names[header.indexOf(spelled)];
  };
  const [quantity, ...costNames] = format.numbers.map(named);
  const costs = costNames.flatMap((name) => name ?? []);
  const read = readColumns(format).flatMap((column) => named(column) ?? []);
  const perLine = new Set([quantity, ...costs, ...format.identities.map(named), ...format.dates.map(named)]);
  const columns = [...new Set([...read, ...(typeHintColumn === null ? [] : [typeHintColumn])])].filter(
    (column) => !perLine.has(column) || column === typeHintColumn,
  );
  if (quantity === null) throw new Error(`billing: ${format.name} has no quantity column`);
  return { columns, quantity, costs };
}

/** The text that tells a line's tuple apart (two tuples sharing it are checked for). */
function tupleKey(tuple: LineTuple): string {
  return `CAST(hash(${tuple.columns.map(identifier).join(", ")}) AS VARCHAR)`;
}

/**
 * The first pass: the lines of billing_classified grouped by tuple, as a table of the file's
 * shape (billing_export_tuples): the describing columns, the quantities summed in the quantity
 * column, the costs in the cost columns, and billing_line_count. Grouped also by whether
 * the quantity is a number and its sign, so that a group fares as each of its lines, and by whether
 * its billed and paid costs are positive (the by-cost rate reads the lines that have one, the
 * coverage sums positive costs only). Sums are
 * fsum's (compensated), so that the summary does not depend on the order lines were added in.
 */
export async function groupLineTuples(connection: DuckDBConnection, tuple: LineTuple): Promise<string[]> {
  const columns = tuple.columns.map(identifier).join(", ");
  // Each cost column summed (NULL, as an empty cell, where no line has one): billing_cost and
  // billing_paid_cost are sums of them per kind of line (sql/classify/billing_usage_<format>.sql), so
  // that a tuple's costs, each of one sign, are its lines' sums.
  // A cost that is not a reasonable number (`NaN`, `1e400`) is no cost: its line is a bad row
  // (src/billing/views.ts), and a NaN summed made the coverage's total NaN.
  const read = (column: string) => `TRY_CAST(${identifier(column)} AS DOUBLE)`;
  const cost = tuple.costs
    .map(
      (column) =>
        `, fsum(CASE WHEN ${reasonableSql(read(column))} THEN ${read(column)} END) AS ${identifier(column)}`,
    )
    .join("");
  await connection.run(
    `CREATE TABLE billing_export_tuples AS
     SELECT ${columns}, fsum(billing_quantity) AS ${identifier(tuple.quantity)}${cost},
       COUNT(*) AS billing_line_count
     FROM billing_classified
     GROUP BY ${columns}, billing_quantity IS NULL, billing_quantity < 0, billing_cost > 0, billing_paid_cost > 0`,
  );
  return [...tuple.columns, tuple.quantity, ...tuple.costs, "billing_line_count"];
}

async function columnNames(connection: DuckDBConnection, relation: string): Promise<string[]> {
  const reader = await connection.runAndReadAll(`DESCRIBE ${relation}`);
  return reader.getRowObjects().map((row) => String(row.column_name));
}

/**
 * The view billing_tuple_rows: each tuple's key and what its lines read of billing_located
 * (sql/evaluate/billing_located.sql run on the classified tuples: kind, type, method, place, per-hour
 * impacts), a view so that the writing pass computes only the columns it reads. Run while the
 * views read billing_export_tuples. Returns those columns, or null when the writing pass must
 * classify each line (too many tuples, or two of them sharing a hash).
 */
export async function createTupleRows(
  connection: DuckDBConnection,
  tuple: LineTuple,
): Promise<readonly string[] | null> {
  const counted = await connection.runAndReadAll(
    `SELECT COUNT(*) AS tuples, COUNT(DISTINCT billing_tuple_key) AS keys
     FROM (SELECT DISTINCT ${tuple.columns.map(identifier).join(", ")}, ${tupleKey(tuple)} AS billing_tuple_key
       FROM billing_export_tuples)`,
  );
  const { tuples, keys } = counted.getRowObjects()[0];
  if (Number(tuples) === 0 || Number(tuples) !== Number(keys) || Number(tuples) > MAX_TUPLES) return null;
  const located = sqlQuery("evaluate/billing_located.sql").replaceAll(
    "billing_classified",
    "billing_tuple_classes",
  );
  const exported = new Set(await columnNames(connection, "billing_export"));
  const read = (await columnNames(connection, `(${located})`)).filter(
    (column) => !exported.has(column) && !LINE_COLUMNS.includes(column),
  );
  // A tuple's rows (one per sign of its quantity) agree on every column read.
  await connection.run(
    `CREATE VIEW billing_tuple_rows AS
     SELECT ${tupleKey(tuple)} AS billing_tuple_key, ${read.map((column) => `first(${identifier(column)}) AS ${identifier(column)}`).join(", ")}
     FROM (${located}) located
     GROUP BY billing_tuple_key`,
  );
  return read;
}

/** The names a query's text holds: its identifiers and keywords. */
function namesIn(text: string): Set<string> {
  return new Set(text.split(/[^A-Za-z0-9_]+/));
}

/**
 * Tuples per kind from which a line reads its tuple's kind, then the kind's row, rather than its
 * tuple's row directly. DuckDB's cross join with the one-row table of lists copies its lists for
 * every 2,048 lines: 20 lists of a 10,000,000-line export's 191,925 tuples took 13.7 of the
 * writing pass's 37 CPU s, its 18,000 kinds' 1.9; where each tuple is a kind of its own (30,479 of
 * them), the second list and cross join took the pass from 34.5 to 39.4–40.6 s (bench/README.md,
 * "A real width, each tuple read through its kind"). Measured at those two ends.
 */
const TUPLES_PER_KIND = 2;

/**
 * Creates the view billing_located over the views of the file: each line's own columns, its
 * quantity and cost (billing_classified's), and its tuple's row, read by position, lines in their
 * order. `readBy`: the text of the queries reading billing_located; of the tuple rows' columns,
 * those it names are read. A large export has hundreds of thousands of tuples (a description of
 * each price and region) but a few thousand kinds, the distinct rows of those columns (an
 * instance type at a place): its lines read their tuple's kind, then the kind's row.
 */
export async function createTupleLocatedView(
  connection: DuckDBConnection,
  tuple: LineTuple,
  read: readonly string[],
  readBy: string,
): Promise<void> {
  const own = [...(await columnNames(connection, "billing_export")), ...LINE_COLUMNS];
  const named = namesIn(readBy);
  const used = read.filter((column) => named.has(column));
  if (used.length === 0) throw new Error("billing: the writing pass reads no column of the tuples' rows");
  const columns = used.map(identifier).join(", ");
  // The tuples' rows computed once (sql/evaluate/billing_located.sql on the tuples), numbered by kind.
  await connection.run(
    `CREATE TABLE billing_tuple_kinds AS
     SELECT billing_tuple_key, CAST(dense_rank() OVER (ORDER BY ${columns}) AS INTEGER) AS billing_kind, ${columns}
     FROM billing_tuple_rows`,
  );
  await connection.run(
    "CREATE TYPE billing_tuple AS ENUM (SELECT billing_tuple_key FROM billing_tuple_kinds)",
  );
  const position = (key: string) => enumPosition("billing_tuple", key);
  const counted = await connection.runAndReadAll(
    "SELECT COUNT(*) AS tuples, MAX(billing_kind) AS kinds FROM billing_tuple_kinds",
  );
  const { tuples, kinds } = counted.getRowObjects()[0];
  const byKind = Number(kinds) * TUPLES_PER_KIND <= Number(tuples);
  if (byKind) {
    await connection.run(
      `CREATE TABLE billing_tuple_kind_list AS
       SELECT list(billing_kind ORDER BY ${position("billing_tuple_key")}) AS billing_kinds FROM billing_tuple_kinds`,
    );
  }
  const rows = byKind
    ? "(SELECT DISTINCT ON (billing_kind) * FROM billing_tuple_kinds)"
    : "billing_tuple_kinds";
  const order = byKind ? "billing_kind" : position("billing_tuple_key");
  await connection.run(
    `CREATE TABLE billing_row_lists AS
     SELECT ${used.map((column) => `list(${identifier(column)} ORDER BY ${order}) AS ${identifier(column)}`).join(", ")}
     FROM ${rows}`,
  );
  await connection.run("DROP TABLE billing_tuple_kinds");
  const row = byKind ? `t.billing_kinds[${position(tupleKey(tuple))}]` : position(tupleKey(tuple));
  await connection.run(
    `CREATE OR REPLACE VIEW billing_located AS
     SELECT k.* EXCLUDE (billing_row), ${used.map((column) => `x.${identifier(column)}[k.billing_row] AS ${identifier(column)}`).join(", ")}
     FROM (SELECT l.*, ${row} AS billing_row
       FROM (SELECT ${own.map(identifier).join(", ")} FROM billing_classified) l
       ${byKind ? "CROSS JOIN billing_tuple_kind_list t" : ""}) k
     CROSS JOIN billing_row_lists x`,
  );
}
