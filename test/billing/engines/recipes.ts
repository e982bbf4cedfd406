/**
 * The recipes of docs/billing.md ("Beyond one machine"), as the tests run them: each statement a
 * template whose places ({export}, {keys}, {tables}, {table}, {columns}…) the test fills with its
 * files, and docs/billing.md shows filled with the doc's example places (docs.test.ts in this
 * folder checks that every statement is there, word for word).
 */

export type Places = Readonly<Record<string, string>>;

/** A template with its places filled. */
export const filled = (template: string, places: Places): string =>
  template.replaceAll(/\{([a-z_]+)\}/g, (whole, name: string) => places[name] ?? whole);

export const SPARK = {
  /**
   * The export as it comes: CSV (its header, RFC 4180's doubled quotes) whose cells hold no line
   * break, each file split into tasks (Spark's default: 128 MB each), read by every core.
   */
  exportCsv:
    "CREATE OR REPLACE TEMPORARY VIEW bill USING csv OPTIONS (path '{export}', header 'true', escape '\"')",
  /** CSV whose cells may hold a line break: each file read whole by one task (multiLine cannot be split). */
  exportCsvMultiLine:
    "CREATE OR REPLACE TEMPORARY VIEW bill USING csv OPTIONS (path '{export}', header 'true', multiLine 'true', escape '\"')",
  exportParquet: "CREATE OR REPLACE TEMPORARY VIEW bill USING parquet OPTIONS (path '{export}')",
  /** Each line's number, in the file's order (increasing, not consecutive: one range per part of the file). */
  numbered:
    "CREATE OR REPLACE TEMPORARY VIEW billing_export AS SELECT *, monotonically_increasing_id() AS line_id FROM bill",
  /** keys.sql's result as one Parquet file (part-….parquet) for `impact-service tables --keys`. */
  keys: "INSERT OVERWRITE DIRECTORY '{keys}' USING parquet SELECT /*+ COALESCE(1) */ * FROM billing_line_kinds",
  coefficients:
    "CREATE OR REPLACE TEMPORARY VIEW coefficients AS SELECT * FROM parquet.`{coefficients}` UNION ALL SELECT * FROM parquet.`{tables}/method_coefficients.parquet`",
  /** Each other file of the tables folder, under its name. */
  table: "CREATE OR REPLACE TEMPORARY VIEW {table} AS SELECT * FROM parquet.`{tables}/{table}.parquet`",
  read: "SELECT * FROM billing_result ORDER BY line_id",
} as const;

export const SPARK_DOC_PLACES: Places = {
  export: "s3://bills/focus/2024-06/",
  keys: "s3://bills/impact/keys/",
  coefficients: "s3://bills/impact/coefficients.parquet",
  tables: "s3://bills/impact/tables",
  table: "instance_matches",
};

/**
 * Trino: the files read through a catalog of external tables ({files}: the Hive connector, or
 * Athena's Glue catalog), the script's session in a schema that writes ({work}; the script names
 * its tables unqualified).
 */
export const TRINO = {
  /** The export's folder as it comes: CSV (every column varchar, as Hive's CSV reader reads them). */
  exportCsv:
    "CREATE TABLE {files}.bill ({columns}) WITH (format = 'CSV', skip_header_line_count = 1, external_location = '{export}')",
  exportParquet:
    "CREATE TABLE {files}.bill ({columns}) WITH (format = 'PARQUET', external_location = '{export}')",
  /** Each line's identity: a UUID (a bill has no order on Trino; row_number() OVER () runs on one worker). */
  numbered:
    "CREATE OR REPLACE VIEW {work}.billing_export AS SELECT *, CAST(uuid() AS varchar) AS line_id FROM {files}.bill",
  /** keys.sql's result, saved as CSV (an empty cell NULL, "" an empty text) for `impact-service tables --keys`. */
  keys: "SELECT * FROM {work}.billing_line_kinds",
  /** Each file of the tables folder in a folder of its own; coefficients.parquet beside method_coefficients.parquet. */
  table: "CREATE TABLE {files}.{table} ({columns}) WITH (format = 'PARQUET', external_location = '{folder}')",
  /** Each table under its name in the script's schema. */
  named: "CREATE OR REPLACE VIEW {work}.{table} AS SELECT * FROM {files}.{table}",
  read: "SELECT * FROM {work}.billing_result ORDER BY line_id",
} as const;

export const TRINO_DOC_PLACES: Places = {
  files: "hive.bills",
  work: "hive.impact",
  export: "s3://bills/cur/2024-06/",
  columns: "…",
  table: "instance_matches",
  folder: "s3://bills/impact/instance_matches/",
};

/** BigQuery: the export's table as Cloud Billing writes it, each line given an identity. */
export const BIGQUERY = {
  /** A view: nothing copied; GENERATE_UUID per line (ROW_NUMBER() OVER () would number the whole bill on one worker). */
  numbered: "CREATE OR REPLACE VIEW billing_export AS SELECT *, GENERATE_UUID() AS line_id FROM {table}",
  read: "SELECT * FROM billing_result ORDER BY line_id",
} as const;

export const BIGQUERY_DOC_PLACES: Places = {
  table: "bills.gcp_billing_export_resource_v1_01A2B3_C4D5E6_F7A8B9",
};
