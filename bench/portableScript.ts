/**
 * The DuckDB script of `impact-service sql` against the command on the same export
 * (`npx tsx bench/portableScript.ts`; docs/billing.md, "Beyond one machine"): a real-width FOCUS
 * export (56 columns, scripts/billing-exports.ts; PORTABLE_ROWS lines, default 1,000,000) evaluated
 * by `impact-service evaluate … --tables`, then the script run in a node process of its own on a
 * fresh DuckDB (the export a view with a line_id, the tables the command wrote, billing_result — a
 * view in line_id's order — copied to CSV), the two alternated PORTABLE_REPEATS times (default 2). Wall
 * and CPU seconds, peak RSS, the load average before each run. PORTABLE_EARLIER names a script an
 * earlier build wrote for the same export (`sql --engine duckdb --header …`): it runs in each pair
 * too, so a change is measured against what it replaces at the same load.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeBillingExport } from "../scripts/billing-exports.js";
import { SMALL_TABLE_COLUMNS } from "../src/billing/stages/lookUp.js";
import { smallTableFiles } from "../src/billing/stages/write.js";
import { MEMORY_LIMIT } from "../src/duckdb/database.js";
import { loadAverage } from "./loadAverage.js";

const ROWS = Number(process.env.PORTABLE_ROWS ?? 1_000_000);
const REPEATS = Number(process.env.PORTABLE_REPEATS ?? 2);
const EARLIER = process.env.PORTABLE_EARLIER;
const BIN = new URL("../bin/impact-service.mjs", import.meta.url).pathname;

interface Run {
  readonly seconds: number;
  readonly cpuSeconds: number;
  readonly peakMb: number;
}

/** node under GNU time: wall and CPU seconds, peak RSS. */
function timedNode(args: readonly string[]): Run {
  const result = spawnSync("/usr/bin/time", ["-f", "%e %M %U %S", process.execPath, ...args], {
    encoding: "utf8",
    env: { ...process.env, EDITION: "2.4.1", LOG_LEVEL: "silent" },
    maxBuffer: 1 << 24,
  });
  if (result.status !== 0)
    throw new Error(`node ${args.join(" ").slice(0, 200)} failed: ${result.stderr.slice(-400)}`);
  const [seconds, kilobytes, user, system] = (result.stderr.trim().split("\n").at(-1) ?? "")
    .split(" ")
    .map(Number);
  return { seconds, cpuSeconds: user + system, peakMb: kilobytes / 1024 };
}

const quoted = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** The node program loading the tables as a team would, running the script and writing billing_result. */
function scriptRunner(
  input: string,
  tables: string,
  coefficients: string,
  script: string,
  output: string,
): string {
  const loads = [
    `CREATE VIEW billing_export AS SELECT *, row_number() OVER () AS line_id FROM read_csv(${quoted(input)}, header = true, all_varchar = true)`,
    `CREATE TABLE coefficients AS SELECT * FROM read_parquet(${quoted(coefficients)}) UNION ALL SELECT * FROM read_parquet(${quoted(join(tables, "method_coefficients.parquet"))})`,
    ...smallTableFiles(false)
      .filter((file) => file.table !== "coefficients")
      .map((file) => {
        // The registry's tables are Parquet, typed: read as they are
        if (file.parquet) {
          return `CREATE TABLE ${file.table} AS SELECT * FROM read_parquet(${quoted(join(tables, file.file))})`;
        }
        const columns = (SMALL_TABLE_COLUMNS as Record<string, readonly (readonly [string, string])[]>)[
          file.table
        ];
        const select = columns.map(([name, type]) => `CAST(${name} AS ${type}) AS ${name}`).join(", ");
        return `CREATE TABLE ${file.table} AS SELECT ${select} FROM read_csv(${quoted(join(tables, file.file))}, header = true, all_varchar = true, allow_quoted_nulls = false)`;
      }),
  ];
  return `import { readFileSync } from "node:fs";
import { DuckDBInstance } from "@duckdb/node-api";
const instance = await DuckDBInstance.create(":memory:", { memory_limit: "${MEMORY_LIMIT}", preserve_insertion_order: "true" });
const connection = await instance.connect();
for (const statement of ${JSON.stringify(loads)}) await connection.run(statement);
await connection.run(readFileSync(${JSON.stringify(script)}, "utf8"));
await connection.run(${JSON.stringify(`COPY billing_result TO ${quoted(output)} (FORMAT csv, HEADER true)`)});`;
}

async function main(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), "bench-portable-"));
  const say = (line: string) => process.stdout.write(`${line}\n`);
  const load = loadAverage;
  try {
    const input = join(folder, "focus.csv");
    await writeBillingExport("focus", ROWS, input, "1.2", true);
    const [tables, coefficients, script] = [
      join(folder, "tables"),
      join(folder, "c.parquet"),
      join(folder, "lines.sql"),
    ];
    timedNode([BIN, "coefficients", "--format", "parquet", "-o", coefficients]);
    timedNode([BIN, "sql", "--engine", "duckdb", "--header", input, "-o", script]);
    const runner = scriptRunner(input, tables, coefficients, script, join(folder, "script.csv"));
    const scripts: (readonly [string, string])[] = [["DuckDB script", runner]];
    if (EARLIER !== undefined) {
      const earlier = scriptRunner(input, tables, coefficients, EARLIER, join(folder, "earlier.csv"));
      scripts.push(["DuckDB script (earlier)", earlier]);
    }
    say(`${ROWS.toLocaleString("en")} FOCUS lines, 56 columns, CSV → CSV`);
    say("| run | pair | load before | wall s | CPU s | peak RSS |");
    say("|---|---:|---|---:|---:|---:|");
    for (let pair = 1; pair <= REPEATS; pair += 1) {
      const before = load();
      const command = timedNode([
        BIN,
        "evaluate",
        input,
        "-o",
        join(folder, "command.csv"),
        "--tables",
        tables,
      ]);
      say(
        `| evaluate --tables | ${pair} | ${before} | ${command.seconds.toFixed(1)} | ${command.cpuSeconds.toFixed(1)} | ${command.peakMb.toFixed(0)} MB |`,
      );
      for (const [label, program] of pair % 2 === 1 ? scripts : [...scripts].reverse()) {
        const scriptBefore = load();
        const ran = timedNode(["--input-type=module", "-e", program]);
        say(
          `| ${label} | ${pair} | ${scriptBefore} | ${ran.seconds.toFixed(1)} | ${ran.cpuSeconds.toFixed(1)} | ${ran.peakMb.toFixed(0)} MB |`,
        );
      }
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

await main();
