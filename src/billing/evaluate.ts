/*
 * A billing export evaluated at any size: DuckDB reads the file as it is, the format's query
 * (sql/) finds its compute lines, instance types, hours and places, and the impact query joins
 * them with the coefficient table of the instance types it bills — no evaluation per line.
 *
 * One pass first reads every line into groups (provider, instance type, place, what keeps it from
 * being evaluated): a file cut short or not UTF-8 fails there, before anything is written; the
 * groups give the summary and --strict's verdict, and name the instance types to match and the
 * coefficients to compute. The second pass writes every line with its impacts to a temporary file,
 * renamed to the output once complete.
 */

import { renameSync, rmSync } from "node:fs";
import type { DuckDBConnection } from "@duckdb/node-api";
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
import {
  appendRows,
  type Cell,
  createTable,
  type Database,
  GROUPING_THREADS,
  identifier,
  literal,
  openDatabase,
  useThreads,
} from "./duckdb.js";
import { BillingInputError, BillingStrictStop } from "./errors.js";
import {
  absentColumns,
  BILLING_FORMATS,
  type BillingFormat,
  type BillingFormatName,
  missingColumns,
  recognisedFormat,
  unrecognisedHeader,
} from "./formats.js";
import { csvHeader } from "./header.js";
import { type InstanceMatch, matchInstance } from "./matching.js";
import { billingPlaces } from "./places.js";
import { impactsQuery, sqlQuery } from "./queries.js";
import { BillingReadError, readFailing } from "./readErrors.js";

export interface BillingRequest {
  readonly file: string;
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
}

export { BillingInputError, BillingReadError, BillingStrictStop };

/** Lines of one kind: provider, instance type as billed, place, and why not evaluated (null: it may be). */
export interface LineGroup {
  readonly provider: string | null;
  readonly instanceType: string | null;
  /** The region as billed, as the places table spells it ('' for none). */
  readonly regionKey: string;
  readonly place: string | null;
  readonly problem: string | null;
  readonly lines: number;
  readonly hours: number;
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
  readonly format: BillingFormat;
  readonly edition: string;
  readonly groups: readonly LineGroup[];
  readonly matches: readonly InstanceMatch[];
  /** Sums over the evaluated lines, per criterion and phase. */
  readonly totals: readonly ImpactTotal[];
  /** The columns written besides the file's own. */
  readonly impactColumns: readonly string[];
}

/** Where a file is written until complete (beside it: renamed in place). */
function partial(file: string): string {
  return `${file}.partial`;
}

/**
 * The file as a table function: Parquet by its name, else CSV (gzipped or not) with the columns of
 * its header, every cell as text, read strictly (a line with too few or too many cells is an error).
 */
function sourceOf(file: string, header: readonly string[] | null): string {
  if (header === null) return `read_parquet(${literal(file)})`;
  const columns = header.map((name) => `${literal(name)}: 'VARCHAR'`).join(", ");
  return `read_csv(${literal(file)}, auto_detect = false, header = true, columns = {${columns}}, delim = ',', quote = '"', escape = '"', compression = 'auto', strict_mode = true)`;
}

async function columnsOf(connection: DuckDBConnection, query: string): Promise<string[]> {
  const reader = await connection.runAndReadAll(`DESCRIBE ${query}`);
  return reader.getRowObjects().map((row) => String(row.column_name));
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

/** The header column a requested name stands for (case does not matter), or an input error. */
function headerColumn(header: readonly string[], name: string, option: string): string {
  const found = header.find((column) => column.toLowerCase() === name.toLowerCase());
  if (found === undefined) throw new BillingInputError(`${option}: the file has no column ${name}`);
  return found;
}

async function lineGroups(connection: DuckDBConnection, file: string): Promise<LineGroup[]> {
  const reader = await readFailing(
    () =>
      connection.runAndReadAll(
        `SELECT billing_provider, billing_instance_type, billing_region_key, billing_place, billing_problem,
           COUNT(*)::DOUBLE AS lines, COALESCE(SUM(hours), 0) AS hours
         FROM billing_classified GROUP BY ALL`,
      ),
    file,
  );
  return reader.getRowObjects().map((row) => ({
    provider: row.billing_provider === null ? null : String(row.billing_provider),
    instanceType: row.billing_instance_type === null ? null : String(row.billing_instance_type),
    regionKey: String(row.billing_region_key),
    place: row.billing_place === null ? null : String(row.billing_place),
    problem: row.billing_problem === null ? null : String(row.billing_problem),
    lines: Number(row.lines),
    hours: Number(row.hours),
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
    if (match.matchedInstanceType === null || done.has(key(match.provider, match.matchedInstanceType)))
      continue;
    done.add(key(match.provider, match.matchedInstanceType));
    for (const row of await instanceCoefficientRows(
      context,
      match.provider,
      match.matchedInstanceType,
      load,
      criteria,
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
    const matched = matches.get(key(group.provider, group.instanceType))?.matchedInstanceType ?? null;
    const row = matched === null ? undefined : coefficients.get(key(group.provider, matched, group.place));
    if (row === undefined) continue;
    for (const total of totals) {
      const impact = row.perHour[criteria.indexOf(total.criterion)][total.phase];
      if (impact === null) continue;
      total.value += impact.value * group.hours;
      total.min += impact.min * group.hours;
      total.max += impact.max * group.hours;
    }
  }
  return totals;
}

/**
 * DuckDB's hash joins put a chunk's lines without a match after those with one: so that the lines
 * come out in the order they were read, every line finds exactly one row of each small table.
 * The keys the export holds (from the first pass) get rows of their own where the tables have
 * none: a region not known (its place empty, so the line is a bad row), a line without provider or
 * instance type (keys ''), an instance type not matched, and their coefficients (all empty).
 */
async function completeTables(
  connection: DuckDBConnection,
  groups: readonly LineGroup[],
  matches: ReadonlyMap<string, InstanceMatch>,
): Promise<void> {
  const known = await connection.runAndReadAll("SELECT provider, spelling FROM billing_places");
  const places = new Set(known.getRowObjects().map((row) => key(String(row.provider), String(row.spelling))));
  const unknownPlaces = new Map<string, Cell[]>();
  const matchRows = new Map<string, Cell[]>();
  for (const match of matches.values()) {
    matchRows.set(key(match.provider, match.billingInstanceType), [
      match.provider,
      match.billingInstanceType,
      match.matchedInstanceType,
      match.warning,
    ]);
  }
  for (const group of groups) {
    const provider = group.provider ?? "";
    if (!places.has(key(provider, group.regionKey))) {
      unknownPlaces.set(key(provider, group.regionKey), [provider, group.regionKey, null]);
    }
    const type = group.instanceType ?? "";
    if (!matchRows.has(key(provider, type))) matchRows.set(key(provider, type), [provider, type, null, null]);
  }
  await appendRows(connection, "billing_places", unknownPlaces.values());
  await createTable(connection, "instance_matches", MATCH_COLUMNS, matchRows.values());
}

const MATCH_COLUMNS = [
  ["provider", "VARCHAR"],
  ["billing_instance_type", "VARCHAR"],
  ["matched_instance_type", "VARCHAR"],
  ["match_warning", "VARCHAR"],
] as const;

/** The (provider, matched type, place) key of a group's coefficient row. */
function coefficientKey(group: LineGroup, matches: ReadonlyMap<string, InstanceMatch>): string {
  const provider = group.provider ?? "";
  const matched = matches.get(key(provider, group.instanceType ?? ""))?.matchedInstanceType ?? "";
  return key(provider, matched, group.place ?? "");
}

/**
 * The coefficient rows some lines of the export read: an instance type has rows for every place,
 * tens of thousands for a large export, of which its lines read a few thousand.
 */
function billedCoefficients(
  groups: readonly LineGroup[],
  matches: ReadonlyMap<string, InstanceMatch>,
  coefficients: ReadonlyMap<string, CoefficientRow>,
): CoefficientRow[] {
  const billed = new Set(groups.map((group) => coefficientKey(group, matches)));
  return [...coefficients].filter(([id]) => billed.has(id)).map(([, row]) => row);
}

/** Empty coefficient rows for the (provider, matched type, place) keys of the export the table lacks. */
function missingCoefficients(
  groups: readonly LineGroup[],
  matches: ReadonlyMap<string, InstanceMatch>,
  coefficients: ReadonlyMap<string, CoefficientRow>,
  criteria: readonly RequestedCriterion[],
): CoefficientRow[] {
  const missing = new Map<string, CoefficientRow>();
  const empty = criteria.map(() => ({ embedded: null, use: null }));
  for (const group of groups) {
    const id = coefficientKey(group, matches);
    if (coefficients.has(id) || missing.has(id)) continue;
    const [provider, instanceType, region] = id.split("\u0000");
    missing.set(id, { provider, instanceType, region, usageLocation: null, perHour: empty });
  }
  return [...missing.values()];
}

/** The output's columns: the file's, then what the billing adds (numbers as text without float noise in CSV). */
function outputSelect(header: readonly string[], impactColumnNames: readonly string[], csv: boolean): string {
  const number = (column: string) =>
    csv ? `printf('%.10g', ${identifier(column)}) AS ${identifier(column)}` : identifier(column);
  return [
    ...header.map(identifier),
    "matched_instance_type",
    number("hours"),
    ...impactColumnNames.map(number),
    "status",
    "warnings",
  ].join(", ");
}

function copyOptions(format: "csv" | "parquet"): string {
  return format === "csv" ? "(FORMAT csv, HEADER true)" : "(FORMAT parquet, COMPRESSION zstd)";
}

/** The sums per group of the written lines (evaluated ones), read back from the output. */
async function writeGroups(
  connection: DuckDBConnection,
  request: BillingRequest,
  written: string,
  groupColumns: readonly string[],
  impactColumnNames: readonly string[],
): Promise<void> {
  if (request.groupsOutput === null || groupColumns.length === 0) return;
  const source =
    request.format === "parquet"
      ? `read_parquet(${literal(written)})`
      : `read_csv(${literal(written)}, header = true, all_varchar = true)`;
  const sum = (column: string) => {
    const total = `SUM(TRY_CAST(${identifier(column)} AS DOUBLE))`;
    return request.format === "csv"
      ? `printf('%.10g', ${total}) AS ${identifier(column)}`
      : `${total} AS ${identifier(column)}`;
  };
  const groups = groupColumns.map(identifier).join(", ");
  const temporary = partial(request.groupsOutput);
  await connection.run(
    `COPY (SELECT ${groups}, COUNT(*) AS lines, ${sum("hours")}, ${impactColumnNames.map(sum).join(", ")}
       FROM ${source} WHERE status = 'evaluated' GROUP BY ${groups} ORDER BY ${groups})
     TO ${literal(temporary)} ${copyOptions(request.format)}`,
  );
  renameSync(temporary, request.groupsOutput);
}

async function prepareViews(
  db: Database,
  context: EditionContext,
  knownRegions: Parameters<typeof billingPlaces>[1],
  request: BillingRequest,
): Promise<{ header: string[]; format: BillingFormat }> {
  const { connection } = db;
  const parquet = request.file.toLowerCase().endsWith(".parquet");
  const csvColumns = parquet ? null : csvHeader(request.file);
  if (!parquet && csvColumns === null) {
    throw new BillingReadError(
      `${request.file}: line 1: no header (an empty file, or not CSV); nothing written`,
    );
  }
  const source = sourceOf(request.file, csvColumns);
  const header = await readFailing(() => columnsOf(connection, `SELECT * FROM ${source}`), request.file);
  const format = request.input === null ? recognisedFormat(header) : BILLING_FORMATS[request.input];
  if (format === null || missingColumns(format, header).length > 0) {
    throw new BillingInputError(unrecognisedHeader(header, request.input));
  }
  const chosen = format;
  const hint =
    request.instanceTypeColumn === null
      ? "CAST(NULL AS VARCHAR)"
      : `NULLIF(TRIM(CAST(${identifier(headerColumn(header, request.instanceTypeColumn, "--instance-type-column"))} AS VARCHAR)), '')`;
  const absent = absentColumns(chosen, header).map((name) => `CAST(NULL AS VARCHAR) AS ${identifier(name)}`);
  await connection.run(
    `CREATE VIEW billing_export AS SELECT *, ${[...absent, `${hint} AS billing_type_hint`].join(", ")} FROM ${source}`,
  );
  const places = billingPlaces(context.service.data.cloudRegions, knownRegions);
  await createTable(
    connection,
    "billing_places",
    [
      ["provider", "VARCHAR"],
      ["spelling", "VARCHAR"],
      ["place", "VARCHAR"],
    ],
    places.map((place) => [place.provider, place.spelling, place.place]),
  );
  await connection.run(`CREATE VIEW billing_lines AS ${sqlQuery(chosen.linesQuery)}`);
  await connection.run(`CREATE VIEW billing_classified AS ${sqlQuery("billing_classified.sql")}`);
  return { header, format: chosen };
}

/**
 * Evaluates a billing export. `knownRegions`: the cloud regions of an edition that has them (an
 * edition without reads its regions' countries there).
 */
export async function evaluateBillingExport(
  context: EditionContext,
  knownRegions: Parameters<typeof billingPlaces>[1],
  request: BillingRequest,
): Promise<BillingSummary> {
  const criteria = coefficientCriteria(context, request.criteria);
  const load = checkedLoad(request.load);
  const db = await openDatabase();
  try {
    const { connection } = db;
    const { header, format } = await prepareViews(db, context, knownRegions, request);
    const groupColumns = request.groupBy.map((name) => headerColumn(header, name, "--group-by"));
    await useThreads(connection, GROUPING_THREADS);
    const groups = await lineGroups(connection, request.file);
    await useThreads(connection, 1);
    const bad = groups.filter((group) => group.problem?.startsWith("bad row") ?? false);
    if (request.strict && bad.length > 0) {
      const lines = bad.reduce((sum, group) => sum + group.lines, 0);
      throw new BillingStrictStop(
        `--strict: ${lines} bad row(s), the first kind: ${bad[0].problem}; nothing written`,
      );
    }
    // Each billed instance type is matched once, whatever its number of lines.
    const matches = new Map<string, InstanceMatch>();
    for (const group of groups) {
      if (group.provider === null || group.instanceType === null) continue;
      const id = key(group.provider, group.instanceType);
      if (!matches.has(id)) matches.set(id, await matchInstance(context, group.provider, group.instanceType));
    }
    const coefficients = await coefficientsOf(context, [...matches.values()], load, criteria);
    const edition = context.service.edition.id;
    await completeTables(connection, groups, matches);
    await loadCoefficients(connection, edition, load, criteria, [
      ...billedCoefficients(groups, matches, coefficients),
      ...missingCoefficients(groups, matches, coefficients, criteria),
    ]);
    const impactColumnNames = billingImpactColumns(criteria, request.ranges);
    const temporary = partial(request.output);
    await readFailing(
      () =>
        connection.run(
          `COPY (SELECT ${outputSelect(header, impactColumnNames, request.format === "csv")}
             FROM (${impactsQuery(impactColumnNames)}) lines)
           TO ${literal(temporary)} ${copyOptions(request.format)}`,
        ),
      request.file,
    );
    await writeGroups(connection, request, temporary, groupColumns, impactColumnNames);
    renameSync(temporary, request.output);
    return {
      file: request.file,
      format,
      edition,
      groups,
      matches: [...matches.values()],
      totals: totalsOf(groups, matches, coefficients, criteria),
      impactColumns: impactColumnNames,
    };
  } catch (error) {
    rmSync(partial(request.output), { force: true });
    if (request.groupsOutput !== null) rmSync(partial(request.groupsOutput), { force: true });
    throw error;
  } finally {
    db.close();
  }
}
