/*
 * The write stage of a billing run: every line with its impacts to a temporary file, renamed to the
 * output once complete; with a grid series, how the lines fared; the sums per group read back from
 * the lines (writeLines); the small tables (--tables, writePortableTables) and
 * the report's data, read by the reader the run's entry hands in (src/billing/report/reportData.ts:
 * the stages import nothing of the report, which reads them).
 */

import { mkdirSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { DuckDBConnection } from "@duckdb/node-api";
import { onOneThread, runOnOneThread, SUMS_MEMORY_LIMIT, withParquetFile } from "../../duckdb/database.js";
import { exactSumParts, finishedSums } from "../../duckdb/exactSum.js";
import { FileReadError } from "../../duckdb/readErrors.js";
import { identifier, literal } from "../../duckdb/sqlText.js";
import type { GridRun } from "../../grid/billLines.js";
import { createGridViews, GRID_TABLES } from "../../grid/billLines.js";
import type { BillReportData } from "../../output/billReport.js";
import { FORMULA_FIRST_CHARACTERS, NUMBER } from "../../output/csv.js";
import type { ReportCriterion } from "../../output/reportParts/model.js";
import type { EditionContext } from "../../service/open.js";
import { freeBytes, hasSpaceFor } from "../../support/boundedCopy.js";
import { removedUnlessKept } from "../../support/outputFile.js";
import { BILL_GRID_QUERIES, gridSourceColumn, impactsQuery, withQueries } from "../queries.js";
import { billName } from "../reading/layout.js";
import { REGISTRY_TABLES } from "../registry/sqlTables.js";
import { CSV_NUMBER_FORMAT, type WrittenFile, writtenSource } from "../writtenFile.js";
import type { EvaluatedBill } from "./evaluate.js";
import {
  costedSource,
  type FilteredSums,
  type FilteredUsage,
  filteredSource,
  filteredSums,
  filteredUsages,
} from "./filters.js";
import { SMALL_TABLE_COLUMNS } from "./lookUp.js";
import {
  type BillPeriod,
  billPeriod,
  coveredMonths,
  type MonthCoverage,
  monthCoverage,
} from "./monthCoverage.js";
import type { FilterColumn, GroupColumn } from "./read.js";
import { addedColumns, type WrittenColumns } from "./read.js";
import type { BillingRequest, BillRun } from "./request.js";
import { type DescribedLines, type WrittenLines, withDescribedLines } from "./writtenLines.js";

/** What the write stage tells besides the files: how the lines fared with the series, the report's data, the filter's sums. */
export interface WrittenRun {
  readonly grid: GridRun | null;
  readonly report: BillReportData | null;
  /** The sums of the lines --filter keeps (src/billing/stages/filters.ts); null without. */
  readonly filtered: FilteredSums | null;
  /** The instance usages of the lines --filter keeps, for the what-if; null without a filter or a what-if. */
  readonly filteredUsages: FilteredUsage[] | null;
  /** Each month's coverage of a bill of several files or with a report, where its lines span two months or more. */
  readonly months: MonthCoverage[] | null;
  /** The bill's period, its lines' first start and last end in seconds (UTC), where read (a report, several files). */
  readonly period: BillPeriod | null;
}

/**
 * Reads the report's data back from the written lines by every criterion the run wrote, before
 * they are renamed into place (writtenReportData, src/billing/report/reportData.ts).
 */
export type ReportReader = (
  connection: DuckDBConnection,
  lines: DescribedLines,
  criteria: readonly ReportCriterion[],
) => Promise<BillReportData>;

/** What the write stage hands on: the bill evaluated, and what its writing made (the series' pass, the report's data). */
export interface WrittenBill extends EvaluatedBill {
  readonly written: WrittenRun;
}

/**
 * The write stage: the lines (as many as the kinds counted, else the file changed while it was
 * read), the series' pass, the groups, the small tables and the report's data; the output renamed
 * once all are written. A failure leaves no partial file behind.
 */
export async function writeOutputs(
  run: BillRun,
  evaluated: EvaluatedBill,
  readReport: ReportReader,
): Promise<WrittenBill> {
  const { connection, request, terms } = run;
  const { read, groups, lookedUp, located } = evaluated;
  const { impactColumnNames } = terms;
  const temporary = partialOf(request.output);
  // A CSV is gzipped as it is written where its output's name asks so (`lines.csv.gz`: the page's runs)
  const target = { file: temporary, format: request.format, gzip: /\.gz$/i.test(request.output) };
  // Removed should the process end before they are complete (a second signal, its time after one)
  const kept = [request.output, request.groupsOutput]
    .filter((file) => file !== null)
    .map((file) => removedUnlessKept(partialOf(file)));
  try {
    const lines = groups.reduce((sum, group) => sum + group.lines, 0);
    const grid = lookedUp.grid;
    const written = await writeLines(connection, read.columns, impactColumnNames, located, {
      ...target,
      grid: grid !== null,
    });
    if (written !== lines) {
      throw new FileReadError(
        `${billName(read.parts)}: ${written} lines written of the ${lines} read before: the file changed while it was read; nothing written`,
      );
    }
    const folder = readsMonths(request, read.parts.length) ? run.scratch : null;
    const back = await withReadCopy(connection, target, folder, async (source) => {
      const gridRun = (await grid?.run({ ...source, detailed: request.report === true })) ?? null;
      return {
        grid: gridRun,
        ...(await readBack(run, evaluated, { ...source, count: written }, gridRun, readReport)),
      };
    });
    renameSync(temporary, request.output);
    return { ...evaluated, written: back };
  } catch (error) {
    rmSync(temporary, { force: true });
    if (request.groupsOutput !== null) rmSync(partialOf(request.groupsOutput), { force: true });
    throw error;
  } finally {
    for (const keep of kept) keep();
  }
}

/**
 * Whether the report's data and each month's coverage are read back from the written lines: a
 * report, or a bill of several files (whose lines may span several months).
 */
const readsMonths = (request: BillingRequest, parts: number) => parts >= 2 || request.report === true;

/**
 * The copy's CSV reader's buffer, small: DuckDB's reader holds 32 MiB buffers. On 200,000 lines of
 * a 100-column CUR 2.0, a read alone peaked at 207 MB resident with its default, 141 MB with this
 * (the copy's row groups: withParquetFile's).
 */
const COPY_READ_BUFFER = 8 * 1024 * 1024;

/**
 * `use` on the written lines (`target`), read from a Parquet copy of a CSV's cells made in `folder`
 * (null: none) where its disk has room, removed after. A run makes one where it reads its CSV back
 * several times (readsMonths: the report's data alone reads it a dozen times): each read of the
 * CSV parses every line again, 0.9 to 1.0 CPU s on 200,000 lines of a 100-column CUR 2.0
 * gzipped, where the copy took 3 s once and each read of it 13 to 31 ms (bench/README.md, "The
 * written lines read back from a copy").
 */
export async function withReadCopy<T>(
  connection: DuckDBConnection,
  target: WrittenFile,
  folder: string | null,
  use: (source: WrittenFile) => Promise<T>,
  free: (folder: string) => number = freeBytes,
): Promise<T> {
  if (folder === null || target.format !== "csv") return use(target);
  // The copy is smaller than the CSV it copies (11.9 MB against 22 MB of gzipped CSV at 200,000
  // wide lines): where the disk has not the CSV's size to spare besides SPARE_BYTES, the lines are
  // read from the CSV as they are, on one thread: two threads reading a CSV past the reader's one
  // buffer ran out of the report's 300 MB on the facts' candidates of a tagged bill (20,000 lines of
  // the FinOps Foundation's sample: some 170 JSON reads a line), where one thread or the copy did not.
  if (!hasSpaceFor(folder, statSync(target.file).size, free))
    return onOneThread(connection, () => use(target));
  const copy = join(folder, "written-lines.parquet");
  return withParquetFile(connection, `SELECT * FROM ${writtenSource(target, COPY_READ_BUFFER)}`, copy, () =>
    use({ ...target, copy }),
  );
}

/**
 * What the write stage reads back from the written lines (`target`, still its `.partial`): the sums
 * per group, the filter's sums, the small tables, the report's data (`readReport`) and each
 * month's coverage.
 */
async function readBack(
  run: BillRun,
  evaluated: EvaluatedBill,
  target: WrittenFile & { readonly count: number },
  gridRun: GridRun | null,
  readReport: ReportReader,
): Promise<Omit<WrittenRun, "grid">> {
  const { connection, request, terms } = run;
  const { read } = evaluated;
  const { impactColumnNames } = terms;
  // The sums read back from the lines, held to less memory than the lines' writing (DuckDB spills)
  await connection.run(`SET memory_limit = ${literal(SUMS_MEMORY_LIMIT)}`);
  const lineColumns = {
    ...target,
    header: read.columns.names,
    renamed: read.views.renamed,
    input: read.format.name,
    scratch: run.scratch,
  };
  await writeGroupSums(
    connection,
    target,
    request.groupsOutput,
    read.groupColumns,
    impactColumnNames,
    lineColumns,
    read.filterColumns,
  );
  const filtered =
    read.filterColumns.length === 0
      ? null
      : await filteredSums(connection, { ...target, ...lineColumns }, read.filterColumns, impactColumnNames);
  await writePortableTables(connection, request.tablesFolder, gridRun !== null, terms.context);
  const { report, every } = await reportAndMonths(run, read.parts.length, lineColumns, readReport);
  // The what-if (the report's, --what-if's) ranks the filter's usages
  const whatIf = request.whatIf === true || request.report === true;
  const usages =
    read.filterColumns.length === 0 || !whatIf
      ? null
      : await filteredUsages(connection, { ...target, ...lineColumns }, read.filterColumns);
  return {
    report,
    filtered,
    filteredUsages: usages,
    months: every === null ? null : coveredMonths(every),
    period: every === null ? null : billPeriod(every),
  };
}

/**
 * The report's data (with a report) and each month's coverage, the written lines described once
 * for both. Months are read where a bill can span several (several parts, a report), not for a
 * plain bill.
 */
async function reportAndMonths(
  { connection, request, terms }: BillRun,
  parts: number,
  lines: Omit<DescribedLines, "text">,
  readReport: ReportReader,
): Promise<{ report: BillReportData | null; every: MonthCoverage[] | null }> {
  if (!readsMonths(request, parts)) return { report: null, every: null };
  return withDescribedLines(connection, lines, async (described) => ({
    report:
      request.report === true
        ? await readReport(
            connection,
            described,
            terms.criteria.map(({ info }) => ({ name: info.name, unit: info.unit })),
          )
        : null,
    every: await monthCoverage(connection, described),
  }));
}

/**
 * The sums per group of the written lines (`written`, the evaluated ones), read back from them into
 * `groupsOutput` (its `.partial` first); nothing without a group column. `costed`: the run's lines
 * as the format's queries read them back, for each group's cost (the coverage's and the report's,
 * billing_paid_cost) and energy (`energy_kwh`) beside its hours and impacts, as the report's tables
 * show them.
 */
export async function writeGroupSums(
  connection: DuckDBConnection,
  written: WrittenFile,
  groupsOutput: string | null,
  groupColumns: readonly GroupColumn[],
  impactColumnNames: readonly string[],
  costed: Omit<WrittenLines, "criteria" | keyof WrittenFile> | null = null,
  filters: readonly FilterColumn[] = [],
): Promise<void> {
  if (groupsOutput === null || groupColumns.length === 0) return;
  const source =
    costed === null
      ? filteredSource(written, filters)
      : costedSource({ ...written, ...costed }, [...groupColumns, ...filters], filters);
  // Summed exactly (src/duckdb/exactSum.ts): a group's sums whatever the threads' split of its lines
  const summed =
    costed === null ? ["hours", ...impactColumnNames] : ["cost", "hours", "energy_kwh", ...impactColumnNames];
  const read = (column: string) => (column === "cost" ? "billing_group_cost" : identifier(column));
  const parts = summed.map((column) => exactSumParts(`TRY_CAST(${read(column)} AS DOUBLE)`, column));
  const shown = (column: string) =>
    written.format === "csv"
      ? `printf('${CSV_NUMBER_FORMAT}', ${identifier(column)}) AS ${identifier(column)}`
      : identifier(column);
  const groups = groupColumns.map((group) => `${group.expression} AS ${identifier(group.name)}`).join(", ");
  const names = groupColumns.map((group) => identifier(group.name)).join(", ");
  const sums = finishedSums(
    `SELECT ${groups}, COUNT(*) AS lines, ${parts.join(", ")}
     FROM ${source} WHERE status = 'evaluated' GROUP BY ALL`,
    summed,
  );
  const temporary = partialOf(groupsOutput);
  await connection.run(
    `COPY (SELECT ${names}, lines, ${summed.map(shown).join(", ")} FROM (${sums}) ORDER BY ALL)
     TO ${literal(temporary)} ${copyOptions(written.format)}`,
  );
  renameSync(temporary, groupsOutput);
}

/*
 * The writing pass: every line of the export with its impacts (sql/evaluate/billing_located.sql through
 * DuckDB's lookup, then sql/evaluate/billing_impacts.sql), the file's columns first, written as CSV or
 * Parquet.
 */

export type OutputFormat = "csv" | "parquet";

/**
 * A text column as CSV writes it for a spreadsheet: a cell a spreadsheet would run as a formula
 * (`=`, `+`, `-`, `@`, tab or carriage return first, and not a number) gets a leading `'`, as
 * src/output/csv.ts writes an inventory's (OWASP, "CSV Injection": a cost export's tags are
 * anyone's text).
 */
const FORMULA_FIRST_CODES = FORMULA_FIRST_CHARACTERS.map((character) => character.charCodeAt(0));

/**
 * The character every formula-first character sorts below: a cell that is not below it cannot
 * start a formula. Texts compare byte by byte, a comparison of the first bytes for most cells.
 */
const ABOVE_FORMULA_FIRST = literal(String.fromCharCode(Math.max(...FORMULA_FIRST_CODES) + 1));

function formulaSafe(column: string, source = column): string {
  const cell = identifier(source);
  // A comparison first, then the first character's code point, then the regular expression, each
  // on the cells the one before kept: the code point of every cell of 56 columns took 0.7 of the
  // lines' 11 CPU s (1,000,000 lines; bench/README.md, "Billing at a real width: where the
  // command's time goes"). Not `IN (…)`: DuckDB rewrites each IN list into a join whose build
  // every thread holds, and a 20-line Azure export of 55 text columns ran out of 667 MB so.
  return `CASE WHEN ${cell} < ${ABOVE_FORMULA_FIRST}
      AND list_contains([${FORMULA_FIRST_CODES.join(", ")}], ascii(${cell}))
      AND NOT regexp_matches(${cell}, ${literal(NUMBER.source)})
    THEN '''' || ${cell} ELSE ${cell} END AS ${identifier(column)}`;
}

/** Where a file is written until complete: beside it, renamed in place once whole. */
export function partialOf(file: string): string {
  return `${file}.partial`;
}

/** The column of the lines an output column is written from (with a grid series, its gwp use and warnings). */
export function sourceColumn(column: string, impactColumnNames: readonly string[], grid: boolean): string {
  return grid ? gridSourceColumn(column, impactColumnNames) : column;
}

/**
 * The output's columns: the file's, then what the billing adds (numbers as text without float
 * noise in CSV; text cells formula-safe in CSV; maps, structs and lists as JSON in CSV). The text
 * columns are known without planning the lines' query to describe it (30–50 ms of a small bill's
 * run): the file's read as text (`input.text`: the stages carry its columns as read) and the
 * run's own text columns (VARCHAR in sql/evaluate/billing_impacts.sql; with a series,
 * sql/evaluate/billing_grid.sql's warnings).
 */
function outputSelect(
  input: WrittenColumns,
  impactColumnNames: readonly string[],
  csv: boolean,
  grid: boolean,
): string {
  const source = (column: string) => sourceColumn(column, impactColumnNames, grid);
  const named = (column: string) =>
    source(column) === column ? identifier(column) : `${identifier(source(column))} AS ${identifier(column)}`;
  const number = (column: string) =>
    csv
      ? `printf('${CSV_NUMBER_FORMAT}', ${identifier(source(column))}) AS ${identifier(column)}`
      : named(column);
  const text = (column: string) => (csv ? formulaSafe(column, source(column)) : named(column));
  const own = (column: string) =>
    csv && input.nested.has(column)
      ? `CAST(to_json(${identifier(column)}) AS VARCHAR) AS ${identifier(column)}`
      : input.text.has(column)
        ? text(column)
        : named(column);
  const added = addedColumns(impactColumnNames, grid).map((column) =>
    column.kind === "number"
      ? number(column.name)
      : column.kind === "text"
        ? text(column.name)
        : named(column.name),
  );
  return [...input.names.map(own), ...added].join(", ");
}

/**
 * Lines of a written Parquet row group: the writer holds a row group until it is complete, and
 * DuckDB's 122,880 took a 10,000,000-line run of a 56-column export to 1.10 GB against 941 MB
 * (42.2 against 39.7–40.8 s; bench/README.md, "A real width").
 */
const PARQUET_ROW_GROUP = 30_720;

export function copyOptions(format: OutputFormat, gzip = false): string {
  if (format === "csv")
    return gzip ? "(FORMAT csv, HEADER true, COMPRESSION gzip)" : "(FORMAT csv, HEADER true)";
  return `(FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE ${PARQUET_ROW_GROUP})`;
}

interface LinesTarget extends WrittenFile {
  /** With a grid series: its gwp use, warnings and intensity (src/grid/billLines.ts). */
  readonly grid?: boolean;
}

/**
 * Writes the lines of billing_located (`located`, its query: evaluateKinds) with their impacts, in
 * their order. Returns the number of lines written. billing_located is read in the statements
 * (withQueries), a view only for a series' views, which read it again after (src/grid/billLines.ts).
 */
export async function writeLines(
  connection: DuckDBConnection,
  input: WrittenColumns,
  impactColumnNames: readonly string[],
  located: string,
  target: LinesTarget,
): Promise<number> {
  const grid = target.grid === true;
  if (grid) await connection.run(`CREATE OR REPLACE VIEW billing_located AS ${located}`);
  const impacts = impactsQuery(impactColumnNames);
  const lines = grid
    ? await createGridViews(connection, impacts, impactColumnNames, BILL_GRID_QUERIES)
    : withQueries([["billing_located", located]], impacts);
  const csv = target.format === "csv";
  const result = await runOnOneThread(
    connection,
    `COPY (SELECT ${outputSelect(input, impactColumnNames, csv, grid)}
         FROM (${lines}) lines)
       TO ${literal(target.file)} ${copyOptions(target.format, target.gzip === true)}`,
  );
  return result.rowsChanged;
}

/*
 * The small tables a billing run builds besides the coefficient table, described once: their
 * columns and types, and the files `--tables` writes them to (the same SQL on another engine reads
 * each under its file's name: docs/billing.md, "Beyond one machine"). billing_places: the region
 * spellings of an edition and the places they stand for (with a warning where that is not the
 * region itself: src/billing/places.ts); instance_matches: each billed instance type and the
 * edition's type it matches; billing_energy: the energy behind each coefficient row's use impacts;
 * and the registry's tables (src/billing/registry/sqlTables.ts), as Parquet.
 */

/** The coefficient table's rows of the methods' keys, written as Parquet to append to the coefficient table. */
export const METHOD_COEFFICIENTS_FILE = "method_coefficients.parquet";

/** A file of the tables folder: its name, the table it holds and the query writing it. */
export interface SmallTableFile {
  readonly file: string;
  readonly table: string;
  readonly query: string;
  readonly parquet: boolean;
}

/**
 * The files `--tables` writes, in order; with a grid series the series' tables too. The small
 * tables are CSV, or Parquet (`parquet`: typed, NULL apart from an empty text whatever the reader);
 * the registry's and the coefficient rows are Parquet. `countryRows`: the coefficient table's rows
 * at a country too (an edition with regions, where a region it lacks is read at its country).
 */
export function smallTableFiles(grid: boolean, parquet = false, countryRows = false): SmallTableFile[] {
  const methodRows = `SELECT * FROM coefficients WHERE instance_type LIKE 'method:%'${
    countryRows ? " OR (region IS NULL AND usage_location IS NOT NULL)" : ""
  }`;
  return [
    ...Object.keys(SMALL_TABLE_COLUMNS).map((table) => ({
      file: `${table}.${parquet ? "parquet" : "csv"}`,
      table,
      query: `SELECT * FROM ${table}`,
      parquet,
    })),
    ...REGISTRY_TABLES.map(({ name }) => ({
      file: `${name}.parquet`,
      table: name,
      query: `SELECT * FROM ${name}`,
      parquet: true,
    })),
    { file: METHOD_COEFFICIENTS_FILE, table: "coefficients", query: methodRows, parquet: true },
    ...(grid
      ? GRID_TABLES.map(([file, table]) => ({ file, table, query: `SELECT * FROM ${table}`, parquet: true }))
      : []),
  ];
}

/** The files a run writes to a --tables folder (each written as its `.partial` first). */
export function portableTableFiles(folder: string, grid: boolean): string[] {
  return smallTableFiles(grid).map(({ file }) => join(folder, file));
}

/**
 * The small tables a run built, in `folder`, for the same SQL on another engine (docs/billing.md,
 * "Beyond one machine"): instance_matches, billing_places and billing_energy as CSV, and the
 * methods' rows of the coefficient table (method_coefficients.parquet: its shape and types, to
 * append to it).
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
    const kept = removedUnlessKept(partialOf(file));
    try {
      await connection.run(`COPY (${query} ORDER BY ALL) TO ${literal(partialOf(file))} ${options}`);
      renameSync(partialOf(file), file);
    } catch (error) {
      rmSync(partialOf(file), { force: true });
      throw error;
    } finally {
      kept();
    }
  }
}
