/*
 * `--filter COLUMN=VALUE` (repeated): the evaluated lines whose column (a column of the file, the
 * run's `method`, or `tag:<key>`, as `--group-by` names them) has one of the values given for it,
 * every column given at once — the page's filter (src/output/reportParts/filters.ts) on the command
 * line. The lines written keep every line; what the run sums of its lines follows: the groups' file
 * and the summary's line of the filter's sums, and the report opens with the filter set. A value is
 * read as the page reads a cell: trimmed, empty and the text `NULL` as none (`COLUMN=` alone).
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { exactSumParts, finishedSums } from "../../duckdb/exactSum.js";
import { identifier, literal } from "../../duckdb/sqlText.js";
import { sqlQuery } from "../queries.js";
import { type WrittenFile, writtenSource } from "../writtenFile.js";
import { LINE_MONTH } from "./monthCoverage.js";
import { type FilterColumn, type GroupColumn, LINE_MONTH_COLUMN } from "./read.js";
import { NO_GRID_SERIES, PAID_COST, textCell, type WrittenLines, writtenLineViews } from "./writtenLines.js";

export type { FilterColumn } from "./read.js";

/** The written lines' views a filter or group reads, and the relation of its lines. */
export interface LinesRead {
  /** The views, to follow WITH. */
  readonly views: string;
  /** The relation of the lines: billing_usage, or billing_usage_dated (with each line's month). */
  readonly lines: string;
}

/**
 * The written lines as the filters and groups read them: the view billing_usage
 * (writtenLineViews), and where a column is read from the lines' periods (`month`), those lines
 * with their period as sql/evaluate/billing_periods.sql reads it (day or month first as the file's
 * dates decide, sql/evaluate/billing_date_order.sql) and each line's month (LINE_MONTH, the months'
 * coverage's): the month a line is grouped in is the month the report's months put it in.
 */
export function linesRead(
  written: Omit<WrittenLines, "criteria">,
  columns: readonly (GroupColumn | FilterColumn)[],
): LinesRead {
  const views = writtenLineViews(written);
  const dated = columns.some((column) => ("column" in column ? column.column : column).dated === true);
  if (!dated) return { views, lines: "billing_usage" };
  return {
    views: `${views},
       billing_evaluated AS (SELECT *, ${NO_GRID_SERIES} FROM billing_usage),
       billing_date_order AS (${sqlQuery("evaluate/billing_date_order.sql")}),
       billing_usage_dated AS (SELECT *, ${LINE_MONTH} AS ${LINE_MONTH_COLUMN} FROM (${sqlQuery("evaluate/billing_periods.sql")}))`,
    lines: "billing_usage_dated",
  };
}

/** The SQL condition of the filters over the written lines (TRUE without). */
export function filterCondition(filters: readonly FilterColumn[]): string {
  if (filters.length === 0) return "TRUE";
  return filters
    .map(
      ({ column, values }) =>
        `COALESCE(${textCell(column.expression)}, '') IN (${values.map((value) => literal(value.trim() === "NULL" ? "" : value.trim())).join(", ")})`,
    )
    .join(" AND ");
}

/** The filter as the summary says it: `ServiceName is A or B, and RegionId is us-east-1`. */
export function filterText(filters: readonly FilterColumn[]): string {
  return filters
    .map(({ column, values }) => `${column.name} is ${values.map((value) => value || "(none)").join(" or ")}`)
    .join(", and ");
}

/** The sums of the lines a filter keeps: its evaluated lines of all, cost, energy and each impact column. */
export interface FilteredSums {
  readonly text: string;
  readonly lines: number;
  readonly evaluated: number;
  readonly cost: number;
  readonly energyKwh: number;
  /** Each impact column written (`gwp_embedded_kgco2eq`…), summed. */
  readonly impacts: ReadonlyMap<string, number>;
}

/** The filter's sums over the written lines (their cost as the report reads it), each exact. */
export async function filteredSums(
  connection: DuckDBConnection,
  written: WrittenFile & Omit<WrittenLines, "criteria" | keyof WrittenFile>,
  filters: readonly FilterColumn[],
  impactColumnNames: readonly string[],
): Promise<FilteredSums> {
  const summed = ["cost", "energy_kwh", ...impactColumnNames];
  const read = (column: string) =>
    column === "cost" ? PAID_COST : `TRY_CAST(${identifier(column)} AS DOUBLE)`;
  const { views, lines } = linesRead(written, filters);
  const reader = await connection.runAndReadAll(
    `WITH ${views}
     ${finishedSums(
       `SELECT COUNT(*) FILTER (WHERE ${filterCondition(filters)}) AS lines, COUNT(*) AS evaluated,
          ${summed.map((column) => exactSumParts(`CASE WHEN ${filterCondition(filters)} THEN ${read(column)} ELSE 0 END`, column)).join(", ")}
        FROM ${lines} WHERE status = 'evaluated'`,
       summed,
     )}`,
  );
  const row = reader.getRowObjects()[0];
  return {
    text: filterText(filters),
    lines: Number(row.lines),
    evaluated: Number(row.evaluated),
    cost: Number(row.cost ?? 0),
    energyKwh: Number(row.energy_kwh ?? 0),
    impacts: new Map(impactColumnNames.map((column) => [column, Number(row[column] ?? 0)])),
  };
}

/** The written lines a filter keeps (all without), as a source to read in place of `writtenSource`. */
export function filteredSource(written: WrittenFile, filters: readonly FilterColumn[]): string {
  return filters.length === 0
    ? writtenSource(written)
    : `(SELECT * FROM ${writtenSource(written)} WHERE ${filterCondition(filters)})`;
}

/**
 * The evaluated lines a filter keeps as `--group-by` sums them (`columns`: its groups and the
 * filter's), each with its cost as the report reads it (`billing_group_cost`), as a source to read.
 */
export function costedSource(
  written: Omit<WrittenLines, "criteria">,
  columns: readonly (GroupColumn | FilterColumn)[],
  filters: readonly FilterColumn[],
): string {
  const { views, lines } = linesRead(written, columns);
  return `(WITH ${views} SELECT *, ${PAID_COST} AS billing_group_cost FROM ${lines}
          WHERE ${filterCondition(filters)})`;
}

/** An instance type's hours at one place among the lines a filter keeps, their costs paid and billed. */
export interface FilteredUsage {
  readonly provider: string;
  readonly instanceType: string;
  readonly place: string;
  readonly hours: number;
  readonly cost: number;
  readonly billedCost: number;
}

/**
 * The region as the table billing_places spells it (lower case, without blanks, hyphens and
 * underscores; '' for none), as sql/classify/billing_classified.sql keys a line's region.
 */
const REGION_KEY = `CASE WHEN NULLIF(TRIM(billing_region), '') IS NULL THEN ''
  ELSE COALESCE(NULLIF(LOWER(REPLACE(REPLACE(REPLACE(TRIM(billing_region), ' ', ''), '-', ''), '_', '')), ''),
    TRIM(billing_region)) END`;

/**
 * The instance usages of the evaluated lines a filter keeps — by provider, matched type and the
 * place the run gave their region (the table billing_places of the look-up stage) — their hours,
 * cost paid (the report's) and billed cost summed exactly: what the what-if ranks under --filter.
 */
export async function filteredUsages(
  connection: DuckDBConnection,
  written: WrittenFile & Omit<WrittenLines, "criteria" | keyof WrittenFile>,
  filters: readonly FilterColumn[],
): Promise<FilteredUsage[]> {
  const { views, lines } = linesRead(written, filters);
  const summed = ["hours", "cost", "billed_cost"];
  const sums = finishedSums(
    `SELECT COALESCE(billing_provider, '') AS provider, matched_instance_type AS instance_type,
       ${REGION_KEY} AS region_key,
       ${exactSumParts("TRY_CAST(hours AS DOUBLE)", "hours")}, ${exactSumParts(PAID_COST, "cost")},
       ${exactSumParts("CASE WHEN billing_cost > 0 THEN billing_cost ELSE 0 END", "billed_cost")}
     FROM ${lines}
     WHERE status = 'evaluated' AND method = 'instance' AND matched_instance_type IS NOT NULL
       AND ${filterCondition(filters)}
     GROUP BY ALL`,
    summed,
  );
  const reader = await connection.runAndReadAll(
    `WITH ${views}
     SELECT u.provider, u.instance_type, p.place, SUM(u.hours) AS hours, SUM(u.cost) AS cost,
       SUM(u.billed_cost) AS billed_cost
     FROM (${sums}) u JOIN billing_places p ON p.provider = u.provider AND p.spelling = u.region_key
     GROUP BY ALL ORDER BY ALL`,
  );
  return reader
    .getRowObjects()
    .map((row) => ({
      provider: String(row.provider),
      instanceType: String(row.instance_type),
      place: String(row.place),
      hours: Number(row.hours ?? 0),
      cost: Number(row.cost ?? 0),
      billedCost: Number(row.billed_cost ?? 0),
    }))
    .filter((usage) => usage.hours > 0);
}
