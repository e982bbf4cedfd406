/*
 * How the writing pass reads the lookup table on DuckDB. sql/billing_located.sql joins each line
 * with its row of the lookup table (sql/billing_keys.sql); other engines run it as it is. DuckDB
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
    await connection.run(`CREATE OR REPLACE VIEW billing_located AS ${sqlQuery("billing_located.sql")}`);
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
