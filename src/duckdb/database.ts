/*
 * DuckDB, the embedded engine billing exports and grid series are read and joined on: it reads CSV, gzipped CSV and
 * Parquet out of core (a file larger than memory spills to a temporary folder), on every core, and
 * writes the rows of a query without a hash join in the order it read them.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { removedUnlessKept } from "../support/outputFile.js";
import { registerExactSum } from "./exactSum.js";
import { filesLiteral, identifier, literal } from "./sqlText.js";

/**
 * What the engine may hold in memory before spilling: the bench's 1 GB bound, with room for node.
 * At 500 MB the ordered writers of two threads wait on each other (1,000,000 CSV lines: 26 against
 * 14 CPU s at 1.5 GB; bench/README.md, "Billing exports").
 */
export const MEMORY_LIMIT = "700MB";

/**
 * What the engine may hold once a bill's lines are written, for the sums read back from them (the
 * sums per group, the report's): less, so that DuckDB spills a sum of many groups to its folder
 * rather than hold it. 1,000,000 lines of as many `--group-by tag:team` values: the sums per group
 * (hours and impacts) took 915 MB resident at 700 MB (67 s), 649 MB at 400 MB (106 s); at 300 MB
 * DuckDB ran out of memory instead of spilling. With each group's cost and energy beside (the
 * report's basis), DuckDB ran out of memory at 400 MB too: 768 MB resident at 500 MB (bench/README.md,
 * "Bills of many days, resources and tags").
 */
export const SUMS_MEMORY_LIMIT = "500MB";

export interface Database {
  readonly connection: DuckDBConnection;
  /** A folder of this run's temporary files (removed by close). */
  readonly scratch: string;
  close(): void;
}

/**
 * A database of its own, in memory, spilling to a folder of its own. `threads`: DuckDB's threads,
 * where the caller knows better than DuckDB's default of one a core (a small bill's run).
 */
export async function openDatabase(threads: number | null = null): Promise<Database> {
  const scratch = mkdtempSync(join(tmpdir(), "impact-billing-"));
  const instance = await DuckDBInstance.create(":memory:", {
    ...(threads === null ? {} : { threads: String(threads) }),
    memory_limit: MEMORY_LIMIT,
    temp_directory: join(scratch, "spill"),
    preserve_insertion_order: "true",
    // An IN list of constants stays an expression: DuckDB 1.5 rewrites it into a join (the units'
    // lists of sql/classify/billing_methods.sql), and a plan holding a join writes lines out of their order.
    disabled_optimizers: "in_clause",
  });
  const connection = await instance.connect();
  // Every stage's exact sums are rounded by this function (src/duckdb/exactSum.ts)
  registerExactSum(connection);
  // Its spill files removed should the process end before close (a second signal, a run's time up)
  const kept = removedUnlessKept(scratch);
  return {
    connection,
    scratch,
    close: () => {
      connection.closeSync();
      instance.closeSync();
      rmSync(scratch, { recursive: true, force: true });
      kept();
    },
  };
}

/**
 * Runs `statements` as one script: a call into DuckDB's thread pool each costs about 0.3 ms (a small
 * bill's run made some 60 such calls for its types and views).
 */
export async function runAll(connection: DuckDBConnection, statements: readonly string[]): Promise<void> {
  if (statements.length > 0) await connection.run(statements.join(";\n"));
}

/**
 * Runs an ordered COPY on one thread, the connection's threads set back after: on two, DuckDB 1.5's
 * ordered writer took 2-4 times the CPU and 1 GB for a plan holding the cross join with the
 * tuples' lists (1,000,000 lines of 56 columns, Parquet: 8.7-18.1 against 3.6-5.0 CPU s; CSV:
 * 15.2 against 6.4), and such a plan alone ran out of 700 MB (bench/README.md, "Billing at a real
 * width: where the command's time goes"); a copy of 2,048-line row groups ran out of it too
 * ("The written lines read back from a copy").
 */
export function runOnOneThread(connection: DuckDBConnection, copy: string) {
  return onOneThread(connection, () => connection.run(copy));
}

/** `work`'s statements on one thread of `connection`, its threads set back after. */
export async function onOneThread<T>(connection: DuckDBConnection, work: () => Promise<T>): Promise<T> {
  const threads = await connection.runAndReadAll("SELECT current_setting('threads') AS threads");
  await connection.run("SET threads = 1");
  try {
    return await work();
  } finally {
    await connection.run(`SET threads = ${Number(threads.getRowObjects()[0].threads)}`);
  }
}

/**
 * A scratch file's row groups, small: the Parquet writer holds a row group of every column. On
 * 200,000 lines of a 100-column CUR 2.0 (one thread), the written lines' copy alone peaked at 345 MB
 * resident with 30,720 lines a group (DuckDB's default) and DuckDB's reader buffer, 172 MB with
 * these and a buffer of 8 MiB (src/billing/stages/write.ts, withReadCopy).
 */
const SCRATCH_ROW_GROUP = 2_048;

/**
 * `use` on the rows of `select` written once to the Parquet file `file` (zstd, on one thread:
 * runOnOneThread), which is removed after, however `use` ends: a run's rows it reads several times
 * from a file rather than computing them again or holding them in memory.
 */
export async function withParquetFile<T>(
  connection: DuckDBConnection,
  select: string,
  file: string,
  use: () => Promise<T>,
): Promise<T> {
  try {
    await runOnOneThread(
      connection,
      `COPY (${select}) TO ${literal(file)} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE ${SCRATCH_ROW_GROUP})`,
    );
    return await use();
  } finally {
    rmSync(file, { force: true });
  }
}

/** How often an interrupted connection is interrupted again: a query started after the first one. */
const INTERRUPT_AGAIN_MS = 50;

/**
 * Interrupts the connection's queries once `signal` aborts, and every INTERRUPT_AGAIN_MS after
 * (DuckDB ends a query within a vector's work; the run's code between two queries may start
 * another), until the returned function is called: a run asked to stop ends within a second,
 * whatever query it was in — a query left running holds a thread of libuv's pool, which the
 * process's exit waits for.
 */
export function interruptedOn(connection: DuckDBConnection, signal: AbortSignal | undefined): () => void {
  if (signal === undefined) return () => {};
  let timer: NodeJS.Timeout | undefined;
  const interrupt = () => {
    connection.interrupt();
    timer = setInterval(() => connection.interrupt(), INTERRUPT_AGAIN_MS);
  };
  if (signal.aborted) interrupt();
  else signal.addEventListener("abort", interrupt, { once: true });
  return () => {
    signal.removeEventListener("abort", interrupt);
    clearInterval(timer);
  };
}

/** How a text file's lines are cut: its separator and the lines above its header, skipped. */
export interface CsvDialect {
  readonly separator: string;
  readonly skipped: number;
  /** Whether the file is gzip, told by its first bytes; by its name (`.gz`) when not told. */
  readonly gzip?: boolean;
  /** CR alone ends its lines (a classic Mac CSV); else LF or CRLF, which DuckDB reads alike. */
  readonly lineEnd?: "\n" | "\r";
}

/** DuckDB's compression of a file: told, else by its name. */
const compressionOf = (gzip: boolean | undefined) =>
  gzip === undefined ? "'auto'" : gzip ? "'gzip'" : "'none'";

/**
 * The file (or a bill's parts, each with the same header: filesLiteral) as a table function:
 * Parquet by its name, else CSV (gzipped or not) with the columns of its header, every cell as
 * text, read strictly (a line with too few or too many cells is an error), with commas and its
 * header on line 1 unless `dialect` says otherwise.
 */
export function sourceOf(
  file: string | readonly string[],
  csvHeader: readonly string[] | null,
  dialect: CsvDialect = { separator: ",", skipped: 0 },
): string {
  if (csvHeader === null) return `read_parquet(${filesLiteral(file)})`;
  const columns = csvHeader.map((name) => `${literal(name)}: 'VARCHAR'`).join(", ");
  const skip = dialect.skipped > 0 ? `, skip = ${dialect.skipped}` : "";
  // DuckDB reads the two characters \r as a carriage return here (its `new_line` option).
  const lines = dialect.lineEnd === "\r" ? ", new_line = '\\r'" : "";
  return `read_csv(${filesLiteral(file)}, auto_detect = false, header = true, columns = {${columns}}, delim = ${literal(dialect.separator)}, quote = '"', escape = '"', compression = ${compressionOf(dialect.gzip)}, strict_mode = true${skip}${lines})`;
}

export type Cell = string | number | null;

/** Fills a new table from rows (text and double columns). */
export async function createTable(
  connection: DuckDBConnection,
  name: string,
  columns: readonly (readonly [string, "VARCHAR" | "DOUBLE"])[],
  rows: Iterable<readonly Cell[]>,
): Promise<void> {
  await connection.run(
    `CREATE OR REPLACE TABLE ${identifier(name)} (${columns.map(([column, type]) => `${identifier(column)} ${type}`).join(", ")})`,
  );
  await appendRows(connection, name, rows);
}

/** Appends rows to a table (a number goes to a DOUBLE column, anything else as text). */
async function appendRows(
  connection: DuckDBConnection,
  name: string,
  rows: Iterable<readonly Cell[]>,
): Promise<void> {
  const appender = await connection.createAppender(name);
  for (const row of rows) {
    for (const cell of row) {
      if (cell === null) appender.appendNull();
      else if (typeof cell === "number") appender.appendDouble(cell);
      else appender.appendVarchar(cell);
    }
    appender.endRow();
  }
  appender.closeSync();
}
