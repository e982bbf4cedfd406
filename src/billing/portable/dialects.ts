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
   * a real-width export held 2.0 times the command's memory, bench/README.md). `none`: the table
   * is stored as the lines come, read `ORDER BY line_id` if at all. Trino's and BigQuery's recipes
   * give each line an identity (a UUID: numbering a bill in one order is a window over all of it,
   * on one worker), and a table there has no order; a Spark table's files are read back in the
   * order of their sizes, not their names, so a sort before the write orders nothing a reader
   * sees, and it cost a sampling pass over every line and a shuffle of all its columns
   * (bench/README.md).
   */
  readonly order: "sorted" | "positional" | "none";
  /**
   * Whether the format's queries run once per distinct tuple of describing columns, as the command
   * runs them, rather than on every line (script.ts, tupleSteps), and how a tuple is hashed: DuckDB
   * and Spark, where a bill is read by one machine's cores and the regular expressions, `LIKE`
   * lists and the registry's joins on every line were most of the scripts' time (bench/README.md).
   * Where the export has no plain describing columns (a record's fields) DuckDB stores each line's
   * classification once, narrow. Null: Trino's and BigQuery's WITH lists, planned once per
   * statement and run on a cluster's workers.
   */
  readonly classifiedOnce: TupleHashing | null;
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

export interface TupleHashing {
  /**
   * A tuple's hash from its describing columns (canonical SQL): one 64-bit number names the tuple,
   * and two tuples sharing one stop the script, so the hash is wide enough that no bill meets that
   * (a 32-bit hash pairs two of 100,000 tuples with a probability of 1 - e^(-10^10 / 2^33), 0.69;
   * a 64-bit one, of 3e-10).
   */
  readonly hash: (columns: readonly string[]) => string;
  /** The function that stops a query with a message (a hash shared, a line out of its order). */
  readonly error: string;
  /**
   * The hint (after SELECT) that the lines join their tuples' classes by broadcasting the classes:
   * Spark sizes a Parquet export by its compressed bytes (2 MB for 1,000,000 real-width lines) and
   * otherwise broadcasts the lines, which stopped the lines script at 1,000,000 ("Not enough
   * memory to build and broadcast the table", bench/README.md).
   */
  readonly broadcastClasses: string;
}

/** DuckDB's hash(): 64 bits, a NULL hashed as a value of its own. */
const duckdbTuples: TupleHashing = {
  hash: (columns) => `hash(${columns.join(", ")})`,
  error: "error",
  broadcastClasses: "",
};

/**
 * Spark's xxhash64 (64 bits: its hash() is Murmur3's 32). It skips a NULL argument, so that
 * ('a', NULL) and (NULL, 'a') would hash alike: each column is followed by whether it is NULL.
 */
const sparkTuples: TupleHashing = {
  hash: (columns) => `xxhash64(${columns.map((column) => `${column}, ${column} IS NULL`).join(", ")})`,
  error: "raise_error",
  broadcastClasses: "/*+ BROADCAST(t) */ ",
};

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
    classifiedOnce: duckdbTuples,
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
    order: "none",
    classifiedOnce: sparkTuples,
    valuesLists: true,
    view: replaced("TEMPORARY VIEW"),
    // A session's cached view: no table written to the warehouse for the lookup table. LAZY:
    // filled by the first statement reading it, not by a job of its own (the Spark tests' 11
    // fixtures alone under the heavy lock: 188.4 → 147.1 s, every line still equal to 1e-12).
    table: (name, query) => [...replaced("TEMPORARY VIEW")(name, query), `CACHE LAZY TABLE ${name}`],
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
    classifiedOnce: null,
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
    classifiedOnce: null,
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
