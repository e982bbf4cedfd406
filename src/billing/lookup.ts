/*
 * How the writing pass reads the lookup table on DuckDB. sql/evaluate/billing_located.sql joins each line
 * with its row of the lookup table (sql/lookup/billing_keys.sql); other engines run it as it is. DuckDB
 * 1.5 writes a query holding a hash join without keeping the lines' order once it runs on more than
 * one thread, while a cross join with a table of one row keeps it (docs/billing.md, "Lines in
 * their order"). So on DuckDB the keys become an ENUM type, whose code is a key's position, and
 * each column of the lookup table one list in that one row, read at the line's position: the same
 * rows as the join, on every thread.
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { identifier } from "../duckdb/database.js";
import { sqlQuery } from "./queries.js";

/** A key's position (from 1) among the values of the ENUM type `enumType`. */
export function enumPosition(enumType: string, key: string): string {
  return `CAST(enum_code(CAST(${key} AS ${enumType})) AS INTEGER) + 1`;
}

/** A table read by position: each of its rows' key (a text expression), unique, and the columns read. */
interface PositionedTable {
  /** The ENUM type and the one-row table of lists made for it. */
  readonly name: string;
  readonly table: string;
  readonly key: string;
  readonly columns: readonly string[];
}

/**
 * Makes a table readable by position: its keys an ENUM type, its columns lists in a view of one
 * row (computed by the query reading it, for the columns it reads). Returns how a line reads a
 * column: the list at the position of the line's key (`lineKey`, of a query aliased `k`, crossed
 * with the lists aliased `x`).
 */
export async function positionedTable(
  connection: DuckDBConnection,
  positioned: PositionedTable,
): Promise<{ position: (lineKey: string) => string; read: (column: string) => string }> {
  const { name, table, key, columns } = positioned;
  await connection.run(`CREATE TYPE ${name} AS ENUM (SELECT ${key} FROM ${table})`);
  const position = (text: string) => enumPosition(name, text);
  await connection.run(
    `CREATE VIEW ${name}_lists AS SELECT ${columns
      .map((column) => `list(${identifier(column)} ORDER BY billing_position) AS ${identifier(column)}`)
      .join(", ")}
     FROM (SELECT *, ${position(key)} AS billing_position FROM ${table})`,
  );
  return {
    position,
    read: (column) => `x.${identifier(column)}[k.billing_position] AS ${identifier(column)}`,
  };
}

/**
 * A key as one text: the provider (one of a few names), the instance type after its length, then
 * the region key — two different keys never give the same text, whatever their characters.
 */
function keyText(provider: string, instanceType: string, regionKey: string): string {
  const type = `COALESCE(${instanceType}, '')`;
  return `CONCAT(COALESCE(${provider}, ''), chr(31), CAST(LENGTH(${type}) AS VARCHAR), chr(31), ${type}, chr(31), ${regionKey})`;
}

/**
 * Creates the view billing_located, the lines of billing_classified with their row of the table
 * billing_keys, in the lines' order on any number of threads.
 */
export async function createLocatedView(connection: DuckDBConnection): Promise<void> {
  const keys = await connection.runAndReadAll("SELECT COUNT(*) AS keys FROM billing_keys");
  if (Number(keys.getRowObjects()[0].keys) === 0) {
    // No line at all: nothing to keep in order, and an ENUM needs a value.
    await connection.run(
      `CREATE OR REPLACE VIEW billing_located AS ${sqlQuery("evaluate/billing_located.sql")}`,
    );
    return;
  }
  const described = await connection.runAndReadAll("DESCRIBE billing_keys");
  const columns = described.getRowObjects().map((row) => String(row.column_name));
  const lookup = await positionedTable(connection, {
    name: "billing_key",
    table: "billing_keys",
    key: keyText("key_provider", "key_instance_type", "key_region"),
    columns,
  });
  const lineKey = keyText(
    "l.billing_provider",
    "COALESCE(l.billing_method_key, l.billing_instance_type)",
    "l.billing_region_key",
  );
  await connection.run(
    `CREATE OR REPLACE VIEW billing_located AS
     SELECT k.* EXCLUDE (billing_position), ${columns.map(lookup.read).join(", ")}
     FROM (SELECT l.*, ${lookup.position(lineKey)} AS billing_position FROM billing_classified l) k
     CROSS JOIN billing_key_lists x`,
  );
}

/** A join of a registry table as the billing SQL writes it, on one line: `LEFT JOIN <table> <alias> ON <alias>.<column> = <expression>[ AND …]`. */
const REGISTRY_JOIN = /^(\s*)LEFT JOIN (billing_[a-z_]+) ([a-z_]+) ON (.+)$/;

/** The column and the line's expression of each `<alias>.<column> = <expression>` of a join's condition. */
function joinPairs(alias: string, condition: string): [string, string][] {
  return condition.split(" AND ").map((part) => {
    const match = /^([a-z_]+)\.([a-z_]+) = (.+)$/.exec(part.trim());
    if (match === null || match[1] !== alias) throw new Error(`sql: a registry join reads ${part}`);
    return [match[2], match[3]];
  });
}

const joined = (parts: readonly string[]) =>
  parts.length === 1 ? parts[0] : `CONCAT(${parts.join(", chr(31), ")})`;

/**
 * A query of sql/ whose joins of registry tables (`tables`: each key unique) are read by position,
 * as the lookup table is (the header of this file): each table's keys an ENUM type, its columns
 * lists in a view of one row crossed with the lines, each `<alias>.<column>` the list at the
 * position of the line's key (none for a key the table lacks, as the left join gives). The same
 * rows as the joins, lines in their order on any number of threads.
 */
export async function orderedRegistryJoins(
  connection: DuckDBConnection,
  query: string,
  tables: ReadonlySet<string>,
): Promise<string> {
  const lines: string[] = [];
  const positions: [string, string][] = [];
  for (const line of query.split("\n")) {
    const match = REGISTRY_JOIN.exec(line);
    if (match === null || !tables.has(match[2])) {
      lines.push(line);
      continue;
    }
    const [, indent, table, alias, condition] = match;
    const pairs = joinPairs(alias, condition);
    const type = `billing_registry_${alias}`;
    const tableKey = joined(pairs.map(([column]) => identifier(column)));
    const described = await connection.runAndReadAll(`DESCRIBE ${identifier(table)}`);
    const columns = described.getRowObjects().map((row) => identifier(String(row.column_name)));
    await connection.run(`DROP VIEW IF EXISTS ${type}_lists`);
    await connection.run(`DROP TYPE IF EXISTS ${type}`);
    await connection.run(`CREATE TYPE ${type} AS ENUM (SELECT ${tableKey} FROM ${identifier(table)})`);
    await connection.run(
      `CREATE VIEW ${type}_lists AS SELECT ${columns.map((column) => `list(${column} ORDER BY billing_position) AS ${column}`).join(", ")}
       FROM (SELECT *, enum_code(CAST(${tableKey} AS ${type})) AS billing_position FROM ${identifier(table)})`,
    );
    lines.push(`${indent}CROSS JOIN ${type}_lists ${alias}`);
    positions.push([
      alias,
      `CAST(enum_code(TRY_CAST(${joined(pairs.map(([, expression]) => expression))} AS ${type})) AS INTEGER) + 1`,
    ]);
  }
  let text = lines.join("\n");
  for (const [alias, position] of positions) {
    text = text.replace(new RegExp(`\\b${alias}\\.([a-z_]+)\\b`, "g"), `${alias}.$1[${position}]`);
  }
  return text;
}

/**
 * Recreates the views billing_methods and billing_classified (src/billing/views.ts) with their
 * registry joins read by position, for the pass that writes the lines in their order.
 */
export async function orderLineViews(
  connection: DuckDBConnection,
  tables: ReadonlySet<string>,
): Promise<void> {
  for (const [view, file] of [
    ["billing_methods", "classify/billing_methods.sql"],
    ["billing_classified", "classify/billing_classified.sql"],
  ]) {
    const query = await orderedRegistryJoins(connection, sqlQuery(file), tables);
    await connection.run(`CREATE OR REPLACE VIEW ${view} AS ${query}`);
  }
}
