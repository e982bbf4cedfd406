/*
 * The classify stage of a billing run: the format's queries (sql/) turn the export's lines into
 * billing lines (provider, kind of line, instance type, unit, region, method), read in one pass
 * into kinds of lines, the table billing_line_kinds (quantities summed). A file cut short or not
 * UTF-8 fails here, before anything is written.
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { createTable, runAll } from "../../duckdb/database.js";
import { exactSumParts, finishedSums } from "../../duckdb/exactSum.js";
import { identifier, literal } from "../../duckdb/sqlText.js";
import { reasonableSql } from "../../support/numbers.js";
import { printable } from "../../support/terminalText.js";
import { BillingInputError } from "../errors.js";
import { checkRelation, linesQueryOf, usageQueryOf } from "../formats/format.js";
import {
  absentColumns,
  aliasedColumns,
  amortisedCostColumns,
  type BillingFormat,
  currencyColumns,
  decidingFileColumns,
  emptyAsNone,
  filedColumns,
  keyedColumns,
} from "../formats/knownFormats.js";
import { sqlQuery, withQueries } from "../queries.js";
import { billName } from "../reading/layout.js";
import { REGISTRY_TABLES, UNIT_COLUMNS } from "../registry/sqlTables.js";
import { MAX_UNIT_LENGTH, unitRows } from "../registry/units.js";
import { type LineSource, type LineTuple, type ReadExport, tupleKey } from "./read.js";
import type { BillRun } from "./request.js";

/** The registry's tables, whose joins the views read by position (orderedRegistryJoins). */
export const REGISTRY_TABLE_NAMES: ReadonlySet<string> = new Set(REGISTRY_TABLES.map((table) => table.name));

/**
 * The classify stage: the registry, the views of the export's lines, and their kinds; with a grid
 * series (it reads the lines' periods), the order of the bill's dates of day and month
 * (billing_date_order: sql/evaluate/billing_date_order.sql), read from every line before the
 * views read the kinds — a pass of its own over the file, only then. The export and its lines counted.
 */
export async function classifyLines(
  run: Pick<BillRun, "connection" | "grid">,
  read: ReadExport,
): Promise<ClassifiedBill> {
  const { connection } = run;
  await createRegistryTables(connection);
  const registry: RegistryPositions = new Map();
  // The first pass reads no column of the registry's: read by position, none is computed
  const firstPass = await createLineViews(connection, read.views, false, FIRST_PASS_VIEWS(registry));
  if (run.grid !== null) {
    await connection.run(`CREATE TABLE billing_date_order AS ${sqlQuery("evaluate/billing_date_order.sql")}`);
  }
  await groupLineKinds(connection, read, firstPass, registry);
  await refuseSeveralCurrencies(connection, read);
  // The lines read, counted in their kinds (a run's progress says them).
  const counted = await connection.runAndReadAll(
    "SELECT COALESCE(SUM(billing_line_count), 0)::BIGINT FROM billing_line_kinds",
  );
  return { read, lines: Number(counted.getRows()[0][0]), registry };
}

/**
 * The views of the first pass (and of the writing pass, over the same file: locateLines): the
 * registry's joins read by position, billing_methods and billing_classified not created but read by
 * the one statement that reads them (withClassifying).
 */
const FIRST_PASS_VIEWS = (registry: RegistryPositions): LineViews => ({
  byPosition: REGISTRY_TABLE_NAMES,
  registry,
  classifiedViews: false,
});

/** What the classify stage hands on: the export as read and its lines counted, their kinds in billing_line_kinds. */
export interface ClassifiedBill {
  readonly read: ReadExport;
  readonly lines: number;
  /** The registry's types and lists made for the joins read by position, which the writing pass reads again. */
  readonly registry: RegistryPositions;
}

/** A line's currency: the first of `columns` (currencyColumns) it fills, null when it fills none. */
export function currencySql(columns: readonly string[]): string {
  const cells = columns.map((name) => `NULLIF(TRIM(CAST(${identifier(name)} AS VARCHAR)), '')`);
  return cells.length === 1 ? cells[0] : `COALESCE(${cells.join(", ")})`;
}

/** Currencies named in the refusal of a bill of several, the others counted. */
const NAMED_CURRENCIES = 5;

/**
 * A bill whose amounts are in several currencies is refused, each named with its lines (counted
 * in the first pass's tuples, which tell them apart): its costs would be summed across them (the
 * coverage, the rankings) and its by-cost lines estimated at one rate whatever their currency. A
 * line that names none is in the bill's currency.
 */
async function refuseSeveralCurrencies(connection: DuckDBConnection, read: ReadExport): Promise<void> {
  const { format, header, renamed } = read.views;
  const columns = currencyColumns(format, header, renamed);
  if (columns.length === 0) return;
  const reader = await connection.runAndReadAll(
    `SELECT currency, SUM(billing_line_count) AS lines
     FROM (SELECT ${currencySql(columns)} AS currency, billing_line_count FROM billing_export_tuples)
     WHERE currency IS NOT NULL GROUP BY currency ORDER BY lines DESC, currency`,
  );
  const found = reader
    .getRowObjects()
    .map((row) => ({ currency: String(row.currency), lines: Number(row.lines) }));
  if (found.length <= 1) return;
  const named = found
    .slice(0, NAMED_CURRENCIES)
    .map(({ currency, lines }) => `${printable(currency.slice(0, 40))}: ${lines.toLocaleString("en")} lines`);
  const more = found.length > NAMED_CURRENCIES ? ` and ${found.length - NAMED_CURRENCIES} more` : "";
  const column = filedColumns(header, renamed).header[header.indexOf(columns[0])] ?? columns[0];
  throw new BillingInputError(
    `${billName(read.parts)}: its amounts are in ${found.length} currencies (${named.join(", ")}${more}); their costs cannot be summed nor estimated at one rate: evaluate each currency's lines apart (split the file by its ${column} column); nothing written`,
  );
}

/**
 * The export's tuples (the first pass, groupLineTuples) run through the format's queries,
 * grouped into the table billing_line_kinds, shaped as billing_classified (the quantities of a
 * kind summed: they share whether they are a number and their sign, so a kind fares as each of
 * its lines), with the count of its lines. The views then read the tuples.
 */
async function groupLineKinds(
  connection: DuckDBConnection,
  read: ReadExport,
  firstPass: ClassifyingQueries,
  registry: RegistryPositions,
): Promise<void> {
  await groupedTupleViews(connection, read, false, firstPass);
  await addBilledUnits(connection, "billing_usage", registry);
  // The tuples classified once (the bound's check, the kinds and the tuples' rows read them:
  // locateLines), again where the pass is made again. The registry's joins read by position, as
  // the lines' are, made once the billed units are added: a hash join each cost a small bill's
  // statement about 2 ms (DuckDB's partitioned build side, for a table of a few hundred rows).
  const tuples = await classifyingQueries(connection, REGISTRY_TABLE_NAMES, registry);
  await connection.run(tupleClasses(tuples));
  if (await tuplesPastTheBound(connection)) {
    // Some lines are past the bound: the pass again, each tuple's lines apart by whether each is
    // past it (their units are all known now), so that every tuple fares as each of its lines.
    await connection.run("DROP TABLE billing_tuple_classes");
    const again = await createLineViews(connection, read.views, false, FIRST_PASS_VIEWS(registry));
    await connection.run("DROP TABLE billing_export_tuples");
    await groupedTupleViews(connection, read, true, again);
    await connection.run(tupleClasses(tuples));
  }
  await connection.run("CREATE OR REPLACE VIEW billing_classified AS SELECT * FROM billing_tuple_classes");
  // Kinds apart by whether their cost is positive: the by-cost rate sums the energy and the cost of
  // the same lines (src/billing/stages/lookUp.ts).
  await connection.run(
    `CREATE TABLE billing_line_kinds AS ${lineKindsQuery({ sum: "exact", lineCount: "SUM(billing_line_count)" })}`,
  );
}

/**
 * The first pass (groupLineTuples, reading `firstPass`'s queries) and the views reading its tuples,
 * but billing_methods and billing_classified, which the one statement that reads them writes
 * (tupleClasses). `pastApart`: see groupLineTuples.
 */
async function groupedTupleViews(
  connection: DuckDBConnection,
  read: ReadExport,
  pastApart: boolean,
  firstPass: ClassifyingQueries,
): Promise<void> {
  const tupleColumns = await groupLineTuples(connection, read.tuple, pastApart, firstPass);
  await createLineViews(
    connection,
    {
      ...read.views,
      from: "billing_export_tuples",
      header: tupleColumns,
      renamed: new Map(),
      numbersChecked: true,
    },
    true,
    { rawKey: tupleKey(read.tuple), classifiedViews: false },
  );
}

/**
 * A line's quantity times its unit (its method's factor, else its unit's hours) past the bound
 * every number is held to (src/support/numbers.ts, REASONABLE): `count` lines of a tuple or kind
 * are past it together when their sum is past `count` times the bound, since its lines share a sign
 * and whether each is past (sql/evaluate/billing_impacts.sql reads the bound so for the kinds).
 */
export function pastTheBoundSql(count = "1"): string {
  const units = "ABS(billing_quantity * COALESCE(billing_method_factor, billing_unit_hours, 0.0))";
  return `(${units} > ${BOUND_SQL} * ${count})`;
}

/** The bound every number is held to, as sql/evaluate/billing_impacts.sql writes it. */
export const BOUND_SQL = "1000000000000000000000000000000.0";

/** The first pass's tuples classified, as a table (billing_classified over the tuples, materialised). */
const tupleClasses = (tuples: ClassifyingQueries) =>
  `CREATE TABLE billing_tuple_classes AS ${withClassifying(tuples, "SELECT * FROM billing_classified")}`;

/**
 * Whether a tuple of the first pass holds a line past the bound (its sum is past it: its lines
 * share a sign), read from the tuples classified (billing_tuple_classes), not by classifying them
 * again.
 */
async function tuplesPastTheBound(connection: DuckDBConnection): Promise<boolean> {
  const reader = await connection.runAndReadAll(
    `SELECT COUNT(*) AS past FROM billing_tuple_classes WHERE ${pastTheBoundSql()}`,
  );
  return Number(reader.getRowObjects()[0].past) > 0;
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
 * reads. Spellings longer than a unit can be are not read. The types the run made of the units'
 * table (`registry`) are made again where it adds some.
 */
export async function addBilledUnits(
  connection: DuckDBConnection,
  lines = "billing_usage",
  registry: RegistryPositions = new Map(),
): Promise<void> {
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
  for (const [type, made] of registry) if (made.table === "billing_units") registry.delete(type);
}

/**
 * The first pass: the export's lines grouped by tuple, as a table of the file's
 * shape (billing_export_tuples): the describing columns, the quantities summed in the quantity
 * column, the costs in the cost columns, and billing_line_count. Grouped also by whether
 * the quantity is a number and its sign, so that a group fares as each of its lines, and by whether
 * its billed and paid costs are positive (the by-cost rate reads the lines that have one, the
 * coverage sums positive costs only). Sums are exact, rounded once (src/duckdb/exactSum.ts), so
 * that the summary does not depend on how DuckDB's threads shared the lines.
 */
export async function groupLineTuples(
  connection: DuckDBConnection,
  tuple: LineTuple,
  pastApart = false,
  classifying: ClassifyingQueries | null = null,
): Promise<string[]> {
  const columns = tuple.columns.map(identifier).join(", ");
  // Each cost column summed (NULL, as an empty cell, where no line has one): billing_cost and
  // billing_paid_cost are sums of them per kind of line (sql/classify/billing_usage_<format>.sql), so
  // that a tuple's costs, each of one sign, are its lines' sums.
  // A cost that is not a reasonable number (`NaN`, `1e400`) is no cost: its line is a bad row
  // (createLineViews), and a NaN summed made the coverage's total NaN.
  const read = (column: string) => `TRY_CAST(${identifier(column)} AS DOUBLE)`;
  const costs = tuple.costs.map(
    (column) => `CASE WHEN ${reasonableSql(read(column))} THEN ${read(column)} END AS ${identifier(column)}`,
  );
  // The grouping reads a line's own columns and sums, which billing_classified passes on from
  // billing_usage row for row (its joins read one row at most); only the bound's check reads the
  // methods. Read from billing_usage, the statement does not bind the methods' queries (about
  // 20 ms of DuckDB's planning on every bill, however small).
  const source = pastApart ? "billing_classified" : "billing_usage";
  const lines = costs.length === 0 ? source : `(SELECT * REPLACE (${costs.join(", ")}) FROM ${source})`;
  const sums = tuple.costs.map((column) => `, ${exactSumParts(identifier(column), column)}`).join("");
  const grouped = `SELECT ${columns}, ${exactSumParts("billing_quantity", tuple.quantity)}${sums},
       COUNT(*) AS billing_line_count
     FROM ${lines}
     GROUP BY ${columns}, billing_quantity IS NULL, billing_quantity < 0, billing_cost > 0, billing_paid_cost > 0${pastApart ? `, ${pastTheBoundSql()}` : ""}`;
  await connection.run(
    `CREATE TABLE billing_export_tuples AS ${withClassifying(pastApart ? classifying : null, finishedSums(grouped, [tuple.quantity, ...tuple.costs]))}`,
  );
  return [...tuple.columns, tuple.quantity, ...tuple.costs, "billing_line_count"];
}

/** A join of a registry table as the billing SQL writes it, on one line: `LEFT JOIN <table> <alias> ON <alias>.<column> = <expression>[ AND …]`. */
const REGISTRY_JOIN = /^(\s*)LEFT JOIN (billing_[a-z_]+) ([a-z_]+) ON (.+)$/;

/** The column and the line's expression of each `<alias>.<column> = <expression>` of a join's condition. */
function joinPairs(alias: string, condition: string): [string, string][] {
  return condition.split(" AND ").map((part) => {
    const match = /^([a-z_]+)\.([a-z_]+) = (.+)$/.exec(part.trim());
    if (match === null || match[1] !== alias) throw new Error(`sql: a registry join reads ${part}`);
    return [match[2], match[3]];
  });
}

const joined = (parts: readonly string[]) =>
  parts.length === 1 ? parts[0] : `CONCAT(${parts.join(", chr(31), ")})`;

/**
 * A query of sql/ whose joins of registry tables (`tables`: each key unique) are read by position,
 * as the lookup table is (the header of this file): each table's keys an ENUM type, its columns
 * lists in a view of one row crossed with the lines, each `<alias>.<column>` the list at the
 * position of the line's key (none for a key the table lacks, as the left join gives). The same
 * rows as the joins, lines in their order on any number of threads.
 */
export async function orderedRegistryJoins(
  connection: DuckDBConnection,
  query: string,
  tables: ReadonlySet<string>,
  registry: RegistryPositions = new Map(),
): Promise<string> {
  const lines: string[] = [];
  const positions: [string, string][] = [];
  // The types and lists views made, sent as one script (runAll)
  const definitions: string[] = [];
  for (const line of query.split("\n")) {
    const match = REGISTRY_JOIN.exec(line);
    if (match === null || !tables.has(match[2])) {
      lines.push(line);
      continue;
    }
    const [, indent, table, alias, condition] = match;
    const pairs = joinPairs(alias, condition);
    const type = `billing_registry_${alias}`;
    const tableKey = joined(pairs.map(([column]) => identifier(column)));
    const made = registry.get(type);
    if (made?.table !== table || made.key !== tableKey) {
      const columns = (await registryColumns(connection, table)).map(identifier);
      definitions.push(
        `DROP VIEW IF EXISTS ${type}_lists`,
        `DROP TYPE IF EXISTS ${type}`,
        `CREATE TYPE ${type} AS ENUM (SELECT ${tableKey} FROM ${identifier(table)})`,
        `CREATE VIEW ${type}_lists AS SELECT ${columns.map((column) => `list(${column} ORDER BY billing_position) AS ${column}`).join(", ")}
       FROM (SELECT *, enum_code(CAST(${tableKey} AS ${type})) AS billing_position FROM ${identifier(table)})`,
      );
      registry.set(type, { table, key: tableKey });
    }
    lines.push(`${indent}CROSS JOIN ${type}_lists ${alias}`);
    positions.push([
      alias,
      `CAST(enum_code(TRY_CAST(${joined(pairs.map(([, expression]) => expression))} AS ${type})) AS INTEGER) + 1`,
    ]);
  }
  await runAll(connection, definitions);
  let text = lines.join("\n");
  for (const [alias, position] of positions) {
    text = text.replace(new RegExp(`\\b${alias}\\.([a-z_]+)\\b`, "g"), `${alias}.$1[${position}]`);
  }
  return text;
}

/**
 * The registry's ENUM types and lists views a run made for the joins it reads by position
 * (orderedRegistryJoins), by type: the table and key each was made of. Made once a run, not once a
 * pass; again where its table changed (addBilledUnits).
 */
export type RegistryPositions = Map<string, { readonly table: string; readonly key: string }>;

/** A registry table's columns, as src/billing/registry/sqlTables.ts describes them (else as DuckDB does). */
async function registryColumns(connection: DuckDBConnection, table: string): Promise<string[]> {
  const described = REGISTRY_TABLES.find((registered) => registered.name === table);
  if (described !== undefined) return described.columns.map(([column]) => column);
  const reader = await connection.runAndReadAll(`DESCRIBE ${identifier(table)}`);
  return reader.getRowObjects().map((row) => String(row.column_name));
}

/** The queries of the views billing_methods and billing_classified (createLineViews), as created or read. */
export interface ClassifyingQueries {
  readonly methods: string;
  readonly classified: string;
}

/** The queries of billing_methods and billing_classified, their joins of `byPosition`'s tables read by position. */
async function classifyingQueries(
  connection: DuckDBConnection,
  byPosition: ReadonlySet<string> | null,
  registry?: RegistryPositions,
): Promise<ClassifyingQueries> {
  const query = (file: string) =>
    byPosition === null
      ? sqlQuery(file)
      : orderedRegistryJoins(connection, sqlQuery(file), byPosition, registry);
  return {
    methods: await query("classify/billing_methods.sql"),
    classified: await query("classify/billing_classified.sql"),
  };
}

/**
 * A statement's query (`select`) reading billing_methods and billing_classified as `classifying`'s
 * queries of its own (withQueries), not as views; null: the views themselves.
 */
export function withClassifying(classifying: ClassifyingQueries | null, select: string): string {
  if (classifying === null) return select;
  const { methods, classified } = classifying;
  return withQueries(
    [
      ["billing_methods", methods],
      ["billing_classified", classified],
    ],
    select,
  );
}

/**
 * Recreates the views billing_methods and billing_classified (createLineViews) with their
 * registry joins read by position, for the pass that writes the lines in their order.
 */
export async function orderLineViews(
  connection: DuckDBConnection,
  tables: ReadonlySet<string>,
  registry?: RegistryPositions,
): Promise<void> {
  await createClassifyingViews(connection, await classifyingQueries(connection, tables, registry));
}

async function createClassifyingViews(
  connection: DuckDBConnection,
  { methods, classified }: ClassifyingQueries,
): Promise<void> {
  await connection.run(`CREATE OR REPLACE VIEW billing_methods AS ${methods}`);
  await connection.run(`CREATE OR REPLACE VIEW billing_classified AS ${classified}`);
}

/*
 * The views every pass of a billing run reads: the export as it is (billing_export, with the
 * columns its format's query reads), its billing lines (sql/classify/billing_lines_<format>.sql), what
 * the methods of other lines read (sql/classify/billing_usage_<format>.sql), their methods
 * (sql/classify/billing_methods.sql) and their hours and region keys (sql/classify/billing_classified.sql).
 */

/**
 * The format's usage query with each line's quantity and cost held to the numbers every input is
 * (src/support/numbers.ts): a line whose quantity or cost is not finite, or out of the reasonable
 * range (`NaN`, `Infinity`, `1e308`), has neither, so that it is a bad row (sql/evaluate/billing_impacts.sql)
 * and adds nothing to the sums; -0 is read as 0. The format's query casts them with TRY_CAST.
 */
function checkedUsageQuery(query: string): string {
  const unreasonable = (column: string) => `(${column} IS NOT NULL AND NOT ${reasonableSql(column)})`;
  const bad = `${unreasonable("u.billing_quantity")} OR ${unreasonable("u.billing_cost")}`;
  return `SELECT u.* REPLACE (
      CASE WHEN ${bad} THEN NULL ELSE u.billing_quantity + 0.0 END AS billing_quantity,
      CASE WHEN ${bad} THEN NULL ELSE u.billing_cost + 0.0 END AS billing_cost)
    FROM (${query}) u`;
}

/**
 * The columns billing_export adds to the file's, as a select list: each column of the format's
 * query the file spells otherwise under the query's name (CUR 1.0's lineItem/UsageType as
 * line_item_usage_type), each it lacks empty, billing_type_hint (`hint`: an expression) and
 * billing_amortised (whether the file has the columns of the cost paid for the hours). What
 * another engine adds to run the queries (docs/billing.md). `read`: how a column of the header is
 * read (another engine's script reads a nested export's `service.description` as a record's field).
 * `keyed` (the command's, DuckDB's): a column the file lacks read from the key of a map that holds it
 * (CUR 2.0's `product.vcpu`); the scripts for other engines leave it empty.
 */
export function exportAddedColumns(
  format: BillingFormat,
  header: readonly string[],
  hint: string,
  read: (column: string) => string = identifier,
  keyed = false,
): string {
  const aliased = aliasedColumns(format, header).map(
    ([spelled, name]) => `${read(spelled)} AS ${identifier(name)}`,
  );
  // A map's key read from the map (Parquet) or its JSON text (CSV), as DuckDB's JSON reads both
  const keys = new Map(
    (keyed ? keyedColumns(format, header) : []).map(([name, map, key]) => [
      name,
      `json_extract_string(TRY_CAST(${read(map)} AS JSON), ${literal(`$."${key}"`)})`,
    ]),
  );
  const absent = absentColumns(format, header).map(
    (name) => `${keys.get(name) ?? "CAST(NULL AS VARCHAR)"} AS ${identifier(name)}`,
  );
  const amortised = `${amortisedCostColumns(format, header).length > 0} AS billing_amortised`;
  return [...aliased, ...absent, `${hint} AS billing_type_hint`, amortised].join(", ");
}

/** How createLineViews makes the views of a source. */
export interface LineViews {
  /** The tuples' key of their columns as the file has them, which each line's hash reads. */
  readonly rawKey?: string | null;
  /**
   * The registry tables whose joins billing_methods and billing_classified read by position
   * (orderLineViews), made so at once (a view created is bound: each bound once, not once joined
   * and again by position).
   */
  readonly byPosition?: ReadonlySet<string> | null;
  /** The registry's types and lists the run made (RegistryPositions), made again only where stale. */
  readonly registry?: RegistryPositions;
  /**
   * False: billing_methods and billing_classified are not created, their queries returned for the
   * statement that reads them (withClassifying): created, each would be bound once more.
   */
  readonly classifiedViews?: boolean;
  /** The format's relation over these same views already checked this run (checkRelation): not described again. */
  readonly relationChecked?: boolean;
}

/**
 * Creates the views billing_export, billing_lines, billing_usage, billing_methods and
 * billing_classified over a source (the last two as `views` says: LineViews); `classifying` where
 * the queries tell what its rows are. Returns the queries of billing_methods and billing_classified.
 */
export async function createLineViews(
  connection: DuckDBConnection,
  source: LineSource,
  classifying = false,
  views: LineViews = {},
): Promise<ClassifyingQueries> {
  const { rawKey = null, byPosition = null } = views;
  const hint =
    source.typeHintColumn === null
      ? "CAST(NULL AS VARCHAR)"
      : `NULLIF(TRIM(CAST(${identifier(source.typeHintColumn)} AS VARCHAR)), '')`;
  // The format's columns found by the file's names, which the select list reads (those of `from`)
  const filed = filedColumns(source.header, source.renamed).header;
  const rename =
    source.renamed.size === 0
      ? ""
      : ` RENAME (${[...source.renamed].map(([from, to]) => `${identifier(from)} AS ${identifier(to)}`).join(", ")})`;
  // An empty text in a column that tells what a line is reads as none (decidingColumns), the
  // file's own column and a column read under another name alike: where the queries classify
  // (the tuples, or each line past so many tuples), not where the lines are only grouped or written
  const deciding = classifying ? decidingFileColumns(source.format, filed) : new Set<string>();
  const own = [...deciding].filter((column) => source.header.includes(column));
  const replace =
    own.length === 0
      ? ""
      : ` REPLACE (${own.map((column) => `${emptyAsNone(identifier(column))} AS ${identifier(column)}`).join(", ")})`;
  const read = (column: string) =>
    deciding.has(column) ? emptyAsNone(identifier(column)) : identifier(column);
  // The tuples' key of their columns as the file has them, which each line's hash reads
  const key = rawKey === null ? "" : `${rawKey} AS billing_tuple_key, `;
  await connection.run(
    `CREATE OR REPLACE VIEW billing_export AS SELECT *${replace}${rename}, ${key}${exportAddedColumns(source.format, filed, hint, read, true)} FROM ${source.from}`,
  );
  await connection.run(`CREATE OR REPLACE VIEW billing_lines AS ${sqlQuery(linesQueryOf(source.format))}`);
  const usage = sqlQuery(usageQueryOf(source.format));
  await connection.run(
    `CREATE OR REPLACE VIEW billing_usage AS ${source.numbersChecked === true ? usage : checkedUsageQuery(usage)}`,
  );
  // The format's views give every column of the line relation with its type (DESCRIBE), or the
  // run stops here, naming it
  if (views.relationChecked !== true) await checkRelation(connection, source.format);
  const queries = await classifyingQueries(connection, byPosition, views.registry);
  if (views.classifiedViews !== false) await createClassifyingViews(connection, queries);
  return queries;
}

/*
 * The kinds of billing lines: the lines of billing_classified grouped by what the lookup table,
 * the instance matches, the places and the by-cost rate read of them (provider, instance type,
 * region, unit, method, service…), their quantities and costs summed, their lines counted. The
 * command groups an export's lines so (src/billing/stages/classify.ts); on another engine the keys
 * script does (script.ts), and `impact-service tables` builds the small tables from its result:
 * only these distinct keys leave the engine.
 */

/** The columns a kind of lines is told apart by, in order. */
export const LINE_KIND_COLUMNS = [
  "billing_provider",
  "billing_instance_type",
  "billing_region_key",
  "billing_line_kind",
  "billing_unit",
  "billing_unit_hours",
  "billing_region",
  "billing_method",
  "billing_method_key",
  "billing_method_factor",
  "billing_method_unit",
  "billing_usage_unit",
  "billing_service",
  "billing_unknown_unit",
  "billing_method_warning",
  "billing_reason_code",
  "billing_unlisted_gpu",
  "billing_instance_vcpus",
  "billing_instance_memory_gib",
] as const;

/** The numbers of a kind (the others are texts), as keys.csv gives them. */
export const LINE_KIND_NUMBERS: ReadonlySet<string> = new Set([
  "billing_unit_hours",
  "billing_instance_vcpus",
  "billing_instance_memory_gib",
  "billing_method_factor",
  "billing_quantity",
  "billing_line_count",
  "billing_cost",
  "billing_paid_cost",
]);

/** The sums of a kind of lines, in its columns' order. */
export const KIND_SUMS = ["billing_quantity", "billing_cost", "billing_paid_cost"];

/**
 * The kinds of the lines of billing_classified: `sum` adds the quantities and costs (`exact`, the
 * command's: exactly, rounded once, src/duckdb/exactSum.ts; SUM elsewhere), `lineCount` counts a
 * kind's lines. Kinds apart by whether their quantity is a number and its sign, and whether their
 * billed and paid costs are positive: a kind fares as each of its lines, the by-cost rate sums the
 * energy and the cost of the same lines, and coverage the paid cost of the same lines
 * (src/billing/stages/summarise.ts).
 */
export function lineKindsQuery(how: { readonly sum: "exact" | "SUM"; readonly lineCount: string }): string {
  const kind = LINE_KIND_COLUMNS.join(", ");
  const [quantity, cost, paid] = KIND_SUMS.map((column) =>
    how.sum === "exact" ? exactSumParts(column, column) : `SUM(${column}) AS ${column}`,
  );
  const query = `SELECT ${kind}, ${quantity}, ${how.lineCount} AS billing_line_count,
  ${cost}, ${paid}
FROM billing_classified
GROUP BY ${kind}, billing_quantity IS NULL, billing_quantity < 0, billing_cost > 0, billing_paid_cost > 0${how.sum === "exact" ? `, ${pastTheBoundSql("billing_line_count")}` : ""}`;
  return how.sum === "exact" ? finishedSums(query, KIND_SUMS) : query;
}
