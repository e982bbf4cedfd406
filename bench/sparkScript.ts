/**
 * The Spark scripts of `impact-service sql --engine spark` on Spark in local mode against the
 * command on the same export (`npx tsx bench/sparkScript.ts`; docs/billing.md, "Databricks, Spark
 * SQL"; Spark installed by scripts/ensure-engines.sh): a real-width FOCUS export (56 columns,
 * scripts/billing-exports.ts; SPARK_ROWS lines, default 10,000,000) evaluated by `impact-service
 * evaluate` (CSV → CSV), then on one Spark session (local[2], Spark's own defaults, driver memory
 * SPARK_DRIVER_MEMORY, default 4g) the recipe as the tests run it (test/billing/engines/recipes.ts):
 * the export a view (CSV without multiLine: no cell of it holds a line break, and the file is read
 * in parts by both cores), keys.sql, its result written, `impact-service tables --keys`, the
 * tables, lines.sql storing billing_result (Parquet). Wall seconds of each step, the load average
 * before it, CPU seconds and peak memory (the command's by GNU time; Spark's JVM's from /proc: its
 * CPU during the step, its peak resident memory so far). Each Spark request is bounded by
 * SPARK_REQUEST_MINUTES (default 25: the heavy lock is held 35 minutes at most).
 * SPARK_INPUT=parquet: the export as Parquet (docs/billing.md's way for a large bill), read by the
 * recipe's Parquet statement, and the command's run Parquet → Parquet; default CSV (CSV → CSV).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeBillingExport } from "../scripts/billing-exports.js";
import { smallTableFiles } from "../src/billing/stages/write.js";
import { ENGINES } from "../test/billing/engines/install.js";
import { filled, type Places, SPARK } from "../test/billing/engines/recipes.js";
import { type EngineSession, startSession } from "../test/billing/engines/runner.js";
import { loadAverage } from "./loadAverage.js";

const ROWS = Number(process.env.SPARK_ROWS ?? 10_000_000);
const PARQUET = process.env.SPARK_INPUT === "parquet";
const REQUEST_BOUND_MS = Number(process.env.SPARK_REQUEST_MINUTES ?? 25) * 60_000;
const BIN = new URL("../bin/impact-service.mjs", import.meta.url).pathname;
const TICKS_PER_SECOND = 100;

interface Measured {
  readonly wall: number;
  readonly cpu: number;
  readonly peakMb: number;
}

/** `impact-service <args>` under GNU time: wall and CPU seconds, peak resident memory. */
function timedNode(args: readonly string[]): Measured {
  const started = Date.now();
  const result = spawnSync("/usr/bin/time", ["-f", "@@%U %S %M", process.execPath, BIN, ...args], {
    encoding: "utf8",
    env: { ...process.env, EDITION: "2.4.1", LOG_LEVEL: "silent" },
    maxBuffer: 1 << 24,
  });
  if (result.status !== 0) throw new Error(`impact-service ${args.join(" ")}: ${result.stderr.slice(-400)}`);
  const [user, system, kb] = (result.stderr.split("@@").pop() ?? "").trim().split(" ").map(Number);
  return { wall: (Date.now() - started) / 1000, cpu: user + system, peakMb: kb / 1024 };
}

/** The JVM under the runner's process `pid` (pyspark's gateway: a child of it). */
function jvmOf(pid: number | undefined): number {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[1]) === pid && readFileSync(`/proc/${entry}/comm`, "utf8").trim() === "java")
        return Number(entry);
    } catch {
      // gone
    }
  }
  throw new Error(`no JVM under the runner's process ${pid}`);
}

/** A process's CPU seconds so far and its peak resident memory (MB). */
function usage(pid: number): { cpu: number; peakMb: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const peak = /VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? "0";
  return { cpu: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND, peakMb: Number(peak) / 1024 };
}

const row = (run: string, before: string, measured: Measured) =>
  `| ${run} | ${before} | ${measured.wall.toFixed(1)} | ${measured.cpu.toFixed(1)} | ${Math.round(measured.peakMb)} MB |`;

/** One request on Spark: its wall seconds, the JVM's CPU during it and its peak so far. */
async function timedSpark(spark: EngineSession, jvm: number, script: string): Promise<Measured> {
  const started = Date.now();
  const before = usage(jvm).cpu;
  await spark.run("bench", script);
  const after = usage(jvm);
  return { wall: (Date.now() - started) / 1000, cpu: after.cpu - before, peakMb: after.peakMb };
}

/** The recipe's steps on Spark, each timed; `tables --keys` between them. */
async function onSpark(spark: EngineSession, folder: string, places: Places): Promise<void> {
  const say = (line: string) => process.stdout.write(`${line}\n`);
  const jvm = jvmOf(spark.pid);
  let before = loadAverage();
  const keys = await timedSpark(
    spark,
    jvm,
    [
      filled(PARQUET ? SPARK.exportParquet : SPARK.exportCsv, places),
      filled(SPARK.numbered, places),
      readFileSync(join(folder, "keys.sql"), "utf8"),
      filled(SPARK.keys, places),
    ].join(";\n"),
  );
  say(row("keys.sql, its result written", before, keys));
  const [keysFile] = readdirSync(places.keys).filter((file) => file.endsWith(".parquet"));
  before = loadAverage();
  const tables = timedNode([
    "tables",
    "--keys",
    join(places.keys, keysFile),
    "--tables",
    places.tables,
    "--format",
    "parquet",
  ]);
  say(row("tables --keys", before, tables));
  const views = smallTableFiles(false, true)
    .filter(({ table }) => table !== "coefficients")
    .map(({ table }) => filled(SPARK.table, { ...places, table }));
  before = loadAverage();
  const lines = await timedSpark(
    spark,
    jvm,
    [filled(SPARK.coefficients, places), ...views, readFileSync(join(folder, "lines.sql"), "utf8")].join(
      ";\n",
    ),
  );
  say(row("lines.sql, billing_result stored (Parquet)", before, lines));
  const all = {
    wall: keys.wall + tables.wall + lines.wall,
    cpu: keys.cpu + tables.cpu + lines.cpu,
    peakMb: Math.max(keys.peakMb, lines.peakMb),
  };
  say(row("Spark in all (keys, tables, lines; peak: the JVM's)", "", all));
}

async function main(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), "bench-spark-"));
  const temp = join(folder, "tmp");
  mkdirSync(temp);
  const say = (line: string) => process.stdout.write(`${line}\n`);
  try {
    const input = join(folder, PARQUET ? "focus.parquet" : "focus.csv");
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
    say(
      `${ROWS.toLocaleString("en")} FOCUS lines, 56 columns, ${PARQUET ? "Parquet" : "CSV"}, ${new Date().toISOString()}`,
    );
    say("| run | load before | wall s | CPU s | peak RSS |");
    say("|---|---|---:|---:|---:|");
    let before = loadAverage();
    say(
      row(
        PARQUET ? "evaluate (Parquet → Parquet)" : "evaluate (CSV → CSV)",
        before,
        timedNode(["evaluate", input, "-o", join(folder, PARQUET ? "command.parquet" : "command.csv")]),
      ),
    );
    before = loadAverage();
    const started = Date.now();
    const spark = await startSession(
      ENGINES.python(),
      [ENGINES.runner, "spark", "--warehouse", join(folder, "warehouse"), "--spark-defaults"],
      // Spark's and its JVM's scratch files in the bench's folder, removed after it
      { ...process.env, PYSPARK_PYTHON: ENGINES.python(), SPARK_LOCAL_IP: "127.0.0.1", TMPDIR: temp },
      REQUEST_BOUND_MS,
    );
    say(`| Spark session start | ${before} | ${((Date.now() - started) / 1000).toFixed(1)} | | |`);
    try {
      await onSpark(spark, folder, places);
    } finally {
      spark.close();
    }
    say(`ended ${new Date().toISOString()}`);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

await main();
