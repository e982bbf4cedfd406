/*
 * The read stage of a billing run: the export's layout (read once, from its first bytes), the
 * relation DuckDB reads its lines from with its columns counted before the work they bound
 * (src/billing/reading/exportScan.ts), those columns checked once — its format, the types read — and
 * named as the run writes them (exportColumns), and the columns the options name
 * (--instance-type-column, --group-by) found in it. Nothing after it reads the header again.
 */

import { statSync } from "node:fs";
import { FileReadError, type FilesRead } from "../../duckdb/readErrors.js";
import { identifier } from "../../duckdb/sqlText.js";
import { GRID_INTENSITY_COLUMN } from "../../grid/billLines.js";
import { keptInputNames } from "../../output/columns.js";
import { HEADER_BYTES } from "../../support/fileStart.js";
import { BillingInputError } from "../errors.js";
import {
  BILLING_FORMATS,
  type BillingFormat,
  type BillingFormatName,
  currencyColumns,
  type Dimension,
  headerColumn,
  type KnownFormat,
  keyedColumns,
  missingColumns,
  readAs,
  readColumns,
  recognisedFormat,
  unrecognisedHeader,
} from "../formats/knownFormats.js";
import { refuseOverlappingExports } from "../reading/exportPeriods.js";
import { billSource } from "../reading/exportScan.js";
import { hasTags, tagColumns, tagExpression, tagFormsText } from "../reading/tags.js";
import type { AskedFilter, BillingRequest, BillingTerms, BillRun } from "./request.js";

/**
 * The export's header as the file names it, its columns as the run writes them, its format, the
 * views of its lines and their describing columns, and the columns --group-by names.
 */
export interface ReadExport {
  readonly file: string;
  /** The files its lines are read from: the file, or the bill's parts in order. */
  readonly parts: readonly string[];
  readonly header: readonly string[];
  readonly columns: WrittenColumns;
  readonly format: KnownFormat;
  readonly views: LineSource;
  readonly tuple: LineTuple;
  readonly groupColumns: readonly GroupColumn[];
  /** The columns --filter names, each with its values (src/billing/stages/filters.ts). */
  readonly filterColumns: readonly FilterColumn[];
  /** What is said of its parts joined by their columns' names (src/billing/reading/joinedParts.ts). */
  readonly joinNotes: readonly string[];
}

/**
 * The files a run reads as DuckDB reads them, the connection's failures worded of them
 * (readingConnection): the bill's parts, their compression known from the layout.
 */
export function exportReading(request: BillingRequest): FilesRead {
  const { layout } = request;
  return {
    files: request.parts ?? [request.file],
    gzip: layout !== null && layout.kind !== "parquet" && layout.gzip,
  };
}

/**
 * A bill's files together, at most, whose run DuckDB runs on one thread: below it, the threads'
 * hand-offs cost more than the second core gives. Runs with a report, in process, two threads
 * against one, alternated twice (load 1-2): a 10 KB CUR 2.0, 821 and 864 against 705 and 732 ms
 * of CPU, 735 and 773 against 687 and 714 ms; a 275 KB FOCUS export, 1.95 and 1.99 against 1.72
 * and 1.85 s of CPU in the same time (1.71-1.75 against 1.60-1.74 s); a 240 KB gzipped wide CUR
 * 2.0, 2.49 against 2.35 s of CPU, 2.31 s both. Past it a second thread shortens the run: a 600 KB
 * gzipped one took 3-4 % longer on one thread, a 3 MB one 18 %.
 */
const ONE_THREAD_BYTES = 256 * 1024;

/**
 * One where the run reads regular files of ONE_THREAD_BYTES at most together, else null (DuckDB's
 * default, a thread per core). A file that is not a regular one (a pipe), or that cannot be
 * looked at, is not counted small.
 */
export function runThreads(reading: FilesRead): 1 | null {
  const files = typeof reading.files === "string" ? [reading.files] : reading.files;
  let bytes = 0;
  for (const file of files) {
    const found = fileSize(file);
    if (found === null) return null;
    bytes += found;
  }
  return bytes <= ONE_THREAD_BYTES ? 1 : null;
}

/** A regular file's size, else null. */
function fileSize(file: string): number | null {
  try {
    const found = statSync(file);
    return found.isFile() ? found.size : null;
  } catch {
    return null;
  }
}

/** What the read stage reads of the run: the connection, what was asked, the impact columns' names. */
export type ReadingRun = Pick<BillRun, "connection" | "request"> & {
  readonly terms: Pick<BillingTerms, "impactColumnNames">;
};

/**
 * The read stage: the layout, the relation and its columns, the columns checked and named, the
 * columns the options name. `connection` words DuckDB's failures to read the file
 * (readingConnection).
 */
export async function readExport(run: ReadingRun): Promise<ReadExport> {
  const { connection, request } = run;
  const { layout } = request;
  if (layout === null) {
    throw new FileReadError(
      `${request.file}: line 1: no header (an empty file, not CSV, or a header longer than ${HEADER_BYTES} bytes); nothing written`,
    );
  }
  const parts = request.parts ?? [request.file];
  const source = await billSource(connection, parts, layout, request.input, request.headers);
  const { from, columns: described } = source;
  const { header, format, columns, renamed } = exportColumns(
    request.file,
    described,
    request.input,
    run.terms.impactColumnNames,
  );
  await refuseOverlappingExports(connection, source.runs ?? [], format);
  const { typeHintColumn, groupColumns, filterColumns } = optionColumns({ header, columns, format }, request);
  return {
    file: request.file,
    parts,
    header,
    columns,
    format,
    views: { from, header: columns.names, renamed, format, typeHintColumn },
    tuple: withCurrency(
      lineTuple(format, header, columns.names, typeHintColumn),
      currencyColumns(format, columns.names, renamed),
    ),
    groupColumns,
    filterColumns,
    joinNotes: source.notes ?? [],
  };
}

/** The header as the file names it, its columns as the run names them, and its format (its dimensions). */
type NamedColumns = Pick<ReadExport, "header" | "columns"> & { readonly format?: BillingFormat };

/** The column a requested name stands for, as the run names it (case does not matter), or an input error. */
function namedColumn(export_: NamedColumns, name: string, option: string): string {
  const index = export_.header.findIndex((column) => column.toLowerCase() === name.toLowerCase());
  // The run's own `method`, where the file has none of that name (its own is read as the file names it)
  if (index < 0 && name === "method" && option !== "--instance-type-column") return name;
  if (index < 0) throw new BillingInputError(`${option}: the file has no column ${name}`);
  return export_.columns.names[index];
}

/** The columns --instance-type-column and --group-by name, as the run names them. */
function optionColumns(
  named: NamedColumns,
  request: BillingRequest,
): { typeHintColumn: string | null; groupColumns: GroupColumn[]; filterColumns: FilterColumn[] } {
  return {
    typeHintColumn:
      request.instanceTypeColumn === null
        ? null
        : namedColumn(named, request.instanceTypeColumn, "--instance-type-column"),
    groupColumns: request.groupBy.map((name) => groupColumn(named, name, request.format)),
    filterColumns: filtersByColumn(request.filters ?? []).map(({ column, values }) => ({
      column: groupColumn(named, column, request.format, "--filter"),
      values,
    })),
  };
}

/** A --filter's column found in the file (as --group-by finds one) and its values (src/billing/stages/filters.ts). */
export interface FilterColumn {
  readonly column: GroupColumn;
  readonly values: readonly string[];
}

/** The filters asked, one per column, its values in the order given. */
function filtersByColumn(asked: readonly AskedFilter[]): { column: string; values: string[] }[] {
  const byColumn = new Map<string, string[]>();
  for (const { column, value } of asked) {
    const values = byColumn.get(column) ?? [];
    if (!values.includes(value)) values.push(value);
    byColumn.set(column, values);
  }
  return [...byColumn].map(([column, values]) => ({ column, values }));
}

/** A column of the groups' file: its name and how it reads from the written lines. */
export interface GroupColumn {
  readonly name: string;
  readonly expression: string;
  /** Read from the lines' periods (`month`): the lines read with their period (src/billing/stages/filters.ts, linesRead). */
  readonly dated?: boolean;
  /** The file's column a plain name reads alone, by which the report's page opens its filter. */
  readonly opens?: string;
}

/** The column of the lines read with their period that holds each line's month (`2026-04`). */
export const LINE_MONTH_COLUMN = "billing_line_month";

/**
 * `month` where the file has no column of that name: the month (UTC, `YYYY-MM`) each line's period
 * starts, as the report's months and each month's coverage place it; none where its period does
 * not read.
 */
function monthColumn(prepared: NamedColumns, name: string): GroupColumn | null {
  if (name.toLowerCase() !== "month") return null;
  if (prepared.header.some((column) => column.toLowerCase() === "month")) return null;
  return { name: "month", expression: LINE_MONTH_COLUMN, dated: true };
}

/** The plain names --group-by and --filter take on every format, the report's dimensions. */
const DIMENSION_NAMES: readonly Dimension[] = ["account", "region", "service"];

/**
 * `account`, `region` or `service` where the file has no column of that name: the first non-empty
 * of the columns the format's report reads for it (FOCUS `ServiceName`, a CUR's product code or
 * name, Azure's `MeterCategory`, OCI's `product/service`…), as the report's tables name the rows.
 */
function dimensionColumn(prepared: NamedColumns, name: string): GroupColumn | null {
  const dimension = DIMENSION_NAMES.find((known) => known === name.toLowerCase());
  const { format } = prepared;
  if (dimension === undefined || format === undefined) return null;
  if (prepared.header.some((column) => column.toLowerCase() === dimension)) return null;
  const { name: names, id = [] } = format.dimensions[dimension];
  const read = [...names, ...id].flatMap((source) => {
    const column = typeof source === "string" ? source : "column" in source ? source.column : null;
    const found = column === null ? null : headerColumn(format, column, prepared.header);
    if (found === null) return [];
    const run = prepared.columns.names[prepared.header.indexOf(found)];
    return [{ found, cell: `NULLIF(NULLIF(TRIM(CAST(${identifier(run)} AS VARCHAR)), ''), 'NULL')` }];
  });
  const cells = [...new Set(read.map(({ cell }) => cell))];
  if (cells.length === 0) return null;
  return cells.length === 1
    ? { name: dimension, expression: cells[0], opens: read[0].found }
    : { name: dimension, expression: `COALESCE(${cells.join(", ")})` };
}

/**
 * A --group-by name: a column of the file, `account`, `region` or `service` (dimensionColumn),
 * `month` (monthColumn), or `tag:<key>`, the key's value in whichever of the
 * tag forms the file holds (src/billing/reading/tags.ts).
 */
function groupColumn(
  prepared: NamedColumns,
  name: string,
  output: "csv" | "parquet",
  option = "--group-by",
): GroupColumn {
  if (!name.startsWith("tag:")) {
    const dimension = dimensionColumn(prepared, name) ?? monthColumn(prepared, name);
    if (dimension !== null) return dimension;
    const column = namedColumn(prepared, name, option);
    return { name: column, expression: identifier(column) };
  }
  const key = name.slice("tag:".length);
  const nested = output === "parquet" ? prepared.columns.nested : new Set<string>();
  const tags = tagColumns(prepared.header, prepared.columns.names, nested);
  if (key === "") throw new BillingInputError(`${option} ${name}: no key after tag:`);
  if (!hasTags(tags)) {
    throw new BillingInputError(
      `${option} ${name}: the file has no tags (no Tags, resource_tags or labels column, no resourceTags/… or tags/… columns)`,
    );
  }
  const expression = tagExpression(tags, key);
  if (expression === null) {
    throw new BillingInputError(
      `${option} ${name}: the file has a column per tag, none for ${key} (${tagFormsText(tags)})`,
    );
  }
  return { name, expression };
}

/*
 * The export's own columns as a run reads and writes them. A column named like one the run adds
 * (`status`, `hours`, `method`, `energy_kwh`, an impact column, `matched_instance_type`,
 * `warnings`, a group's `lines`…) or like the SQL's working columns (`billing_…`, `key_…`, `…_per_hour`) is kept under the name
 * `input_<name>` (again prefixed while that name is taken): the run's columns keep their names and
 * values, and no working column can meet a column of the file. Names compare without case, as
 * SQL's do. The columns are checked here once, as DuckDB read them: the format's (the one asked
 * for, else the header's) and the types its query can read.
 */

/** Prefixes and suffixes of the SQL's working columns. */
const WORKING_PREFIXES = ["billing_", "key_"];
const WORKING_SUFFIX = "_per_hour";

const isWorking = (lower: string) =>
  WORKING_PREFIXES.some((prefix) => lower.startsWith(prefix)) || lower.endsWith(WORKING_SUFFIX);

/**
 * The name each column of the header is read and written as, in order (src/output/columns.ts,
 * keptInputNames): its own, or `input_<name>` when it would meet a column the run writes (after
 * the file's, the grid's intensity whether or not a series is given, and a group's `lines`), a
 * working column of its SQL, or an earlier column. `impactColumns`: the impact columns it writes.
 */
export function inputColumnNames(header: readonly string[], impactColumns: readonly string[]): string[] {
  return keptInputNames(
    header,
    [...addedColumns(impactColumns, true).map(({ name }) => name), GROUP_LINES_COLUMN],
    isWorking,
  );
}

const NUMBER_TYPES = /^(DOUBLE|FLOAT|REAL|DECIMAL.*|(U?(TINY|SMALL|BIG|HUGE)?INT(EGER)?))$/;
const DATE_TYPES = /^(DATE|TIMESTAMP(_S|_MS|_NS| WITH TIME ZONE)?)$/;

/**
 * Refuses a Parquet column the format's query reads whose type it cannot read: text, and a number
 * or text for the columns it reads as numbers (quantity, cost). `types`: each column's DuckDB type,
 * by name.
 */
function checkColumnTypes(file: string, format: BillingFormat, types: ReadonlyMap<string, string>): void {
  const read = [...format.required.flat(), ...format.optional];
  for (const [column, type] of types) {
    const lower = column.toLowerCase();
    if (!read.some((name) => name.toLowerCase() === lower) || type === "VARCHAR") continue;
    const number = format.numbers.some((name) => name.toLowerCase() === lower);
    if (number && NUMBER_TYPES.test(type)) continue;
    const date = format.dates.some((name) => name.toLowerCase() === lower);
    if (date && DATE_TYPES.test(type)) continue;
    const expected = number
      ? "a number or text (DOUBLE or VARCHAR)"
      : date
        ? "a date, a timestamp or text (DATE, TIMESTAMP or VARCHAR)"
        : "text (VARCHAR)";
    throw new BillingInputError(
      `${file}: column ${column} is ${type.length > 60 ? `${type.slice(0, 60)}…` : type}; ${format.title} reads it as ${expected}`,
    );
  }
}

/** The export's columns as the run reads them: its format, and each column's name and whether it is nested. */
export interface ExportColumns {
  /** The header as the file names it. */
  readonly header: readonly string[];
  readonly format: KnownFormat;
  /** Its columns as the run writes them. */
  readonly columns: WrittenColumns;
  /** The header's names the run writes otherwise: the file's name, the run's. */
  readonly renamed: ReadonlyMap<string, string>;
}

/** Whether a DuckDB type is nested: a map, a record or a list. */
const isNested = (type: string) => /^(MAP|STRUCT)\(|\[\]$/.test(type);

/**
 * The columns DuckDB read (`described`: each name and type, in order) checked and named: the
 * format `input` asks for or the header's, refused when the header lacks its columns or has a type
 * it cannot read; each column named as the run writes it (`impactColumns`: the impact columns it
 * writes).
 */
export function exportColumns(
  file: string,
  described: readonly (readonly [string, string])[],
  input: BillingFormatName | null,
  impactColumns: readonly string[],
): ExportColumns {
  const header = described.map(([name]) => name);
  const recognised = input === null ? recognisedFormat(header) : BILLING_FORMATS[input];
  if (recognised === null || missingColumns(recognised, header).length > 0) {
    throw new BillingInputError(unrecognisedHeader(header, input));
  }
  const format = { ...recognised, title: readAs(recognised, header) };
  checkColumnTypes(file, recognised, new Map(described));
  const names = inputColumnNames(header, impactColumns);
  const nested = new Set(names.filter((_, index) => isNested(described[index][1])));
  const text = new Set(names.filter((_, index) => described[index][1] === "VARCHAR"));
  const renamed = new Map(
    header.flatMap((name, index): [string, string][] =>
      names[index] === name ? [] : [[name, names[index]]],
    ),
  );
  return { header, format, columns: { names, nested, text }, renamed };
}

/** The column of a group's count of lines in the sums per group. */
export const GROUP_LINES_COLUMN = "lines";

/** The file's columns as written: their names, and those holding maps, structs or lists (JSON in CSV). */
export interface WrittenColumns {
  readonly names: readonly string[];
  readonly nested: ReadonlySet<string>;
  /**
   * Those read as text (VARCHAR): the stages carry every column of the file as it was read, so
   * they are the lines' text columns (made formula-safe in CSV).
   */
  readonly text: ReadonlySet<string>;
}

/** A column the run adds after the file's: how CSV writes it (a number, a text made formula-safe, as it is). */
export interface AddedColumn {
  readonly name: string;
  readonly kind: "number" | "text" | "plain";
}

/** The columns the run adds after the file's, in order (with a grid series, its intensity after energy_kwh). */
export function addedColumns(impactColumnNames: readonly string[], grid: boolean): AddedColumn[] {
  const number = (name: string) => ({ name, kind: "number" as const });
  return [
    { name: "matched_instance_type", kind: "text" },
    number("hours"),
    { name: "method", kind: "plain" },
    number("method_quantity"),
    { name: "method_unit", kind: "plain" },
    number("energy_kwh"),
    ...(grid ? [number(GRID_INTENSITY_COLUMN)] : []),
    ...impactColumnNames.map(number),
    { name: "status", kind: "text" },
    { name: "warnings", kind: "text" },
  ];
}

/** The export's describing columns, as the run names them, and its quantity and cost columns. */
export interface LineTuple {
  readonly columns: readonly string[];
  readonly quantity: string;
  /** The cost columns the file has (billed, then those of the cost paid for the hours). */
  readonly costs: readonly string[];
}

/**
 * The describing columns of an export: the columns of the format's query it has (and the column
 * of --instance-type-column), its quantity, cost and identities aside. `header`: the file's
 * names; `names`: the run's.
 */
export function lineTuple(
  format: BillingFormat,
  header: readonly string[],
  names: readonly string[],
  typeHintColumn: string | null,
): LineTuple {
  // A column read from a map's key (keyedColumns) is a describing column of its own name: the
  // tuples then carry the key, not the map
  const keyed = new Set(keyedColumns(format, header).map(([name]) => name));
  const named = (column: string) => {
    const spelled = headerColumn(format, column, header);
    if (spelled === null) return keyed.has(column) ? column : null;
    return names[header.indexOf(spelled)];
  };
  const [quantity, ...costNames] = format.numbers.map(named);
  const costs = costNames.flatMap((name) => name ?? []);
  const read = readColumns(format).flatMap((column) => named(column) ?? []);
  const perLine = new Set([quantity, ...costs, ...format.identities.map(named), ...format.dates.map(named)]);
  const columns = [...new Set([...read, ...(typeHintColumn === null ? [] : [typeHintColumn])])].filter(
    (column) => !perLine.has(column) || column === typeHintColumn,
  );
  if (quantity === null) throw new Error(`billing: ${format.name} has no quantity column`);
  return { columns, quantity, costs };
}

/**
 * A tuple that also tells the currency of its lines apart (the first pass then counts each
 * currency's lines, and a bill of several is refused: src/billing/stages/classify.ts). A bill
 * has one: its tuples are the same.
 */
function withCurrency(tuple: LineTuple, currencies: readonly string[]): LineTuple {
  return { ...tuple, columns: [...new Set([...tuple.columns, ...currencies])] };
}

/** Where a pass reads the export's lines from. */
export interface LineSource {
  /** A table expression (a table function, or a query in parentheses). */
  readonly from: string;
  /** Its columns as the run names them (exportColumns). */
  readonly header: readonly string[];
  /** Columns of `from` (named as the file names them) read under another name. */
  readonly renamed: ReadonlyMap<string, string>;
  readonly format: BillingFormat;
  /** The header's column holding Google Cloud lines' machine type (--instance-type-column). */
  readonly typeHintColumn: string | null;
  /**
   * Whether its quantities and costs were checked already (the first pass's sums of checked lines,
   * which may pass the bound that each line is held to).
   */
  readonly numbersChecked?: boolean;
}

/**
 * The text that tells a line's tuple apart (two tuples sharing it are checked for), over its
 * columns as the file has them (the tuples' classification reads an empty text as none, and carries
 * this key of the raw columns: src/billing/stages/classify.ts).
 */
export function tupleKey(tuple: LineTuple): string {
  return `CAST(hash(${tuple.columns.map(identifier).join(", ")}) AS VARCHAR)`;
}
