/**
 * The billing path at size (`npm run bench:billing`): 10,000,000 generated FOCUS lines
 * (scripts/billing-exports.ts) as CSV and as Parquet, each evaluated by `impact-service evaluate`
 * in a process of its own, and the coefficient table of every instance type of each edition
 * (`impact-service coefficients`, CSV and Parquet). Prints wall time, lines/s and the peak
 * resident memory of each run (the process's own, DuckDB included; GNU time's maximum RSS).
 * Targets: ≤ 60 s and ≤ 1 GB per 10,000,000-line run, ≤ 5 s per coefficient table.
 *
 * BILLING_ROWS changes the number of lines (default 10,000,000).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { writeBillingExport } from "../scripts/billing-exports.js";

const ROWS = Number(process.env.BILLING_ROWS ?? 10_000_000);
const BIN = new URL("../bin/impact-service.mjs", import.meta.url).pathname;

interface Run {
  readonly seconds: number;
  /** CPU seconds (user + system): what the run costs the machine, DuckDB running on every core. */
  readonly cpuSeconds: number;
  readonly peakMb: number;
}

/** Runs the command line under GNU time: wall seconds and maximum resident set. */
function timed(args: readonly string[]): Run {
  const result = spawnSync("/usr/bin/time", ["-f", "%e %M %U %S", process.execPath, BIN, ...args], {
    encoding: "utf8",
    env: { ...process.env, EDITION: process.env.EDITION ?? "2.4.1" },
    maxBuffer: 1 << 24,
  });
  const last = result.stderr.trim().split("\n").at(-1) ?? "";
  const [seconds, kilobytes, user, system] = last.split(" ").map(Number);
  if (result.status !== 0 || !Number.isFinite(seconds)) {
    throw new Error(
      `impact-service ${args.join(" ")} failed (${result.status}): ${result.stderr.slice(-2000)}`,
    );
  }
  return { seconds, cpuSeconds: user + system, peakMb: kilobytes / 1024 };
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;

async function main(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), "bench-billing-"));
  const lines: string[] = [];
  const say = (line: string) => {
    lines.push(line);
    process.stdout.write(`${line}\n`);
  };
  try {
    say(
      `billing bench: ${ROWS.toLocaleString("en")} FOCUS lines, ${cpus().length} cores, load ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}`,
    );
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
    say(
      `load after: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}`,
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

await main();
