/*
 * The groups a reader chooses once the report is open (the /evaluate page's, a mailed report's):
 * the evaluated lines summed by every combination of the bill's columns and tags that group them —
 * the columns `--group-by` takes, those with a few values that are not numbers (an account, a
 * service, a charge type, a tag's value) — so that the page groups and filters them without the
 * file. The cube is bounded: a column of more than MAX_VALUES values is left out, and while the
 * combinations pass MAX_ROWS the column of the most values is left out too; the report says which.
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { identifier, literal } from "../../duckdb/database.js";
import { createExactSumMacros, exactSumAgainParts, finishedSums } from "../../duckdb/exactSum.js";
import type { GroupCube } from "../../output/reportParts/model.js";
import { BILLING_FORMATS, filedColumns, headerColumn } from "../formats/registry.js";
import { tagColumnOf, tagPath, tagsJson, tagValue } from "../stages/read.js";
import { type CubeWithin, partOf, REPORT_SUMS, summedColumns } from "./bounds.js";
import { dimensionColumns, sourceOf, type WrittenLines } from "./lines.js";

/** Values of a column at most (estimated: DuckDB's approx_count_distinct) for it to group by. */
const MAX_VALUES = 100;
/** Combinations of the columns' values the cube keeps at most. */
export const MAX_ROWS = 2_000;
/** Columns looked at, and tags' keys, at most. */
const MAX_COLUMNS = 16;
const MAX_TAGS = 12;

/** A column the cube may group by: its name as `--group-by` takes it, how it reads from the written lines. */
export interface CubeColumn {
  readonly name: string;
  readonly expression: string;
  /** Its estimated values among the evaluated lines. */
  readonly values: number;
}

/** The cube's columns in the lines the report reads and in REPORT_SUMS: `g0`, `g1`… */
const cubeName = (index: number) => `g${index}`;

/** A cell as text; blank, empty and the text `NULL` (the FinOps Foundation's sample writes it) as none. */
const textCell = (expression: string) => `NULLIF(NULLIF(TRIM(CAST(${expression} AS VARCHAR)), ''), 'NULL')`;

/** A column the cube may group by, before it is counted: `rank` orders the kinds of columns. */
interface Candidate {
  readonly name: string;
  readonly expression: string;
  /** 0 the report's dimensions and the method, 1 a tag, 2 the export's other columns. */
  readonly rank: number;
}

/**
 * The columns of the written lines a reader may group by, read in one pass over the evaluated
 * lines: the export's text columns that are not its quantity, costs or dates (the format's numbers
 * and dates), the run's `method`, and the most frequent keys of its tags (`tag:<key>`), each with
 * 2 to MAX_VALUES values not all numbers nor times. `left`: what was not kept, for the report to say.
 */
export async function cubeColumns(
  connection: DuckDBConnection,
  written: WrittenLines,
): Promise<{ columns: CubeColumn[]; left: string[] }> {
  const format = BILLING_FORMATS[written.input];
  const { header, runName } = filedColumns(written.header, written.renamed);
  const types = await connection.runAndReadAll(`DESCRIBE SELECT * FROM ${sourceOf(written)}`);
  const text = new Set(
    types
      .getRowObjects()
      .filter((row) => String(row.column_type) === "VARCHAR")
      .map((row) => String(row.column_name)),
  );
  const runNames = (names: readonly string[]) =>
    names.flatMap((name) => {
      const found = headerColumn(format, name, header);
      return found === null ? [] : [runName(found)];
    });
  const measured = new Set(runNames([...format.numbers, ...format.dates]));
  const dimensions = runNames(dimensionColumns(written.input));
  const tags = tagColumnOf(written.header);
  const own = written.header.filter((column) => text.has(column) && !measured.has(column) && column !== tags);
  // A column of the file named like the run's (kept as input_method) keeps the run's name for it
  const named = (column: string) => {
    const name = header[written.header.indexOf(column)];
    return name.toLowerCase() === "method" ? column : name;
  };
  const ownCandidate = (rank: number) => (column: string) => ({
    name: named(column),
    expression: identifier(column),
    rank,
  });
  const candidates: Candidate[] = [
    ...own.filter((column) => dimensions.includes(column)).map(ownCandidate(0)),
    { name: "method", expression: identifier("method"), rank: 0 },
    ...(tags === null ? [] : await tagCandidates(connection, written, tags, !text.has(tags))),
    ...own.filter((column) => !dimensions.includes(column)).map(ownCandidate(2)),
  ];
  return profiled(connection, written, candidates);
}

/** The most frequent keys of the tag column, each as a candidate `tag:<key>`. */
async function tagCandidates(
  connection: DuckDBConnection,
  written: WrittenLines,
  column: string,
  map: boolean,
): Promise<Candidate[]> {
  const json = tagsJson(column, map);
  const reader = await connection.runAndReadAll(
    `SELECT key, COUNT(*) AS lines FROM (
       SELECT unnest(json_keys(${json})) AS key FROM ${sourceOf(written)}
       WHERE status = 'evaluated' AND json_valid(${json}))
     GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT ${MAX_TAGS}`,
  );
  return reader.getRowObjects().map((row) => {
    const key = String(row.key);
    return { name: `tag:${key}`, expression: tagValue(json, literal(tagPath(key))), rank: 1 };
  });
}

/**
 * The candidates with 2 to MAX_VALUES values, not all numbers (the report's dimensions aside) nor
 * all times, in their ranks'
 * order, fewest values first within each (the cube drops the last first); the others said.
 */
async function profiled(
  connection: DuckDBConnection,
  written: WrittenLines,
  candidates: readonly Candidate[],
): Promise<{ columns: CubeColumn[]; left: string[] }> {
  const reads = candidates.flatMap((candidate, index) => {
    const cell = textCell(candidate.expression);
    return [
      `approx_count_distinct(${cell}) AS d${index}`,
      `COUNT(${cell}) AS n${index}`,
      `COUNT(TRY_CAST(${cell} AS DOUBLE)) AS x${index}`,
      `COUNT(TRY_CAST(${cell} AS TIMESTAMP)) AS t${index}`,
    ];
  });
  const reader = await connection.runAndReadAll(
    `SELECT ${reads.join(", ")} FROM ${sourceOf(written)} WHERE status = 'evaluated'`,
  );
  const counts = reader.getRowObjects()[0];
  const kept: (CubeColumn & { readonly rank: number })[] = [];
  const left: string[] = [];
  candidates.forEach((candidate, index) => {
    const values = Number(counts[`d${index}`]);
    const cells = Number(counts[`n${index}`]);
    if (values < 2) return;
    // An account's or a service's id is digits, not a quantity: the report's dimensions group whatever they hold
    if (candidate.rank > 0 && Number(counts[`x${index}`]) === cells) left.push(`${candidate.name} (numbers)`);
    else if (Number(counts[`t${index}`]) === cells) left.push(`${candidate.name} (times)`);
    else if (values > MAX_VALUES)
      left.push(`${candidate.name} (about ${values.toLocaleString("en-US")} values)`);
    else kept.push({ name: candidate.name, expression: candidate.expression, values, rank: candidate.rank });
  });
  kept.sort((a, b) => a.rank - b.rank || a.values - b.values);
  for (const column of kept.slice(MAX_COLUMNS)) left.push(`${column.name} (past ${MAX_COLUMNS} columns)`);
  return {
    columns: kept.slice(0, MAX_COLUMNS).map(({ name, expression, values }) => ({ name, expression, values })),
    left,
  };
}

/** The cube's columns as the lines the report reads keep them (createReportLines' `extra`). */
export const cubeExtra = (columns: readonly CubeColumn[]) =>
  columns.map((column, index) => ({ name: cubeName(index), expression: textCell(column.expression) }));

/**
 * The first of the cube's `count` columns whose combinations DuckDB's estimate (approx_count_distinct
 * of their hash, a HyperLogLog of a few kB, within a few per cent) keeps within MAX_ROWS, estimated
 * in the report's first pass over the lines (reportBounds), before any sum.
 */
export function cubeWithin(count: number): CubeWithin {
  const items = Array.from({ length: count }, (_, end) => {
    const names = Array.from({ length: end + 1 }, (__, index) => identifier(cubeName(index)));
    return `approx_count_distinct(hash(${names.join(", ")})) AS p${end}`;
  });
  return {
    items,
    kept: (estimates) => {
      let within = 0;
      while (within < count && Number(estimates[`p${within}`]) <= MAX_ROWS) within += 1;
      return Array.from({ length: within }, (_, index) => index);
    },
  };
}

/** The cube over `columns` (kept as cubeExtra names them) from its part of REPORT_SUMS, bounded by MAX_ROWS. */
export async function groupCube(
  connection: DuckDBConnection,
  columns: readonly CubeColumn[],
  criteria: number,
  left: readonly string[],
  within: readonly number[],
): Promise<GroupCube> {
  await createExactSumMacros(connection);
  const sums = summedColumns(criteria);
  const sumOf = (kept: readonly number[]) =>
    finishedSums(
      `SELECT ${[...kept.map((index) => identifier(cubeName(index))), ...sums.map(exactSumAgainParts)].join(", ")}
       FROM ${REPORT_SUMS} WHERE ${partOf("cube")} AND NOT piece GROUP BY ALL`,
      sums,
    );
  const dropped = [...left];
  // The columns whose combinations were estimated within the bound (in their order), before any sum:
  // 16 columns of a 200,000-line CUR summed whole held 100 MB of sums' states per thread
  let kept = [...within];
  for (const index of columns.keys()) {
    if (!kept.includes(index))
      dropped.push(`${columns[index].name} (past ${MAX_ROWS.toLocaleString("en-US")} combinations)`);
  }
  await connection.run(`CREATE OR REPLACE TEMP TABLE report_cube AS ${sumOf(kept)}`);
  try {
    for (;;) {
      const count = await connection.runAndReadAll("SELECT COUNT(*) AS n FROM report_cube");
      if (Number(count.getRowObjects()[0].n) <= MAX_ROWS || kept.length === 0) break;
      // The last in the order they were chosen in: of the lowest rank, the most values
      const widest = kept[kept.length - 1];
      dropped.push(`${columns[widest].name} (past ${MAX_ROWS.toLocaleString("en-US")} combinations)`);
      kept = kept.filter((index) => index !== widest);
      await connection.run(`CREATE OR REPLACE TEMP TABLE report_cube AS ${sumOf(kept)}`);
    }
    const reader = await connection.runAndReadAll(`SELECT * FROM report_cube ORDER BY ALL`);
    return cubeOf(
      reader.getRowObjects(),
      kept.map((index) => ({ name: columns[index].name, column: cubeName(index) })),
      sums,
      dropped,
    );
  } finally {
    await connection.run("DROP TABLE IF EXISTS report_cube");
  }
}

/** The cube's rows as indexes into each column's values (largest first by the first criterion). */
function cubeOf(
  rows: readonly Record<string, unknown>[],
  columns: readonly { readonly name: string; readonly column: string }[],
  sums: readonly string[],
  left: readonly string[],
): GroupCube {
  const weight = (row: Record<string, unknown>) => Number(row.c0_embedded ?? 0) + Number(row.c0_use ?? 0);
  const values = columns.map(({ column }) => {
    const totals = new Map<string, number>();
    for (const row of rows) {
      const value = row[column] === null ? "" : String(row[column]);
      totals.set(value, (totals.get(value) ?? 0) + weight(row));
    }
    return [...totals].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([value]) => value);
  });
  const at = values.map((list) => new Map(list.map((value, index) => [value, index])));
  return {
    columns: columns.map(({ name }, index) => ({ name, values: values[index] })),
    rows: rows.map((row) => [
      ...columns.map(
        ({ column }, index) => at[index].get(row[column] === null ? "" : String(row[column])) ?? 0,
      ),
      ...sums.map((column) => Number(row[column] ?? 0)),
    ]),
    left,
  };
}
