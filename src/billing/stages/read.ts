/*
 * The read stage of a billing run: the export's header read once and checked (its size, format and
 * the types read) before any line is, its columns named as the run writes them, and the columns
 * the options name (--instance-type-column, --group-by) found in it.
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { HEADER_BYTES } from "../../duckdb/csvHeader.js";
import { identifier, literal } from "../../duckdb/database.js";
import { FileReadError, readFailing } from "../../duckdb/readErrors.js";
import { BillingInputError } from "../errors.js";
import {
  BILLING_FORMATS,
  type BillingFormat,
  missingColumns,
  readAs,
  recognisedFormat,
  unrecognisedHeader,
} from "../formats.js";
import { checkColumnCount, checkColumnTypes, inputColumnNames } from "../inputColumns.js";
import { flatRecords } from "../nestedColumns.js";
import { type BillLayout, billLayout } from "../reading/layout.js";
import { billSource } from "../reading/source.js";
import { type LineTuple, lineTuple } from "../tuples.js";
import type { LineSource } from "../views.js";
import type { WrittenColumns } from "../writing.js";
import type { BillingRequest } from "./request.js";

/**
 * The export's header as the file names it, its columns as the run writes them, its format, the
 * views of its lines and their describing columns, and the columns --group-by names.
 */
export interface ReadExport {
  readonly file: string;
  readonly header: readonly string[];
  readonly columns: WrittenColumns;
  readonly format: BillingFormat;
  readonly views: LineSource;
  readonly tuple: LineTuple;
  readonly groupColumns: readonly GroupColumn[];
}

/**
 * The read stage: the header read and checked once (readHeader), its columns named as the run
 * writes them, the column --instance-type-column and --group-by name found in it. Nothing else
 * reads the header again.
 */
export async function readExport(
  connection: DuckDBConnection,
  request: BillingRequest,
  impactColumnNames: readonly string[],
): Promise<ReadExport> {
  const { columns, format, csvColumns, source, layout } = await readHeader(connection, request);
  const header = columns.map(([name]) => name);
  const names = inputColumnNames(header, impactColumnNames);
  const renamed = new Map(
    header.flatMap((name, index) => (names[index] === name ? [] : [[name, names[index]]])),
  );
  const nested = new Set(names.filter((_, index) => /^(MAP|STRUCT)\(|\[\]$/.test(columns[index][1])));
  const named = { header, columns: { names, nested } };
  const typeHintColumn =
    request.instanceTypeColumn === null
      ? null
      : headerColumn(named, request.instanceTypeColumn, "--instance-type-column");
  const views = {
    from:
      csvColumns === null ? source : await billSource(connection, request.file, layout, names, request.input),
    header: names,
    renamed: csvColumns === null ? renamed : new Map<string, string>(),
    format,
    typeHintColumn,
  };
  return {
    file: request.file,
    ...named,
    format,
    views,
    tuple: lineTuple(format, header, names, typeHintColumn),
    groupColumns: request.groupBy.map((name) => groupColumn(named, name, request.format)),
  };
}

/** The header as the file names it and its columns as the run names them. */
type NamedColumns = Pick<ReadExport, "header" | "columns">;

/** The columns of a query and their DuckDB types, in order. */
async function columnsOf(connection: DuckDBConnection, query: string): Promise<[string, string][]> {
  const reader = await connection.runAndReadAll(`DESCRIBE ${query}`);
  return reader.getRowObjects().map((row) => [String(row.column_name), String(row.column_type)]);
}

/**
 * What a Parquet file's footer tells before its columns are read: its columns (nested fields
 * included) and its largest row group's lines.
 */
async function parquetShape(
  connection: DuckDBConnection,
  file: string,
): Promise<{ columns: number; largestRowGroup: number }> {
  const schema = await connection.runAndReadAll(
    `SELECT COUNT(*) AS columns FROM parquet_schema(${literal(file)})`,
  );
  const metadata = await connection.runAndReadAll(
    `SELECT MAX(row_group_num_rows) AS largest FROM parquet_metadata(${literal(file)})`,
  );
  return {
    columns: Number(schema.getRowObjects()[0].columns) - 1,
    largestRowGroup: Number(metadata.getRowObjects()[0].largest ?? 0),
  };
}

/** The column a requested name stands for, as the run names it (case does not matter), or an input error. */
function headerColumn(export_: NamedColumns, name: string, option: string): string {
  const index = export_.header.findIndex((column) => column.toLowerCase() === name.toLowerCase());
  if (index < 0) throw new BillingInputError(`${option}: the file has no column ${name}`);
  return export_.columns.names[index];
}

/** A column of the groups' file: its name and how it reads from the written lines. */
export interface GroupColumn {
  readonly name: string;
  readonly expression: string;
}

/** The tag columns of the formats: FOCUS `Tags`, CUR `resource_tags`, Azure `Tags`. */
const TAG_COLUMNS = ["tags", "resource_tags"];

/**
 * A --group-by name: a column of the file, or `tag:<key>`, the key's value in the tag column
 * (JSON text; Azure's without braces; a map or struct as JSON; a CUR key also as `user_<key>`).
 */
function groupColumn(prepared: NamedColumns, name: string, output: "csv" | "parquet"): GroupColumn {
  if (!name.startsWith("tag:")) {
    const column = headerColumn(prepared, name, "--group-by");
    return { name: column, expression: identifier(column) };
  }
  const key = name.slice("tag:".length);
  const index = prepared.header.findIndex((column) => TAG_COLUMNS.includes(column.toLowerCase()));
  if (index < 0 || key === "") {
    throw new BillingInputError(
      `--group-by ${name}: the file has no Tags or resource_tags column, or no key`,
    );
  }
  const column = prepared.columns.names[index];
  // Read back from the output: CSV holds a map as its JSON text, Parquet as the map.
  const text =
    output === "parquet" && prepared.columns.nested.has(column)
      ? `CAST(to_json(${identifier(column)}) AS VARCHAR)`
      : `TRIM(CAST(${identifier(column)} AS VARCHAR))`;
  const json = `CASE WHEN LEFT(${text}, 1) = '{' THEN ${text} ELSE CONCAT('{', ${text}, '}') END`;
  const path = (tag: string) => literal(`$."${tag.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`);
  return {
    name,
    expression: `CASE WHEN json_valid(${json}) THEN COALESCE(json_extract_string(${json}, ${path(key)}), json_extract_string(${json}, ${path(`user_${key}`)})) END`,
  };
}

/**
 * Lines of a Parquet row group above which the run keeps to one thread. DuckDB's ordered writer
 * holds what each thread read of a row group until it is written: one row group of 3,000,000 lines
 * took 1.5 GB on two threads, 106 MB on one, in less time (8.5 against 9.6 s; bench/README.md).
 */
const ONE_THREAD_ROW_GROUP = 250_000;

/**
 * The relation the lines are read from and its columns: a Parquet export of records (BigQuery's)
 * read with their fields as columns (`flat`), when it is not a format's as it is.
 */
async function describedSource(
  connection: DuckDBConnection,
  bill: string,
  parquet: boolean,
): Promise<{ source: string; columns: [string, string][]; flat: boolean }> {
  const columns = await columnsOf(connection, `SELECT * FROM ${bill}`);
  if (!parquet || recognisedFormat(columns.map(([name]) => name)) !== null) {
    return { source: bill, columns, flat: false };
  }
  const source = await flatRecords(connection, bill, columns);
  if (source === null) return { source: bill, columns, flat: false };
  return { source, columns: await columnsOf(connection, `SELECT * FROM ${source}`), flat: true };
}

/** The export's header, read and checked before any line is: its size, format and the types read. */
async function readHeader(
  connection: DuckDBConnection,
  request: BillingRequest,
): Promise<{
  columns: [string, string][];
  format: BillingFormat;
  csvColumns: readonly string[] | null;
  /** Where a Parquet export's lines are read from (its records flat); a CSV's is named by the run. */
  source: string;
  layout: BillLayout;
}> {
  // The layout read once: the command line's, when it read it to choose this path.
  const layout = request.layout ?? billLayout(request.file);
  const parquet = layout?.kind === "parquet";
  const csvColumns = layout?.kind === "csv" ? layout.header : null;
  if (layout === null) {
    throw new FileReadError(
      `${request.file}: line 1: no header (an empty file, not CSV, or a header longer than ${HEADER_BYTES} bytes); nothing written`,
    );
  }
  // The file's own failures to read, said once (readFailing) for the footer and once for its columns.
  const shape = parquet
    ? await readFailing(() => parquetShape(connection, request.file), request.file)
    : null;
  // JSON's columns are counted as its records' fields are read (src/billing/reading/source.ts).
  checkColumnCount(request.file, csvColumns?.length ?? shape?.columns ?? 0);
  if (shape !== null && shape.largestRowGroup > ONE_THREAD_ROW_GROUP) await connection.run("SET threads = 1");
  const bill = await billSource(connection, request.file, layout, csvColumns, request.input);
  const { source, columns, flat } = await readFailing(
    () => describedSource(connection, bill, parquet),
    request.file,
  );
  if (flat) checkColumnCount(request.file, columns.length);
  const header = columns.map(([name]) => name);
  const recognised = request.input === null ? recognisedFormat(header) : BILLING_FORMATS[request.input];
  if (recognised === null || missingColumns(recognised, header).length > 0) {
    throw new BillingInputError(unrecognisedHeader(header, request.input));
  }
  checkColumnTypes(request.file, recognised, new Map(columns));
  const format = { ...recognised, title: readAs(recognised, header) };
  return { columns, format, csvColumns, source, layout };
}
