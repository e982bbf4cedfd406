/*
 * The one table of what differs between the engines the billing SQL runs on: type names, the cast
 * that answers NULL for what does not read, how a decimal literal is read as a double, how a text
 * and a name are quoted, what REGEXP_EXTRACT's third argument means, and how a step becomes
 * statements. The queries of sql/ are written once, canonical (DuckDB's spelling of the dialect
 * these engines share), and rendered for each engine from this table (render.ts); nothing else
 * spells an engine's SQL.
 *
 * Sources, each engine's reference: Spark SQL ("Data Types", "Literals": `1.0` is a DECIMAL,
 * `1.0E0` a DOUBLE; a text literal reads backslash escapes, and `'a''b'` is two literals joined,
 * `ab`; VARCHAR needs a length, STRING does not; `try_cast` since 3.2; temporary views per
 * session), Trino ("Data types": since 428 a decimal literal is a DECIMAL, so `1.0 / 60` is
 * `0.0`; `1.0E0` is a DOUBLE; `regexp_extract(string, pattern, group)`), BigQuery ("Lexical
 * structure": quoted texts take backslash escapes and no doubled quote, names are quoted with
 * backticks; "Data types": STRING, FLOAT64, INT64, BOOL; `SAFE_CAST`; `REGEXP_EXTRACT(value,
 * regexp[, position[, occurrence]])` returns the one capturing group and reads a third argument as a
 * position; temporary tables live in a multi-statement query), DuckDB (the project's own engine).
 */

export const ENGINE_NAMES = ["duckdb", "spark", "trino", "bigquery"] as const;
export type EngineName = (typeof ENGINE_NAMES)[number];

/** The type names sql/ writes in CAST and TRY_CAST. */
export const CANONICAL_TYPES = ["VARCHAR", "DOUBLE", "INTEGER", "BIGINT", "BOOLEAN"] as const;
export type CanonicalType = (typeof CANONICAL_TYPES)[number];

/**
 * How a script's steps become statements: `views`, each view step a view of the session and each
 * table step a statement; `with`, the view steps gathered as the WITH list of each table step
 * (no view is stored: Trino's and BigQuery's views live in a catalog or dataset, not a session).
 */
export type StepShape = "views" | "with";

export interface Dialect {
  readonly name: EngineName;
  readonly title: string;
  readonly types: Readonly<Record<CanonicalType, string>>;
  /** The cast that answers NULL for a value that does not read (sql/ writes TRY_CAST). */
  readonly safeCast: string;
  /** A decimal literal of sql/ (`1.0`, `1.769`) as the engine reads a double. */
  readonly double: (digits: string) => string;
  /** A text as a literal. */
  readonly text: (value: string) => string;
  /** A column or table name, quoted. */
  readonly quoted: (name: string) => string;
  /** Whether REGEXP_EXTRACT takes the group (`, 1`) as its third argument (BigQuery: a position). */
  readonly regexpGroup: boolean;
  readonly shape: StepShape;
  /**
   * How billing_result comes in line_id's order, where the recipe numbers the lines in the file's
   * order (DuckDB's row numbers, Spark's monotonically_increasing_id): `sorted`, every line sorted
   * by line_id; `positional`, only the columns the script computes are sorted, then set beside the
   * export's own lines read in their order (DuckDB's POSITIONAL JOIN: a sort of all 70 columns of
   * a real-width export held 2.0 times the command's memory, bench/README.md). `none`: Trino's and
   * BigQuery's recipes give each line an identity (a UUID: numbering a bill in one order is a
   * window over all of it, on one worker), and a table there has no order: it is read
   * `ORDER BY line_id` if at all.
   */
  readonly order: "sorted" | "positional" | "none";
  /**
   * Whether each line's classification (billing_classified) is stored once, narrow (line_id and the
   * columns the later steps read), for the lookup table and the lines both to read: DuckDB. Its
   * views are queries run again wherever read, so the export's lines were parsed and classified
   * once for the lookup table and again for the lines (bench/README.md); Spark caches the lookup
   * table instead, and Trino's and BigQuery's WITH lists are planned once per statement.
   */
  readonly classifiedOnce: boolean;
  /**
   * Whether a table of literal rows (the registry's, in the keys script) is one VALUES list: on
   * Spark each SELECT of a UNION ALL is a partition of its own (the registry's rows as hundreds of
   * tasks); BigQuery has no VALUES list, and reads the UNION ALL.
   */
  readonly valuesLists: boolean;
  /** The statements of a view step (`views` shape). */
  readonly view: (name: string, query: string) => string[];
  /** The statements of a table a later step reads (the lookup table). */
  readonly table: (name: string, query: string) => string[];
  /** The statements of a script's result, a stored table. */
  readonly result: (name: string, query: string) => string[];
}

/** `'…'` with a quote doubled: standard SQL (DuckDB, Trino). */
const doubledQuote = (value: string) => `'${value.replaceAll("'", "''")}'`;
/** `'…'` with a backslash before a quote or a backslash (Spark SQL, BigQuery). */
const backslashed = (value: string) => `'${value.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
/** A double read from the decimal's digits with an exponent: every engine reads `1.0E0` as a double. */
const withExponent = (digits: string) => `${digits}E0`;

const doubleQuotedName = (name: string) => `"${name.replaceAll('"', '""')}"`;
const replaced =
  (kind: string, using = "") =>
  (name: string, query: string) => [`CREATE OR REPLACE ${kind} ${name}${using} AS\n${query}`];
const droppedThenCreated = (using: string) => (name: string, query: string) => [
  `DROP TABLE IF EXISTS ${name}`,
  `CREATE TABLE ${name}${using} AS\n${query}`,
];

export const DIALECTS: Readonly<Record<EngineName, Dialect>> = {
  duckdb: {
    name: "duckdb",
    title: "DuckDB",
    types: { VARCHAR: "VARCHAR", DOUBLE: "DOUBLE", INTEGER: "INTEGER", BIGINT: "BIGINT", BOOLEAN: "BOOLEAN" },
    safeCast: "TRY_CAST",
    // DuckDB divides decimals into a double: the canonical spelling, as the command runs it.
    double: (digits) => digits,
    text: doubledQuote,
    quoted: doubleQuotedName,
    regexpGroup: true,
    shape: "views",
    order: "positional",
    classifiedOnce: true,
    valuesLists: true,
    view: replaced("VIEW"),
    table: replaced("TABLE"),
    // A view: on one machine the lines are read once, to a file (COPY billing_result TO …); stored
    // as a table they were written whole, then sorted again by the copy (bench/README.md)
    result: replaced("VIEW"),
  },
  spark: {
    name: "spark",
    title: "Spark SQL (Databricks, EMR)",
    types: { VARCHAR: "STRING", DOUBLE: "DOUBLE", INTEGER: "INT", BIGINT: "BIGINT", BOOLEAN: "BOOLEAN" },
    safeCast: "TRY_CAST",
    double: withExponent,
    text: backslashed,
    quoted: (name) => `\`${name.replaceAll("`", "``")}\``,
    regexpGroup: true,
    shape: "views",
    order: "sorted",
    classifiedOnce: false,
    valuesLists: true,
    view: replaced("TEMPORARY VIEW"),
    // A session's cached view: no table written to the warehouse for the lookup table.
    table: (name, query) => [...replaced("TEMPORARY VIEW")(name, query), `CACHE TABLE ${name}`],
    // Parquet: a plain Spark catalog takes it (CREATE OR REPLACE TABLE needs a v2 catalog, Delta).
    result: droppedThenCreated(" USING parquet"),
  },
  trino: {
    name: "trino",
    title: "Trino (Athena)",
    types: { VARCHAR: "VARCHAR", DOUBLE: "DOUBLE", INTEGER: "INTEGER", BIGINT: "BIGINT", BOOLEAN: "BOOLEAN" },
    safeCast: "TRY_CAST",
    double: withExponent,
    text: doubledQuote,
    quoted: doubleQuotedName,
    regexpGroup: true,
    shape: "with",
    order: "none",
    classifiedOnce: false,
    valuesLists: true,
    view: () => [],
    table: droppedThenCreated(""),
    result: droppedThenCreated(""),
  },
  bigquery: {
    name: "bigquery",
    title: "BigQuery",
    types: { VARCHAR: "STRING", DOUBLE: "FLOAT64", INTEGER: "INT64", BIGINT: "INT64", BOOLEAN: "BOOL" },
    safeCast: "SAFE_CAST",
    double: withExponent,
    text: backslashed,
    quoted: (name) => `\`${name.replaceAll("\\", "\\\\").replaceAll("`", "\\`")}\``,
    regexpGroup: false,
    shape: "with",
    order: "none",
    classifiedOnce: false,
    valuesLists: false,
    view: () => [],
    // A temporary table of the multi-statement query: nothing left in the dataset but the result.
    table: (name, query) => [`CREATE TEMP TABLE ${name} AS\n${query}`],
    result: replaced("TABLE"),
  },
};

/**
 * Spark's dialect storing billing_result as a Delta table (`sql --engine spark --delta`): Unity
 * Catalog's managed tables are Delta only (Databricks, "Unity Catalog managed tables"), and Delta
 * replaces a table in one statement.
 */
export const SPARK_DELTA: Dialect = {
  ...DIALECTS.spark,
  title: "Spark SQL (Databricks, EMR), stored as Delta",
  result: replaced("TABLE", " USING delta"),
};

export function isEngineName(name: string): name is EngineName {
  return (ENGINE_NAMES as readonly string[]).includes(name);
}
