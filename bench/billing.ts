/**
 * The billing path at size (`npm run bench:billing`): 10,000,000 generated FOCUS lines
 * (scripts/billing-exports.ts) as CSV and as Parquet, each evaluated by `impact-service evaluate`
 * in a process of its own, and the coefficient table of every instance type of each edition
 * (`impact-service coefficients`, CSV and Parquet). Prints wall time, lines/s and the peak
 * resident memory of each run (the process's own, DuckDB included; GNU time's maximum RSS).
 * Targets: ≤ 60 s and ≤ 1 GB per 10,000,000-line run, ≤ 5 s per coefficient table.
 *
 * Then the real width (issue 38): a 56-column FOCUS export (CSV → CSV, Parquet → Parquet) and a
 * 100-column CUR 2.0 export (CSV → CSV), each evaluated and copied by DuckDB alone (`COPY (SELECT *
 * FROM read_csv(…, all_varchar = true)) TO …`, the same memory limit, in a process of its own),
 * the two alternated BILLING_REPEATS times (default 3): CPU and wall seconds of each, their
 * ratios (target ≤ 2) and the load average. BILLING_WIDE_ONLY=Parquet runs the exports whose
 * name holds that text only.
 *
 * Then small files that cost much (one large Parquet row group, a gzipped header that never ends,
 * 10,000 and 100,000 columns): each answers or stops with one line within 1 GB.
 *
 * Then a grid series (issue 40): the CSV export evaluated with 8,760 hours × 60 zones, beside
 * DuckDB's bare copy of the same export, measured in the same run.
 *
 * BILLING_BIN names the command's module (default bin/impact-service.mjs: the built bundle,
 * dist/bundle/cli.mjs, where `npm run build` wrote it, else the sources through tsx). BILLING_ROWS changes the number of lines (default
 * 10,000,000); BILLING_NARROW=0 skips the
 * 26-column runs and the coefficient tables, BILLING_WIDE=0 the real width, BILLING_SMALL=0 the
 * small files, BILLING_GRID=0 the grid series.
 */
import { spawnSync } from "node:child_process";
import { once } from "node:events";
import { createWriteStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { DuckDBInstance } from "@duckdb/node-api";
import { writeBillingExport } from "../scripts/billing-exports.js";
import { MEMORY_LIMIT } from "../src/duckdb/database.js";

const ROWS = Number(process.env.BILLING_ROWS ?? 10_000_000);
/**
 * The command run: the bin (its bundle where built, else its sources through tsx), or BILLING_BIN
 * (another module of the command: a bundle built from another commit, to compare).
 */
const BIN = process.env.BILLING_BIN ?? new URL("../bin/impact-service.mjs", import.meta.url).pathname;

interface Run {
  readonly seconds: number;
  /** CPU seconds (user + system): what the run costs the machine, DuckDB running on every core. */
  readonly cpuSeconds: number;
  readonly peakMb: number;
}

/** Runs node under GNU time: wall seconds and maximum resident set (a refusal allowed). */
function measuredNode(args: readonly string[]): Run & { status: number | null; said: string } {
  const result = spawnSync("/usr/bin/time", ["-f", "%e %M %U %S", process.execPath, ...args], {
    encoding: "utf8",
    env: { ...process.env, EDITION: process.env.EDITION ?? "2.4.1" },
    maxBuffer: 1 << 24,
  });
  const last = result.stderr.trim().split("\n").at(-1) ?? "";
  const [seconds, kilobytes, user, system] = last.split(" ").map(Number);
  const lines = result.stderr.trim().split("\n");
  const said = result.status === 0 ? "answered" : (lines.at(-3) ?? "").slice(0, 120);
  return {
    seconds,
    cpuSeconds: user + system,
    peakMb: kilobytes / 1024,
    status: result.status,
    said,
  };
}

/** Runs the command line under GNU time: wall seconds and maximum resident set (a refusal allowed). */
function measured(args: readonly string[]): Run & { status: number | null; said: string } {
  return measuredNode([BIN, ...args]);
}

/** Runs node under GNU time: wall seconds and maximum resident set. */
function timedNode(args: readonly string[]): Run {
  const run = measuredNode(args);
  if (run.status !== 0 || !Number.isFinite(run.seconds)) {
    throw new Error(`node ${args.join(" ").slice(0, 200)} failed (${run.status}): ${run.said}`);
  }
  return run;
}

/** Runs the command line under GNU time: wall seconds and maximum resident set. */
function timed(args: readonly string[]): Run {
  return timedNode([BIN, ...args]);
}

/**
 * DuckDB's bare copy of a file, in a node process of its own with the billing run's memory limit
 * and order: every cell as text (CSV) or as read (Parquet), written as the command writes.
 */
function bareCopy(input: string, output: string): Run {
  const source = input.endsWith(".parquet")
    ? `read_parquet('${input}')`
    : `read_csv('${input}', all_varchar = true)`;
  const options = output.endsWith(".parquet")
    ? "(FORMAT parquet, COMPRESSION zstd)"
    : "(FORMAT csv, HEADER true)";
  const script = `import { DuckDBInstance } from "@duckdb/node-api";
const instance = await DuckDBInstance.create(":memory:", { memory_limit: "${MEMORY_LIMIT}", preserve_insertion_order: "true" });
const connection = await instance.connect();
await connection.run("COPY (SELECT * FROM ${source}) TO '${output}' ${options}");`;
  return timedNode(["--input-type=module", "-e", script]);
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const loads = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");

/**
 * The real width (issue 38 point 6): each export evaluated and copied bare, alternated, `repeats`
 * times; the ratios of their CPU and wall seconds, per pair and of the medians.
 */
async function realWidth(folder: string, say: (line: string) => void): Promise<void> {
  const repeats = Number(process.env.BILLING_REPEATS ?? 3);
  const cases = [
    ["FOCUS 1.2, 56 columns, CSV → CSV", "focus", "csv"],
    ["FOCUS 1.2, 56 columns, Parquet → Parquet", "focus", "parquet"],
    ["CUR 2.0, 100 columns, CSV → CSV", "cur", "csv"],
  ] as const;
  say(`real width: ${ROWS.toLocaleString("en")} lines, ${repeats} pairs each, command then bare copy`);
  say(
    "| export | pair | load before | command wall s | CPU s | peak RSS | bare copy wall s | CPU s | peak RSS | wall ratio | CPU ratio |",
  );
  say("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|");
  const only = process.env.BILLING_WIDE_ONLY;
  for (const [what, format, extension] of cases) {
    if (only !== undefined && !what.includes(only)) continue;
    const input = join(folder, `wide-${format}.${extension}`);
    await writeBillingExport(format, ROWS, input, "1.2", true);
    const output = join(folder, `wide-out.${extension}`);
    const ours: Run[] = [];
    const bare: Run[] = [];
    for (let pair = 1; pair <= repeats; pair += 1) {
      const load = loads();
      ours.push(timed(["evaluate", input, "--output", output, "--format", extension]));
      rmSync(output);
      bare.push(bareCopy(input, output));
      rmSync(output);
      const [o, b] = [ours[pair - 1], bare[pair - 1]];
      say(
        `| ${what} (${mb(statSync(input).size)}) | ${pair} | ${load} | ${o.seconds.toFixed(1)} | ${o.cpuSeconds.toFixed(1)} | ${o.peakMb.toFixed(0)} MB | ${b.seconds.toFixed(1)} | ${b.cpuSeconds.toFixed(1)} | ${b.peakMb.toFixed(0)} MB | ${(o.seconds / b.seconds).toFixed(2)} | ${(o.cpuSeconds / b.cpuSeconds).toFixed(2)} |`,
      );
    }
    const of = (runs: Run[], key: "seconds" | "cpuSeconds") => median(runs.map((run) => run[key]));
    say(
      `| ${what} | **median** | ${loads()} | **${of(ours, "seconds").toFixed(1)}** | **${of(ours, "cpuSeconds").toFixed(1)}** | ${Math.max(...ours.map((run) => run.peakMb)).toFixed(0)} MB (max) | ${of(bare, "seconds").toFixed(1)} | ${of(bare, "cpuSeconds").toFixed(1)} | ${Math.max(...bare.map((run) => run.peakMb)).toFixed(0)} MB | **${(of(ours, "seconds") / of(bare, "seconds")).toFixed(2)}** | **${(of(ours, "cpuSeconds") / of(bare, "cpuSeconds")).toFixed(2)}** |`,
    );
    rmSync(input);
  }
}

/**
 * Small files that cost much (issue 37): one row group of 3,000,000 lines, a gzipped header that
 * never ends, 10,000 and 100,000 columns. Each answers or stops with one line, within 1 GB.
 */
async function smallButCostly(folder: string, say: (line: string) => void): Promise<void> {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  const rowGroup = join(folder, "rowgroup.parquet");
  await connection.run(
    `COPY (SELECT s.* REPLACE (CAST(r.range AS VARCHAR) AS SkuId, CAST(r.range % 97 AS VARCHAR) AS ConsumedQuantity)
       FROM range(3000000) r, (SELECT * FROM read_csv('test/fixtures/billing/focus-1.0.csv', header = true, all_varchar = true) LIMIT 1) s)
     TO '${rowGroup}' (ROW_GROUP_SIZE 3000000, COMPRESSION zstd)`,
  );
  connection.closeSync();
  instance.closeSync();
  const endless = join(folder, "endless.csv.gz");
  const gzip = createGzip();
  const written = pipeline(gzip, createWriteStream(endless));
  gzip.write("ProviderName,");
  const block = Buffer.alloc(1 << 20, 97);
  for (let megabyte = 0; megabyte < 1500; megabyte += 1) {
    if (!gzip.write(block)) await once(gzip, "drain");
  }
  gzip.end();
  await written;
  const wide = (columns: number) => {
    const file = join(folder, `wide${columns}.csv`);
    const names = Array.from({ length: columns }, (_, index) => `c${index}`);
    const line = names.map(() => "x").join(",");
    writeFileSync(file, `ProviderName,ChargeCategory,${names.join(",")}\n${line}\n${line}\n${line}\n`);
    return file;
  };
  const cases: [string, string, string[]][] = [
    ["Parquet, one row group of 3,000,000 lines", rowGroup, []],
    ["CSV.gz whose header never ends", endless, ["--input", "focus"]],
    ["CSV, 10,000 columns × 3 lines", wide(10_000), ["--input", "focus"]],
    ["CSV, 100,000 columns × 3 lines", wide(100_000), ["--input", "focus"]],
  ];
  for (const [what, input, options] of cases) {
    const run = measured(["evaluate", input, ...options, "--output", join(folder, "small.out.csv")]);
    say(
      `| ${what} | ${mb(statSync(input).size)} | **${run.seconds.toFixed(1)}** | ${run.cpuSeconds.toFixed(1)} | exit ${run.status}: ${run.said} | **${run.peakMb.toFixed(0)} MB** | ≤ 1 GB, one line |`,
    );
  }
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;

/** The countries of edition 2.4.1's cloud regions (the zones its billing lines fall in). */
function regionCountries(): string[] {
  const file = new URL("../data/2.4.1/archetypes/cloud/regions.csv", import.meta.url);
  const [header, ...rows] = readFileSync(file, "utf8").trim().split("\n");
  const column = header.split(",").indexOf("usage_location");
  return [...new Set(rows.map((row) => row.split(",")[column]))].filter((zone) => /^[A-Z]{3}$/.test(zone));
}

/** A plain series of 8,760 hours × 60 zones (the regions' countries first), written to `file`. */
async function writeGridSeries(file: string): Promise<void> {
  const zones = [
    ...regionCountries(),
    ...Array.from({ length: 60 }, (_, i) => `Z${String(i).padStart(2, "0")}`),
  ];
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  const zoneRows = zones
    .slice(0, 60)
    .map((zone, n) => `('${zone}', ${n})`)
    .join(", ");
  await connection.run(
    `COPY (SELECT zone, strftime(TIMESTAMP '2026-01-01' + INTERVAL (h) HOUR, '%Y-%m-%dT%H:%M:%SZ') AS start,
       round(50 + 400 * ((h * 37 + n * 101) % 997) / 997.0, 3) AS gco2_per_kwh
     FROM (VALUES ${zoneRows}) z(zone, n), range(8760) r(h) ORDER BY zone, h)
     TO '${file}' (FORMAT csv, HEADER true)`,
  );
  connection.closeSync();
  instance.closeSync();
}

/**
 * A grid series on the generated FOCUS CSV exports (issue 40), hourly lines of October 2026: the
 * 26-column one and one of a real width (56 columns, a resource's lines its hours of a day), each
 * evaluated without and with a series of 8,760 hours × 60 zones (plain `zone,start,gco2_per_kwh`),
 * against DuckDB's bare CSV → CSV copy of the same export in the same run (CPU and wall). Target:
 * ≤ 2.5× the copy, ≤ 1 GB.
 */
async function gridSeriesScenario(folder: string, say: (line: string) => void): Promise<void> {
  const series = join(folder, "series.csv");
  await writeGridSeries(series);
  for (const wide of [false, true]) {
    const input = join(folder, "focus-grid.csv");
    await writeBillingExport("focus", ROWS, input, "1.2", wide);
    const width = wide ? "FOCUS 56 columns" : "FOCUS 26 columns";
    const bare = bareCopy(input, join(folder, "copy.csv"));
    rmSync(join(folder, "copy.csv"), { force: true });
    say(
      `| DuckDB's bare copy, ${width} CSV → CSV | ${mb(statSync(input).size)} | **${bare.seconds.toFixed(1)}** | ${bare.cpuSeconds.toFixed(1)} | ${Math.round(ROWS / bare.seconds).toLocaleString("en")} | ${bare.peakMb.toFixed(0)} MB | — |`,
    );
    const output = join(folder, "out-grid.csv");
    for (const withSeries of [false, true]) {
      const run = timed([
        "evaluate",
        input,
        "--output",
        output,
        "--criteria",
        "gwp",
        ...(withSeries ? ["--grid-intensity", series] : []),
      ]);
      say(
        `| evaluate ${width} CSV → CSV, gwp${withSeries ? ", grid series 8,760 h × 60 zones" : ""} | ${mb(statSync(input).size)} | **${run.seconds.toFixed(1)}** (${(run.seconds / bare.seconds).toFixed(2)}× the copy) | ${run.cpuSeconds.toFixed(1)} (${(run.cpuSeconds / bare.cpuSeconds).toFixed(2)}×) | ${Math.round(ROWS / run.seconds).toLocaleString("en")} | **${run.peakMb.toFixed(0)} MB** | ${withSeries ? "≤ 2.5× the copy, ≤ 1 GB" : "—"} |`,
      );
    }
    rmSync(output, { force: true });
    rmSync(input);
  }
}

async function main(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), "bench-billing-"));
  const lines: string[] = [];
  const say = (line: string) => {
    lines.push(line);
    process.stdout.write(`${line}\n`);
  };
  try {
    say(`billing bench: ${ROWS.toLocaleString("en")} FOCUS lines, ${cpus().length} cores, load ${loads()}`);
    if (process.env.BILLING_NARROW !== "0") await narrow(folder, say);
    if (process.env.BILLING_WIDE !== "0") await realWidth(folder, say);
    if (process.env.BILLING_GRID !== "0") await gridSeriesScenario(folder, say);
    if (process.env.BILLING_SMALL !== "0") await smallButCostly(folder, say);
    say(`load after: ${loads()}`);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The generator's 26-column FOCUS lines, CSV and Parquet, and the coefficient tables. */
async function narrow(folder: string, say: (line: string) => void): Promise<void> {
  say("| run | input | seconds | CPU seconds | lines/s | peak RSS | target |");
  say("|---|---:|---:|---:|---:|---:|---|");
  for (const format of ["csv", "parquet"] as const) {
    const input = join(folder, `focus.${format}`);
    const started = performance.now();
    await writeBillingExport("focus", ROWS, input);
    const generated = (performance.now() - started) / 1000;
    const output = join(folder, `out.${format}`);
    const run = timed(["evaluate", input, "--output", output, "--format", format]);
    say(
      `| evaluate FOCUS ${format} → ${format} | ${mb(statSync(input).size)} (made in ${generated.toFixed(0)} s) | **${run.seconds.toFixed(1)}** | ${run.cpuSeconds.toFixed(1)} | ${Math.round(ROWS / run.seconds).toLocaleString("en")} | **${run.peakMb.toFixed(0)} MB** | ≤ 60 s, ≤ 1 GB |`,
    );
    rmSync(input);
    rmSync(output);
  }
  for (const edition of ["2.4.1", "1.2.4"]) {
    for (const format of ["csv", "parquet"] as const) {
      const output = join(folder, `coefficients.${format}`);
      const run = timed(["coefficients", "--edition", edition, "--format", format, "--output", output]);
      say(
        `| coefficients ${edition}, every instance type, ${format} | — | **${run.seconds.toFixed(1)}** | ${run.cpuSeconds.toFixed(1)} | — | ${run.peakMb.toFixed(0)} MB | ≤ 5 s |`,
      );
    }
  }
}

await main();
