/*
 * The facts of a bill's report: its evaluated lines summed by every column and tag a reader may
 * filter or group by once the page is open, by the report's dimensions (service, region, account,
 * resource) and by the step of time they fall in — so that the page filters by several columns at
 * once, several values each, and its totals, charts and tables follow without the file
 * (src/output/reportParts/filters.ts). Every text column and tag of the bill is offered, but for
 * its quantity, costs and dates, times, measures of many values, one value, and past MAX_COLUMNS;
 * each column keeps its largest values by name (up to VALUE_STEPS[0], by the first criterion) and
 * sums the rest as one, "(N other values)". The facts are bounded (FACT_ROWS): past it, fewer values
 * by name, then months rather than days, then columns left out, then years, then the dimensions'
 * values no longer told apart, each said. They are summed from the evaluated lines as they stream
 * (src/billing/stages/writtenLines.ts, withReportLines), each line at the chart's grain (never more than
 * its MAX_STEPS steps): what they hold grows with none of the bill's counts of days, resources,
 * accounts or values.
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { runAll } from "../../duckdb/database.js";
import { exactSumParts, finishedSums } from "../../duckdb/exactSum.js";
import { identifier, literal } from "../../duckdb/sqlText.js";
import { impactColumn } from "../../output/columns.js";
import type { GroupCube, TimeGrain } from "../../output/reportParts/model.js";
import { measureColumns, type ReportedLines, sourceOf, textCell } from "../stages/writtenLines.js";
import { FACT_VALUES, type KeptValues, RANKINGS, type ReportBounds } from "./bounds.js";
import { type Candidate, cubeCandidates } from "./groups.js";

/** Columns offered at most, tags' keys among them at most. */
const MAX_COLUMNS = 100;
const MAX_TAGS = 60;
/** Values kept by name of each column, the largest first: each rung of the facts' bound. */
const VALUE_STEPS = [FACT_VALUES, 20, 5] as const;
/** Rows of facts at most (each a combination of values and a step, with its sums): the page's size. */
export const FACT_ROWS = 20_000;
/** The index of "every other value" in a row's cell (UTINYINT: more than any value kept). */
const OTHERS = 255;

/** A column of the facts: its name as `--filter` and `--group-by` take it, its cell, its values by name. */
export interface FactColumn {
  readonly name: string;
  readonly expression: string;
  /** Its values kept by name, the largest first ('' none); the others summed as one. */
  readonly top: readonly string[];
  /** Its values in all (none, '', one of them). */
  readonly values: number;
}

const factName = (index: number) => `f${index}`;
/** Each offered column's values and their sums, while the largest are chosen (factColumns). */
const FACT_VALUE_SUMS = "report_fact_values";
const enumName = (index: number) => `report_fact_${index}`;
/** A candidate's cell, none as ''. */
const valueCell = (expression: string) => `COALESCE(${textCell(expression)}, '')`;

/**
 * The columns of the written lines the facts are of, with their largest values by the first
 * criterion's impacts (the count of lines without one), in two passes over the evaluated lines;
 * `left`: the columns not offered and why.
 */
export async function factColumns(
  connection: DuckDBConnection,
  written: ReportedLines,
): Promise<{ columns: FactColumn[]; left: string[] }> {
  const candidates = await cubeCandidates(connection, written, MAX_TAGS);
  const { kept, left } = await offered(connection, written, candidates);
  if (kept.length === 0) return { columns: [], left };
  const first = written.criteria[0];
  const weight =
    first === undefined
      ? "1"
      : (["embedded", "use"] as const)
          .map(
            (phase) =>
              `COALESCE(TRY_CAST(${identifier(impactColumn(first.name, first.unit, phase, "value"))} AS DOUBLE), 0)`,
          )
          .join(" + ");
  const cells = kept.map((column, index) => `{c: ${index}, v: ${valueCell(column.expression)}}`);
  // Each value's sum kept in a table DuckDB may spill, then each column's largest taken by a top-N:
  // a window over a column of a million values (an account a line) held them all. Each sum exact,
  // as every sum of the report's: a plain SUM's last bit follows the threads' split of the lines,
  // and with it the order of two values of equal sums (the sample's tags twenty times over read
  // `BostonAI` before `OrlandoDesign` on one thread, after it on two)
  await connection.run(
    `CREATE OR REPLACE TEMP TABLE ${FACT_VALUE_SUMS} AS
     ${finishedSums(
       `SELECT cell.c AS c, cell.v AS v, ${exactSumParts("w", "w")} FROM (
          SELECT unnest([${cells.join(", ")}]) AS cell, ${weight} AS w
          FROM ${sourceOf(written)} WHERE status = 'evaluated')
        GROUP BY cell`,
       ["w"],
     )}`,
  );
  const tops = kept.map(() => [] as string[]);
  const counts = kept.map((column) => column.values);
  try {
    const counted = await connection.runAndReadAll(
      `SELECT c, COUNT(*) AS n FROM ${FACT_VALUE_SUMS} GROUP BY c`,
    );
    for (const row of counted.getRowObjects()) counts[Number(row.c)] = Number(row.n);
    // Every column's top-N in one query
    const largest = await connection.runAndReadAll(
      `SELECT c, v FROM (${[...kept.keys()]
        .map(
          (index) =>
            `(SELECT c, v, w FROM ${FACT_VALUE_SUMS} WHERE c = ${index} ORDER BY w DESC, v LIMIT ${VALUE_STEPS[0]})`,
        )
        .join(" UNION ALL ")}) ORDER BY c, w DESC, v`,
    );
    for (const row of largest.getRowObjects()) tops[Number(row.c)].push(String(row.v));
  } finally {
    await connection.run(`DROP TABLE IF EXISTS ${FACT_VALUE_SUMS}`);
  }
  return {
    columns: kept.map((column, index) => ({ ...column, top: tops[index], values: counts[index] })),
    left,
  };
}

/** Lines read first for a cell that is not a number or a time (castsFailedIn). */
const CAST_SAMPLE = 2_048;

/**
 * For each cell, whether one of the first CAST_SAMPLE evaluated lines holds one that DuckDB does not
 * read as a DOUBLE, and one it does not read as a TIMESTAMP: such a column is not all numbers
 * (times), and its cells need not be cast on every line. A cast that fails costs DuckDB an error's
 * text: on 200,000 lines of a 100-column CUR 2.0, the casts of every line took 4.1 of the 4.4 CPU s
 * of the count of the candidates' values (bench/README.md, "The written lines read back from a copy").
 * The sample's query costs its planning, 34 ms on a small bill: a bill of CAST_SAMPLE lines at most
 * is not sampled.
 */
async function castsFailedIn(
  connection: DuckDBConnection,
  written: ReportedLines,
  cells: readonly string[],
): Promise<{ double: boolean[]; timestamp: boolean[] }> {
  const failed = (cell: string, type: string) =>
    `COALESCE(bool_or(${cell} IS NOT NULL AND TRY_CAST(${cell} AS ${type}) IS NULL), false)`;
  const reader = await connection.runAndReadAll(
    `SELECT ${cells.map((cell, index) => `${failed(cell, "DOUBLE")} AS x${index}, ${failed(cell, "TIMESTAMP")} AS t${index}`).join(", ")}
     FROM (SELECT * FROM ${sourceOf(written)} WHERE status = 'evaluated' LIMIT ${CAST_SAMPLE})`,
  );
  const row = reader.getRowObjects()[0];
  return {
    double: cells.map((_, index) => row[`x${index}`] === true),
    timestamp: cells.map((_, index) => row[`t${index}`] === true),
  };
}

/**
 * The candidates a reader is offered, in their ranks' order, fewest values first within each: with
 * two values or more, not all times, not a measure (all numbers and more values than are kept by
 * name), MAX_COLUMNS at most; the others said.
 */
async function offered(
  connection: DuckDBConnection,
  written: ReportedLines,
  candidates: readonly Candidate[],
): Promise<{ kept: Omit<FactColumn, "top">[]; left: string[] }> {
  if (candidates.length === 0) return { kept: [], left: [] };
  const cells = candidates.map((candidate) => textCell(candidate.expression));
  // A bill of the sample's size at most is cast whole in one query
  const sampled =
    written.count > CAST_SAMPLE
      ? await castsFailedIn(connection, written, cells)
      : { double: cells.map(() => false), timestamp: cells.map(() => false) };
  const reads = cells.flatMap((cell, index) => [
    `approx_count_distinct(${cell}) AS d${index}`,
    `COUNT(${cell}) AS n${index}`,
    ...(sampled.double[index] ? [] : [`COUNT(TRY_CAST(${cell} AS DOUBLE)) AS x${index}`]),
    ...(sampled.timestamp[index] ? [] : [`COUNT(TRY_CAST(${cell} AS TIMESTAMP)) AS t${index}`]),
  ]);
  const reader = await connection.runAndReadAll(
    `SELECT ${reads.join(", ")} FROM ${sourceOf(written)} WHERE status = 'evaluated'`,
  );
  const counts = reader.getRowObjects()[0];
  // Every cell of the column read as that type: a cell of the sample that did not, none
  const every = (type: "x" | "t", index: number, cellCount: number) =>
    !(type === "x" ? sampled.double : sampled.timestamp)[index] &&
    Number(counts[`${type}${index}`]) === cellCount;
  const kept: (Omit<FactColumn, "top"> & { readonly rank: number })[] = [];
  const left: string[] = [];
  let single = 0;
  candidates.forEach((candidate, index) => {
    const values = Number(counts[`d${index}`]);
    const cellCount = Number(counts[`n${index}`]);
    if (values < 2) single += 1;
    else if (every("t", index, cellCount)) left.push(`${candidate.name} (times)`);
    else if (candidate.rank > 0 && every("x", index, cellCount) && values > VALUE_STEPS[0])
      left.push(`${candidate.name} (numbers, about ${values.toLocaleString("en-US")} values)`);
    // A value of its own on most lines (a line's id): none of its values by name would sum more than a line
    else if (candidate.rank > 0 && values > FACT_ROWS)
      left.push(
        `${candidate.name} (about ${values.toLocaleString("en-US")} values, past ${FACT_ROWS.toLocaleString("en-US")})`,
      );
    else kept.push({ name: candidate.name, expression: candidate.expression, values, rank: candidate.rank });
  });
  kept.sort((a, b) => a.rank - b.rank || a.values - b.values);
  for (const column of kept.slice(MAX_COLUMNS)) left.push(`${column.name} (past ${MAX_COLUMNS} columns)`);
  if (single > 0) left.push(`${single} ${single === 1 ? "column" : "columns"} of one value or none`);
  return {
    kept: kept.slice(0, MAX_COLUMNS).map(({ name, expression, values }) => ({ name, expression, values })),
    left,
  };
}

/** Creates each column's ENUM of its values by name, for the report's lines' cells (factExtra). */
export async function createFactTypes(connection: DuckDBConnection, columns: readonly FactColumn[]) {
  await runAll(
    connection,
    columns.map(
      (column, index) =>
        `CREATE OR REPLACE TYPE ${enumName(index)} AS ENUM (${column.top.map(literal).join(", ")})`,
    ),
  );
}

/** Drops the ENUMs createFactTypes made. */
export async function dropFactTypes(connection: DuckDBConnection, columns: readonly FactColumn[]) {
  await runAll(
    connection,
    [...columns.keys()].map((index) => `DROP TYPE IF EXISTS ${enumName(index)}`),
  );
}

/**
 * The facts' columns as the report's lines carry them (withReportLines' `extra`): each cell the index of
 * its value among those kept by name (an ENUM's code, one byte), OTHERS for any other.
 */
export const factExtra = (columns: readonly FactColumn[]) =>
  columns.map((column, index) => ({
    name: factName(index),
    expression: `COALESCE(enum_code(TRY_CAST(${valueCell(column.expression)} AS ${enumName(index)})), ${OTHERS})`,
  }));

/** The report's dimensions the facts keep, each grouped by its id and named by its name, as the rankings are. */
const DIMENSIONS = ["service", "region", "account", "resource"] as const;
type FactDimension = (typeof DIMENSIONS)[number];

/** One rung of the facts' bound: values kept by name of the columns and the dimensions, the step. */
interface Rung {
  readonly values: number;
  readonly grain: TimeGrain | null;
  readonly columns: number;
}

/**
 * The rungs from the report's grain down: fewer values, then months, then fewer columns, then
 * years, then no dimension's values told apart — the last within FACT_ROWS whatever the bill (one
 * row a step, MAX_STEPS steps at most, and the lines without a period).
 */
function rungsOf(grain: TimeGrain | null, columns: number): Rung[] {
  const coarser = grain === "day" ? "month" : grain;
  const fewest = VALUE_STEPS[VALUE_STEPS.length - 1];
  const rungs: Rung[] = [
    ...VALUE_STEPS.map((values) => ({ values, grain, columns })),
    ...VALUE_STEPS.slice(1).map((values) => ({ values, grain: coarser, columns })),
  ];
  for (let kept = columns - 1; kept >= 0; kept -= Math.max(1, Math.ceil(kept / 4)))
    rungs.push({ values: fewest, grain: coarser, columns: kept });
  const yearly = coarser === null ? null : "year";
  if (yearly !== coarser) rungs.push({ values: fewest, grain: yearly, columns: 0 });
  rungs.push({ values: 0, grain: yearly, columns: 0 });
  return rungs;
}

/**
 * The facts of `lines` (the report's lines, with the columns `factExtra` made), by the first rung
 * whose rows are within FACT_ROWS; the step is the report's chart's (`bounds.time`: null where no
 * line has a period or their span passes the chart's years, no step kept), the dimensions' values
 * by name its largest (`bounds.kept`).
 */
export async function billFacts(
  connection: DuckDBConnection,
  lines: string,
  columns: readonly FactColumn[],
  criteria: number,
  bounds: ReportBounds,
  left: readonly string[],
): Promise<GroupCube> {
  const dimensions = dimensionValues(bounds.kept);
  const grain = bounds.time?.grain ?? null;
  await dimensionTypes(connection, dimensions);
  try {
    const rungs = rungsOf(grain, columns.length);
    // The rungs DuckDB's estimate (a HyperLogLog of each rung's keys, within a few per cent) puts
    // past the bound are not built: a first rung of 100,000 rows held 100 MB of sums' parts
    const first = await firstEstimatedWithin(connection, lines, columns, rungs);
    for (const [index, rung] of rungs.entries()) {
      if (index < first) continue;
      const rows = await factRows(connection, lines, columns, criteria, rung);
      if (rows > FACT_ROWS && index < rungs.length - 1) continue;
      const reader = await connection.runAndReadAll("SELECT * FROM report_facts ORDER BY ALL");
      const notes = [...left, ...rungNotes(columns, rung, grain)];
      return factCube(reader.getRowObjects(), columns, dimensions, criteria, rung, notes);
    }
    throw new Error("the facts' last rung is always taken");
  } finally {
    await connection.run("DROP TABLE IF EXISTS report_facts");
    await dimensionTypes(connection, dimensions, true);
  }
}

/** A dimension as the page reads it: its cell's place in a row, its values and names. */
function dimensionAt(
  named: readonly { dimension: FactDimension; values: string[]; names: string[] }[],
  dimension: FactDimension,
  first: number,
) {
  const k = named.findIndex((entry) => entry.dimension === dimension);
  return { at: first + k, values: named[k].values, names: named[k].names };
}

/** The facts' rows as the page reads them (GroupCube): each cell an index, OTHERS and none past the values. */
function factCube(
  rows: readonly Record<string, unknown>[],
  columns: readonly FactColumn[],
  dimensions: DimensionValues,
  criteria: number,
  rung: Rung,
  left: readonly string[],
): GroupCube {
  const kept = columns.slice(0, rung.columns).map((column) => {
    const values = column.top.slice(0, rung.values);
    return { name: column.name, values, others: Math.max(0, column.values - values.length) };
  });
  const named = DIMENSIONS.map((dimension) => ({
    dimension,
    values: dimensions[dimension].ids.slice(0, rung.values),
    names: dimensions[dimension].names.slice(0, rung.values),
  }));
  const steps = [
    ...new Set(
      rows
        .map((row) => row.step)
        .filter((step) => step !== null)
        .map(String),
    ),
  ].sort();
  const at = new Map(steps.map((step, index) => [step, index]));
  const index = (value: unknown, count: number) => (Number(value) === OTHERS ? count : Number(value));
  const sums = ["lines", ...measureColumns(criteria)];
  return {
    columns: kept,
    rows: rows.map((row) => [
      ...kept.map((column, k) => index(row[`k${k}`], column.values.length)),
      ...named.map(({ dimension, values }) => index(row[`d_${dimension}`], values.length)),
      row.step === null ? steps.length : (at.get(String(row.step)) ?? steps.length),
      ...sums.map((sum) => Number(row[sum] ?? 0)),
    ]),
    left,
    keys: kept.length + named.length + 1,
    dimensions: {
      service: dimensionAt(named, "service", kept.length),
      region: dimensionAt(named, "region", kept.length),
      account: dimensionAt(named, "account", kept.length),
      resource: dimensionAt(named, "resource", kept.length),
    },
    step: { at: kept.length + named.length, grain: rung.grain, values: steps },
  };
}

/** What a rung leaves out, said on the page. */
function rungNotes(columns: readonly FactColumn[], rung: Rung, grain: TimeGrain | null): string[] {
  const notes = columns
    .slice(rung.columns)
    .map((column) => `${column.name} (past ${FACT_ROWS.toLocaleString("en-US")} combinations)`);
  const lumped = columns.slice(0, rung.columns).filter((column) => column.values > rung.values);
  if (lumped.length > 0 && rung.values < VALUE_STEPS[0])
    notes.push(
      `${rung.values} values by name of each column within ${FACT_ROWS.toLocaleString("en-US")} combinations`,
    );
  const within = `within ${FACT_ROWS.toLocaleString("en-US")} combinations`;
  if (grain !== rung.grain) notes.push(`by ${rung.grain ?? "no step of time"} when filtered, ${within}`);
  if (rung.values === 0)
    notes.push(`services, regions, accounts and resources not told apart when filtered, ${within}`);
  return notes;
}

/**
 * Each dimension's values kept by name (ids, none as ''), the largest first by the first
 * criterion, and their names, as the report's first pass chose them (src/billing/report/bounds.ts).
 */
function dimensionValues(
  kept: Readonly<Record<FactDimension, KeptValues>>,
): Record<FactDimension, { ids: string[]; names: string[] }> {
  const found = {} as Record<FactDimension, { ids: string[]; names: string[] }>;
  for (const dimension of DIMENSIONS) {
    // A line without an id is kept as '' (its ENUM's value): one of the two where both are
    const seen = new Set<string>();
    const values = kept[dimension].facts.filter((value) => {
      const id = value.id ?? "";
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    });
    found[dimension] = {
      ids: values.map((value) => value.id ?? ""),
      names: values.map((value) => value.name ?? ""),
    };
  }
  return found;
}

type DimensionValues = Awaited<ReturnType<typeof dimensionValues>>;

const dimensionEnum = (dimension: FactDimension) => `report_fact_${dimension}`;

/** The ENUMs of the dimensions' values kept by name, created (`drop`: dropped). */
async function dimensionTypes(connection: DuckDBConnection, values: DimensionValues, drop = false) {
  await runAll(
    connection,
    DIMENSIONS.map((dimension) =>
      drop
        ? `DROP TYPE IF EXISTS ${dimensionEnum(dimension)}`
        : `CREATE OR REPLACE TYPE ${dimensionEnum(dimension)} AS ENUM (${values[dimension].ids.map(literal).join(", ")})`,
    ),
  );
}

const LABELS: Readonly<Record<TimeGrain, string>> = { day: "%Y-%m-%d", month: "%Y-%m", year: "%Y" };
const timestamp = (seconds: string) => `make_timestamp(CAST(CAST(${seconds} AS DOUBLE) * 1000000 AS BIGINT))`;

/** A rung's cells of a line: each column's and dimension's value index (OTHERS past its count), named. */
function rungCells(columns: readonly FactColumn[], rung: Rung): { cell: string; name: string }[] {
  const capped = (cell: string) => `CASE WHEN ${cell} < ${rung.values} THEN ${cell} ELSE ${OTHERS} END`;
  return [
    ...columns
      .slice(0, rung.columns)
      .map((_, index) => ({ cell: capped(factName(index)), name: `k${index}` })),
    ...DIMENSIONS.map((dimension) => ({
      cell: capped(
        `COALESCE(enum_code(TRY_CAST(COALESCE(${RANKINGS[dimension].id}, '') AS ${dimensionEnum(dimension)})), ${OTHERS})`,
      ),
      name: `d_${dimension}`,
    })),
  ];
}

/** The first rung whose facts DuckDB estimates within FACT_ROWS (each line at its period's first step), in one pass. */
async function firstEstimatedWithin(
  connection: DuckDBConnection,
  lines: string,
  columns: readonly FactColumn[],
  rungs: readonly Rung[],
): Promise<number> {
  const estimates = rungs.map((rung, index) => {
    const step =
      rung.grain === null ? "NULL" : `strftime(${timestamp("period_start")}, ${literal(LABELS[rung.grain])})`;
    const cells = rungCells(columns, rung).map(({ cell }) => cell);
    return `approx_count_distinct(hash(${[...cells, step].join(", ")})) AS r${index}`;
  });
  const reader = await connection.runAndReadAll(`SELECT ${estimates.join(", ")} FROM (${lines})`);
  const row = reader.getRowObjects()[0];
  const within = rungs.findIndex((_, index) => Number(row[`r${index}`]) <= FACT_ROWS);
  return within < 0 ? rungs.length - 1 : within;
}

/**
 * The facts of a rung, in the table report_facts: the lines by the rung's columns (their values
 * past its count by name as OTHERS), the dimensions and the step (a line's sums spread over the
 * steps its period spans, in proportion to the seconds it shares with each, as the chart spreads
 * them; NULL for a line without one), each sum exact; its rows counted. Each line is spread as it
 * streams: nothing is kept by a line's own period.
 */
async function factRows(
  connection: DuckDBConnection,
  lines: string,
  columns: readonly FactColumn[],
  criteria: number,
  rung: Rung,
): Promise<number> {
  const cells = rungCells(columns, rung);
  const keys = cells.map(({ cell, name }) => `${cell} AS ${name}`);
  const names = cells.map(({ name }) => name);
  const summed = ["lines", ...measureColumns(criteria)];
  const { grain } = rung;
  const undated = `[{'step': NULL::TIMESTAMP, 'share': 1.0::DOUBLE}]`;
  const steps =
    grain === null
      ? undated
      : `CASE WHEN period_start IS NULL THEN ${undated} ELSE list_transform(
          generate_series(date_trunc(${literal(grain)}, ${timestamp("period_start")}), ${timestamp("period_end")} - INTERVAL 1 MICROSECOND, INTERVAL 1 ${grain}),
          t -> {'step': t, 'share': (LEAST(period_end, epoch_us(t + INTERVAL 1 ${grain}) / 1e6) - GREATEST(period_start, epoch_us(t) / 1e6)) / (period_end - period_start)}) END`;
  const label = grain === null ? "CAST(NULL AS VARCHAR)" : `strftime(x.step, ${literal(LABELS[grain])})`;
  const parts = summed.map((column) =>
    exactSumParts(column === "lines" ? "x.share" : `${column} * x.share`, column),
  );
  await connection.run(
    `CREATE OR REPLACE TEMP TABLE report_facts AS
     ${finishedSums(
       `SELECT ${names.join(", ")}, ${label} AS step, ${parts.join(", ")}
        FROM (SELECT ${keys.join(", ")}, ${summed.slice(1).join(", ")}, unnest(${steps}) AS x FROM (${lines}))
        GROUP BY ALL`,
       summed,
     )}`,
  );
  const count = await connection.runAndReadAll("SELECT COUNT(*) AS n FROM report_facts");
  return Number(count.getRowObjects()[0].n);
}
