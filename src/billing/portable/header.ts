/*
 * The export's columns as a script reads them (`impact-service sql --header`): a flat header, or a
 * nested one, where a column is a record of named fields as Google's billing export holds
 * `service`, `sku`, `location`, `usage` in BigQuery (cloud.google.com/billing/docs/how-to/
 * export-data-bigquery-tables, "standard usage cost data" and "detailed usage cost data": RECORD
 * columns, REPEATED ones for labels and credits). A nested header comes from a Parquet file's
 * columns (BigQuery's export to Parquet) or from the table's schema as `bq show --schema
 * --format=prettyjson` prints it. Its records' own fields are read one level flat, as `evaluate`
 * reads them (src/billing/reading/exportScan.ts): `service.description` is the format's column, read
 * on the engine as the field `e.service.description` of the record the table holds; lists (labels,
 * credits) stay whole.
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { identifier } from "../../duckdb/sqlText.js";

export interface ExportHeader {
  /** The export's columns as the engine's table names them, records whole. */
  readonly columns: readonly string[];
  /** Each record (a column of named fields, not a list of them) and its fields, in order. */
  readonly records: ReadonlyMap<string, readonly string[]>;
}

/** A header of plain columns. */
export const flatExportHeader = (columns: readonly string[]): ExportHeader => ({
  columns,
  records: new Map(),
});

/** The header as a format reads it: each record's fields as columns `record.field`, in place. */
export function formatHeader(header: ExportHeader): string[] {
  return header.columns.flatMap(
    (column) => header.records.get(column)?.map((field) => `${column}.${field}`) ?? [column],
  );
}

/**
 * How the export's query reads a column of the format's header (canonical SQL, the export `e`):
 * a record's field as the field of the record, any other column by its name.
 */
export function columnReader(header: ExportHeader): (column: string) => string {
  const fields = new Map<string, string>();
  for (const [record, names] of header.records) {
    for (const field of names)
      fields.set(`${record}.${field}`, `e.${identifier(record)}.${identifier(field)}`);
  }
  return (column) => fields.get(column) ?? `e.${identifier(column)}`;
}

/** A field of BigQuery's JSON schema, as `bq show --schema --format=prettyjson` prints it. */
interface SchemaField {
  readonly name: string;
  readonly type: string;
  readonly mode?: string;
  readonly fields?: readonly SchemaField[];
}

function isSchemaField(value: unknown): value is SchemaField {
  if (value === null || typeof value !== "object") return false;
  const field = value as Record<string, unknown>;
  return (
    typeof field.name === "string" &&
    typeof field.type === "string" &&
    (field.mode === undefined || typeof field.mode === "string") &&
    (field.fields === undefined || (Array.isArray(field.fields) && field.fields.every(isSchemaField)))
  );
}

/**
 * A BigQuery table's schema (JSON: a list of fields, or `{"fields": [...]}` as `bq show
 * --format=prettyjson` prints a table) as a header; null when the text is not one.
 */
export function bigQuerySchemaHeader(text: string): ExportHeader | null {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    return null;
  }
  const fields =
    document !== null && typeof document === "object" && !Array.isArray(document)
      ? ((document as { schema?: { fields?: unknown }; fields?: unknown }).schema?.fields ??
        (document as { fields?: unknown }).fields)
      : document;
  if (!Array.isArray(fields) || fields.length === 0 || !fields.every(isSchemaField)) return null;
  const records = new Map<string, string[]>();
  for (const field of fields) {
    const record = field.type === "RECORD" || field.type === "STRUCT";
    if (record && field.mode !== "REPEATED")
      records.set(
        field.name,
        (field.fields ?? []).map(({ name }) => name),
      );
  }
  return { columns: fields.map(({ name }) => name), records };
}

/** Whether a DuckDB type is a record's (a list of records is not). */
const isRecord = (type: string) => type.startsWith("STRUCT(") && !type.endsWith("]");

/** The header of a relation DuckDB reads (a Parquet file's), its records' fields read from DuckDB. */
export async function relationHeader(connection: DuckDBConnection, relation: string): Promise<ExportHeader> {
  const describe = async (query: string) =>
    (await connection.runAndReadAll(`DESCRIBE ${query}`))
      .getRowObjects()
      .map((row) => [String(row.column_name), String(row.column_type)] as const);
  const columns = await describe(`SELECT * FROM ${relation}`);
  const records = new Map<string, string[]>();
  for (const [name, type] of columns) {
    if (!isRecord(type)) continue;
    const fields = await describe(`SELECT ${identifier(name)}.* FROM ${relation}`);
    records.set(
      name,
      fields.map(([field]) => field),
    );
  }
  return { columns: columns.map(([name]) => name), records };
}
