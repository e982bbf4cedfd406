/*
 * The evaluated lines as the report reads them back from the lines the run wrote: each line's
 * service, region, account and resource (the export's names, their ids for the hover), its cost
 * as the coverage reads it (billing_paid_cost of sql/classify/billing_usage_<format>.sql: FOCUS
 * EffectiveCost, a CUR's amortised cost where it has the columns, else the billed cost), its
 * energy, every criterion's embedded and use impacts, and its period in seconds since 1970 UTC as
 * sql/evaluate/billing_periods.sql reads the format's period columns (the output keeps them as
 * given: the report reads them, it writes nothing of its own into the lines).
 */

import { statSync } from "node:fs";
import { join } from "node:path";
import type { DuckDBConnection } from "@duckdb/node-api";
import { withParquetFile } from "../../duckdb/database.js";
import { identifier, literal } from "../../duckdb/sqlText.js";
import { impactColumn } from "../../output/columns.js";
import type { ReportCriterion } from "../../output/reportParts/model.js";
import { freeBytes, hasSpaceFor } from "../../support/boundedCopy.js";
import { linesQueryOf, usageQueryOf } from "../formats/format.js";
import {
  BILLING_FORMATS,
  type BillingFormatName,
  type Dimension,
  type DimensionSource,
  filedColumns,
  headerColumn,
} from "../formats/knownFormats.js";
import { spellingKey } from "../places.js";
import { sqlQuery } from "../queries.js";
import { NO_REGION_SPELLINGS } from "../registry/regions.js";
import { type WrittenFile, writtenSource } from "../writtenFile.js";
import { exportAddedColumns } from "./classify.js";

/** A criterion's sums as the evaluated lines are read back, and in the report's sums (src/billing/report/bounds.ts): `c0_embedded`, `c0_use`… */
export const impactOf = (index: number, phase: "embedded" | "use") => `c${index}_${phase}`;

/** The measures of an evaluated line read back, which every sum of them reads: cost, energy, then each criterion's phases. */
export function measureColumns(criteria: number): string[] {
  return [
    "cost",
    "energy",
    ...Array.from({ length: criteria }, (_, index) => [
      impactOf(index, "embedded"),
      impactOf(index, "use"),
    ]).flat(),
  ];
}

/** A cell as text; blank, empty and the text `NULL` (the FinOps Foundation's sample writes it) as none. */
export const textCell = (expression: string) =>
  `NULLIF(NULLIF(TRIM(CAST(${expression} AS VARCHAR)), ''), 'NULL')`;

/**
 * The grid series' columns the periods' query reads, NULL where lines were evaluated without a
 * series (the report's lines, the filter's): a select list.
 */
export const NO_GRID_SERIES = [
  "billing_grid_first_second",
  "billing_grid_steps",
  "billing_grid_step_seconds",
  "billing_grid_first_knot",
]
  .map((column) => `CAST(NULL AS DOUBLE) AS ${column}`)
  .join(", ");

/** The format's columns the report's dimensions read (their names and ids, not a map's keys), first the service's. */
export function dimensionColumns(input: BillingFormatName): string[] {
  return (["service", "region", "account"] as const).flatMap((dimension) => {
    const { name, id = [] } = BILLING_FORMATS[input].dimensions[dimension];
    return [...name, ...id].filter((source): source is string => typeof source === "string");
  });
}

/** The lines a run wrote, as the report reads them back. */
export interface WrittenLines extends WrittenFile {
  /** The export's columns as the run wrote them (the file's own, before the run's). */
  readonly header: readonly string[];
  /** The file's names the run wrote otherwise (`billing_currency` as input_billing_currency): the file's, the run's. */
  readonly renamed: ReadonlyMap<string, string>;
  readonly input: BillingFormatName;
  /** Every criterion the run wrote, in its order. */
  readonly criteria: readonly ReportCriterion[];
}

/**
 * A region cell as the run reads it: a spelling of no region (the registry's: the FinOps
 * Foundation's sample writes `NULL`) is none, as the line was placed at the default place, keyed as
 * sql/classify/billing_classified.sql keys a line's region.
 */
function regionCell(cell: string): string {
  const key = `LOWER(REPLACE(REPLACE(REPLACE(${cell}, ' ', ''), '-', ''), '_', ''))`;
  const none = [...new Set(NO_REGION_SPELLINGS.map(spellingKey))].map(literal).join(", ");
  return `CASE WHEN ${key} IN (${none}) THEN NULL ELSE ${cell} END`;
}

/** A source's cell as text, or null where the written file lacks it. */
function cellOf(
  written: WrittenLines,
  source: DimensionSource,
  textColumns: ReadonlySet<string>,
): string | null {
  const format = BILLING_FORMATS[written.input];
  const { header, runName } = filedColumns(written.header, written.renamed);
  const fileColumn = (name: string) => {
    const found = headerColumn(format, name, header);
    return found === null ? null : `CAST(${identifier(runName(found))} AS VARCHAR)`;
  };
  if (typeof source === "string") return fileColumn(source);
  const cell = "column" in source ? fileColumn(source.column) : mapCell(written, source, textColumns);
  if (cell === null || source.sameAs === undefined) return cell;
  const [a, b] = source.sameAs.map(fileColumn);
  return a === null || b === null ? null : `CASE WHEN ${a} = ${b} THEN ${cell} END`;
}

/** A map's key as text, from Parquet's MAP or its JSON text as CSV writes it; null where the file lacks the map. */
function mapCell(
  written: WrittenLines,
  source: { readonly map: string; readonly key: string },
  textColumns: ReadonlySet<string>,
): string | null {
  const { header, runName } = filedColumns(written.header, written.renamed);
  const found = headerColumn(BILLING_FORMATS[written.input], source.map, header);
  if (found === null) return null;
  const column = runName(found);
  const key = literal(source.key);
  return textColumns.has(column)
    ? `TRY(json_extract_string(${identifier(column)}, ${literal(`$."${source.key}"`)}))`
    : `TRY(CAST(element_at(${identifier(column)}, ${key})[1] AS VARCHAR))`;
}

/** The first non-empty cell of the sources the file has, or NULL. */
export function firstCell(
  written: WrittenLines,
  sources: readonly DimensionSource[],
  textColumns: ReadonlySet<string>,
  region = false,
): string {
  const cells = sources
    .map((source) => cellOf(written, source, textColumns))
    .filter((cell) => cell !== null)
    // An empty cell and the text `NULL` (the FinOps Foundation's sample writes it for none) are none
    .map((cell) => `NULLIF(NULLIF(TRIM(${cell}), ''), 'NULL')`)
    .map((cell) => (region ? regionCell(cell) : cell));
  if (cells.length === 0) return "CAST(NULL AS VARCHAR)";
  return cells.length === 1 ? cells[0] : `COALESCE(${cells.join(", ")})`;
}

/** The source of the written lines, as DuckDB reads them. */
export const sourceOf = writtenSource;

/** The names of the text columns of the written lines (a map is text in CSV). */
async function textColumnsOf(connection: DuckDBConnection, written: WrittenFile): Promise<Set<string>> {
  const reader = await connection.runAndReadAll(`DESCRIBE SELECT * FROM ${sourceOf(written)}`);
  return new Set(
    reader
      .getRowObjects()
      .filter((row) => String(row.column_type) === "VARCHAR")
      .map((row) => String(row.column_name)),
  );
}

const number = (column: string) => `COALESCE(TRY_CAST(${identifier(column)} AS DOUBLE), 0)`;

/** The dimensions' columns of the evaluated lines the report reads, in order. */
const DIMENSION_COLUMNS = ["method", "service", "service_id", "region", "account", "resource", "resource_id"];

/** The order of the bill's dates of slashes, read from its written lines (sql/evaluate/billing_date_order.sql). */
export const DATE_ORDER = "report_date_order";

/** The evaluated lines as the report reads them (withReportLines). */
const REPORT_LINES = "report_lines";

/**
 * Lines at most whose report's lines are kept in a table (withReportLines); past it, in a Parquet
 * file of the run's scratch folder. A kept line takes about 715 bytes of DuckDB's memory (26
 * columns, a wide CUR 2.0's): 50,000 lines of the page's widest bill took its command from 418 to
 * 461 MB peak RSS with the table, 200,000 lines from 493 to 590 MB, past the page's runs' 512 MiB
 * (src/service/fileEvaluation.ts).
 */
const KEPT_REPORT_LINES = 50_000;

/** The written lines described once for the readers of their periods (withDescribedLines). */
export interface DescribedLines extends Omit<WrittenLines, "criteria"> {
  /** The written file's text columns (a map is text in CSV). */
  readonly text: ReadonlySet<string>;
  /** How many lines the file holds. */
  readonly count: number;
  /**
   * The run's folder of temporary files, where a large bill's report's lines may be written
   * (withReportLines); null: nowhere, each read of them reads the written lines.
   */
  readonly scratch: string | null;
}

/** Described lines with every criterion the run wrote, as the report reads them. */
export type ReportedLines = DescribedLines & Pick<WrittenLines, "criteria">;

/**
 * `use` on the written lines described once for every reader of their periods (the report's
 * lines, each month's coverage): their text columns, and the order of their dates of slashes
 * (DATE_ORDER, sql/evaluate/billing_date_order.sql), kept while `use` runs. Each is a pass over
 * the written file (about 0.2 and 0.7 s on the page's widest bill): made once, not once per reader.
 */
export async function withDescribedLines<T>(
  connection: DuckDBConnection,
  written: Omit<DescribedLines, "text">,
  use: (described: DescribedLines) => Promise<T>,
): Promise<T> {
  const text = await textColumnsOf(connection, written);
  await connection.run(
    `CREATE OR REPLACE TEMP TABLE ${DATE_ORDER} AS WITH ${writtenLineViews(written)} ${sqlQuery("evaluate/billing_date_order.sql")}`,
  );
  try {
    return await use({ ...written, text });
  } finally {
    await connection.run(`DROP TABLE IF EXISTS ${DATE_ORDER}`);
  }
}

/**
 * The evaluated lines of the written file as the report reads them, a query handed to `use`:
 * their dimensions, measureColumns, `extra`'s columns (the facts' cells,
 * src/billing/report/facts.ts) and their period in seconds (`period_start`, `period_end`, NULL
 * where it does not read), by the format's own queries (its lines, then its usage with
 * billing_paid_cost) over the written file, the file's columns read under the queries' names;
 * each line's period read by sql/evaluate/billing_periods.sql (the dates of slashes in the order
 * the lines' own say: withDescribedLines' DATE_ORDER).
 * The query's rows are kept for `use`'s reads, in the lines' order: the report reads them five
 * times, and each read of the query reads the written lines and binds the format's queries again
 * (about 40 to 70 KB of SQL: 12 to 30 ms each on a small bill; 50,000 lines of a wide CUR 2.0 with
 * a report, 17.2 against 12.6 CPU s). In a table (REPORT_LINES) where the file holds
 * KEPT_REPORT_LINES at most; a larger bill's in a Parquet file of the run's scratch folder, written
 * on one thread, so that nothing the size of the bill is held in memory, where its disk has room
 * (reportLinesFolder), else read from the written lines at each read.
 */
export async function withReportLines<T>(
  connection: DuckDBConnection,
  written: ReportedLines,
  extra: readonly { readonly name: string; readonly expression: string }[],
  use: (lines: string) => Promise<T>,
): Promise<T> {
  const views = writtenLineViews(written);
  const evaluated = evaluatedLines(written, written.text, extra);
  const columns = [
    ...DIMENSION_COLUMNS,
    ...measureColumns(written.criteria.length),
    ...extra.map((c) => c.name),
  ];
  const lines = `WITH ${views}, billing_evaluated AS (${evaluated}), billing_date_order AS (SELECT * FROM ${DATE_ORDER})
       SELECT ${columns.map(identifier).join(", ")},
         CASE WHEN billing_period_end_second > billing_period_start_second THEN billing_period_start_second END AS period_start,
         CASE WHEN billing_period_end_second > billing_period_start_second THEN billing_period_end_second END AS period_end
       FROM (${sqlQuery("evaluate/billing_periods.sql")})`;
  if (written.count > KEPT_REPORT_LINES) {
    // Every column but the dimensions is a number, and so are the two periods
    const folder = reportLinesFolder(written, columns.length - DIMENSION_COLUMNS.length + 2);
    if (folder === null) return use(lines);
    const file = join(folder, "report-lines.parquet");
    return withParquetFile(connection, lines, file, () =>
      use(`SELECT * FROM read_parquet(${literal(file)})`),
    );
  }
  try {
    await connection.run(`CREATE OR REPLACE TEMP TABLE ${REPORT_LINES} AS ${lines}`);
    return await use(`SELECT * FROM ${REPORT_LINES}`);
  } finally {
    await connection.run(`DROP TABLE IF EXISTS ${REPORT_LINES}`);
  }
}

/**
 * The folder a large bill's report's lines are written to: the run's scratch folder where its disk
 * has room for them besides SPARE_BYTES, else null (each of the report's reads then reads the
 * written lines again, slower, writing nothing). Their file's size is taken as the written lines'
 * own (the copy's where the run made one: the text cells the report's dimensions are read from)
 * and eight bytes for each of their `numbers` on each line, above every file measured: 74 MB for
 * 200,000 lines of the widest CUR 2.0 whose file took 9.1 MB, 32 MB for 120,000 daily FOCUS
 * lines (4.9 MB), 16 MB for 80,000 Azure lines (3.9 MB).
 */
export function reportLinesFolder(
  written: Pick<DescribedLines, "file" | "copy" | "count" | "scratch">,
  numbers: number,
  free: (folder: string) => number = freeBytes,
): string | null {
  if (written.scratch === null) return null;
  const bytes = statSync(written.copy ?? written.file).size + written.count * numbers * 8;
  return hasSpaceFor(written.scratch, bytes, free) ? written.scratch : null;
}

/**
 * The views the format's own queries make of the written lines, a WITH list: billing_export (the
 * written columns, and the file's under the queries' names), billing_lines and billing_usage (with
 * billing_paid_cost, the coverage's cost). Every written column is kept.
 */
export function writtenLineViews(written: Omit<WrittenLines, "criteria">): string {
  const format = BILLING_FORMATS[written.input];
  const { header, runName } = filedColumns(written.header, written.renamed);
  const added = exportAddedColumns(format, header, "CAST(NULL AS VARCHAR)", (column) =>
    identifier(runName(column)),
  );
  return `billing_export AS (SELECT *, ${added} FROM ${sourceOf(written)}),
       billing_lines AS (${sqlQuery(linesQueryOf(format))}),
       billing_usage AS (${sqlQuery(usageQueryOf(format))})`;
}

/** A written line's cost as the coverage and the report read it: billing_paid_cost where positive, else 0. */
export const PAID_COST = "CASE WHEN billing_paid_cost > 0 THEN billing_paid_cost ELSE 0 END";

/**
 * The evaluated lines of the view billing_usage as the periods' query reads them (its
 * billing_evaluated): each line's dimensions, measures, `extra` columns and period texts; `which`:
 * the lines taken (every line, for each month's coverage).
 */
export function evaluatedLines(
  written: WrittenLines,
  text: ReadonlySet<string>,
  extra: readonly { readonly name: string; readonly expression: string }[],
  which = "status = 'evaluated'",
): string {
  // A dimension's name, else its id: a CUR 2.0 without the product map names a service by its code.
  const dimension = (name: Dimension) => {
    const { name: names, id = [] } = BILLING_FORMATS[written.input].dimensions[name];
    return firstCell(written, [...names, ...id], text, name === "region");
  };
  const idOf = (name: Dimension) => {
    const sources = BILLING_FORMATS[written.input].dimensions[name].id;
    return sources === undefined ? dimension(name) : firstCell(written, sources, text);
  };
  const impacts = written.criteria.flatMap(({ name, unit }, index) =>
    (["embedded", "use"] as const).map(
      (phase) => `${number(impactColumn(name, unit, phase, "value"))} AS ${impactOf(index, phase)}`,
    ),
  );
  const kept = extra.map((column) => `${column.expression} AS ${identifier(column.name)}`);
  return `SELECT method, ${dimension("service")} AS service, ${idOf("service")} AS service_id,
       ${dimension("region")} AS region, ${dimension("account")} AS account,
       ${dimension("resource")} AS resource, ${idOf("resource")} AS resource_id,
       ${PAID_COST} AS cost,
       ${number("energy_kwh")} AS energy, ${[...impacts, ...kept].join(", ")},
       billing_period_start_text, billing_period_end_text, billing_period_end_days, ${NO_GRID_SERIES}
     FROM billing_usage WHERE ${which}`;
}
