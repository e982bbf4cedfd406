/*
 * The look-up stage of a billing run: each billed instance type matched once, whatever its number
 * of lines, and the lookup table billing_keys (sql/lookup/billing_keys.sql) built from the coefficient
 * table of the types and methods billed, at the places billed — no evaluation per line. With a grid
 * series, the table's gwp use is read from the series' zones.
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { createTable } from "../../duckdb/database.js";
import type { RequestedCriterion } from "../../engine/index.js";
import { type CoefficientRow, instanceCoefficientRows } from "../../service/coefficients.js";
import type { EditionContext } from "../../service/context.js";
import { loadCoefficients } from "../coefficientParquet.js";
import { costRates } from "../costRates.js";
import { type BillingGrid, type GridFiles, withGridSeries } from "../grid.js";
import { type InstanceMatch, matchInstance } from "../matching.js";
import { billingCoefficientPlaces, billingPlaces, type EditionPlaces } from "../places.js";
import { keysQuery } from "../queries.js";
import { isMethodKey } from "../registry/methods.js";
import { createMatchTable, createPlaceTable, SMALL_TABLE_COLUMNS } from "../smallTables.js";
import {
  COST_KEY,
  costRows,
  instanceEnergy,
  type MethodRow,
  methodRows,
  UNIT_KEY_NAMES,
} from "./methodRows.js";
import type { BillingTerms } from "./request.js";

/** What the kinds of lines were looked up in: the matches, the coefficients read, the grid series. */
export interface LookedUp {
  readonly matches: ReadonlyMap<string, InstanceMatch>;
  /** The coefficient rows of the types and methods billed, every place, by lookupKey(provider, type, place). */
  readonly coefficients: ReadonlyMap<string, CoefficientRow>;
  readonly grid: BillingGrid | null;
}

/**
 * The look-up stage, from the table billing_line_kinds (the classify stage's, or the keys script's
 * result: src/billing/portable/tables.ts): the places, the matches, the lookup table, the series.
 */
export async function lookUpKinds(
  connection: DuckDBConnection,
  terms: BillingTerms,
  grid: GridFiles | null,
): Promise<LookedUp> {
  const { context, knownRegions, load, criteria, impactColumnNames } = terms;
  await createEditionPlaceTable(connection, context, knownRegions);
  await placeUnknownProviders(connection);
  const matches = await matchBilledTypes(connection, context);
  const coefficients = await createLookupTable(
    connection,
    context,
    matches,
    load,
    criteria,
    impactColumnNames,
  );
  const series = await withGridSeries(connection, grid, context, knownRegions, impactColumnNames);
  return { matches, coefficients, grid: series };
}

/** The key of a match (provider, type) or of a coefficient row (provider, type, place). */
export const lookupKey = (...parts: readonly (string | null)[]) => parts.join("\u0000");

/** The coefficient rows of the matched instance types, by provider, instance type and place. */
async function coefficientsOf(
  context: EditionContext,
  matches: readonly InstanceMatch[],
  load: number | null,
  criteria: readonly RequestedCriterion[],
): Promise<Map<string, CoefficientRow>> {
  const rows = new Map<string, CoefficientRow>();
  const done = new Set<string>();
  for (const match of matches) {
    if (
      match.matchedInstanceType === null ||
      isMethodKey(match.matchedInstanceType) ||
      done.has(lookupKey(match.provider, match.matchedInstanceType))
    )
      continue;
    done.add(lookupKey(match.provider, match.matchedInstanceType));
    for (const row of await instanceCoefficientRows(
      context,
      match.provider,
      match.matchedInstanceType,
      load,
      criteria,
      billingCoefficientPlaces(context, match.provider),
    )) {
      rows.set(lookupKey(row.provider, row.instanceType, row.region ?? row.usageLocation ?? ""), row);
    }
  }
  return rows;
}

/**
 * The coefficient rows some lines of the export read: an instance type has rows for every place,
 * tens of thousands for a large export, of which its lines read a few thousand. The places billed
 * are read through the lookup table's own query, run once on an empty coefficient table.
 */
async function billedCoefficients(
  connection: DuckDBConnection,
  load: (rows: readonly CoefficientRow[]) => Promise<void>,
  coefficients: ReadonlyMap<string, CoefficientRow>,
  impactColumnNames: readonly string[],
): Promise<CoefficientRow[]> {
  await load([]);
  const reader = await connection.runAndReadAll(
    `SELECT DISTINCT key_provider, billing_place FROM (${keysQuery(impactColumnNames)}) k
     WHERE billing_place IS NOT NULL`,
  );
  const billed = new Set(
    reader.getRowObjects().map((row) => lookupKey(String(row.key_provider), String(row.billing_place))),
  );
  return [...coefficients.values()].filter((row) =>
    billed.has(lookupKey(row.provider, row.region ?? row.usageLocation ?? "")),
  );
}

/** Each billed instance type matched once, whatever its number of lines; the table instance_matches. */
async function matchBilledTypes(
  connection: DuckDBConnection,
  context: EditionContext,
): Promise<Map<string, InstanceMatch>> {
  const billedTypes = await connection.runAndReadAll(
    `SELECT DISTINCT billing_provider, billing_instance_type FROM billing_line_kinds
     WHERE billing_provider IS NOT NULL AND billing_instance_type IS NOT NULL AND billing_method_key IS NULL`,
  );
  const matches = new Map<string, InstanceMatch>();
  for (const row of billedTypes.getRowObjects()) {
    const provider = String(row.billing_provider);
    const instanceType = String(row.billing_instance_type);
    matches.set(lookupKey(provider, instanceType), await matchInstance(context, provider, instanceType));
  }
  // A method's key is its own match, for every provider billing it (an unknown provider as '').
  for (const provider of await methodProviders(connection)) {
    for (const methodKey of UNIT_KEY_NAMES) {
      matches.set(lookupKey(provider, methodKey), {
        provider,
        billingInstanceType: methodKey,
        matchedInstanceType: methodKey,
        warning: null,
      });
    }
  }
  await createMatchTable(connection, matches.values());
  return matches;
}

/** The providers of lines with a method's key ('' for a provider not recognised). */
async function methodProviders(connection: DuckDBConnection): Promise<string[]> {
  const reader = await connection.runAndReadAll(
    `SELECT DISTINCT COALESCE(billing_provider, '') AS provider FROM billing_line_kinds
     WHERE billing_method_key IS NOT NULL ORDER BY provider`,
  );
  return reader.getRowObjects().map((row) => String(row.provider));
}

/**
 * A provider whose regions the edition does not have (Oracle; one not recognised): its methods'
 * lines are evaluated at the default place, each of its region spellings standing for it.
 */
async function placeUnknownProviders(connection: DuckDBConnection): Promise<void> {
  await connection.run(
    `INSERT INTO billing_places
     SELECT DISTINCT COALESCE(billing_provider, ''), billing_region_key, '', NULL FROM billing_line_kinds
     WHERE billing_method_key IS NOT NULL AND billing_region_key <> ''
       AND COALESCE(billing_provider, '') NOT IN (SELECT provider FROM billing_places)`,
  );
}

/** The methods' rows of each provider billing them, at its places, by provider, key and place. */
async function methodCoefficients(
  connection: DuckDBConnection,
  context: EditionContext,
  criteria: readonly RequestedCriterion[],
): Promise<Map<string, MethodRow>> {
  const rows = new Map<string, MethodRow>();
  for (const provider of await methodProviders(connection)) {
    for (const method of await methodRows(
      context,
      provider,
      billingCoefficientPlaces(context, provider),
      criteria,
    )) {
      const { row } = method;
      rows.set(lookupKey(row.provider, row.instanceType, row.region ?? row.usageLocation ?? ""), method);
    }
  }
  return rows;
}

/** The table billing_energy: the energy behind each loaded row's use impacts. */
async function createEnergyTable(
  connection: DuckDBConnection,
  rows: readonly { row: CoefficientRow; energyKwh: number | null }[],
): Promise<void> {
  await connection.run("DROP TABLE IF EXISTS billing_energy");
  await createTable(
    connection,
    "billing_energy",
    SMALL_TABLE_COLUMNS.billing_energy,
    rows.map(({ row, energyKwh }) => [
      row.provider,
      row.instanceType,
      row.region ?? row.usageLocation ?? "",
      energyKwh,
    ]),
  );
}

/**
 * The table billing_keys (sql/lookup/billing_keys.sql), from the coefficients of the matched types and of
 * the methods' keys at the places billed; returns those coefficients (every place), which the
 * totals read. The cost key's rows are the instance lines' kWh per cost (src/billing/costRates.ts):
 * built once the instance lines are looked up, then the table again with them.
 */
async function createLookupTable(
  connection: DuckDBConnection,
  context: EditionContext,
  matches: Map<string, InstanceMatch>,
  load: number | null,
  criteria: readonly RequestedCriterion[],
  impactColumnNames: readonly string[],
): Promise<Map<string, CoefficientRow>> {
  const coefficients = await coefficientsOf(context, [...matches.values()], load, criteria);
  const methods = await methodCoefficients(connection, context, criteria);
  for (const [name, method] of methods) coefficients.set(name, method.row);
  const loadRows = (rows: readonly CoefficientRow[]) =>
    loadCoefficients(connection, context.service.edition.id, load, criteria, rows);
  const build = async () => {
    await createEnergyTable(connection, []);
    const billed = await billedCoefficients(connection, loadRows, coefficients, impactColumnNames);
    await loadRows(billed);
    await createEnergyTable(
      connection,
      billed.map((row) => ({
        row,
        energyKwh: isMethodKey(row.instanceType)
          ? (methods.get(lookupKey(row.provider, row.instanceType, row.region ?? row.usageLocation ?? ""))
              ?.energyKwh ?? null)
          : instanceEnergy(context, row, criteria),
      })),
    );
    await connection.run(`CREATE OR REPLACE TABLE billing_keys AS ${keysQuery(impactColumnNames)}`);
  };
  await build();
  const rates = await costRates(connection);
  if (rates.size === 0) return coefficients;
  for (const [provider, rate] of rates) {
    const match = { provider, billingInstanceType: COST_KEY, matchedInstanceType: COST_KEY, warning: null };
    matches.set(lookupKey(provider, COST_KEY), match);
    for (const method of costRows(
      context,
      provider,
      rate,
      billingCoefficientPlaces(context, provider),
      criteria,
    )) {
      const { row } = method;
      const name = lookupKey(row.provider, row.instanceType, row.region ?? row.usageLocation ?? "");
      methods.set(name, method);
      coefficients.set(name, row);
    }
  }
  await createMatchTable(connection, matches.values());
  await build();
  return coefficients;
}

/** The table billing_places of an edition: its regions' spellings, the registry's at their country. */
async function createEditionPlaceTable(
  connection: DuckDBConnection,
  context: EditionContext,
  knownRegions: EditionPlaces["known"],
): Promise<void> {
  const { data } = context.service;
  await createPlaceTable(
    connection,
    billingPlaces({
      own: data.cloudRegions,
      known: knownRegions,
      countries: data.electricity.countryCodes,
      defaultLocation: data.config.defaultLocation,
    }),
  );
}
