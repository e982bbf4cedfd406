/*
 * The small tables a billing run builds besides the coefficient table, described once: their
 * columns and types, and the files `--tables` writes them to (the same SQL on another engine reads
 * each under its file's name: docs/billing.md, "Beyond one machine"). billing_places: the region
 * spellings of an edition and the places they stand for; instance_matches: each billed instance
 * type and the edition's type it matches; billing_energy: the energy behind each coefficient row's
 * use impacts.
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { createTable } from "../duckdb/database.js";
import { GRID_TABLES } from "./grid.js";
import type { InstanceMatch } from "./matching.js";
import type { billingPlaces } from "./places.js";

type ColumnType = "VARCHAR" | "DOUBLE";

/** The small tables written as CSV (text; the DOUBLE columns read as numbers), their columns in order. */
export const SMALL_TABLE_COLUMNS = {
  instance_matches: [
    ["provider", "VARCHAR"],
    ["billing_instance_type", "VARCHAR"],
    ["matched_instance_type", "VARCHAR"],
    ["match_warning", "VARCHAR"],
  ],
  billing_places: [
    ["provider", "VARCHAR"],
    ["spelling", "VARCHAR"],
    ["place", "VARCHAR"],
  ],
  billing_energy: [
    ["provider", "VARCHAR"],
    ["instance_type", "VARCHAR"],
    ["place", "VARCHAR"],
    ["energy_kwh_per_hour", "DOUBLE"],
  ],
} as const satisfies Record<string, readonly (readonly [string, ColumnType])[]>;

/** The coefficient table's rows of the methods' keys, written as Parquet to append to the coefficient table. */
export const METHOD_COEFFICIENTS_FILE = "method_coefficients.parquet";

/** A file of the tables folder: its name, the table it holds and the query writing it. */
export interface SmallTableFile {
  readonly file: string;
  readonly table: string;
  readonly query: string;
  readonly parquet: boolean;
}

/**
 * The files `--tables` writes, in order; with a grid series the series' tables too. The small
 * tables are CSV, or Parquet (`parquet`: typed, NULL apart from an empty text whatever the reader).
 */
export function smallTableFiles(grid: boolean, parquet = false): SmallTableFile[] {
  return [
    ...Object.keys(SMALL_TABLE_COLUMNS).map((table) => ({
      file: `${table}.${parquet ? "parquet" : "csv"}`,
      table,
      query: `SELECT * FROM ${table}`,
      parquet,
    })),
    {
      file: METHOD_COEFFICIENTS_FILE,
      table: "coefficients",
      query: "SELECT * FROM coefficients WHERE instance_type LIKE 'method:%'",
      parquet: true,
    },
    ...(grid
      ? GRID_TABLES.map(([file, table]) => ({ file, table, query: `SELECT * FROM ${table}`, parquet: true }))
      : []),
  ];
}

export async function createPlaceTable(
  connection: DuckDBConnection,
  places: ReturnType<typeof billingPlaces>,
): Promise<void> {
  await createTable(
    connection,
    "billing_places",
    SMALL_TABLE_COLUMNS.billing_places,
    places.map((place) => [place.provider, place.spelling, place.place]),
  );
}

export async function createMatchTable(
  connection: DuckDBConnection,
  matches: Iterable<InstanceMatch>,
): Promise<void> {
  await createTable(
    connection,
    "instance_matches",
    SMALL_TABLE_COLUMNS.instance_matches,
    [...matches].map((match) => [
      match.provider,
      match.billingInstanceType,
      match.matchedInstanceType,
      match.warning,
    ]),
  );
}
