/*
 * The read stage of a billing run: the export's layout (read once, from its first bytes), the
 * relation DuckDB reads its lines from with its columns counted before the work they bound
 * (src/billing/reading/source.ts), those columns checked once — its format, the types read — and
 * named as the run writes them (src/billing/inputColumns.ts), and the columns the options name
 * (--instance-type-column, --group-by) found in it. Nothing after it reads the header again.
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { HEADER_BYTES } from "../../duckdb/csvHeader.js";
import { identifier, literal } from "../../duckdb/database.js";
import { InputFileError } from "../../duckdb/errors.js";
import { FileReadError, readFailing } from "../../duckdb/readErrors.js";
import { BillingInputError } from "../errors.js";
import type { BillingFormat } from "../formats.js";
import { exportColumns } from "../inputColumns.js";
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
  /** The files its lines are read from: the file, or the bill's parts in order. */
  readonly parts: readonly string[];
  readonly header: readonly string[];
  readonly columns: WrittenColumns;
  readonly format: BillingFormat;
  readonly views: LineSource;
  readonly tuple: LineTuple;
  readonly groupColumns: readonly GroupColumn[];
}

/** What the stage says itself, passed on as it is: its own refusals, the file's read failures. */
const said = (error: unknown) => error instanceof InputFileError || error instanceof FileReadError;

/**
 * The read stage: the layout, the relation and its columns (DuckDB's failures to read the file
 * said once, for all of it), the columns checked and named, the columns the options name.
 */
export async function readExport(
  connection: DuckDBConnection,
  request: BillingRequest,
  impactColumnNames: readonly string[],
): Promise<ReadExport> {
  const { layout } = request;
  if (layout === null) {
    throw new FileReadError(
      `${request.file}: line 1: no header (an empty file, not CSV, or a header longer than ${HEADER_BYTES} bytes); nothing written`,
    );
  }
  const parts = request.parts ?? [request.file];
  const { from, columns: described } = await readFailing(
    () => billSource(connection, parts, layout, request.input),
    parts,
    said,
  );
  const { header, format, columns, renamed } = exportColumns(
    request.file,
    described,
    request.input,
    impactColumnNames,
  );
  const { typeHintColumn, groupColumns } = optionColumns({ header, columns }, request);
  return {
    file: request.file,
    parts,
    header,
    columns,
    format,
    views: { from, header: columns.names, renamed, format, typeHintColumn },
    tuple: lineTuple(format, header, columns.names, typeHintColumn),
    groupColumns,
  };
}

/** The header as the file names it and its columns as the run names them. */
type NamedColumns = Pick<ReadExport, "header" | "columns">;

/** The column a requested name stands for, as the run names it (case does not matter), or an input error. */
function headerColumn(export_: NamedColumns, name: string, option: string): string {
  const index = export_.header.findIndex((column) => column.toLowerCase() === name.toLowerCase());
  if (index < 0) throw new BillingInputError(`${option}: the file has no column ${name}`);
  return export_.columns.names[index];
}

/** The columns --instance-type-column and --group-by name, as the run names them. */
function optionColumns(
  named: NamedColumns,
  request: BillingRequest,
): { typeHintColumn: string | null; groupColumns: GroupColumn[] } {
  return {
    typeHintColumn:
      request.instanceTypeColumn === null
        ? null
        : headerColumn(named, request.instanceTypeColumn, "--instance-type-column"),
    groupColumns: request.groupBy.map((name) => groupColumn(named, name, request.format)),
  };
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
