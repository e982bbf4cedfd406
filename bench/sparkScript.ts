/**
 * The Spark scripts of `impact-service sql --engine spark` on Spark in local mode against the
 * command on the same export (`npx tsx bench/sparkScript.ts`; docs/billing.md, "Databricks, Spark
 * SQL"; Spark installed by scripts/ensure-engines.sh): a real-width FOCUS export (56 columns,
 * scripts/billing-exports.ts; SPARK_ROWS lines, default 10,000,000) evaluated by `impact-service
 * evaluate` (CSV → CSV), then on one Spark session (local[2], Spark's own defaults, driver memory
 * SPARK_DRIVER_MEMORY, default 4g) the recipe: the export a view, keys.sql, its result written,
 * `impact-service tables --keys`, the tables, lines.sql storing billing_result (Parquet). Wall
 * seconds of each step, the load average before each run. Each Spark request is bounded by
 * SPARK_REQUEST_MINUTES (default 25: the heavy lock is held 35 minutes at most).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeBillingExport } from "../scripts/billing-exports.js";
import { smallTableFiles } from "../src/billing/stages/write.js";
import { ENGINES } from "../test/billing/engines/install.js";
import { filled, SPARK } from "../test/billing/engines/recipes.js";
import { startSession } from "../test/billing/engines/runner.js";
import { loadAverage } from "./loadAverage.js";

const ROWS = Number(process.env.SPARK_ROWS ?? 10_000_000);
const REQUEST_BOUND_MS = Number(process.env.SPARK_REQUEST_MINUTES ?? 25) * 60_000;
const BIN = new URL("../bin/impact-service.mjs", import.meta.url).pathname;

function timedNode(args: readonly string[]): number {
  const started = Date.now();
  const result = spawnSync(process.execPath, [BIN, ...args], {
    encoding: "utf8",
    env: { ...process.env, EDITION: "2.4.1", LOG_LEVEL: "silent" },
    maxBuffer: 1 << 24,
  });
  if (result.status !== 0) throw new Error(`impact-service ${args.join(" ")}: ${result.stderr.slice(-400)}`);
  return (Date.now() - started) / 1000;
}

async function main(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), "bench-spark-"));
  const say = (line: string) => process.stdout.write(`${line}\n`);
  const load = loadAverage;
  try {
    const input = join(folder, "focus.csv");
    await writeBillingExport("focus", ROWS, input, "1.2", true);
    const places = {
      export: input,
      keys: join(folder, "keys"),
      coefficients: join(folder, "coefficients.parquet"),
      tables: join(folder, "tables"),
    };
    timedNode(["coefficients", "--format", "parquet", "-o", places.coefficients]);
    timedNode(["sql", "--engine", "spark", "--header", input, "--keys", "-o", join(folder, "keys.sql")]);
    timedNode(["sql", "--engine", "spark", "--header", input, "-o", join(folder, "lines.sql")]);
    say(`${ROWS.toLocaleString("en")} FOCUS lines, 56 columns`);
    say("| run | load before | wall s |");
    say("|---|---|---:|");
    let before = load();
    const command = timedNode(["evaluate", input, "-o", join(folder, "command.csv")]);
    say(`| evaluate (CSV → CSV) | ${before} | ${command.toFixed(1)} |`);
    before = load();
    let started = Date.now();
    const spark = await startSession(
      ENGINES.python(),
      [ENGINES.runner, "spark", "--warehouse", join(folder, "warehouse"), "--spark-defaults"],
      { ...process.env, PYSPARK_PYTHON: ENGINES.python(), SPARK_LOCAL_IP: "127.0.0.1" },
      REQUEST_BOUND_MS,
    );
    say(`| Spark session start | ${before} | ${((Date.now() - started) / 1000).toFixed(1)} |`);
    try {
      before = load();
      started = Date.now();
      await spark.run(
        "bench",
        [
          filled(SPARK.exportCsv, places),
          filled(SPARK.numbered, places),
          readFileSync(join(folder, "keys.sql"), "utf8"),
          filled(SPARK.keys, places),
        ].join(";\n"),
      );
      const keysSeconds = (Date.now() - started) / 1000;
      say(`| keys.sql, its result written | ${before} | ${keysSeconds.toFixed(1)} |`);
      const [keys] = readdirSync(places.keys).filter((file) => file.endsWith(".parquet"));
      const tablesSeconds = timedNode([
        "tables",
        "--keys",
        join(places.keys, keys),
        "--tables",
        places.tables,
        "--format",
        "parquet",
      ]);
      say(`| tables --keys | ${load()} | ${tablesSeconds.toFixed(1)} |`);
      const tables = smallTableFiles(false, true)
        .filter(({ table }) => table !== "coefficients")
        .map(({ table }) => filled(SPARK.table, { ...places, table }));
      before = load();
      started = Date.now();
      await spark.run(
        "bench",
        [filled(SPARK.coefficients, places), ...tables, readFileSync(join(folder, "lines.sql"), "utf8")].join(
          ";\n",
        ),
      );
      const linesSeconds = (Date.now() - started) / 1000;
      say(`| lines.sql, billing_result stored (Parquet) | ${before} | ${linesSeconds.toFixed(1)} |`);
      say(
        `| Spark in all (keys, tables, lines) | | ${(keysSeconds + tablesSeconds + linesSeconds).toFixed(1)} |`,
      );
    } finally {
      spark.close();
    }
    writeFileSync(join(folder, "done"), "");
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

await main();
