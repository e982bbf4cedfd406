/*
 * The evaluate stage of a billing run: each kind of line read through the same queries as its
 * lines (sql/evaluate/billing_located.sql, sql/evaluate/billing_impacts.sql), grouped for the summary and --strict's
 * verdict; then the view billing_located, through which the writing pass gives each line its
 * impacts.
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { exactSumParts, finishedSums } from "../../duckdb/exactSum.js";
import { identifier } from "../../duckdb/sqlText.js";
import { BillingStrictStop } from "../errors.js";
import { LINE_COLUMNS } from "../formats/format.js";
import {
  type LineProblemCode,
  type LineStatusCode,
  lineProblemCode,
  lineStatusCode,
  problemReasonSql,
  problemStatusSql,
  statusWords,
} from "../lineStatus.js";
import { gridLinesQueries, impactsQuery, sqlQuery } from "../queries.js";
import {
  BOUND_SQL,
  type ClassifiedBill,
  type ClassifyingQueries,
  createLineViews,
  REGISTRY_TABLE_NAMES,
  type RegistryPositions,
  withClassifying,
} from "./classify.js";
import type { LookedUp } from "./lookUp.js";
import { type LineTuple, type ReadExport, tupleKey } from "./read.js";
import type { BillRun } from "./request.js";

/** The codes of a reason the summary reads (sql/classify/billing_methods.sql's billing_reason_code). */
export type ReasonCode = "unread-text";

const reasonCode = (value: unknown): ReasonCode | null => {
  if (value === null) return null;
  if (value === "unread-text") return value;
  throw new Error(`billing: an unknown reason code ${String(value)}`);
};

/** Lines of one kind: provider, instance type as billed, place, and why not evaluated (null: it may be). */
export interface LineGroup {
  readonly provider: string | null;
  readonly instanceType: string | null;
  readonly place: string | null;
  readonly problem: string | null;
  /** The status its problem gives it (src/billing/lineStatus.ts); null without a problem. */
  readonly problemStatus: LineStatusCode | null;
  /** Its problem's code (src/billing/lineStatus.ts); null without one, or for problems summed as `other reasons`. */
  readonly problemCode: LineProblemCode | null;
  /** What its problem's words say after its status's (`unknown region x`), null for none. */
  readonly problemReason: string | null;
  readonly lines: number;
  readonly hours: number;
  /** How its lines use hardware (sql/classify/billing_methods.sql); null for none. */
  readonly method: string | null;
  /** Its method's coefficient key; null for instance lines and lines without a method. */
  readonly methodKey: string | null;
  /** Units of its method's key (GB-hours, GB, vCPU-hours…) of its evaluated lines. */
  readonly methodQuantity: number;
  /** The service its lines bill (FOCUS ServiceName, CUR product code, Azure meter category). */
  readonly service: string | null;
  /** The sum of its lines' positive costs paid for the hours (BillingSummary.costColumn). */
  readonly cost: number;
  /**
   * The sum of its lines' positive billed costs (FOCUS BilledCost, a CUR's unblended cost): the
   * price the what-if reads where the cost paid is none (hours a commitment covers).
   */
  readonly billedCost: number;
  /** Why its place is not its region's own (a country, the default), else null. */
  readonly placeWarning: string | null;
  /**
   * Why its lines have no method, for lines no method reads (a tax, a purchase, a fee, a licence, no
   * unit, a count…: sql/classify/billing_methods.sql's billing_method_warning), else null.
   */
  readonly reason: string | null;
  /** Its reason's code (sql/classify/billing_methods.sql's billing_reason_code): `unread-text`, no rule reads its text; else null. */
  readonly reasonCode: ReasonCode | null;
  /** For GPU-hours read as the CCF average GPU, the model as its lines name it ('' for none named), else null. */
  readonly unlistedGpu: string | null;
}

/**
 * The evaluate stage: the kinds of lines grouped with their fate (--strict stops at a bad row,
 * before anything is written), and the lines located for the writing pass.
 */
/** What the evaluate stage hands on: the export as read, its kinds looked up, its lines' groups evaluated. */
export interface EvaluatedBill {
  readonly read: ReadExport;
  readonly lookedUp: LookedUp;
  readonly groups: readonly LineGroup[];
  /**
   * The query of billing_located, the lines the writing pass writes (locateLines): read in its
   * own statement, not as a view (src/billing/stages/write.ts, writeLines).
   */
  readonly located: string;
}

export async function evaluateKinds(
  run: Pick<BillRun, "connection" | "request" | "terms">,
  { read, registry }: ClassifiedBill,
  lookedUp: LookedUp,
): Promise<EvaluatedBill> {
  const { connection } = run;
  const groups = await lineGroups(connection);
  if (run.request.strict) stopAtBadRows(groups);
  const readBy = locatedReadBy(run.terms.impactColumnNames, lookedUp.grid !== null);
  const located = await locateLines(connection, read, readBy, registry);
  return { read, lookedUp, groups, located };
}

/** --strict's stop, before anything is written, when a kind of lines is a bad row. */
function stopAtBadRows(groups: readonly LineGroup[]): void {
  const bad = groups.filter((group) => group.problemStatus === "bad-row");
  if (bad.length === 0) return;
  const lines = bad.reduce((sum, group) => sum + group.lines, 0);
  throw new BillingStrictStop(
    `--strict: ${lines} bad row(s), the first kind: ${bad[0].problem}; nothing written`,
  );
}

/**
 * Names from the file a summary keeps apart, per dimension: the services with the most cost, the
 * instance types and reasons of lines not evaluated with the most lines; the others are summed
 * under one name. 500,000 lines of as many services took the run from 760 MB to 1.42 GB, the
 * groups read into the process (bench/README.md, "Billing exports").
 */
const NAMES_KEPT = 1_000;

/** The reason of the problems past NAMES_KEPT, summed under their status (`bad row: other reasons`). */
const OTHER_REASONS = "other reasons";

/** The sums of a group of lines, exact (src/duckdb/exactSum.ts): none depends on DuckDB's threads. */
const GROUP_SUMS = ["hours", "method_quantity", "cost", "billed_cost"];

/**
 * The impacts' query over the kinds: a kind's lines are past the bound of a quantity times its unit
 * together (the first pass keeps those past it apart: src/billing/stages/classify.ts), so its sum
 * is held to its count of lines times the bound, as each line is held to the bound.
 */
const kindImpactsQuery = () =>
  impactsQuery([]).replaceAll(BOUND_SQL, `(${BOUND_SQL} * u.billing_line_count)`);

/** The kinds of lines as the summary reads them: lines, hours, method quantity, positive cost paid and billed. */
const kindsQuery =
  () => `SELECT * REPLACE (COALESCE(hours, 0) AS hours, COALESCE(method_quantity, 0) AS method_quantity,
    COALESCE(cost, 0) AS cost, COALESCE(billed_cost, 0) AS billed_cost)
  FROM (${finishedSums(
    `SELECT billing_provider, billing_instance_type, billing_place, billing_problem,
       ${problemStatusSql("billing_problem_code")} AS billing_problem_status, billing_problem_code,
       ${problemReasonSql("located")} AS billing_problem_reason,
       method AS billing_method, billing_method_key, billing_service, billing_place_warning,
       CASE WHEN billing_method IS NULL THEN billing_method_warning END AS billing_reason,
       billing_reason_code,
       billing_unlisted_gpu,
       SUM(billing_line_count)::DOUBLE AS lines, ${exactSumParts("hours", "hours")},
       ${exactSumParts("billing_method_amount", "method_quantity")},
       ${exactSumParts("CASE WHEN billing_paid_cost > 0 THEN billing_paid_cost END", "cost")},
       ${exactSumParts("CASE WHEN billing_cost > 0 THEN billing_cost END", "billed_cost")}
     FROM (${kindImpactsQuery()}) located
     GROUP BY ALL`,
    GROUP_SUMS,
  )})`;

/** The kinds grouped, past NAMES_KEPT names of a dimension (their ranks: services, types, problems) as one. */
const groupsQuery = (): string =>
  finishedSums(
    `SELECT k.billing_provider,
     CASE WHEN k.billing_problem IS NULL OR t.rank <= ${NAMES_KEPT} THEN k.billing_instance_type
       ELSE 'other instance types' END AS billing_instance_type,
     k.billing_place,
     CASE WHEN k.billing_problem IS NULL OR p.rank <= ${NAMES_KEPT} THEN k.billing_problem
       WHEN k.billing_problem_status IN ('bad-row', 'not-evaluated') THEN CASE k.billing_problem_status
         WHEN 'bad-row' THEN '${statusWords("bad-row", OTHER_REASONS)}'
         ELSE '${statusWords("not-evaluated", OTHER_REASONS)}' END
       ELSE k.billing_problem END AS billing_problem, k.billing_problem_status,
     CASE WHEN k.billing_problem IS NULL OR p.rank <= ${NAMES_KEPT} THEN k.billing_problem_code
       WHEN k.billing_problem_status IN ('bad-row', 'not-evaluated') THEN NULL
       ELSE k.billing_problem_code END AS billing_problem_code,
     CASE WHEN k.billing_problem IS NULL OR p.rank <= ${NAMES_KEPT} THEN k.billing_problem_reason
       WHEN k.billing_problem_status IN ('bad-row', 'not-evaluated') THEN '${OTHER_REASONS}'
       ELSE k.billing_problem_reason END AS billing_problem_reason,
     k.billing_method, k.billing_method_key, k.billing_place_warning, k.billing_reason, k.billing_reason_code,
     k.billing_unlisted_gpu,
     CASE WHEN s.rank <= ${NAMES_KEPT} THEN k.billing_service ELSE 'other services' END AS billing_service,
     SUM(k.lines)::DOUBLE AS lines, ${exactSumParts("k.hours", "hours")},
     ${exactSumParts("k.method_quantity", "method_quantity")}, ${exactSumParts("k.cost", "cost")},
     ${exactSumParts("k.billed_cost", "billed_cost")}
   FROM kinds k
   JOIN services s ON s.billing_service IS NOT DISTINCT FROM k.billing_service
   LEFT JOIN types t ON t.billing_instance_type IS NOT DISTINCT FROM k.billing_instance_type
   LEFT JOIN problems p ON p.billing_problem = k.billing_problem
   GROUP BY ALL`,
    GROUP_SUMS,
  );

/**
 * The kinds of lines, through the queries the lines go through, grouped for the summary (in one
 * order), past NAMES_KEPT names of a dimension summed as `other services`, `other instance types`
 * and `bad row: other reasons` (`not evaluated: other reasons`). Lines evaluated keep their
 * instance type (their impacts are summed by it).
 */
async function lineGroups(connection: DuckDBConnection): Promise<LineGroup[]> {
  const ranked = (column: string, where = "") =>
    `SELECT ${column}, row_number() OVER (ORDER BY SUM(lines) DESC, ${column}) AS rank FROM kinds ${where} GROUP BY ${column}`;
  const services = finishedSums(
    `SELECT billing_service, ${exactSumParts("cost", "cost")}, SUM(lines) AS lines FROM kinds GROUP BY billing_service`,
    ["cost"],
  );
  const reader = await connection.runAndReadAll(
    `WITH billing_classified AS (SELECT * FROM billing_line_kinds),
       billing_located AS (${sqlQuery("evaluate/billing_located.sql")}),
       kinds AS (${kindsQuery()}),
       services AS (SELECT billing_service,
         row_number() OVER (ORDER BY cost DESC, lines DESC, billing_service) AS rank FROM (${services})),
       types AS (${ranked("billing_instance_type", "WHERE billing_problem IS NOT NULL")}),
       problems AS (${ranked("billing_problem", "WHERE billing_problem IS NOT NULL")})
     SELECT * FROM (${groupsQuery()}) ORDER BY ALL`,
  );
  const text = (value: unknown) => (value === null ? null : String(value));
  return reader.getRowObjects().map((row) => ({
    provider: text(row.billing_provider),
    instanceType: text(row.billing_instance_type),
    place: text(row.billing_place),
    problem: text(row.billing_problem),
    problemStatus:
      row.billing_problem_status === null ? null : lineStatusCode(String(row.billing_problem_status)),
    problemCode: row.billing_problem_code === null ? null : lineProblemCode(String(row.billing_problem_code)),
    problemReason: text(row.billing_problem_reason),
    lines: Number(row.lines),
    hours: Number(row.hours),
    method: text(row.billing_method),
    methodKey: text(row.billing_method_key),
    methodQuantity: Number(row.method_quantity),
    service: text(row.billing_service),
    cost: Number(row.cost),
    billedCost: Number(row.billed_cost),
    placeWarning: text(row.billing_place_warning),
    reason: text(row.billing_reason),
    reasonCode: reasonCode(row.billing_reason_code),
    unlistedGpu: text(row.billing_unlisted_gpu),
  }));
}

/**
 * The query of billing_located over the file's lines for the writing pass: each line reads its
 * tuple's row (createTupleRows), or, past so many tuples, is classified and reads the lookup table
 * (locatedQuery). billing_methods and billing_classified are read in it (withClassifying), with
 * the registry's types the first pass made (`registry`), those of the units made again where the
 * bill added some (addBilledUnits).
 */
async function locateLines(
  connection: DuckDBConnection,
  exported: ReadExport,
  readBy: string,
  registry: RegistryPositions,
): Promise<string> {
  const read = await createTupleRows(connection, exported.tuple);
  // Past so many tuples each line is classified (an empty text read as none there too); else the
  // views are the first pass's, over the same file, whose relation it checked
  const classifying = await createLineViews(connection, exported.views, read === null, {
    byPosition: REGISTRY_TABLE_NAMES,
    registry,
    classifiedViews: false,
    relationChecked: read !== null,
  });
  if (read === null) return locatedQuery(connection, classifying);
  return tupleLocatedQuery(connection, exported.tuple, read, readBy, classifying);
}

/** The text of the queries the writing pass runs over billing_located (what they read of it). */
export function locatedReadBy(impactColumnNames: readonly string[], grid: boolean): string {
  const impacts = impactsQuery(impactColumnNames);
  return grid ? `${impacts}\n${gridLinesQueries(impactColumnNames)}` : impacts;
}

/*
 * A line's kind, instance type, method and row of the lookup table are a function of the columns
 * the format's query reads to tell what it is (its describing columns): its quantity and cost,
 * account, resource and period aside (src/billing/formats/, `numbers`, `identities`, `dates`). An export's
 * lines share a few thousand of those tuples (a resource's lines of every hour, a service's SKUs).
 * So the first pass groups the lines by tuple, reading nothing else; the format's queries run on
 * the tuples, not on every line; and the writing pass reads each line's tuple row by position
 * (its tuple's hash an ENUM type: positionedTable), computing per line only its quantity,
 * cost, account and resource, which the same queries give, the rest of their expressions left
 * unevaluated by DuckDB.
 */

/**
 * Tuples above which the writing pass classifies each line instead (every line a tuple of its
 * own: an export of unique descriptions). Their rows are classified and held at once: 400,000
 * and 900,000 tuples of 10,000,000 lines took the run to 1.19 and 1.13 GB (28.5 s), each line
 * classified 1.0 GB (51.9 s); 191,925 tuples, 870 MB (bench/README.md, "A real width").
 */
const MAX_TUPLES = 200_000;

async function columnNames(connection: DuckDBConnection, relation: string): Promise<string[]> {
  const reader = await connection.runAndReadAll(`DESCRIBE ${relation}`);
  return reader.getRowObjects().map((row) => String(row.column_name));
}

/**
 * The view billing_tuple_rows: each tuple's key and what its lines read of billing_located
 * (sql/evaluate/billing_located.sql run on the classified tuples: kind, type, method, place, per-hour
 * impacts), a view so that the writing pass computes only the columns it reads. Run while the
 * views read billing_export_tuples. Returns those columns, or null when the writing pass must
 * classify each line (too many tuples, or two of them sharing a hash).
 */
export async function createTupleRows(
  connection: DuckDBConnection,
  tuple: LineTuple,
): Promise<readonly string[] | null> {
  const counted = await connection.runAndReadAll(
    `SELECT COUNT(*) AS tuples, COUNT(DISTINCT billing_tuple_key) AS keys
     FROM (SELECT DISTINCT ${tuple.columns.map(identifier).join(", ")}, ${tupleKey(tuple)} AS billing_tuple_key
       FROM billing_export_tuples)`,
  );
  const { tuples, keys } = counted.getRowObjects()[0];
  if (Number(tuples) === 0 || Number(tuples) !== Number(keys) || Number(tuples) > MAX_TUPLES) return null;
  const located = sqlQuery("evaluate/billing_located.sql").replaceAll(
    "billing_classified",
    "billing_tuple_classes",
  );
  const exported = new Set(await columnNames(connection, "billing_export"));
  const read = (await columnNames(connection, `(${located})`)).filter(
    (column) => !exported.has(column) && !LINE_COLUMNS.includes(column),
  );
  // A tuple's rows (one per sign of its quantity) agree on every column read.
  await connection.run(
    `CREATE VIEW billing_tuple_rows AS
     SELECT billing_tuple_key, ${read.map((column) => `first(${identifier(column)}) AS ${identifier(column)}`).join(", ")}
     FROM (${located}) located
     GROUP BY billing_tuple_key`,
  );
  return read;
}

/** The names a query's text holds: its identifiers and keywords. */
function namesIn(text: string): Set<string> {
  return new Set(text.split(/[^A-Za-z0-9_]+/));
}

/**
 * Tuples per kind from which a line reads its tuple's kind, then the kind's row, rather than its
 * tuple's row directly. DuckDB's cross join with the one-row table of lists copies its lists for
 * every 2,048 lines: 20 lists of a 10,000,000-line export's 191,925 tuples took 13.7 of the
 * writing pass's 37 CPU s, its 18,000 kinds' 1.9; where each tuple is a kind of its own (30,479 of
 * them), the second list and cross join took the pass from 34.5 to 39.4–40.6 s (bench/README.md,
 * "A real width, each tuple read through its kind"). Measured at those two ends.
 */
const TUPLES_PER_KIND = 2;

/**
 * The query of billing_located over the views of the file: each line's own columns, its
 * quantity and cost (billing_classified's), and its tuple's row, read by position, lines in their
 * order. `readBy`: the text of the queries reading billing_located; of the tuple rows' columns,
 * those it names are read. A large export has hundreds of thousands of tuples (a description of
 * each price and region) but a few thousand kinds, the distinct rows of those columns (an
 * instance type at a place): its lines read their tuple's kind, then the kind's row.
 */
async function tupleLocatedQuery(
  connection: DuckDBConnection,
  tuple: LineTuple,
  read: readonly string[],
  readBy: string,
  classifying: ClassifyingQueries,
): Promise<string> {
  const own = [...(await columnNames(connection, "billing_export")), ...LINE_COLUMNS];
  const named = namesIn(readBy);
  const used = read.filter((column) => named.has(column));
  if (used.length === 0) throw new Error("billing: the writing pass reads no column of the tuples' rows");
  const columns = used.map(identifier).join(", ");
  // The tuples' rows computed once (sql/evaluate/billing_located.sql on the tuples), numbered by kind.
  await connection.run(
    `CREATE TABLE billing_tuple_kinds AS
     SELECT billing_tuple_key, CAST(dense_rank() OVER (ORDER BY ${columns}) AS INTEGER) AS billing_kind, ${columns}
     FROM billing_tuple_rows`,
  );
  await connection.run(
    "CREATE TYPE billing_tuple AS ENUM (SELECT billing_tuple_key FROM billing_tuple_kinds)",
  );
  const position = (key: string) => enumPosition("billing_tuple", key);
  const counted = await connection.runAndReadAll(
    "SELECT COUNT(*) AS tuples, MAX(billing_kind) AS kinds FROM billing_tuple_kinds",
  );
  const { tuples, kinds } = counted.getRowObjects()[0];
  const byKind = Number(kinds) * TUPLES_PER_KIND <= Number(tuples);
  if (byKind) {
    await connection.run(
      `CREATE TABLE billing_tuple_kind_list AS
       SELECT list(billing_kind ORDER BY ${position("billing_tuple_key")}) AS billing_kinds FROM billing_tuple_kinds`,
    );
  }
  const rows = byKind
    ? "(SELECT DISTINCT ON (billing_kind) * FROM billing_tuple_kinds)"
    : "billing_tuple_kinds";
  // The position computed once: a list's ORDER BY of the ENUM's cast bound the type's every key
  // again, each list (24 lists of 21,182 tuples: 0.11 s of planning; bench/README.md, "Billing at
  // a real width: where the command's time goes")
  const order = byKind ? "billing_kind" : position("billing_tuple_key");
  await connection.run(
    `CREATE TABLE billing_row_lists AS
     SELECT ${used.map((column) => `list(${identifier(column)} ORDER BY billing_order) AS ${identifier(column)}`).join(", ")}
     FROM (SELECT *, ${order} AS billing_order FROM ${rows})`,
  );
  await connection.run("DROP TABLE billing_tuple_kinds");
  const row = byKind ? `t.billing_kinds[${position(tupleKey(tuple))}]` : position(tupleKey(tuple));
  const located = `SELECT k.* EXCLUDE (billing_row), ${used.map((column) => `x.${identifier(column)}[k.billing_row] AS ${identifier(column)}`).join(", ")}
     FROM (SELECT l.*, ${row} AS billing_row
       FROM (SELECT ${own.map(identifier).join(", ")} FROM billing_classified) l
       ${byKind ? "CROSS JOIN billing_tuple_kind_list t" : ""}) k
     CROSS JOIN billing_row_lists x`;
  return withClassifying(classifying, located);
}

/*
 * How the writing pass reads the lookup table on DuckDB. sql/evaluate/billing_located.sql joins each line
 * with its row of the lookup table (sql/lookup/billing_keys.sql); other engines run it as it is. DuckDB
 * 1.5 writes a query holding a hash join without keeping the lines' order once it runs on more than
 * one thread, while a cross join with a table of one row keeps it (docs/billing.md, "Lines in
 * their order"). So on DuckDB the keys become an ENUM type, whose code is a key's position, and
 * each column of the lookup table one list in that one row, read at the line's position: the same
 * rows as the join, on every thread.
 */

/** A key's position (from 1) among the values of the ENUM type `enumType`. */
export function enumPosition(enumType: string, key: string): string {
  return `CAST(enum_code(CAST(${key} AS ${enumType})) AS INTEGER) + 1`;
}

/** A table read by position: each of its rows' key (a text expression), unique, and the columns read. */
interface PositionedTable {
  /** The ENUM type and the one-row table of lists made for it. */
  readonly name: string;
  readonly table: string;
  readonly key: string;
  readonly columns: readonly string[];
}

/**
 * Makes a table readable by position: its keys an ENUM type, its columns lists in a view of one
 * row (computed by the query reading it, for the columns it reads). Returns how a line reads a
 * column: the list at the position of the line's key (`lineKey`, of a query aliased `k`, crossed
 * with the lists aliased `x`).
 */
export async function positionedTable(
  connection: DuckDBConnection,
  positioned: PositionedTable,
): Promise<{
  position: (lineKey: string) => string;
  read: (column: string) => string;
}> {
  const { name, table, key, columns } = positioned;
  await connection.run(`CREATE TYPE ${name} AS ENUM (SELECT ${key} FROM ${table})`);
  const position = (text: string) => enumPosition(name, text);
  await connection.run(
    `CREATE VIEW ${name}_lists AS SELECT ${columns
      .map((column) => `list(${identifier(column)} ORDER BY billing_position) AS ${identifier(column)}`)
      .join(", ")}
     FROM (SELECT *, ${position(key)} AS billing_position FROM ${table})`,
  );
  return {
    position,
    read: (column) => `x.${identifier(column)}[k.billing_position] AS ${identifier(column)}`,
  };
}

/**
 * A key as one text: the provider (one of a few names), the instance type after its length, then
 * the region key — two different keys never give the same text, whatever their characters.
 */
function keyText(provider: string, instanceType: string, regionKey: string): string {
  const type = `COALESCE(${instanceType}, '')`;
  return `CONCAT(COALESCE(${provider}, ''), chr(31), CAST(LENGTH(${type}) AS VARCHAR), chr(31), ${type}, chr(31), ${regionKey})`;
}

/** Creates the view billing_located (locatedQuery) over the views billing_methods and billing_classified. */
export async function createLocatedView(connection: DuckDBConnection): Promise<void> {
  await connection.run(`CREATE OR REPLACE VIEW billing_located AS ${await locatedQuery(connection, null)}`);
}

/**
 * The query of billing_located, the lines of billing_classified with their row of the table
 * billing_keys, in the lines' order on any number of threads. `classifying`: billing_methods' and
 * billing_classified's queries read in it (withClassifying), null: their views.
 */
async function locatedQuery(
  connection: DuckDBConnection,
  classifying: ClassifyingQueries | null,
): Promise<string> {
  const keys = await connection.runAndReadAll("SELECT COUNT(*) AS keys FROM billing_keys");
  if (Number(keys.getRowObjects()[0].keys) === 0) {
    // No line at all: nothing to keep in order, and an ENUM needs a value.
    return withClassifying(classifying, sqlQuery("evaluate/billing_located.sql"));
  }
  const described = await connection.runAndReadAll("DESCRIBE billing_keys");
  const columns = described.getRowObjects().map((row) => String(row.column_name));
  const lookup = await positionedTable(connection, {
    name: "billing_key",
    table: "billing_keys",
    key: keyText("key_provider", "key_instance_type", "key_region"),
    columns,
  });
  const lineKey = keyText(
    "l.billing_provider",
    "COALESCE(l.billing_method_key, l.billing_instance_type)",
    "l.billing_region_key",
  );
  const located = `SELECT k.* EXCLUDE (billing_position), ${columns.map(lookup.read).join(", ")}
     FROM (SELECT l.*, ${lookup.position(lineKey)} AS billing_position FROM billing_classified l) k
     CROSS JOIN billing_key_lists x`;
  return withClassifying(classifying, located);
}
