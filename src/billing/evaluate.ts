/*
 * A billing export evaluated at any size: DuckDB reads the file as it is, the format's query
 * (sql/) finds its compute lines, instance types, units and regions, and each line reads its row
 * of a lookup table built from the coefficient table of the instance types it bills — no
 * evaluation per line.
 *
 * One pass first reads every line into kinds (provider, instance type, region, unit, kind of line,
 * whether its quantity is a number and its sign; quantities summed): a file cut short or not UTF-8
 * fails there, before anything is written. The kinds name the instance types to match and the keys
 * of the lookup table (sql/billing_keys.sql); run through the same queries as the lines, they give
 * the summary and --strict's verdict. The second pass writes every line with its impacts to a
 * temporary file, renamed to the output once complete.
 */

import { mkdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { DuckDBConnection } from "@duckdb/node-api";
import { HEADER_BYTES } from "../duckdb/csvHeader.js";
import {
  createTable,
  type Database,
  fileLiteral,
  identifier,
  literal,
  openDatabase,
} from "../duckdb/database.js";
import { FileReadError, readFailing } from "../duckdb/readErrors.js";
import type { RequestedCriterion } from "../engine/index.js";
import { impactColumn, PHASES, type Phase } from "../output/columns.js";
import {
  type CoefficientRow,
  checkedLoad,
  coefficientCriteria,
  instanceCoefficientRows,
} from "../service/coefficients.js";
import type { EditionContext } from "../service/context.js";
import { loadCoefficients } from "./coefficientParquet.js";
import { costRates } from "./costRates.js";
import { BillingInputError, BillingStrictStop } from "./errors.js";
import {
  BILLING_FORMATS,
  type BillingFormat,
  type BillingFormatName,
  coverageCostColumn,
  missingColumns,
  readAs,
  recognisedFormat,
  unrecognisedHeader,
} from "./formats.js";
import { type GridFiles, type GridRun, gridQueryTotals, withGridSeries } from "./grid.js";
import { checkColumnCount, checkColumnTypes, inputColumnNames } from "./inputColumns.js";
import { createLocatedView, orderLineViews } from "./lookup.js";
import { type InstanceMatch, matchInstance } from "./matching.js";
import {
  COST_KEY,
  costRows,
  instanceEnergy,
  isMethodKey,
  METHOD_KEYS,
  type MethodRow,
  methodRows,
} from "./methods.js";
import { flatRecords } from "./nestedColumns.js";
import { billingCoefficientPlaces, billingPlaces, type EditionPlaces } from "./places.js";
import { lineKindsQuery } from "./portable/kinds.js";
import { impactsQuery, keysQuery, sqlQuery } from "./queries.js";
import { type BillLayout, billLayout } from "./reading/layout.js";
import { billSource } from "./reading/source.js";
import { addBilledUnits, createRegistryTables, REGISTRY_TABLES } from "./registry/tables.js";
import { type BillReportData, billReportData } from "./reportData.js";
import { createMatchTable, createPlaceTable, SMALL_TABLE_COLUMNS, smallTableFiles } from "./smallTables.js";
import {
  createTupleLocatedView,
  createTupleRows,
  groupLineTuples,
  type LineTuple,
  lineTuple,
} from "./tuples.js";
import { createLineViews, type LineSource } from "./views.js";
import {
  copyOptions,
  locatedReadBy,
  partialOf as partial,
  type WrittenColumns,
  writeLines,
} from "./writing.js";

export interface BillingRequest {
  readonly file: string;
  /** The file's layout when already read (to recognise it; src/billing/reading); read here when absent. */
  readonly layout?: BillLayout;
  /** The export's format; recognised by its header when null. */
  readonly input: BillingFormatName | null;
  /** Where the annotated lines go. */
  readonly output: string;
  readonly format: "csv" | "parquet";
  /** Criteria (names or keys); the edition's default criteria when absent. */
  readonly criteria: readonly string[] | null;
  /** Also write each impact's min and max. */
  readonly ranges: boolean;
  /** Columns whose groups' sums are written to `groupsOutput`. */
  readonly groupBy: readonly string[];
  readonly groupsOutput: string | null;
  /** The column holding the machine type of Google Cloud lines. */
  readonly instanceTypeColumn: string | null;
  /** Constant load of every instance, %; the archetype's default when null. */
  readonly load: number | null;
  /** Stop before writing anything when a line is a bad row. */
  readonly strict: boolean;
  /** Gather the data of the bill's report (src/output/billReport.ts). */
  readonly report?: boolean;
  /**
   * A folder to write the small tables the run built to (instance_matches.csv, billing_places.csv,
   * billing_energy.csv, method_coefficients.parquet; with a grid series grid_interval, grid_zone,
   * grid_spans and grid_knots, as Parquet): with the coefficient table, what the portable steps
   * read (docs/billing.md, "Beyond one machine").
   */
  readonly tablesFolder?: string | null;
  /** A grid intensity series (--grid-intensity, --grid-zones) for the lines' gwp use. */
  readonly grid?: GridFiles | null;
}

/** The files a run writes to a --tables folder (each written as its `.partial` first). */
export function portableTableFiles(folder: string, grid: boolean): string[] {
  return smallTableFiles(grid).map(({ file }) => join(folder, file));
}

/**
 * The small tables a run built, in `folder`, for the same SQL on another engine (docs/billing.md,
 * "Beyond one machine"; src/billing/smallTables.ts): instance_matches, billing_places and
 * billing_energy as CSV, and the methods' rows of the coefficient table
 * (method_coefficients.parquet: its shape and types, to append to it).
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
    await connection.run(`COPY (${query} ORDER BY ALL) TO ${literal(partial(file))} ${options}`);
    renameSync(partial(file), file);
  }
}

export { BillingInputError, BillingStrictStop, FileReadError };

const REGISTRY_TABLE_NAMES: ReadonlySet<string> = new Set(REGISTRY_TABLES.map((table) => table.name));

/** Lines of one kind: provider, instance type as billed, place, and why not evaluated (null: it may be). */
export interface LineGroup {
  readonly provider: string | null;
  readonly instanceType: string | null;
  readonly place: string | null;
  readonly problem: string | null;
  readonly lines: number;
  readonly hours: number;
  /** How its lines use hardware (sql/billing_methods.sql); null for none. */
  readonly method: string | null;
  /** Its method's coefficient key; null for instance lines and lines without a method. */
  readonly methodKey: string | null;
  /** Units of its method's key (GB-hours, GB, vCPU-hours…) of its evaluated lines. */
  readonly methodQuantity: number;
  /** The service its lines bill (FOCUS ServiceName, CUR product code, Azure meter category). */
  readonly service: string | null;
  /** The sum of its lines' positive costs paid for the hours (BillingSummary.costColumn). */
  readonly cost: number;
  /** Why its place is not its region's own (a country, the default), else null. */
  readonly placeWarning: string | null;
}

export interface ImpactTotal {
  readonly criterion: RequestedCriterion;
  readonly phase: Phase;
  readonly value: number;
  readonly min: number;
  readonly max: number;
}

export interface BillingSummary {
  readonly file: string;
  /** The export's format, titled as the version read (src/billing/formats.ts, readAs). */
  readonly format: BillingFormat;
  /** The cost the coverage reads, as the file names it (EffectiveCost, an amortised CUR's columns…). */
  readonly costColumn: string;
  readonly edition: string;
  readonly groups: readonly LineGroup[];
  readonly matches: readonly InstanceMatch[];
  /** Sums over the evaluated lines, per criterion and phase. */
  readonly totals: readonly ImpactTotal[];
  /** The columns written besides the file's own. */
  readonly impactColumns: readonly string[];
  /** The report's rankings, when asked for. */
  readonly report: BillReportData | null;
  /** How the lines fared with the grid series, when one was given. */
  readonly grid: GridRun | null;
}

/** The columns of a query and their DuckDB types, in order. */
async function columnsOf(connection: DuckDBConnection, query: string): Promise<[string, string][]> {
  const reader = await connection.runAndReadAll(`DESCRIBE ${query}`);
  return reader.getRowObjects().map((row) => [String(row.column_name), String(row.column_type)]);
}

/** The columns of a Parquet file's schema (nested fields included), read before its columns are. */
async function parquetColumnCount(connection: DuckDBConnection, file: string): Promise<number> {
  const reader = await connection.runAndReadAll(
    `SELECT COUNT(*) AS columns FROM parquet_schema(${literal(file)})`,
  );
  return Number(reader.getRowObjects()[0].columns) - 1;
}

/** The impact columns written, in order: criterion, phase, then min and max with ranges. */
export function billingImpactColumns(criteria: readonly RequestedCriterion[], ranges: boolean): string[] {
  const bounds = ranges ? (["value", "min", "max"] as const) : (["value"] as const);
  return criteria.flatMap((criterion) =>
    PHASES.flatMap((phase) =>
      bounds.map((bound) => impactColumn(criterion.info.name, criterion.info.unit, phase, bound)),
    ),
  );
}

/** The column a requested name stands for, as the run names it (case does not matter), or an input error. */
function headerColumn(
  export_: Pick<PreparedExport, "header" | "columns">,
  name: string,
  option: string,
): string {
  const index = export_.header.findIndex((column) => column.toLowerCase() === name.toLowerCase());
  if (index < 0) throw new BillingInputError(`${option}: the file has no column ${name}`);
  return export_.columns.names[index];
}

/**
 * The export's tuples (the first pass, src/billing/tuples.ts) run through the format's queries,
 * grouped into the table billing_line_kinds, shaped as billing_classified (the quantities of a
 * kind summed: they share whether they are a number and their sign, so a kind fares as each of
 * its lines), with the count of its lines. The views then read the tuples.
 */
async function groupLineKinds(db: Database, prepared: PreparedExport, file: string): Promise<void> {
  const { connection } = db;
  const tupleColumns = await readFailing(() => groupLineTuples(connection, prepared.tuple), file);
  await createLineViews(connection, {
    ...prepared.views,
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

/**
 * The view billing_located over the file's lines for the writing pass: each line reads its tuple's
 * row (src/billing/tuples.ts), or, past so many tuples, is classified and reads the lookup table
 * (src/billing/lookup.ts).
 */
async function locateLines(
  connection: DuckDBConnection,
  prepared: PreparedExport,
  readBy: string,
): Promise<void> {
  const read = await createTupleRows(connection, prepared.tuple);
  await createLineViews(connection, prepared.views);
  await orderLineViews(connection, REGISTRY_TABLE_NAMES);
  if (read === null) await createLocatedView(connection);
  else await createTupleLocatedView(connection, prepared.tuple, read, readBy);
}

/**
 * Names from the file a summary keeps apart, per dimension: the services with the most cost, the
 * instance types and reasons of lines not evaluated with the most lines; the others are summed
 * under one name. 500,000 lines of as many services took the run from 760 MB to 1.42 GB, the
 * groups read into the process (bench/README.md, "Billing exports").
 */
const NAMES_KEPT = 1_000;

/**
 * The kinds of lines, through the queries the lines go through, grouped for the summary (in one
 * order), past NAMES_KEPT names of a dimension summed as `other services`, `other instance types`
 * and `bad row: other reasons` (`not evaluated: other reasons`). Lines evaluated keep their
 * instance type (their impacts are summed by it).
 */
async function lineGroups(connection: DuckDBConnection): Promise<LineGroup[]> {
  const ranked = (column: string, order: string, where = "") =>
    `SELECT ${column}, row_number() OVER (ORDER BY ${order}, ${column}) AS rank FROM kinds ${where} GROUP BY ${column}`;
  const reader = await connection.runAndReadAll(
    `WITH billing_classified AS (SELECT * FROM billing_line_kinds),
       billing_located AS (${sqlQuery("billing_located.sql")}),
       kinds AS (
         SELECT billing_provider, billing_instance_type, billing_place, billing_problem, billing_method,
           billing_method_key, billing_service, billing_place_warning,
           SUM(billing_line_count)::DOUBLE AS lines, COALESCE(fsum(hours), 0) AS hours,
           COALESCE(fsum(billing_method_amount), 0) AS method_quantity,
            COALESCE(fsum(CASE WHEN billing_paid_cost > 0 THEN billing_paid_cost END), 0) AS cost
         FROM (${impactsQuery([])}) located
         GROUP BY ALL
       ),
       services AS (${ranked("billing_service", "fsum(cost) DESC, SUM(lines) DESC")}),
       types AS (${ranked("billing_instance_type", "SUM(lines) DESC", "WHERE billing_problem IS NOT NULL")}),
       problems AS (${ranked("billing_problem", "SUM(lines) DESC", "WHERE billing_problem IS NOT NULL")})
     SELECT k.billing_provider,
       CASE WHEN k.billing_problem IS NULL OR t.rank <= ${NAMES_KEPT} THEN k.billing_instance_type
         ELSE 'other instance types' END AS billing_instance_type,
       k.billing_place,
       CASE WHEN k.billing_problem IS NULL OR p.rank <= ${NAMES_KEPT} THEN k.billing_problem
         WHEN k.billing_problem LIKE 'bad row%' THEN 'bad row: other reasons'
         WHEN k.billing_problem LIKE 'not evaluated%' THEN 'not evaluated: other reasons'
         ELSE k.billing_problem END AS billing_problem,
       k.billing_method, k.billing_method_key, k.billing_place_warning,
       CASE WHEN s.rank <= ${NAMES_KEPT} THEN k.billing_service ELSE 'other services' END AS billing_service,
       SUM(k.lines)::DOUBLE AS lines, fsum(k.hours) AS hours, fsum(k.method_quantity) AS method_quantity,
       fsum(k.cost) AS cost
     FROM kinds k
     JOIN services s ON s.billing_service IS NOT DISTINCT FROM k.billing_service
     LEFT JOIN types t ON t.billing_instance_type IS NOT DISTINCT FROM k.billing_instance_type
     LEFT JOIN problems p ON p.billing_problem = k.billing_problem
     GROUP BY ALL ORDER BY ALL`,
  );
  const text = (value: unknown) => (value === null ? null : String(value));
  return reader.getRowObjects().map((row) => ({
    provider: text(row.billing_provider),
    instanceType: text(row.billing_instance_type),
    place: text(row.billing_place),
    problem: text(row.billing_problem),
    lines: Number(row.lines),
    hours: Number(row.hours),
    method: text(row.billing_method),
    methodKey: text(row.billing_method_key),
    methodQuantity: Number(row.method_quantity),
    service: text(row.billing_service),
    cost: Number(row.cost),
    placeWarning: text(row.billing_place_warning),
  }));
}

const key = (...parts: readonly (string | null)[]) => parts.join("\u0000");

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
      done.has(key(match.provider, match.matchedInstanceType))
    )
      continue;
    done.add(key(match.provider, match.matchedInstanceType));
    for (const row of await instanceCoefficientRows(
      context,
      match.provider,
      match.matchedInstanceType,
      load,
      criteria,
      billingCoefficientPlaces(context, match.provider),
    )) {
      rows.set(key(row.provider, row.instanceType, row.region ?? row.usageLocation ?? ""), row);
    }
  }
  return rows;
}

function totalsOf(
  groups: readonly LineGroup[],
  matches: ReadonlyMap<string, InstanceMatch>,
  coefficients: ReadonlyMap<string, CoefficientRow>,
  criteria: readonly RequestedCriterion[],
): ImpactTotal[] {
  const totals = criteria.flatMap((criterion) =>
    PHASES.map((phase) => ({ criterion, phase, value: 0, min: 0, max: 0 })),
  );
  for (const group of groups) {
    if (group.problem !== null) continue;
    const billed = group.methodKey ?? group.instanceType;
    const matched = matches.get(key(group.provider ?? "", billed))?.matchedInstanceType ?? null;
    const row =
      matched === null ? undefined : coefficients.get(key(group.provider ?? "", matched, group.place));
    if (row === undefined) continue;
    const units = group.methodKey === null ? group.hours : group.methodQuantity;
    for (const total of totals) {
      const impact = row.perHour[criteria.indexOf(total.criterion)][total.phase];
      if (impact === null) continue;
      total.value += impact.value * units;
      total.min += impact.min * units;
      total.max += impact.max * units;
    }
  }
  return totals;
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
    reader.getRowObjects().map((row) => key(String(row.key_provider), String(row.billing_place))),
  );
  return [...coefficients.values()].filter((row) =>
    billed.has(key(row.provider, row.region ?? row.usageLocation ?? "")),
  );
}

/** Each billed instance type matched once, whatever its number of lines; the table instance_matches. */
export async function matchBilledTypes(
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
    matches.set(key(provider, instanceType), await matchInstance(context, provider, instanceType));
  }
  // A method's key is its own match, for every provider billing it (an unknown provider as '').
  for (const provider of await methodProviders(connection)) {
    for (const methodKey of METHOD_KEYS) {
      matches.set(key(provider, methodKey), {
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
export async function placeUnknownProviders(connection: DuckDBConnection): Promise<void> {
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
      rows.set(key(row.provider, row.instanceType, row.region ?? row.usageLocation ?? ""), method);
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
 * The table billing_keys (sql/billing_keys.sql), from the coefficients of the matched types and of
 * the methods' keys at the places billed; returns those coefficients (every place), which the
 * totals read. The cost key's rows are the instance lines' kWh per cost (src/billing/costRates.ts):
 * built once the instance lines are looked up, then the table again with them.
 */
export async function createLookupTable(
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
          ? (methods.get(key(row.provider, row.instanceType, row.region ?? row.usageLocation ?? ""))
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
    matches.set(key(provider, COST_KEY), match);
    for (const method of costRows(
      context,
      provider,
      rate,
      billingCoefficientPlaces(context, provider),
      criteria,
    )) {
      const { row } = method;
      const name = key(row.provider, row.instanceType, row.region ?? row.usageLocation ?? "");
      methods.set(name, method);
      coefficients.set(name, row);
    }
  }
  await createMatchTable(connection, matches.values());
  await build();
  return coefficients;
}

/** A column of the groups' file: its name and how it reads from the written lines. */
interface GroupColumn {
  readonly name: string;
  readonly expression: string;
}

/** The tag columns of the formats: FOCUS `Tags`, CUR `resource_tags`, Azure `Tags`. */
const TAG_COLUMNS = ["tags", "resource_tags"];

/**
 * A --group-by name: a column of the file, or `tag:<key>`, the key's value in the tag column
 * (JSON text; Azure's without braces; a map or struct as JSON; a CUR key also as `user_<key>`).
 */
function groupColumn(prepared: PreparedExport, name: string, output: "csv" | "parquet"): GroupColumn {
  if (!name.startsWith("tag:")) {
    const column = headerColumn(prepared, name, "--group-by");
    return { name: column, expression: identifier(column) };
  }
  const key = name.slice("tag:".length);
  const index = prepared.header.findIndex((column) => TAG_COLUMNS.includes(column.toLowerCase()));
  if (index < 0 || key === "") {
    throw new BillingInputError(
      `--group-by ${name}: the file has no Tags or resource_tags column, or no key`,
    );
  }
  const column = prepared.columns.names[index];
  // Read back from the output: CSV holds a map as its JSON text, Parquet as the map.
  const text =
    output === "parquet" && prepared.columns.nested.has(column)
      ? `CAST(to_json(${identifier(column)}) AS VARCHAR)`
      : `TRIM(CAST(${identifier(column)} AS VARCHAR))`;
  const json = `CASE WHEN LEFT(${text}, 1) = '{' THEN ${text} ELSE CONCAT('{', ${text}, '}') END`;
  const path = (tag: string) => literal(`$."${tag.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`);
  return {
    name,
    expression: `CASE WHEN json_valid(${json}) THEN COALESCE(json_extract_string(${json}, ${path(key)}), json_extract_string(${json}, ${path(`user_${key}`)})) END`,
  };
}

/** The sums per group of the written lines (evaluated ones), read back from the output. */
async function writeGroups(
  connection: DuckDBConnection,
  request: BillingRequest,
  written: string,
  groupColumns: readonly GroupColumn[],
  impactColumnNames: readonly string[],
): Promise<void> {
  if (request.groupsOutput === null || groupColumns.length === 0) return;
  const source =
    request.format === "parquet"
      ? `read_parquet(${fileLiteral(written)})`
      : `read_csv(${fileLiteral(written)}, header = true, all_varchar = true)`;
  const sum = (column: string) => {
    const total = `SUM(TRY_CAST(${identifier(column)} AS DOUBLE))`;
    return request.format === "csv"
      ? `printf('%.10g', ${total}) AS ${identifier(column)}`
      : `${total} AS ${identifier(column)}`;
  };
  const groups = groupColumns.map((group) => `${group.expression} AS ${identifier(group.name)}`).join(", ");
  const temporary = partial(request.groupsOutput);
  await connection.run(
    `COPY (SELECT ${groups}, COUNT(*) AS lines, ${sum("hours")}, ${impactColumnNames.map(sum).join(", ")}
       FROM ${source} WHERE status = 'evaluated' GROUP BY ALL ORDER BY ALL)
     TO ${literal(temporary)} ${copyOptions(request.format)}`,
  );
  renameSync(temporary, request.groupsOutput);
}

/**
 * Lines of a Parquet row group above which the run keeps to one thread. DuckDB's ordered writer
 * holds what each thread read of a row group until it is written: one row group of 3,000,000 lines
 * took 1.5 GB on two threads, 106 MB on one, in less time (8.5 against 9.6 s; bench/README.md).
 */
const ONE_THREAD_ROW_GROUP = 250_000;

/** Runs on one thread when the Parquet file has a row group above ONE_THREAD_ROW_GROUP lines. */
async function fitThreadsToRowGroups(connection: DuckDBConnection, file: string): Promise<void> {
  const reader = await connection.runAndReadAll(
    `SELECT MAX(row_group_num_rows) AS largest FROM parquet_metadata(${literal(file)})`,
  );
  if (Number(reader.getRowObjects()[0].largest ?? 0) > ONE_THREAD_ROW_GROUP) {
    await connection.run("SET threads = 1");
  }
}

/**
 * The export's header as the file names it, its columns as the run writes them, its format, the
 * views of its lines and their describing columns.
 */
interface PreparedExport {
  readonly header: readonly string[];
  readonly columns: WrittenColumns;
  readonly format: BillingFormat;
  readonly views: LineSource;
  readonly tuple: LineTuple;
}

/** The export's header, read and checked before any line is: its size, format and the types read. */
async function readHeader(
  connection: DuckDBConnection,
  request: BillingRequest,
): Promise<{
  columns: [string, string][];
  format: BillingFormat;
  csvColumns: readonly string[] | null;
  /** Where a Parquet export's lines are read from (its records flat); a CSV's is named by the run. */
  source: string;
  layout: BillLayout;
}> {
  // The layout read once: the command line's, when it read it to choose this path.
  const layout = request.layout ?? billLayout(request.file);
  const parquet = layout?.kind === "parquet";
  const csvColumns = layout?.kind === "csv" ? layout.header : null;
  if (layout === null) {
    throw new FileReadError(
      `${request.file}: line 1: no header (an empty file, not CSV, or a header longer than ${HEADER_BYTES} bytes); nothing written`,
    );
  }
  checkColumnCount(
    request.file,
    // JSON's columns are counted as its records' fields are read (src/billing/reading/source.ts).
    csvColumns?.length ??
      (parquet ? await readFailing(() => parquetColumnCount(connection, request.file), request.file) : 0),
  );
  if (parquet) await readFailing(() => fitThreadsToRowGroups(connection, request.file), request.file);
  let source = await billSource(connection, request.file, layout, csvColumns, request.input);
  let columns = await readFailing(() => columnsOf(connection, `SELECT * FROM ${source}`), request.file);
  // A Parquet export of records (BigQuery's) is read with their fields as columns, when it is not a format's as it is.
  const flat =
    parquet && recognisedFormat(columns.map(([name]) => name)) === null
      ? await readFailing(() => flatRecords(connection, source, columns), request.file)
      : null;
  if (flat !== null) {
    source = flat;
    columns = await readFailing(() => columnsOf(connection, `SELECT * FROM ${source}`), request.file);
    checkColumnCount(request.file, columns.length);
  }
  const header = columns.map(([name]) => name);
  const recognised = request.input === null ? recognisedFormat(header) : BILLING_FORMATS[request.input];
  if (recognised === null || missingColumns(recognised, header).length > 0) {
    throw new BillingInputError(unrecognisedHeader(header, request.input));
  }
  checkColumnTypes(request.file, recognised, new Map(columns));
  const format = { ...recognised, title: readAs(recognised, header) };
  return { columns, format, csvColumns, source, layout };
}

async function prepareViews(
  db: Database,
  context: EditionContext,
  knownRegions: EditionPlaces["known"],
  request: BillingRequest,
  impactColumnNames: readonly string[],
): Promise<PreparedExport> {
  const { connection } = db;
  const { columns, format, csvColumns, source, layout } = await readHeader(connection, request);
  const header = columns.map(([name]) => name);
  const names = inputColumnNames(header, impactColumnNames);
  const renamed = new Map(
    header.flatMap((name, index) => (names[index] === name ? [] : [[name, names[index]]])),
  );
  const nested = new Set(names.filter((_, index) => /^(MAP|STRUCT)\(|\[\]$/.test(columns[index][1])));
  const written = { header, columns: { names, nested }, format };
  const typeHintColumn =
    request.instanceTypeColumn === null
      ? null
      : headerColumn(written, request.instanceTypeColumn, "--instance-type-column");
  const views = {
    from:
      csvColumns === null ? source : await billSource(connection, request.file, layout, names, request.input),
    header: names,
    renamed: csvColumns === null ? renamed : new Map<string, string>(),
    format,
    typeHintColumn,
  };
  await createRegistryTables(connection);
  await createLineViews(connection, views);
  // The first pass reads no column of the registry's: read by position, none is computed
  await orderLineViews(connection, REGISTRY_TABLE_NAMES);
  await createEditionPlaceTable(connection, context, knownRegions);
  return { ...written, views, tuple: lineTuple(format, header, names, typeHintColumn) };
}

/** The table billing_places of an edition: its regions' spellings, the registry's at their country. */
export async function createEditionPlaceTable(
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

/** --strict's stop, before anything is written, when a kind of lines is a bad row. */
function stopAtBadRows(groups: readonly LineGroup[]): void {
  const bad = groups.filter((group) => group.problem?.startsWith("bad row") ?? false);
  if (bad.length === 0) return;
  const lines = bad.reduce((sum, group) => sum + group.lines, 0);
  throw new BillingStrictStop(
    `--strict: ${lines} bad row(s), the first kind: ${bad[0].problem}; nothing written`,
  );
}

/**
 * Evaluates a billing export. `knownRegions`: the cloud regions of an edition that has them (an
 * edition without reads its regions' countries there).
 */
export async function evaluateBillingExport(
  context: EditionContext,
  knownRegions: EditionPlaces["known"],
  request: BillingRequest,
): Promise<BillingSummary> {
  const criteria = coefficientCriteria(context, request.criteria);
  const load = checkedLoad(request.load);
  const db = await openDatabase();
  try {
    const { connection } = db;
    const impactColumnNames = billingImpactColumns(criteria, request.ranges);
    const prepared = await prepareViews(db, context, knownRegions, request, impactColumnNames);
    const groupColumns = request.groupBy.map((name) => groupColumn(prepared, name, request.format));
    await groupLineKinds(db, prepared, request.file);
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
    const edition = context.service.edition.id;
    const grid = await withGridSeries(connection, request, context, knownRegions, impactColumnNames);
    const groups = await lineGroups(connection);
    if (request.strict) stopAtBadRows(groups);
    const temporary = partial(request.output);
    const target = { file: temporary, format: request.format };
    const lines = groups.reduce((sum, group) => sum + group.lines, 0);
    await locateLines(connection, prepared, locatedReadBy(impactColumnNames, grid !== null));
    const written = await readFailing(
      () => writeLines(connection, prepared.columns, impactColumnNames, { ...target, grid: grid !== null }),
      request.file,
    );
    if (written !== lines) {
      throw new FileReadError(
        `${request.file}: ${written} lines written of the ${lines} read before: the file changed while it was read; nothing written`,
      );
    }
    await writeGroups(connection, request, temporary, groupColumns, impactColumnNames);
    const gridRun = await readFailing(
      async () => grid?.run({ ...target, detailed: request.report === true }) ?? null,
      request.file,
    );
    await writePortableTables(connection, request.tablesFolder, gridRun !== null, context);
    const first = criteria[0]?.info;
    const report =
      request.report === true && first !== undefined
        ? await billReportData(connection, {
            file: temporary,
            format: request.format,
            header: prepared.columns.names,
            input: prepared.format.name,
            embeddedColumn: impactColumn(first.name, first.unit, "embedded", "value"),
            useColumn: impactColumn(first.name, first.unit, "use", "value"),
          })
        : null;
    renameSync(temporary, request.output);
    return {
      file: request.file,
      format: prepared.format,
      costColumn: coverageCostColumn(prepared.format, prepared.header),
      edition,
      groups,
      matches: [...matches.values()],
      totals: gridQueryTotals(totalsOf(groups, matches, coefficients, criteria), gridRun),
      impactColumns: impactColumnNames,
      report,
      grid: gridRun,
    };
  } catch (error) {
    rmSync(partial(request.output), { force: true });
    if (request.groupsOutput !== null) rmSync(partial(request.groupsOutput), { force: true });
    throw error;
  } finally {
    db.close();
  }
}
