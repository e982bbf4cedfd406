/**
 * The command line two ways, both giving its exit code, stdout and stderr:
 * - `runCli`: as its user runs it, the package's bin (what `npx impact-service` runs) in a process
 *   of its own, started as bundled once for the suite (test/support/bundle.ts, the `process`
 *   project's global set-up), not through tsx. For what only a process shows: that it ends, its
 *   exit code as the shell sees it, its pipes, signals.
 * - `runMain`: the command's function (`main`, what the bin awaits) in this process, for a test
 *   that reads only what the command writes: no process start (the bundle's, about 1.2 s of CPU),
 *   the sources loaded once per test process; each run still opens its edition (about 0.2 s) and,
 *   a bill's, its DuckDB (about 2 s in all): a file's tests that read the same command share one
 *   run (`runOnce`; docs/testing.md, "What is slow, and why").
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { Readable, Writable } from "node:stream";
import { promisify } from "node:util";
import { parse } from "csv-parse/sync";
import { expect } from "vitest";
import { keptPriceLists } from "../../src/billing/priceList.js";
import { main } from "../../src/cli/main.js";
import { CLI_BUNDLE, COMPILE_CACHE } from "./bundle.js";

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export function runCli(args: readonly string[], env: Record<string, string> = {}): Promise<CliRun> {
  return promisify(execFile)(process.execPath, [CLI_BUNDLE, ...args], {
    env: { ...process.env, LOG_LEVEL: "silent", NODE_COMPILE_CACHE: COMPILE_CACHE, ...env },
    maxBuffer: 64 * 1024 * 1024,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

/** A stream that keeps what is written, not a terminal (as the pipes of `runCli`). */
export function sink(): { stream: NodeJS.WriteStream; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  }) as unknown as NodeJS.WriteStream;
  return { stream, text: () => Buffer.concat(chunks).toString("utf8") };
}

/**
 * The price lists this test process's runs read, each parsed once (keptPriceLists: read again
 * where its file changed): a run with --report or --what-if reads PRICE_LIST's (the derived list's
 * 82,717 rows, about 0.2 s of CPU a parse).
 */
const priceLists = keptPriceLists();

/** `main` on the arguments, its stdin empty. */
async function mainRun(args: readonly string[]): Promise<CliRun> {
  const stdout = sink();
  const stderr = sink();
  const code = await main(args, {
    stdin: Readable.from([]),
    stdout: stdout.stream,
    stderr: stderr.stream,
    priceLists,
  });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

/** The last command started in this process, settled or not. */
let previous: Promise<unknown> = Promise.resolve();

/**
 * `main` on the arguments, its stdin empty: what `runCli` gives, without a process. The calls of
 * one test process run in turn, whatever a test awaits at once (`describe.concurrent`,
 * `Promise.all`): a bill's run opens a DuckDB database of its own, and several opened at once in
 * one process crashed the runner natively (`Napi::Error`, exit 134) — a fault no test could report.
 */
export function runMain(args: readonly string[]): Promise<CliRun> {
  const run = previous.then(() => mainRun(args));
  previous = run.catch(() => {});
  return run;
}

/**
 * `run` once per key in this test process, its result kept: where a file's tests read the same
 * command on the same input (the same key), it runs once and each test reads what it asserts from
 * that one result (the command is deterministic). A result is shared: a test does not change it.
 */
export function runOnce<K, V>(run: (key: K) => Promise<V>): (key: K) => Promise<V> {
  const runs = new Map<K, Promise<V>>();
  return (key) => {
    let result = runs.get(key);
    if (result === undefined) {
      result = run(key);
      runs.set(key, result);
    }
    return result;
  };
}

/** A line of a CSV output, by column name. */
export type OutputRow = Record<string, string>;

/**
 * `main` in edition 2.4.1, as the bills' tests run it (they read only what it writes;
 * test/cli/billing.test.ts runs the bin's process with EDITION=2.4.1).
 */
export const runMain241 = (args: readonly string[]) => runMain([...args, "--edition", "2.4.1"]);

/** `evaluate <bill> --edition 2.5.0 [options]` in this process; a run that does not end 0 thrown with its stderr. */
export async function evaluated250(bill: string, options: readonly string[]): Promise<CliRun> {
  const run = await runMain(["evaluate", bill, "--edition", "2.5.0", ...options]);
  if (run.code !== 0) throw new Error(`exit ${run.code}: ${run.stderr}`);
  return run;
}

/** `evaluate <input> --output <output> [options]` in edition 2.4.1, which ends 0: its stderr and written lines. */
export async function evaluatedLines(
  input: string,
  output: string,
  options: readonly string[] = [],
): Promise<{ stderr: string; lines: OutputRow[] }> {
  const { code, stderr } = await runMain241(["evaluate", input, "--output", output, ...options]);
  expect(code, stderr).toBe(0);
  return { stderr, lines: parse(readFileSync(output), { columns: true, bom: true }) as OutputRow[] };
}

/** The line whose column holds the value (the only one). */
export function onlyLine(lines: readonly OutputRow[], column: string, value: string): OutputRow {
  const found = lines.filter((row) => row[column] === value);
  expect(found, `${column} = ${value}`).toHaveLength(1);
  return found[0];
}
