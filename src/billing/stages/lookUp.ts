/*
 * The look-up stage of a billing run: each billed instance type matched once, whatever its number
 * of lines, and the lookup table billing_keys (sql/lookup/billing_keys.sql) built from the coefficient
 * table of the types and methods billed, at the places billed — no evaluation per line. With a grid
 * series, the table's gwp use is read from the series' zones.
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { type Cell, createTable } from "../../duckdb/database.js";
import { literal } from "../../duckdb/sqlText.js";
import type { RequestedCriterion } from "../../engine/index.js";
import { type BillingGrid, withGridSeries } from "../../grid/billLines.js";
import {
  type CoefficientPlace,
  type CoefficientRow,
  coefficientCells,
  coefficientColumns,
  impactSlots,
  instanceCoefficientRows,
  KEY_COLUMNS,
} from "../../service/coefficients.js";
import type { EditionContext } from "../../service/open.js";
import { BillingInputError } from "../errors.js";
import { catalogueMatch, type InstanceMatch, keyMatch, matchInstance } from "../matching.js";
import type { BillingPlace } from "../places.js";
import { billingCoefficientPlaces, billingPlaces, type EditionPlaces, spellingKey } from "../places.js";
import { BILL_GRID_QUERIES, gridUseColumns, impactsQuery, keysQuery, sqlQuery } from "../queries.js";
import { isMethodKey } from "../registry/methods.js";
import { NO_REGION_SPELLINGS } from "../registry/regions.js";
import type { WrittenFile } from "../writtenFile.js";
import { billedAiKeys, generativeAiRows } from "./generativeAiRows.js";
import {
  COST_KEY,
  costRows,
  instanceEnergy,
  type MethodRow,
  methodRows,
  UNIT_KEY_NAMES,
} from "./methodRows.js";
import type { BillingTerms, BillRun } from "./request.js";

/** What the kinds of lines were looked up in: the matches, the coefficients read, the grid series. */
export interface LookedUp {
  readonly matches: ReadonlyMap<string, InstanceMatch>;
  /** The coefficient rows of the types and methods billed, every place, by lookupKey(provider, type, place). */
  readonly coefficients: ReadonlyMap<string, CoefficientRow>;
  /** The kWh behind one unit of a loaded row's use impacts (PUE included), by the same key; null where none is known. */
  readonly energies: ReadonlyMap<string, number | null>;
  readonly grid: BillingGrid<WrittenFile> | null;
}

/**
 * The look-up stage, from the table billing_line_kinds (the classify stage's, or the keys script's
 * result: src/billing/portable/kindTables.ts): the places, the matches, the lookup table (its
 * coefficient rows those `loaded` says), the series.
 */
export async function lookUpKinds(
  run: Pick<BillRun, "connection" | "terms" | "grid">,
  loaded: LoadedRows,
): Promise<LookedUp> {
  const { connection, terms, grid } = run;
  const { context, knownRegions, impactColumnNames } = terms;
  await createEditionPlaceTable(connection, context, knownRegions);
  await placeUnknownProviders(connection);
  await placeRegionless(connection, context.service.data.config.defaultLocation);
  const keys = await billedMethodKeys(connection);
  const matches = await matchBilledTypes(connection, context, keys);
  const { coefficients, energies } = await createLookupTable(
    connection,
    context,
    matches,
    terms,
    loaded,
    keys,
  );
  // The series and its readers are the run's that has one (src/grid/billLines.ts).
  if (grid !== null && gridUseColumns(impactColumnNames).length === 0) {
    throw new BillingInputError("--grid-intensity changes the gwp use: ask for the gwp criterion");
  }
  const series =
    grid === null
      ? null
      : await withGridSeries(connection, grid, context, knownRegions, impactColumnNames, BILL_GRID_QUERIES);
  return { matches, coefficients, energies, grid: series };
}

/** The key of a match (provider, type) or of a coefficient row (provider, type, place). */
export const lookupKey = (...parts: readonly (string | null)[]) => parts.join("\u0000");

/** The place of a coefficient row as the lookup table names it: its region, else its location, else ''. */
const rowPlace = (row: CoefficientPlace) => row.region ?? row.usageLocation ?? "";

/** Whether a run loads the coefficient row of a provider's instance type (or method key) at a place. */
type LoadedRow = (provider: string, instanceType: string, place: string) => boolean;

/**
 * The coefficient rows of the matched instance types, by provider, instance type and place: each
 * type's first two (its single-route evaluations: src/service/coefficients.ts), then those of the
 * places `loaded` keeps.
 */
async function coefficientsOf(
  context: EditionContext,
  matches: readonly InstanceMatch[],
  load: number | null,
  criteria: readonly RequestedCriterion[],
  loaded: LoadedRow,
): Promise<Map<string, CoefficientRow>> {
  const rows = new Map<string, CoefficientRow>();
  const done = new Set<string>();
  for (const match of matches) {
    const type = match.matchedInstanceType;
    if (type === null || isMethodKey(type) || done.has(lookupKey(match.provider, type))) continue;
    done.add(lookupKey(match.provider, type));
    const [evaluated, located, ...others] = billingCoefficientPlaces(context, match.provider);
    const places = [
      evaluated,
      located,
      ...others.filter((place) => loaded(match.provider, type, rowPlace(place))),
    ];
    for (const row of await instanceCoefficientRows(
      context,
      match.provider,
      type,
      load,
      criteria,
      places.filter((place) => place !== undefined),
    )) {
      rows.set(lookupKey(row.provider, row.instanceType, rowPlace(row)), row);
    }
  }
  return rows;
}

/**
 * Which coefficient rows a run loads. An instance type has rows for every place, tens of thousands
 * for a large export, of which its lines read a few thousand: `keys`, the rows of the keys the
 * lines read (each instance type or method at the places it is billed at); `places`, every type's
 * rows at each place its provider is billed at, which the tables for another engine hold (--tables,
 * `impact-service tables`: method_coefficients.parquet, billing_energy.csv).
 */
export type LoadedRows = "keys" | "places";

/**
 * The rows a run loads (LoadedRows), read through the lookup table's own query, run on an empty
 * coefficient table (and energy table).
 */
async function loadedRowsOf(
  connection: DuckDBConnection,
  loadNone: () => Promise<void>,
  impactColumnNames: readonly string[],
  loaded: LoadedRows,
): Promise<LoadedRow> {
  await createEnergyTable(connection, []);
  await loadNone();
  const reader = await connection.runAndReadAll(
    `SELECT DISTINCT key_provider, billing_matched_instance_type AS instance_type, billing_place
     FROM (${keysQuery(impactColumnNames)}) k WHERE billing_place IS NOT NULL`,
  );
  const billed = new Set(
    reader
      .getRowObjects()
      .map((row) =>
        loaded === "keys"
          ? lookupKey(String(row.key_provider), String(row.instance_type), String(row.billing_place))
          : lookupKey(String(row.key_provider), String(row.billing_place)),
      ),
  );
  return loaded === "keys"
    ? (provider, instanceType, place) => billed.has(lookupKey(provider, instanceType, place))
    : (provider, _instanceType, place) => billed.has(lookupKey(provider, place));
}

const numberOrNull = (value: unknown) => (value === null || value === undefined ? null : Number(value));

/**
 * Each billed instance type matched once, whatever its number of lines; the table instance_matches.
 * In the order of provider and type: DISTINCT alone returns them in the order its threads meet
 * them, which differs from run to run, and the summary lists the approximate matches in this order.
 */
async function matchBilledTypes(
  connection: DuckDBConnection,
  context: EditionContext,
  billed: BilledMethodKeys,
): Promise<Map<string, InstanceMatch>> {
  // The shape the bill gives a type (CUR product/vcpu, product/memory), where its lines agree on one
  const billedTypes = await connection.runAndReadAll(
    `SELECT billing_provider, billing_instance_type,
       CASE WHEN COUNT(DISTINCT billing_instance_vcpus) = 1 THEN MAX(billing_instance_vcpus) END AS vcpus,
       CASE WHEN COUNT(DISTINCT billing_instance_memory_gib) = 1 THEN MAX(billing_instance_memory_gib) END AS memory
     FROM billing_line_kinds
     WHERE billing_provider IS NOT NULL AND billing_instance_type IS NOT NULL AND billing_method_key IS NULL
     GROUP BY billing_provider, billing_instance_type
     ORDER BY billing_provider, billing_instance_type`,
  );
  const matches = new Map<string, InstanceMatch>();
  for (const row of billedTypes.getRowObjects()) {
    const provider = String(row.billing_provider);
    const instanceType = String(row.billing_instance_type);
    const given =
      row.vcpus === null ? null : { vcpus: Number(row.vcpus), memoryGib: numberOrNull(row.memory) };
    matches.set(
      lookupKey(provider, instanceType),
      await matchInstance(context, provider, instanceType, given),
    );
  }
  // A managed size's key is matched to its server through the catalogue
  for (const { provider, key } of billed.keys.filter(({ key }) => key.startsWith("managed:"))) {
    matches.set(lookupKey(provider, key), await catalogueMatch(context, provider, key));
  }
  // A method's key is its own match, for every provider billing it (an unknown provider as ''),
  // and a generative-AI model's key for the providers whose lines name it.
  const keys = billed.providers.flatMap((provider) => UNIT_KEY_NAMES.map((key) => ({ provider, key })));
  for (const { provider, key } of [...keys, ...billedAiKeys(billed.keys)]) {
    matches.set(lookupKey(provider, key), keyMatch(provider, key));
  }
  await createMatchTable(connection, matches.values());
  return matches;
}

/**
 * The methods' keys a bill's kinds of lines read, by provider ('' for a provider not recognised),
 * read once for the stage: the providers of such lines, each key (a managed size's, a generative-AI
 * model's, the cost key), both in their order.
 */
interface BilledMethodKeys {
  readonly providers: readonly string[];
  readonly keys: readonly { readonly provider: string; readonly key: string }[];
}

async function billedMethodKeys(connection: DuckDBConnection): Promise<BilledMethodKeys> {
  const reader = await connection.runAndReadAll(
    `SELECT DISTINCT COALESCE(billing_provider, '') AS provider, billing_method_key AS method_key
     FROM billing_line_kinds WHERE billing_method_key IS NOT NULL ORDER BY ALL`,
  );
  const keys = reader
    .getRowObjects()
    .map((row) => ({ provider: String(row.provider), key: String(row.method_key) }));
  return { providers: [...new Set(keys.map(({ provider }) => provider))], keys };
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

/**
 * The place of a provider's lines without a region (an empty cell or a spelling of none: `NULL`),
 * said, never silent: the bill's only region of that provider where its other lines name one place
 * (a one-region account's global or transfer lines), else the default place.
 */
async function placeRegionless(connection: DuckDBConnection, defaultLocation: string): Promise<void> {
  const none = [...new Set(NO_REGION_SPELLINGS.map(spellingKey))].map(literal).join(", ");
  await connection.run(
    `CREATE OR REPLACE TEMP TABLE billing_only_places AS
     SELECT provider, MIN(place) AS place, MIN(region) AS region FROM (
       SELECT DISTINCT COALESCE(l.billing_provider, '') AS provider, p.place, TRIM(l.billing_region) AS region
       FROM billing_line_kinds l
       JOIN billing_places p ON p.provider = COALESCE(l.billing_provider, '') AND p.spelling = l.billing_region_key
       WHERE l.billing_region_key NOT IN (${none}) AND p.place <> '')
     GROUP BY provider HAVING COUNT(DISTINCT place) = 1`,
  );
  const only = "CONCAT('no region: the bill''s only region of its provider, ', o.region)";
  await connection.run(
    `UPDATE billing_places SET place = o.place, place_warning = ${only}
     FROM billing_only_places o WHERE billing_places.provider = o.provider AND billing_places.spelling IN (${none})`,
  );
  await connection.run(
    `INSERT INTO billing_places
     SELECT k.provider, '', COALESCE(o.place, ''),
       CASE WHEN o.place IS NULL THEN ${literal(`no region: the default place (${defaultLocation})`)} ELSE ${only} END
     FROM (SELECT DISTINCT COALESCE(billing_provider, '') AS provider FROM billing_line_kinds
       WHERE billing_region_key = '') k
     LEFT JOIN billing_only_places o ON o.provider = k.provider
     WHERE k.provider NOT IN (SELECT provider FROM billing_places WHERE spelling = '')`,
  );
  await connection.run("DROP TABLE billing_only_places");
}

/**
 * The methods' rows of each provider billing them, at its places, by provider, key and place; a
 * generative-AI model's for the providers whose lines name it (src/billing/stages/generativeAiRows.ts).
 */
async function methodCoefficients(
  billed: BilledMethodKeys,
  context: EditionContext,
  criteria: readonly RequestedCriterion[],
): Promise<Map<string, MethodRow>> {
  const rows = new Map<string, MethodRow>();
  for (const provider of billed.providers) {
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
  for (const model of billedAiKeys(billed.keys)) {
    const places = billingCoefficientPlaces(context, model.provider);
    for (const method of generativeAiRows(context, model, places, criteria)) {
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
 * the methods' keys, the rows `loaded` says; returns those coefficients (each type's evaluated rows
 * besides), which the totals read. The cost key's rows are the instance lines' kWh per cost
 * (costRates): built once the instance lines are looked up, then the table again with them. Also
 * returns the energy of each row loaded (billing_energy's), which the summary's energy reads.
 */
async function createLookupTable(
  connection: DuckDBConnection,
  context: EditionContext,
  matches: Map<string, InstanceMatch>,
  terms: Pick<BillingTerms, "load" | "criteria" | "impactColumnNames">,
  loaded: LoadedRows,
  billed: BilledMethodKeys,
): Promise<{ coefficients: Map<string, CoefficientRow>; energies: Map<string, number | null> }> {
  const { load, criteria, impactColumnNames } = terms;
  const energies = new Map<string, number | null>();
  const loadRows = (rows: readonly CoefficientRow[]) =>
    loadCoefficients(connection, context.service.edition.id, load, criteria, rows);
  const loadedRows = () => loadedRowsOf(connection, () => loadRows([]), impactColumnNames, loaded);
  const wanted = await loadedRows();
  const coefficients = await coefficientsOf(context, [...matches.values()], load, criteria, wanted);
  const methods = await methodCoefficients(billed, context, criteria);
  for (const [name, method] of methods) coefficients.set(name, method.row);
  const build = async (kept: LoadedRow) => {
    const billed = [...coefficients.values()].filter((row) =>
      kept(row.provider, row.instanceType, rowPlace(row)),
    );
    await loadRows(billed);
    const energy = billed.map((row) => {
      const key = lookupKey(row.provider, row.instanceType, rowPlace(row));
      const energyKwh = isMethodKey(row.instanceType)
        ? (methods.get(key)?.energyKwh ?? null)
        : instanceEnergy(context, row, criteria);
      energies.set(key, energyKwh);
      return { row, energyKwh };
    });
    await createEnergyTable(connection, energy);
    await connection.run(`CREATE OR REPLACE TABLE billing_keys AS ${keysQuery(impactColumnNames)}`);
  };
  await build(wanted);
  // The by-cost rate's query (the impacts over every kind) only where lines read the cost key
  const costed = billed.keys.some(({ key }) => key === COST_KEY);
  const rates = costed ? await costRates(connection) : new Map<string, number>();
  if (rates.size === 0) return { coefficients, energies };
  for (const [provider, rate] of rates) {
    const match = keyMatch(provider, COST_KEY);
    matches.set(lookupKey(provider, COST_KEY), match);
    for (const method of costRows(
      context,
      provider,
      rate,
      billingCoefficientPlaces(context, provider),
      criteria,
    )) {
      const { row } = method;
      const name = lookupKey(row.provider, row.instanceType, rowPlace(row));
      methods.set(name, method);
      coefficients.set(name, row);
    }
  }
  await createMatchTable(connection, matches.values());
  await build(await loadedRows());
  return { coefficients, energies };
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

type ColumnType = "VARCHAR" | "DOUBLE";

/** The small tables written as CSV (text; the DOUBLE columns read as numbers), their columns in order. */
export const SMALL_TABLE_COLUMNS = {
  instance_matches: [
    ["provider", "VARCHAR"],
    ["billing_instance_type", "VARCHAR"],
    ["matched_instance_type", "VARCHAR"],
    ["match_warning", "VARCHAR"],
    ["match_kind", "VARCHAR"],
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
      match.kind,
    ]),
  );
}

/** Fills the table `coefficients` (key columns as text, `load` and impacts as doubles). */
export async function loadCoefficients(
  connection: DuckDBConnection,
  edition: string,
  load: number | null,
  criteria: readonly RequestedCriterion[],
  rows: Iterable<CoefficientRow>,
): Promise<void> {
  const slots = impactSlots(criteria);
  const textColumns = KEY_COLUMNS.length - 1;
  const cells = function* (): Generator<Cell[]> {
    for (const row of rows) yield coefficientCells(edition, load, slots, row);
  };
  await createTable(
    connection,
    "coefficients",
    coefficientColumns(criteria).map(
      (column, index) => [column, index < textColumns ? "VARCHAR" : "DOUBLE"] as const,
    ),
    cells(),
  );
}

/*
 * The rate of lines estimated by their cost (method `by-cost`, sql/classify/billing_methods.sql): for each
 * provider billing such lines, the energy of its instance lines per unit of their cost in the same
 * bill — Cloud Carbon Footprint's estimate of managed services whose hardware is not billed
 * ("Handling Unknown Usage Types": the kilowatt-hours per cost of the best-fitting known usage, for
 * AWS by cost; lines billed in hours fit compute). docs/methodology.md, "Billing lines that are not
 * instance hours".
 */

/**
 * kWh per unit of cost (PUE included) of each provider's evaluated instance lines with a positive
 * cost, for the providers with lines of the cost key; read from the kinds of lines
 * (billing_line_kinds, grouped by the sign of their cost) and the lookup table. The cost is the one
 * the coverage and the report read (billing_paid_cost: FOCUS EffectiveCost, a CUR's amortised
 * cost, else the billed cost), as is a by-cost line's (sql/evaluate/billing_impacts.sql): one basis
 * from the rate to the report's rows.
 */
export async function costRates(connection: DuckDBConnection): Promise<Map<string, number>> {
  // The kinds' energy and cost read in one order and summed here: DuckDB's SUM over threads adds
  // in the order its threads finish, so the rate's last digit changed from run to run on a busy
  // machine, and with it every by-cost line of the output.
  const reader = await connection.runAndReadAll(
    `WITH billing_classified AS (SELECT * FROM billing_line_kinds),
       billing_located AS (${sqlQuery("evaluate/billing_located.sql")})
     SELECT COALESCE(billing_provider, '') AS provider, energy_kwh, billing_paid_cost
     FROM (${impactsQuery([])}) kinds
     WHERE billing_method = 'instance' AND billing_problem IS NULL AND billing_paid_cost > 0 AND energy_kwh > 0
       AND COALESCE(billing_provider, '') IN (
         SELECT COALESCE(billing_provider, '') FROM billing_line_kinds WHERE billing_method_key = '${COST_KEY}')
     ORDER BY ALL`,
  );
  const sums = new Map<string, { energy: number; cost: number }>();
  for (const row of reader.getRowObjects()) {
    const provider = String(row.provider);
    const sum = sums.get(provider) ?? { energy: 0, cost: 0 };
    sum.energy += Number(row.energy_kwh);
    sum.cost += Number(row.billing_paid_cost);
    sums.set(provider, sum);
  }
  return new Map([...sums].map(([provider, sum]) => [provider, sum.energy / sum.cost]));
}
