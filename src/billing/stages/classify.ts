/*
 * The classify stage of a billing run: the format's queries (sql/) turn the export's lines into
 * billing lines (provider, kind of line, instance type, unit, region, method), read in one pass
 * into kinds of lines, the table billing_line_kinds (quantities summed). A file cut short or not
 * UTF-8 fails here, before anything is written.
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { createTable } from "../../duckdb/database.js";
import { readFailing } from "../../duckdb/readErrors.js";
import { orderLineViews } from "../lookup.js";
import { lineKindsQuery } from "../portable/kinds.js";
import { REGISTRY_TABLES, UNIT_COLUMNS } from "../registry/sqlTables.js";
import { MAX_UNIT_LENGTH, unitRows } from "../registry/units.js";
import { groupLineTuples } from "../tuples.js";
import { createLineViews } from "../views.js";
import type { ReadExport } from "./read.js";

/** The registry's tables, whose joins the views read by position (src/billing/lookup.ts). */
export const REGISTRY_TABLE_NAMES: ReadonlySet<string> = new Set(REGISTRY_TABLES.map((table) => table.name));

/** The classify stage: the registry, the views of the export's lines, and their kinds. */
export async function classifyLines(connection: DuckDBConnection, read: ReadExport): Promise<void> {
  await createRegistryTables(connection);
  await createLineViews(connection, read.views);
  // The first pass reads no column of the registry's: read by position, none is computed
  await orderLineViews(connection, REGISTRY_TABLE_NAMES);
  await groupLineKinds(connection, read);
}

/**
 * The export's tuples (the first pass, src/billing/tuples.ts) run through the format's queries,
 * grouped into the table billing_line_kinds, shaped as billing_classified (the quantities of a
 * kind summed: they share whether they are a number and their sign, so a kind fares as each of
 * its lines), with the count of its lines. The views then read the tuples.
 */
async function groupLineKinds(connection: DuckDBConnection, read: ReadExport): Promise<void> {
  const tupleColumns = await readFailing(() => groupLineTuples(connection, read.tuple), read.parts);
  await createLineViews(connection, {
    ...read.views,
    from: "billing_export_tuples",
    header: tupleColumns,
    renamed: new Map(),
    numbersChecked: true,
  });
  await addBilledUnits(connection);
  // The tuples classified once: the kinds and the tuples' rows (locateLines) read them.
  await connection.run("CREATE TABLE billing_tuple_classes AS SELECT * FROM billing_classified");
  await connection.run("CREATE OR REPLACE VIEW billing_classified AS SELECT * FROM billing_tuple_classes");
  // Kinds apart by whether their cost is positive: the by-cost rate sums the energy and the cost of
  // the same lines (src/billing/costRates.ts).
  await connection.run(
    `CREATE TABLE billing_line_kinds AS ${lineKindsQuery({ sum: "fsum", lineCount: "SUM(billing_line_count)" })}`,
  );
}

/** Creates the registry's tables (the units table with the documented spellings). */
export async function createRegistryTables(connection: DuckDBConnection): Promise<void> {
  for (const table of REGISTRY_TABLES) await createTable(connection, table.name, table.columns, table.rows);
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
