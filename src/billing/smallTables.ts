/*
 * The small tables a billing run builds besides the coefficient table, described once: their
 * columns and types, and the files `--tables` writes them to (the same SQL on another engine reads
 * each under its file's name: docs/billing.md, "Beyond one machine"). billing_places: the region
 * spellings of an edition and the places they stand for (with a warning where that is not the
 * region itself: src/billing/places.ts); instance_matches: each billed instance type and the
 * edition's type it matches; billing_energy: the energy behind each coefficient row's use impacts;
 * and the registry's tables (src/billing/registry/sqlTables.ts), as Parquet.
 */

import { mkdirSync, renameSync } from "node:fs";
import { join } from "node:path";
import type { DuckDBConnection } from "@duckdb/node-api";
import { createTable, literal } from "../duckdb/database.js";
import type { EditionContext } from "../service/context.js";
import { GRID_TABLES } from "./grid.js";
import type { InstanceMatch } from "./matching.js";
import type { BillingPlace } from "./places.js";
import { REGISTRY_TABLES } from "./registry/sqlTables.js";
import { copyOptions, partialOf } from "./writing.js";

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
    ["place_warning", "VARCHAR"],
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
 * tables are CSV, or Parquet (`parquet`: typed, NULL apart from an empty text whatever the reader);
 * the registry's and the coefficient rows are Parquet. `countryRows`: the coefficient table's rows
 * at a country too (an edition with regions, where a region it lacks is read at its country).
 */
export function smallTableFiles(grid: boolean, parquet = false, countryRows = false): SmallTableFile[] {
  const methodRows = `SELECT * FROM coefficients WHERE instance_type LIKE 'method:%'${
    countryRows ? " OR (region IS NULL AND usage_location IS NOT NULL)" : ""
  }`;
  return [
    ...Object.keys(SMALL_TABLE_COLUMNS).map((table) => ({
      file: `${table}.${parquet ? "parquet" : "csv"}`,
      table,
      query: `SELECT * FROM ${table}`,
      parquet,
    })),
    ...REGISTRY_TABLES.map(({ name }) => ({
      file: `${name}.parquet`,
      table: name,
      query: `SELECT * FROM ${name}`,
      parquet: true,
    })),
    { file: METHOD_COEFFICIENTS_FILE, table: "coefficients", query: methodRows, parquet: true },
    ...(grid
      ? GRID_TABLES.map(([file, table]) => ({ file, table, query: `SELECT * FROM ${table}`, parquet: true }))
      : []),
  ];
}

export async function createPlaceTable(
  connection: DuckDBConnection,
  places: readonly BillingPlace[],
): Promise<void> {
  await createTable(
    connection,
    "billing_places",
    SMALL_TABLE_COLUMNS.billing_places,
    places.map((place) => [place.provider, place.spelling, place.place, place.warning]),
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

/** The files a run writes to a --tables folder (each written as its `.partial` first). */
export function portableTableFiles(folder: string, grid: boolean): string[] {
  return smallTableFiles(grid).map(({ file }) => join(folder, file));
}

/**
 * The small tables a run built, in `folder`, for the same SQL on another engine (docs/billing.md,
 * "Beyond one machine"): instance_matches, billing_places and billing_energy as CSV, and the
 * methods' rows of the coefficient table (method_coefficients.parquet: its shape and types, to
 * append to it).
 */
export async function writePortableTables(
  connection: DuckDBConnection,
  folder: string | null | undefined,
  grid: boolean,
  context: EditionContext,
  parquet = false,
): Promise<void> {
  if (!folder) return;
  const regions = context.service.data.cloudRegions !== null;
  // Made here, once the lines are written: a run that fails leaves no folder behind.
  mkdirSync(folder, { recursive: true });
  for (const { file: name, query, parquet: typed } of smallTableFiles(grid, parquet, regions)) {
    const file = join(folder, name);
    const options = typed ? copyOptions("parquet") : "(FORMAT csv, HEADER true)";
    await connection.run(`COPY (${query} ORDER BY ALL) TO ${literal(partialOf(file))} ${options}`);
    renameSync(partialOf(file), file);
  }
}
