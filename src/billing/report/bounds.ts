/*
 * The bounds of a bill's report: what it keeps of the evaluated lines, so that the memory its sums
 * take grows with none of the bill's counts of days, resources, accounts, services, regions or
 * tag values. Two passes over the lines, each streaming, before any sum is kept:
 *
 * - what to keep (reportBounds): each ranked dimension's RANKED largest values by the first
 *   criterion (the rest summed in one row, "N more") — and its FACT_VALUES largest, the facts'
 *   (src/billing/report/facts.ts) —, the chart's grain and span;
 * - the sums (createReportSums, REPORT_SUMS): one part per table of the report, each bounded —
 *   a dimension's kept values and its rest (boundedTable), the chart's series by step
 *   (boundedSeries: a line's sums in its step, or spread over the steps it spans, so that no line's
 *   own period is kept), the method — so that every table still adds up to the evaluated lines.
 *
 * The first pass's sums per value (a dimension's thousands or millions of values, each one exact
 * sum) are DuckDB's, streamed and spilled past its memory limit, never held by the report.
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { exactSumParts } from "../../duckdb/exactSum.js";
import { identifier, literal } from "../../duckdb/sqlText.js";
import type { TimeGrain } from "../../output/reportParts/model.js";
import { grainOf, inputGrainOf, TIME_SERIES } from "../../output/reportParts/time.js";
import { impactOf, measureColumns } from "../stages/writtenLines.js";

export type Ranked = "method" | "service" | "region" | "account" | "resource";

/** The dimensions kept to their largest values: every one ranked but the method (the registry's few). */
export type Bounded = Exclude<Ranked, "method">;
const BOUNDED: readonly Bounded[] = ["service", "region", "account", "resource"];

/** Rows of each ranking kept; the rest are summed in one row (`others`). */
export const RANKED = 12;

/** What a ranking groups by (its id, where it has one) and names its rows with. */
export const RANKINGS: Readonly<Record<Ranked, { readonly id: string; readonly name: string }>> = {
  method: { id: "method", name: "method" },
  service: { id: "COALESCE(service_id, service)", name: "service" },
  region: { id: "region", name: "region" },
  account: { id: "account", name: "account" },
  // A line without a resource id is a resource of its own kind, named so
  resource: { id: "resource_id", name: "COALESCE(resource, resource_id, '(no resource)')" },
};

/** Each bounded dimension's values and their sums, while the largest are chosen (keptValues). */
const REPORT_VALUES = "report_values";

/** The table of the report's sums, one part per table (partOf). */
export const REPORT_SUMS = "report_sums";

/** REPORT_SUMS' sums: the lines (a piece's share of one) and measureColumns, each exact (exactSumParts). */
export const summedColumns = (criteria: number) => ["lines", ...measureColumns(criteria)];

/** Values of each bounded dimension the facts keep by name (src/billing/report/facts.ts), the largest first. */
export const FACT_VALUES = 100;

/** A dimension's value: its id (a line without one: null) and its name. */
export interface DimensionValue {
  readonly id: string | null;
  readonly name: string | null;
}

/**
 * A dimension's values kept (its RANKED largest first) and how many it has; `facts`: its
 * FACT_VALUES largest, in the same order, for the facts.
 */
export interface KeptValues {
  readonly values: readonly DimensionValue[];
  readonly facts: readonly DimensionValue[];
  readonly count: number;
}

/** The chart's steps: the lines' own grain, the chart's (null past MAX_STEPS years), their span in seconds. */
export interface TimeBounds {
  readonly own: TimeGrain;
  readonly grain: TimeGrain | null;
  readonly first: number;
  readonly last: number;
}

/** What the report keeps of the lines. */
export interface ReportBounds {
  readonly kept: Readonly<Record<Bounded, KeptValues>>;
  /** Null where no line has a period that reads. */
  readonly time: TimeBounds | null;
}

const DAY = 86_400;

const timestamp = (seconds: string) => `make_timestamp(CAST(CAST(${seconds} AS DOUBLE) * 1000000 AS BIGINT))`;

/**
 * What the report keeps of `lines` (a query of the evaluated lines: measureColumns, the
 * dimensions, period_start and period_end in seconds or NULL).
 */
export async function reportBounds(
  connection: DuckDBConnection,
  lines: string,
  criteria: number,
): Promise<ReportBounds> {
  const shape = await connection.runAndReadAll(
    `SELECT COUNT(period_start) AS dated, COUNT_IF(period_end - period_start <= ${DAY}) AS short,
       MIN(period_start) AS first, MAX(period_end) AS last, MAX(ABS(${weightOf(criteria)})) AS heaviest
     FROM (${lines})`,
  );
  const row = shape.getRowObjects()[0];
  return {
    kept: await keptValues(connection, lines, weightOf(criteria), Number(row.heaviest ?? 0)),
    time: timeBounds(Number(row.dated), Number(row.short), Number(row.first), Number(row.last)),
  };
}

/**
 * The chart's grain from the lines' periods: the lines' own — by day where the median line spans
 * a day or less (DuckDB's quantile_disc at 0.5 is the ⌈n/2⌉-th shortest: it is a day or less
 * where that many are) — coarser where the span asks (grainOf).
 */
function timeBounds(dated: number, short: number, first: number, last: number): TimeBounds | null {
  if (dated === 0) return null;
  const median = short >= Math.ceil(dated / 2) ? DAY : DAY + 1;
  return { own: inputGrainOf(median), grain: grainOf(median, last - first), first, last };
}

/** A line's weight in the rankings: its first criterion, embedded and use. */
const weightOf = (criteria: number) =>
  criteria === 0 ? "0::DOUBLE" : `(${impactOf(0, "embedded")} + ${impactOf(0, "use")})`;

/**
 * Each bounded dimension's RANKED largest values by the lines' weight, ties by name then id, and
 * how many values it has: one aggregate of the lines by (dimension, value). Each line's weight is
 * summed as an integer, its multiple of 2^-52 of the heaviest line's (the precision of a double's
 * sum, exact and the same whatever DuckDB's threads): one integer's state a value, where an exact
 * sum's four took 1,000,000 resources and as many accounts past the sums' memory. The values kept
 * are then summed exactly (createReportSums) and ordered by those sums.
 */
async function keptValues(
  connection: DuckDBConnection,
  lines: string,
  weight: string,
  heaviest: number,
): Promise<Record<Bounded, KeptValues>> {
  const scale = heaviest > 0 && Number.isFinite(heaviest) ? 2 ** 52 / heaviest : 0;
  const keys = BOUNDED.map(
    (dimension) =>
      `{'dimension': ${literal(dimension)}, 'id': CAST(${RANKINGS[dimension].id} AS VARCHAR), 'name': CAST(${RANKINGS[dimension].name} AS VARCHAR)}`,
  );
  const sums = `SELECT k.dimension AS dimension, k.id AS id, MIN(k.name) AS name, SUM(w) AS w
     FROM (SELECT unnest([${keys.join(", ")}]) AS k,
       CAST(round(COALESCE(${weight}, 0) * ${scale}::DOUBLE) AS BIGINT) AS w FROM (${lines}))
     GROUP BY 1, 2`;
  // Each value's sum kept in a table DuckDB may spill, then each dimension's largest taken by a
  // top-N (a window over a million values held them all: out of the sums' memory)
  await connection.run(`CREATE OR REPLACE TEMP TABLE ${REPORT_VALUES} AS ${sums}`);
  try {
    const counts = await connection.runAndReadAll(
      `SELECT dimension, COUNT(*) AS count_of FROM ${REPORT_VALUES} GROUP BY 1`,
    );
    const countOf = new Map(
      counts.getRowObjects().map((row) => [String(row.dimension), Number(row.count_of)]),
    );
    // Every dimension's top-N in one query (an id is a dimension's once: the order is total)
    const largest = await connection.runAndReadAll(
      `SELECT dimension, id, name FROM (${BOUNDED.map(
        (dimension) =>
          `(SELECT dimension, id, name, w FROM ${REPORT_VALUES} WHERE dimension = ${literal(dimension)}
            ORDER BY w DESC, name, id LIMIT ${Math.max(RANKED, FACT_VALUES)})`,
      ).join(" UNION ALL ")}) ORDER BY dimension, w DESC, name, id`,
    );
    const rows = largest.getRowObjects();
    const keptOf = (dimension: Bounded): KeptValues => {
      const facts = rows
        .filter((row) => row.dimension === dimension)
        .map((row) => ({
          id: row.id === null ? null : String(row.id),
          name: row.name === null ? null : String(row.name),
        }));
      return {
        values: facts.slice(0, RANKED),
        facts: facts.slice(0, FACT_VALUES),
        count: countOf.get(dimension) ?? 0,
      };
    };
    return {
      service: keptOf("service"),
      region: keptOf("region"),
      account: keptOf("account"),
      resource: keptOf("resource"),
    };
  } finally {
    await connection.run(`DROP TABLE IF EXISTS ${REPORT_VALUES}`);
  }
}

/**
 * A table bounded to a dimension's kept values: `<dimension>_rest` (whether a line's value is one
 * of the rest) and `<dimension>_key` (its id where kept), for the lines of `lines`.
 */
export function boundedTable(dimension: Bounded, kept: KeptValues): string[] {
  const { id } = RANKINGS[dimension];
  const ids = kept.values.flatMap((value) => (value.id === null ? [] : [literal(value.id)]));
  const nullKept = kept.values.some((value) => value.id === null);
  const isKept = [
    ...(ids.length > 0 ? [`CAST(${id} AS VARCHAR) IN (${ids.join(", ")})`] : []),
    ...(nullKept ? [`${id} IS NULL`] : []),
  ];
  const keptTest = isKept.length === 0 ? "false" : `COALESCE(${isKept.join(" OR ")}, false)`;
  return [
    `NOT ${keptTest} AS ${identifier(`${dimension}_rest`)}`,
    `CASE WHEN ${keptTest} THEN CAST(${id} AS VARCHAR) END AS ${identifier(`${dimension}_key`)}`,
  ];
}

/** The ids of the chart's series: the TIME_SERIES largest services (a line without one is in the rest). */
export function seriesOf(kept: KeptValues): { readonly id: string | null; readonly name: string | null }[] {
  return kept.values.slice(0, TIME_SERIES);
}

/**
 * The chart's series bounded to its steps: each line's `series` (its service where one of the
 * series — NULL for the lines without one —, else '') and the steps it is summed in, one row each (`piece`s: x.step, x.piece) — a
 * line within one step in that step whole; a line over several once whole (its step NULL, not
 * charted: the other tables' row) and once per step with its share of the seconds (piece);
 * a line without a period once, in no step.
 */
export function boundedSeries(
  time: TimeBounds | null,
  kept: KeptValues,
): { items: string[]; pieces: string } {
  const shown = seriesOf(kept);
  const ids = shown.flatMap((value) => (value.id === null ? [] : [literal(value.id)]));
  const key = RANKINGS.service.id;
  // A line without a service, where it is one of the series: NULL, apart from the rest's ''
  const whens = [
    ...(ids.length > 0 ? [`WHEN ${key} IN (${ids.join(", ")}) THEN ${key}`] : []),
    ...(shown.some((value) => value.id === null) ? [`WHEN ${key} IS NULL THEN NULL`] : []),
  ];
  const series = whens.length === 0 ? "''" : `CASE ${whens.join(" ")} ELSE '' END`;
  const whole = `[{'step': NULL::TIMESTAMP, 'piece': false}]`;
  if (time === null || time.grain === null) return { items: [`${series} AS series`], pieces: whole };
  const { grain } = time;
  const start = `date_trunc(${literal(grain)}, ${timestamp("period_start")})`;
  const end = `${timestamp("period_end")} - INTERVAL 1 MICROSECOND`;
  const pieces = `CASE WHEN period_start IS NULL THEN ${whole}
    WHEN ${start} = date_trunc(${literal(grain)}, ${end}) THEN [{'step': ${start}, 'piece': false}]
    ELSE ${whole} || list_transform(generate_series(${start}, ${end}, INTERVAL 1 ${grain}),
      s -> {'step': s, 'piece': true}) END`;
  return { items: [`${series} AS series`], pieces };
}

/** The share of its period a piece's step holds (1 for a whole line). */
function shareOf(time: TimeBounds | null): string {
  if (time === null || time.grain === null) return "1.0::DOUBLE";
  const next = `epoch_us(x.step + INTERVAL 1 ${time.grain}) / 1e6`;
  return `CASE WHEN x.piece THEN (LEAST(period_end, ${next}) - GREATEST(period_start, epoch_us(x.step) / 1e6))
    / (period_end - period_start) ELSE 1.0::DOUBLE END`;
}

/** The columns REPORT_SUMS groups by, in order (their bits in `part`, GROUPING_ID's). */
const KEY_COLUMNS = [
  "piece",
  "method",
  ...BOUNDED.flatMap((dimension) => [`${dimension}_rest`, `${dimension}_key`]),
  "charted",
  "series",
  "step",
];

/** The sets of columns REPORT_SUMS sums by, one per part of the report. */
function partsOf(): Record<ReportPart, string[]> {
  const bounded = Object.fromEntries(
    BOUNDED.map((dimension) => [dimension, ["piece", `${dimension}_rest`, `${dimension}_key`]]),
  ) as Record<Bounded, string[]>;
  return { method: ["piece", "method"], ...bounded, time: ["charted", "series", "step"] };
}

/** The part a row of REPORT_SUMS belongs to: GROUPING_ID's bits, one for each column it is not grouped by. */
function partId(columns: readonly string[], grouped: readonly string[]): number {
  return columns.reduce(
    (id, column, index) => (grouped.includes(column) ? id : id + 2 ** (columns.length - 1 - index)),
    0,
  );
}

/** A part of the report's sums: a ranking's, the chart's. */
export type ReportPart = Ranked | "time";

/** The filter of REPORT_SUMS' rows of a part. */
export const partOf = (part: ReportPart) => `part = ${literal(part)}`;

/**
 * REPORT_SUMS from `lines` (reportBounds' query) within `bounds`: one pass, the lines grouped by
 * each part's columns (GROUPING SETS), each group's count in `lines` (a piece's share of its
 * line) and each measure's exact sum left in its parts (exactSumParts, unfinished: each part of
 * the report sums them again and rounds its totals once), and each bounded dimension's names.
 * `more`: on a dimension's rest row, how many values it sums.
 */
export async function createReportSums(
  connection: DuckDBConnection,
  lines: string,
  criteria: number,
  bounds: ReportBounds,
): Promise<void> {
  const columns = KEY_COLUMNS;
  const measures = measureColumns(criteria);
  const series = boundedSeries(bounds.time, bounds.kept.service);
  const share = shareOf(bounds.time);
  const folded = [
    ...BOUNDED.flatMap((dimension) => boundedTable(dimension, bounds.kept[dimension])),
    ...BOUNDED.map((dimension) => `${RANKINGS[dimension].name} AS ${identifier(`${dimension}_name`)}`),
    ...series.items,
    "x.step AS step",
    "x.piece AS piece",
    "(x.piece OR x.step IS NOT NULL OR period_start IS NULL) AS charted",
    `${share} AS share`,
  ];
  const spread = measures.map((column) => `${identifier(column)} * share AS ${identifier(column)}`);
  const parts = Object.values(partsOf()).map((set) => `(${set.map(identifier).join(", ")})`);
  const sets = Object.entries(partsOf());
  const part = sets.map(([name, set]) => `WHEN ${partId(columns, set)} THEN ${literal(name)}`);
  const more = BOUNDED.map((dimension) => {
    const rest = bounds.kept[dimension].count - bounds.kept[dimension].values.length;
    return `WHEN ${partOf(dimension)} AND ${identifier(`${dimension}_rest`)} THEN ${rest}`;
  });
  await connection.run(
    `CREATE OR REPLACE TEMP TABLE ${REPORT_SUMS} AS
     SELECT * EXCLUDE (grouping_id), CASE ${more.join(" ")} ELSE 0 END AS more FROM (
       SELECT CASE grouping_id ${part.join(" ")} END AS part, * FROM (
       SELECT GROUPING_ID(${columns.map(identifier).join(", ")}) AS grouping_id, ${columns.map(identifier).join(", ")},
         ${BOUNDED.map((dimension) => `MIN(${identifier(`${dimension}_name`)}) AS ${identifier(`${dimension}_name`)}`).join(", ")},
         ${exactSumParts("share", "lines")}, ${measures.map((column) => exactSumParts(identifier(column), column)).join(", ")}
       FROM (SELECT * REPLACE (${spread.join(", ")}) FROM (
         SELECT *, ${folded.join(", ")} FROM (SELECT *, unnest(${series.pieces}) AS x FROM (${lines}))))
       GROUP BY GROUPING SETS (${parts.join(", ")})))`,
  );
}

/**
 * REPORT_SUMS from `lines` (a query of the evaluated lines: their dimensions, measureColumns and
 * their period in seconds, `period_start` and `period_end`, or NULL), what it keeps decided first
 * (reportBounds); what it kept, for the report's parts and the facts.
 */
export async function summedLines(
  connection: DuckDBConnection,
  lines: string,
  criteria: number,
): Promise<ReportBounds> {
  const bounds = await reportBounds(connection, lines, criteria);
  await createReportSums(connection, lines, criteria, bounds);
  return bounds;
}
