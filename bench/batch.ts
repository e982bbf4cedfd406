/**
 * Batch and command-line scenarios of `npm run bench` (heavy: minutes): a 1,000,000-line cloud
 * batch through POST /v1/batch on the built service (lines/s, the server's peak resident
 * memory, single requests' latency meanwhile, totals checked against the sum of the lines) and
 * the command line on a 100,000-row CSV inventory with 1 and 2 worker threads.
 * `BENCH_BATCH_LINES` and `BENCH_CLI_ROWS` change the sizes. Not a test: figures for bench/README.md.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import autocannon from "autocannon";
import { serviceArguments } from "./serviceCommand.js";

const LINES = Number(process.env.BENCH_BATCH_LINES ?? 1_000_000);
const CLI_ROWS = Number(process.env.BENCH_CLI_ROWS ?? 100_000);
const root = new URL("..", import.meta.url);
const LOCATIONS = ["FRA", "DEU", "USA", "CHN", "IRL", "SWE", "GBR", "BEL"];

const instanceTypes = readFileSync(new URL("data/1.2.4/archetypes/cloud/aws.csv", root), "utf8")
  .split("\n")
  .slice(1)
  .map((line) => line.split(",")[0])
  .filter((id) => id.length > 0);

/** The i-th line: instance types and locations in turn (deterministic, no repetition pattern of small period). */
function cloudLine(index: number): string {
  return JSON.stringify({
    path: "/v1/cloud/instance?verbose=false",
    body: {
      provider: "aws",
      instance_type: instanceTypes[(index * 7919) % instanceTypes.length],
      usage: { usage_location: LOCATIONS[index % LOCATIONS.length] },
    },
  });
}

/** Peak resident memory of a process so far (VmHWM), in MB. */
function peakMb(pid: number): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

async function startService(port: number): Promise<ChildProcess> {
  execFileSync("npm", ["run", "build", "--silent"], { cwd: root, stdio: "inherit" });
  const child = spawn(process.execPath, serviceArguments(), {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), WORKERS: "1", LOG_LEVEL: "warn" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

type Totals = Record<string, Record<string, number>>;

/** Streams LINES lines and reads the answer as it comes, summing the lines' values on the way. */
function runBatch(
  port: number,
): Promise<{ seconds: number; lines: number; summary: { total: Totals }; sums: Totals }> {
  let index = 0;
  const body = new Readable({
    read() {
      let chunk = "";
      for (let n = 0; n < 200 && index < LINES; n += 1, index += 1) chunk += `${cloudLine(index)}\n`;
      this.push(chunk === "" ? null : chunk);
    },
  });
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: "127.0.0.1",
        port,
        method: "POST",
        path: "/v1/batch",
        headers: { "content-type": "application/x-ndjson" },
      },
      (response) => {
        let rest = "";
        let lines = 0;
        let summary: { total: Totals } | null = null;
        const sums: Totals = {};
        response.setEncoding("utf8");
        response.on("data", (text: string) => {
          const parts = (rest + text).split("\n");
          rest = parts.pop() ?? "";
          for (const part of parts) {
            const line = JSON.parse(part);
            if (line.summary) {
              summary = line.summary;
              continue;
            }
            lines += 1;
            if (line.status !== 200) continue;
            for (const [criterion, phases] of Object.entries(
              line.body.impacts as Record<string, Record<string, { value?: number }>>,
            )) {
              for (const phase of ["embedded", "use"]) {
                const value = phases[phase]?.value;
                if (typeof value !== "number") continue;
                sums[criterion] ??= {};
                sums[criterion][phase] = (sums[criterion][phase] ?? 0) + value;
              }
            }
          }
        });
        response.on("end", () => {
          if (!summary) reject(new Error("no summary line"));
          else resolve({ seconds: (performance.now() - started) / 1000, lines, summary, sums });
        });
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    body.pipe(request);
  });
}

async function batchScenario(): Promise<void> {
  const port = 20000 + Math.floor(Math.random() * 12000);
  const service = await startService(port);
  try {
    const batch = runBatch(port);
    // Single requests on one connection while the batch runs (their latency is what others pay).
    const singles = await autocannon({
      url: `http://127.0.0.1:${port}`,
      connections: 1,
      duration: 15,
      requests: [
        {
          method: "POST",
          path: "/v1/cloud/instance?verbose=false",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            provider: "aws",
            instance_type: "m5.xlarge",
            usage: { usage_location: "FRA" },
          }),
        },
      ],
    });
    const result = await batch;
    const equal = JSON.stringify(result.summary.total) === JSON.stringify(result.sums);
    console.log(
      `batch of ${LINES.toLocaleString("en-US")} cloud lines: ${result.lines.toLocaleString("en-US")} answered in ${result.seconds.toFixed(1)} s, ` +
        `${Math.round(result.lines / result.seconds).toLocaleString("en-US")} lines/s, server peak RSS ${peakMb(service.pid as number).toFixed(0)} MB, ` +
        `totals ${equal ? "equal to" : "DIFFERENT from"} the sum of the lines`,
    );
    console.log(
      `single requests during the batch (first 15 s, 1 connection): ${Math.round(singles.requests.average)} req/s, p50 ${singles.latency.p50} ms, p99 ${singles.latency.p99} ms`,
    );
  } finally {
    service.kill();
  }
}

/** The command line on a generated CSV: seconds, rows/s and the process's peak RSS. */
async function cliScenario(file: string, workers: number): Promise<void> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      "bin/impact-service.mjs",
      "evaluate",
      file,
      "--format",
      "ndjson",
      ...(workers > 0 ? ["--workers", String(workers)] : []),
    ],
    { cwd: root, env: { ...process.env, LOG_LEVEL: "warn" }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let peak = 0;
  const poll = setInterval(() => {
    try {
      const now = peakMb(child.pid as number);
      if (Number.isFinite(now)) peak = Math.max(peak, now);
    } catch {
      // exited
    }
  }, 100);
  let last = "";
  child.stdout?.setEncoding("utf8");
  child.stdout?.on("data", (text: string) => {
    last = (last + text).slice(-4096);
  });
  let stderr = "";
  child.stderr?.on("data", (text) => {
    stderr += text;
  });
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  clearInterval(poll);
  const seconds = (performance.now() - started) / 1000;
  const summary = JSON.parse(last.trim().split("\n").pop() ?? "{}").summary;
  console.log(
    `CLI, ${CLI_ROWS.toLocaleString("en-US")}-row CSV, ${workers > 0 ? `${workers} worker${workers > 1 ? "s" : ""}` : "in-process"}: exit ${code}, ` +
      `${seconds.toFixed(1)} s including start-up, ${Math.round(CLI_ROWS / seconds).toLocaleString("en-US")} rows/s, peak RSS ${peak.toFixed(0)} MB, ${summary?.ok} ok`,
  );
  if (code !== 0) console.log(stderr.slice(-2000));
}

async function main(): Promise<void> {
  await batchScenario();
  const file = join(tmpdir(), `impact-bench-${process.pid}.csv`);
  const rows = ["kind,provider,instance_type,usage_location,hours,quantity"];
  for (let index = 0; index < CLI_ROWS; index += 1) {
    rows.push(
      `cloud,aws,${instanceTypes[(index * 7919) % instanceTypes.length]},${LOCATIONS[index % LOCATIONS.length]},8760,${1 + (index % 3)}`,
    );
  }
  writeFileSync(file, `${rows.join("\n")}\n`);
  try {
    for (const workers of [1, 2]) await cliScenario(file, workers);
  } finally {
    rmSync(file, { force: true });
  }
}

await main();
