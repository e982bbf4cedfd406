/*
 * The registry as the tables sql/classify/billing_methods.sql and sql/classify/billing_classified.sql
 * read, their rows made once when it loads: written into the run's DuckDB database by the classify
 * stage (createRegistryTables, src/billing/stages/classify.ts) and by `--tables` as Parquet, for
 * another engine. Each table's key is unique: the SQL joins it for one row at most
 * (test/billing/registry.test.ts).
 */

import type { Cell } from "../../duckdb/database.js";
import { BILLED_AI_MODELS } from "./generativeAi.js";
import { BILLING_METHODS, GPU_MODELS, METHOD_KEY_ROWS } from "./methods.js";
import { KNOWN_SERVICES, STORAGE_SERVICES } from "./services.js";
import { DOCUMENTED_UNITS, unitRows } from "./units.js";

export type Columns = readonly (readonly [string, "VARCHAR" | "DOUBLE"])[];

export interface RegistryTable {
  readonly name: string;
  readonly columns: Columns;
  /** Its rows, made once when the registry loads. */
  readonly rows: readonly (readonly Cell[])[];
}

export const UNIT_COLUMNS: Columns = [
  ["spelling", "VARCHAR"],
  ["dimension", "VARCHAR"],
  ["factor", "DOUBLE"],
  ["hours", "DOUBLE"],
  ["gigabytes", "DOUBLE"],
  ["resource", "VARCHAR"],
];

const documentedSpellings = () => DOCUMENTED_UNITS.map((unit) => unit.trim().toLowerCase());

export const REGISTRY_TABLES: readonly RegistryTable[] = [
  { name: "billing_units", columns: UNIT_COLUMNS, rows: unitRows(documentedSpellings()) },
  {
    name: "billing_storage_services",
    columns: [
      ["provider", "VARCHAR"],
      ["spelling", "VARCHAR"],
      ["storage", "VARCHAR"],
      ["medium", "VARCHAR"],
      ["replication", "DOUBLE"],
    ],
    rows: STORAGE_SERVICES.flatMap((service) =>
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
    rows: KNOWN_SERVICES.flatMap((service) =>
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
    rows: GPU_MODELS.map((gpu) => [gpu.model, gpu.watts, gpu.families.join(" ")]),
  },
  {
    // A generative-AI model as a bill's provider spells it (src/billing/registry/generativeAi.ts)
    name: "billing_ai_models",
    columns: [
      ["provider", "VARCHAR"],
      ["spelling", "VARCHAR"],
      ["variant", "VARCHAR"],
    ],
    rows: BILLED_AI_MODELS.map((row) => [row.provider, row.spelling, row.variant]),
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
    rows: BILLING_METHODS.map((method) => [
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
    rows: METHOD_KEY_ROWS.map((row) => [row.method, row.variant, row.key, row.unit]),
  },
];
