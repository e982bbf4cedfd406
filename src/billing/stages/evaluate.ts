/*
 * The evaluate stage of a billing run: each kind of line read through the same queries as its
 * lines (sql/evaluate/billing_located.sql, sql/evaluate/billing_impacts.sql), grouped for the summary and --strict's
 * verdict; then the view billing_located, through which the writing pass gives each line its
 * impacts.
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { BillingStrictStop } from "../errors.js";
import { createLocatedView, orderLineViews } from "../lookup.js";
import { impactsQuery, sqlQuery } from "../queries.js";
import { createTupleLocatedView, createTupleRows } from "../tuples.js";
import { createLineViews } from "../views.js";
import { locatedReadBy } from "../writing.js";
import { REGISTRY_TABLE_NAMES } from "./classify.js";
import type { LookedUp } from "./lookUp.js";
import type { ReadExport } from "./read.js";
import type { BillingTerms } from "./request.js";

/** Lines of one kind: provider, instance type as billed, place, and why not evaluated (null: it may be). */
export interface LineGroup {
  readonly provider: string | null;
  readonly instanceType: string | null;
  readonly place: string | null;
  readonly problem: string | null;
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
  /** Why its place is not its region's own (a country, the default), else null. */
  readonly placeWarning: string | null;
}

/**
 * The evaluate stage: the kinds of lines grouped with their fate (--strict stops at a bad row,
 * before anything is written), and the lines located for the writing pass.
 */
export async function evaluateKinds(
  connection: DuckDBConnection,
  read: ReadExport,
  lookedUp: LookedUp,
  terms: BillingTerms,
  strict: boolean,
): Promise<LineGroup[]> {
  const groups = await lineGroups(connection);
  if (strict) stopAtBadRows(groups);
  await locateLines(connection, read, locatedReadBy(terms.impactColumnNames, lookedUp.grid !== null));
  return groups;
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
       billing_located AS (${sqlQuery("evaluate/billing_located.sql")}),
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

/**
 * The view billing_located over the file's lines for the writing pass: each line reads its tuple's
 * row (src/billing/tuples.ts), or, past so many tuples, is classified and reads the lookup table
 * (src/billing/lookup.ts).
 */
async function locateLines(
  connection: DuckDBConnection,
  exported: ReadExport,
  readBy: string,
): Promise<void> {
  const read = await createTupleRows(connection, exported.tuple);
  await createLineViews(connection, exported.views);
  await orderLineViews(connection, REGISTRY_TABLE_NAMES);
  if (read === null) await createLocatedView(connection);
  else await createTupleLocatedView(connection, exported.tuple, read, readBy);
}
