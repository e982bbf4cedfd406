/*
 * The relation DuckDB reads a billing export's lines from, as its layout says
 * (src/billing/reading/layout.ts), and its columns with their DuckDB types: a text with its
 * separator, past the lines above its header and with a decimal comma read so; Parquet, a file of
 * records (BigQuery's) with their fields as columns; newline-delimited JSON with its records'
 * fields as columns. Each layout's columns are counted before the work they bound: a text's header
 * before any line is read, a Parquet file's footer before its columns, JSON's fields as its records
 * are read.
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { sourceOf } from "../../duckdb/database.js";
import { fileLiteral, filesLiteral, identifier, literal } from "../../duckdb/sqlText.js";
import { DECIMAL_COMMA_PATTERN } from "../../support/numbers.js";
import { BillingInputError } from "../errors.js";
import {
  BILLING_FORMAT_NAMES,
  BILLING_FORMATS,
  type BillingFormatName,
  headerColumn,
  readColumns,
  recognisedFormat,
} from "../formats/knownFormats.js";
import {
  checkSameExport,
  joinedRelation,
  joinNotes,
  type PartColumns,
  type PartRun,
  partRuns,
  runRelation,
  textColumns,
} from "./joinedParts.js";
import { type BillLayout, type CsvLayout, PREAMBLE_BYTES, PREAMBLE_LINES, readNames } from "./layout.js";

/**
 * Columns a run reads at most. DuckDB holds a chunk of 2,048 lines of every column per operator
 * and thread: 10,000 columns × 3 lines ran out of memory after 9 s, 100,000 ran for minutes. Real
 * exports have 40–200 (FOCUS ~50, CUR 2.0 ~125, Azure ~70).
 */
const MAX_INPUT_COLUMNS = 500;

/** Refuses a header of more columns than a run reads, before the engine sees it. */
export function checkColumnCount(file: string, columns: number): void {
  if (columns > MAX_INPUT_COLUMNS) {
    throw new BillingInputError(
      `${file}: ${columns} columns; a billing export is read with ${MAX_INPUT_COLUMNS} columns at most`,
    );
  }
}

/** The relation an export's lines are read from, and its columns (as the file names them) with their DuckDB types. */
export interface BillSource {
  readonly from: string;
  readonly columns: [string, string][];
  /**
   * A bill's parts in runs of the same columns, each with its reader (a table function whose
   * `filename` names each line's part), and what is said of their columns joined (joinNotes).
   */
  readonly runs?: readonly (PartRun & { readonly reader: string })[];
  readonly notes?: readonly string[];
}

/** The columns of a query and their DuckDB types, in order. */
async function columnsOf(connection: DuckDBConnection, query: string): Promise<[string, string][]> {
  const reader = await connection.runAndReadAll(`DESCRIBE ${query}`);
  return reader.getRowObjects().map((row) => [String(row.column_name), String(row.column_type)]);
}

/** A relation and its columns. */
async function described(connection: DuckDBConnection, from: string): Promise<BillSource> {
  return { from, columns: await columnsOf(connection, `SELECT * FROM ${from}`) };
}

/** Whether a DuckDB type is a record's (a list of records is not). */
const isRecord = (type: string) => type.startsWith("STRUCT(") && !type.endsWith("]");

/**
 * The columns of a relation with its records one level flat, each record's own fields a column
 * named `record.field` as BigQuery's console names them in CSV (the names its format reads); lists
 * (labels, credits) whole. `asText`: JSON values read as their text.
 */
async function flatColumns(
  connection: DuckDBConnection,
  from: string,
  columns: readonly [string, string][],
  asText: boolean,
): Promise<string[]> {
  const typed = (expression: string, type: string, name: string) =>
    `${asText && type === "JSON" ? `CAST(${expression} AS VARCHAR)` : expression} AS ${identifier(name)}`;
  const selected: string[] = [];
  for (const [name, type] of columns) {
    if (!isRecord(type)) {
      selected.push(asText ? typed(identifier(name), type, name) : identifier(name));
      continue;
    }
    for (const [field, fieldType] of await columnsOf(
      connection,
      `SELECT ${identifier(name)}.* FROM ${from}`,
    )) {
      selected.push(typed(`${identifier(name)}.${identifier(field)}`, fieldType, `${name}.${field}`));
    }
  }
  return selected;
}

/**
 * Lines of a Parquet row group above which the run keeps to one thread. DuckDB's ordered writer
 * holds what each thread read of a row group until it is written: one row group of 3,000,000 lines
 * took 1.5 GB on two threads, 106 MB on one, in less time (8.5 against 9.6 s; bench/README.md).
 */
const ONE_THREAD_ROW_GROUP = 250_000;

/**
 * A Parquet export (its parts, when it comes in several): the first part's footer read first (its
 * columns, nested fields included), every part's largest row group, then each part's columns (one
 * schema pass); the parts read in runs of the same columns joined by name (joinedRuns), records
 * read flat when the bill is not a format's as it is.
 */
async function parquetSource(
  connection: DuckDBConnection,
  parts: readonly string[],
  input: BillingFormatName | null,
): Promise<BillSource> {
  const [file] = parts;
  const schema = await connection.runAndReadAll(
    `SELECT COUNT(*) AS columns FROM parquet_schema(${fileLiteral(file)})`,
  );
  checkColumnCount(file, Number(schema.getRowObjects()[0].columns) - 1);
  const metadata = await connection.runAndReadAll(
    `SELECT MAX(row_group_num_rows) AS largest FROM parquet_metadata(${filesLiteral(parts)})`,
  );
  if (Number(metadata.getRowObjects()[0].largest ?? 0) > ONE_THREAD_ROW_GROUP) {
    await connection.run("SET threads = 1");
  }
  // One schema pass: each part's columns, from its footer, the parts then read in runs of the same columns
  const columns: PartColumns[] = [];
  for (const part of parts) {
    const own = await columnsOf(connection, `SELECT * FROM ${sourceOf(part, null)}`);
    checkColumnCount(part, own.length);
    columns.push(own);
  }
  const runs = partRuns(parts, columns);
  const joined = joinedRuns(runs, (run) => sourceOf(run.parts, null), input);
  const bill = await described(connection, joined.from);
  const records = bill.columns.some(([, type]) => isRecord(type));
  if (!records || recognisedFormat(bill.columns.map(([name]) => name)) !== null)
    return { ...joined, ...bill };
  const flat = await flatColumns(connection, bill.from, bill.columns, false);
  return { ...joined, ...(await described(connection, `(SELECT ${flat.join(", ")} FROM ${bill.from})`)) };
}

/**
 * The runs of a bill's parts joined by name (src/billing/reading/joinedParts.ts), each read by
 * `reader`: refused when a run is not the same export as the first, its changes of columns said.
 */
function joinedRuns(
  runs: readonly PartRun[],
  reader: (run: PartRun) => string,
  input: BillingFormatName | null,
  relation: (run: PartRun, read: string) => string = (_, read) => read,
): Required<Pick<BillSource, "runs" | "notes">> & { from: string } {
  checkSameExport(runs, input === null ? null : BILLING_FORMATS[input]);
  const text = textColumns(runs);
  const read = runs.map((run) => ({ ...run, reader: reader(run) }));
  return {
    from: joinedRelation(read.map((run) => runRelation(run, relation(run, run.reader), text))),
    runs: read,
    notes: joinNotes(runs),
  };
}

/**
 * Newline-delimited JSON as a relation of its records' fields (flatColumns), a field null in every
 * record (JSON to DuckDB) as text. The types are read from every record (`sample_size = -1`): over
 * a sample, a quantity of whole numbers then `0.5` was read as 0 (DuckDB 1.5), and a field first
 * met past it refused the file. Its fields are counted once found, and again once records are flat.
 */
async function jsonSource(
  connection: DuckDBConnection,
  parts: readonly string[],
  gzip: boolean,
): Promise<BillSource> {
  const [file] = parts;
  // Parts joined by their fields' names, as other kinds' are (src/billing/reading/joinedParts.ts)
  const byName = parts.length > 1 ? ", union_by_name = true" : "";
  const options = `format = 'newline_delimited', records = true, compression = '${gzip ? "gzip" : "uncompressed"}'${byName}`;
  const columns = await columnsOf(
    connection,
    `SELECT * FROM read_json(${filesLiteral(parts)}, ${options}, sample_size = -1)`,
  );
  checkColumnCount(file, columns.length);
  // The types found named, so that the passes after read the file without detecting them again.
  const read = `read_json(${filesLiteral(parts)}, ${options}, columns = {${columns.map(([name, type]) => `${literal(name)}: ${literal(type)}`).join(", ")}})`;
  const flat = [...(await flatColumns(connection, read, columns, true)), ...nullRecordFields(columns)];
  checkColumnCount(file, flat.length);
  return described(connection, `(SELECT ${flat.join(", ")} FROM ${read})`);
}

/**
 * The fields a format reads of a record null in every line (DuckDB types it JSON, without fields:
 * BigQuery writes `"location": null` for a SKU without a place), each an empty column named as
 * the record's flattened fields are (`location.region`): every line is then read with it empty —
 * a line without a region is placed by default and named so — rather than the file refused for
 * lacking the column.
 */
function nullRecordFields(columns: readonly [string, string][]): string[] {
  const read = new Set(BILLING_FORMAT_NAMES.flatMap((name) => readColumns(BILLING_FORMATS[name])));
  return columns.flatMap(([name, type]) => {
    if (type !== "JSON") return [];
    const prefix = `${name.toLowerCase()}_`;
    return [...read]
      .filter((column) => column.startsWith(prefix))
      .map((column) => `NULL::VARCHAR AS ${identifier(`${name}.${column.slice(prefix.length)}`)}`);
  });
}

/**
 * A number cell written with a decimal comma as the text SQL casts (`1.234,56` → `1234.56`); an
 * empty cell as it is; a cell that is no such number `NaN`, which the checks of every quantity and
 * cost make a bad row (src/billing/stages/classify.ts), rather than a number read otherwise (`12.5`, 125 or
 * 12.5, is neither).
 */
function decimalCommaRead(column: string): string {
  const cell = `TRIM(${identifier(column)})`;
  return `CASE WHEN ${cell} IS NULL OR ${cell} = '' THEN ${identifier(column)}
      WHEN regexp_full_match(${cell}, ${literal(DECIMAL_COMMA_PATTERN)}) THEN replace(replace(${cell}, '.', ''), ',', '.')
      ELSE 'NaN' END AS ${identifier(column)}`;
}

/**
 * A text export's relation, its header counted first: read with its separator, past the lines
 * above its header (a header found below those a billing export may have is refused), and with a
 * decimal comma the numbers the format reads (quantity, costs) read as SQL reads numbers. Parts
 * of other headers (`headers`: each part's, the first's for all when absent) are read in runs of
 * the same header, joined by name. `input`: the format asked for.
 */
async function csvSource(
  connection: DuckDBConnection,
  parts: readonly string[],
  layout: CsvLayout,
  input: BillingFormatName | null,
  headers: readonly (readonly string[])[] | undefined,
): Promise<BillSource> {
  const [file] = parts;
  if (layout.skipped >= PREAMBLE_LINES) {
    throw new BillingInputError(
      `${file}: line ${layout.skipped + 1} is a billing export's header, below the ${PREAMBLE_LINES} lines (${PREAMBLE_BYTES / 1024} KiB) read above a header; remove the lines above it`,
    );
  }
  const columns = parts.map((part, index): PartColumns => {
    const header = headers?.[index] ?? layout.header;
    checkColumnCount(part, header.length);
    return readNames(header).map((name) => [name, "VARCHAR"]);
  });
  const runs = partRuns(parts, columns);
  const names = (run: PartRun) => run.columns.map(([name]) => name);
  const reader = (run: PartRun) => sourceOf(run.parts, names(run), layout);
  const decimal = (run: PartRun, read: string) => decimalCommaSource(read, names(run), layout, input);
  const joined = runs.length === 1 ? null : joinedRuns(runs, reader, input, decimal);
  const from = joined?.from ?? decimal(runs[0], reader(runs[0]));
  return {
    ...(joined ?? { runs: [{ ...runs[0], reader: reader(runs[0]) }] }),
    ...(await described(connection, from)),
  };
}

/** A text's reader with the numbers the format reads written with a decimal comma read as SQL reads numbers. */
function decimalCommaSource(
  read: string,
  names: readonly string[],
  layout: CsvLayout,
  input: BillingFormatName | null,
): string {
  if (layout.decimalMark === ".") return read;
  const format = input === null ? recognisedFormat(names) : BILLING_FORMATS[input];
  const numbers = format?.numbers.flatMap((name) => headerColumn(format, name, names) ?? []) ?? [];
  if (numbers.length === 0) return read;
  return `(SELECT * REPLACE (${[...new Set(numbers)].map(decimalCommaRead).join(", ")}) FROM ${read})`;
}

/**
 * The relation a billing export's lines are read from, as its layout says, and its columns. `parts`:
 * the file, or the parts of one bill in their order, each of the first's layout (a text's header
 * and how it is cut, checked by the caller: src/billing/reading/layout.ts; Parquet's columns here).
 */
export function billSource(
  connection: DuckDBConnection,
  parts: readonly string[],
  layout: BillLayout,
  input: BillingFormatName | null,
  headers?: readonly (readonly string[])[],
): Promise<BillSource> {
  const build = RELATIONS[layout.kind] as RelationBuilder<typeof layout>;
  return build(connection, parts, layout, input, headers);
}

/**
 * How a layout's relation is built: its connection, the parts, the layout, the format asked for,
 * each part's header (a text's; the first's for all when absent).
 */
type RelationBuilder<L extends BillLayout> = (
  connection: DuckDBConnection,
  parts: readonly string[],
  layout: L,
  input: BillingFormatName | null,
  headers: readonly (readonly string[])[] | undefined,
) => Promise<BillSource>;

/** Each kind of layout's relation builder, one entry a kind (a new kind fails to compile without one). */
const RELATIONS: { readonly [K in BillLayout["kind"]]: RelationBuilder<Extract<BillLayout, { kind: K }>> } = {
  csv: (connection, parts, layout, input, headers) => csvSource(connection, parts, layout, input, headers),
  json: (connection, parts, layout) => jsonSource(connection, parts, layout.gzip),
  parquet: (connection, parts, _layout, input) => parquetSource(connection, parts, input),
};
