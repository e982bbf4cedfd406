import { type ChildProcess, spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import type { ScannedEstimate, ScanProblem } from "./resources.js";

/*
 * The server's scan of an AWS account (SCAN_AWS_REGIONS, docs/scan.md): `impact-service scan aws …
 * --estimated -` run in a child process at the operator's interval, one at a time, its estimated
 * inventory kept between scrapes for `/metrics` to render. The command is the process that holds
 * the AWS SDK, the credentials and the calls: the service's event loop only reads its output, so
 * a scan never blocks another request. Every run is bounded: its time (SCAN_TIMEOUT_SECONDS, then
 * SIGTERM, then SIGKILL), its heap, the bytes of its output and of its stderr kept. A run that
 * fails keeps the previous scan's gauges; what it could not read is logged, one line each.
 */

/** Bytes of a scan's output read, at most (an estimated inventory of 100,000 resources is about 60 MB). */
export const MAX_SCAN_OUTPUT_BYTES = 96 * 1024 * 1024;

/** Bytes of a scan's stderr kept: its lines of what it could not read. */
const MAX_STDERR_BYTES = 64 * 1024;

/** The command's heap (node's --max-old-space-size, MB). */
const SCAN_HEAP_MB = 256;

/** Time the command is given to end after SIGTERM, before SIGKILL. */
const KILL_GRACE_MS = 5_000;

/** What the schedule is configured with. */
export interface ScanScheduleOptions {
  /** The command line's entry (its bundle, or its sources through tsx). */
  readonly entry: string;
  readonly environment: Readonly<Record<string, string | undefined>>;
  readonly regions: readonly string[];
  /** `key=value` each. */
  readonly filters: readonly string[];
  readonly hours: number;
  readonly edition: string | null;
  readonly intervalMs: number;
  readonly timeoutMs: number;
  /** Where a run's problems and failures are said (no credential is ever in them). */
  readonly say: (line: string) => void;
}

/** The server's scan: its last estimate, and its runs. */
export interface ScanSchedule {
  readonly regions: readonly string[];
  /** The last scan that ended with an estimate; null before the first. */
  latest(): ScannedEstimate | null;
  /** Whether a scan's command is running now. */
  running(): boolean;
  /** Runs a scan now unless one runs; resolves when the run in course ends. */
  scanNow(): Promise<void>;
  /** No further scan; the running one's command stopped. */
  stop(): void;
}

/** The command's arguments, each value as `--name=value`. */
export function scanArguments(
  options: Pick<ScanScheduleOptions, "regions" | "filters" | "hours" | "edition" | "timeoutMs">,
) {
  return [
    "scan",
    "aws",
    `--region=${options.regions.join(",")}`,
    ...options.filters.map((filter) => `--filter-tag=${filter}`),
    `--hours=${options.hours}`,
    `--timeout=${Math.floor(options.timeoutMs / 1000)}`,
    ...(options.edition === null ? [] : [`--edition=${options.edition}`]),
    "--estimated=-",
  ];
}

/** One run of the command: its output parsed, or why there is none. */
function runOnce(options: ScanScheduleOptions, started: (child: ChildProcess) => void) {
  return new Promise<{ estimate: ScannedEstimate } | { failed: string }>((resolve) => {
    const child = spawn(
      process.execPath,
      [`--max-old-space-size=${SCAN_HEAP_MB}`, options.entry, ...scanArguments(options)],
      {
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...options.environment, LOG_LEVEL: "warn" },
      },
    );
    started(child);
    // The first process the kernel stops should the container's memory run out, never the service.
    if (child.pid !== undefined) writeFile(`/proc/${child.pid}/oom_score_adj`, "1000").catch(() => {});
    const output: Buffer[] = [];
    let outputBytes = 0;
    let stderr = "";
    let stopped: string | null = null;
    const stop = (why: string) => {
      stopped ??= why;
      child.kill("SIGTERM");
      setTimeout(() => child.kill("SIGKILL"), KILL_GRACE_MS).unref();
    };
    const timer = setTimeout(
      () => stop(`took more than ${options.timeoutMs / 1000} s`),
      options.timeoutMs + KILL_GRACE_MS,
    );
    child.stdout?.on("data", (chunk: Buffer) => {
      outputBytes += chunk.length;
      if (outputBytes > MAX_SCAN_OUTPUT_BYTES) stop(`wrote more than ${MAX_SCAN_OUTPUT_BYTES} bytes`);
      else output.push(chunk);
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString("utf8")).slice(-MAX_STDERR_BYTES);
    });
    child.once("error", (error) => resolve({ failed: `could not start: ${error.message}` }));
    child.once("close", (code) => {
      clearTimeout(timer);
      const lines = stderr.split("\n").filter((line) => line.trim() !== "");
      if (stopped !== null) return resolve({ failed: `stopped: it ${stopped}` });
      try {
        resolve({ estimate: JSON.parse(Buffer.concat(output).toString("utf8")) as ScannedEstimate });
      } catch {
        resolve({ failed: `exit ${code}: ${lines.at(-1) ?? "no output"}` });
      }
    });
  });
}

/** The scan run at `intervalMs`, the first at once; `stop` when the service stops. */
export function createScanSchedule(options: ScanScheduleOptions): ScanSchedule {
  let latest: ScannedEstimate | null = null;
  let child: ChildProcess | null = null;
  let current: Promise<void> | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;

  const run = async () => {
    const outcome = await runOnce(options, (started) => {
      child = started;
    });
    child = null;
    if ("failed" in outcome) {
      options.say(`scan of ${options.regions.join(", ")}: ${outcome.failed}; the previous gauges kept`);
      return;
    }
    latest = outcome.estimate;
    for (const problem of outcome.estimate.scan?.problems ?? ([] as ScanProblem[]))
      options.say(`scan: ${problem.line}`);
  };
  const scanNow = () => {
    current ??= run().finally(() => {
      current = null;
    });
    return current;
  };
  const next = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      scanNow().finally(next);
    }, options.intervalMs);
    timer.unref();
  };
  scanNow().finally(next);
  return {
    regions: options.regions,
    latest: () => latest,
    running: () => child !== null,
    scanNow,
    stop() {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      (child as ChildProcess | null)?.kill("SIGTERM");
    },
  };
}
