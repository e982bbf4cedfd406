/*
 * The registry as the tables sql/classify/billing_methods.sql and sql/classify/billing_classified.sql read, written
 * into the run's DuckDB database (and by `--tables`, as Parquet, for another engine). Each table's
 * key is unique: the SQL joins it for one row at most (test/billing/registry.test.ts).
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { type Cell, createTable } from "../../duckdb/database.js";
import { GPU_MODELS } from "./gpus.js";
import { KNOWN_SERVICES } from "./knownServices.js";
import { BILLING_METHODS, METHOD_KEY_ROWS } from "./methods.js";
import { STORAGE_SERVICES } from "./services.js";
import { DOCUMENTED_UNITS, MAX_UNIT_LENGTH, readUnit, unitSpelling } from "./units.js";

type Columns = readonly (readonly [string, "VARCHAR" | "DOUBLE"])[];

export interface RegistryTable {
  readonly name: string;
  readonly columns: Columns;
  readonly rows: () => (readonly Cell[])[];
}

/** The units table's rows for these spellings (as the SQL keys them: lower case, trimmed), those the grammar reads. */
export function unitRows(spellings: Iterable<string>): (readonly Cell[])[] {
  const rows = new Map<string, readonly Cell[]>();
  for (const spelling of spellings) {
    const normal = unitSpelling(spelling);
    const reading = normal === null ? null : readUnit(normal);
    if (reading === null || rows.has(spelling)) continue;
    rows.set(spelling, [
      spelling,
      reading.dimension,
      reading.factor,
      reading.hours,
      reading.gigabytes,
      reading.resource,
    ]);
  }
  return [...rows.values()];
}

const UNIT_COLUMNS: Columns = [
  ["spelling", "VARCHAR"],
  ["dimension", "VARCHAR"],
  ["factor", "DOUBLE"],
  ["hours", "DOUBLE"],
  ["gigabytes", "DOUBLE"],
  ["resource", "VARCHAR"],
];

const documentedSpellings = () => DOCUMENTED_UNITS.map((unit) => unit.trim().toLowerCase());

export const REGISTRY_TABLES: readonly RegistryTable[] = [
  { name: "billing_units", columns: UNIT_COLUMNS, rows: () => unitRows(documentedSpellings()) },
  {
    name: "billing_storage_services",
    columns: [
      ["provider", "VARCHAR"],
      ["spelling", "VARCHAR"],
      ["storage", "VARCHAR"],
      ["medium", "VARCHAR"],
      ["replication", "DOUBLE"],
    ],
    rows: () =>
      STORAGE_SERVICES.flatMap((service) =>
        service.names.map((name) => [
          service.provider,
          name.toLowerCase(),
          service.storage,
          service.medium,
          service.replication,
        ]),
      ),
  },
  {
    name: "billing_services",
    columns: [
      ["provider", "VARCHAR"],
      ["spelling", "VARCHAR"],
      ["role", "VARCHAR"],
      ["estimated_when", "VARCHAR"],
    ],
    rows: () =>
      KNOWN_SERVICES.flatMap((service) =>
        service.names.map((name) => [
          service.provider,
          name.toLowerCase(),
          service.role,
          service.estimatedWhen,
        ]),
      ),
  },
  {
    name: "billing_gpus",
    columns: [
      ["model", "VARCHAR"],
      ["watts", "DOUBLE"],
      ["families", "VARCHAR"],
    ],
    rows: () => GPU_MODELS.map((gpu) => [gpu.model, gpu.watts, gpu.families.join(" ")]),
  },
  {
    name: "billing_method_kinds",
    columns: [
      ["method", "VARCHAR"],
      ["dimension", "VARCHAR"],
      ["variant_of", "VARCHAR"],
      ["label_suffix", "VARCHAR"],
      ["multiplier", "DOUBLE"],
    ],
    rows: () =>
      BILLING_METHODS.map((method) => [
        method.method,
        method.dimension,
        method.variantOf,
        method.labelSuffix,
        method.multiplier,
      ]),
  },
  {
    name: "billing_method_keys",
    columns: [
      ["method", "VARCHAR"],
      ["variant", "VARCHAR"],
      ["method_key", "VARCHAR"],
      ["unit_label", "VARCHAR"],
    ],
    rows: () => METHOD_KEY_ROWS.map((row) => [row.method, row.variant, row.key, row.unit]),
  },
];

/** Creates the registry's tables (the units table with the documented spellings). */
export async function createRegistryTables(connection: DuckDBConnection): Promise<void> {
  for (const table of REGISTRY_TABLES) await createTable(connection, table.name, table.columns, table.rows());
}

/** Distinct unit spellings read from one bill at most: a bill holds tens. */
const MAX_BILLED_UNITS = 10_000;

/**
 * Adds the units a bill spells (its lines' billing_unit and billing_usage_unit, through the view
 * billing_usage, or the kinds of lines a keys script gave) that the table lacks and the grammar
 * reads. Spellings longer than a unit can be are not read.
 */
export async function addBilledUnits(connection: DuckDBConnection, lines = "billing_usage"): Promise<void> {
  const reader = await connection.runAndReadAll(
    `SELECT DISTINCT spelling FROM (
       SELECT LOWER(TRIM(COALESCE(billing_usage_unit, ''))) AS spelling FROM ${lines}
       UNION ALL SELECT LOWER(TRIM(COALESCE(billing_unit, ''))) FROM ${lines}
     ) s
     WHERE LENGTH(spelling) <= ${MAX_UNIT_LENGTH} AND spelling NOT IN (SELECT spelling FROM billing_units)
     LIMIT ${MAX_BILLED_UNITS}`,
  );
  const rows = unitRows(reader.getRowObjects().map((row) => String(row.spelling)));
  if (rows.length === 0) return;
  await createTable(connection, "billing_units_added", UNIT_COLUMNS, rows);
  await connection.run("INSERT INTO billing_units SELECT * FROM billing_units_added");
  await connection.run("DROP TABLE billing_units_added");
}
