import { type ChildProcess, spawn } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { setPriority } from "node:os";
import { MAX_RESOURCE_SERIES_BYTES } from "./scanGauges.js";
import { type ServedGauges, servedGaugesOf } from "./servedGauges.js";

/*
 * The server's scan of an AWS account (SCAN_AWS_REGIONS, docs/scan.md): `impact-service scan aws …
 * --metrics=-` run in a child process at the operator's interval, one at a time, its gauges kept
 * between scrapes for `/metrics` to write. The command is the process that holds the AWS SDK, the
 * credentials, the calls and the evaluation, a page of the account at a time, and writes the
 * gauges with their series bounded (src/scan/scanGauges.ts): the service's event loop only reads a
 * bounded text, so a scan never blocks another request, whatever the account's size. Every run is
 * bounded: its time (SCAN_TIMEOUT_SECONDS, then SIGTERM, then SIGKILL), its heap, its resident
 * memory (watched from here), the bytes of its output and of its stderr kept. A run that fails
 * keeps the previous scan's gauges; what it could not read is logged, one line each.
 */

/** Bytes of a scan's output read, at most: the gauges' text, its resources' series bounded. */
export const MAX_SCAN_OUTPUT_BYTES = 2 * MAX_RESOURCE_SERIES_BYTES;

/** Bytes of a scan's stderr kept (its first): its lines of what it could not read. */
const MAX_STDERR_BYTES = 64 * 1024;

/** Lines of a scan's stderr logged, at most. */
const MAX_LINES_LOGGED = 50;

/** The command's heap (node's --max-old-space-size, MB). */
const SCAN_HEAP_MB = 256;

/**
 * The command's resident memory, at most: its heap, node's own and a few answers of AWS in flight
 * (each bounded, src/scan/aws/clients.ts). Past it the command is stopped: within the 1 GiB
 * container, the service's own memory is never what a scan takes.
 */
export const MAX_SCAN_RESIDENT_BYTES = 384 * 1024 * 1024;

/**
 * The command's niceness: its CPU yields to the service's (a scan of 100,000 instances is about
 * 15 CPU seconds of evaluation), so that requests are answered at their pace while it runs.
 */
const SCAN_NICENESS = 10;

/** Time between two looks at the command's resident memory. */
const WATCH_MS = 200;
/**
 * Time the command is given beyond its own time (`--timeout`, its calls' and evaluation's) before
 * it is stopped: to start (a niced node loading its bundle on a busy machine) and write its gauges.
 */
const BEYOND_ITS_TIME_MS = 30_000;

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
  /** The last scan that ended with its gauges; null before the first. */
  latest(): ServedGauges | null;
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
    "--metrics=-",
  ];
}

/**
 * A process's own resident bytes (Linux's /proc): its anonymous and shared-memory pages, without
 * the pages of the files it maps (node's binary), which the service shares; VmRSS where the kernel
 * does not split it; null when it cannot be read (ended, no /proc).
 */
async function residentBytes(pid: number): Promise<number | null> {
  const status = await readFile(`/proc/${pid}/status`, "latin1").catch(() => "");
  const field = (name: string) => {
    const found = new RegExp(`^${name}:\\s+(\\d+) kB$`, "m").exec(status)?.[1];
    return found === undefined ? null : Number(found) * 1024;
  };
  const anonymous = field("RssAnon");
  return anonymous === null ? field("VmRSS") : anonymous + (field("RssShmem") ?? 0);
}

/** A run's outcome: its gauges and the lines it said, or why there are none. */
type RunOutcome = { gauges: ServedGauges; said: string[] } | { failed: string; said: string[] };

/** The lines of a run's stderr the service logs: the command's own, its prefix dropped. */
function saidLines(stderr: string): string[] {
  const lines = stderr
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => line.replace(/^impact-service: /, ""));
  const more = lines.length - MAX_LINES_LOGGED;
  return more > 0 ? [...lines.slice(0, MAX_LINES_LOGGED), `… ${more} more lines`] : lines;
}

/** One run of the command: its gauges read, or why there are none. */
function runOnce(options: ScanScheduleOptions, started: (child: ChildProcess) => void) {
  return new Promise<RunOutcome>((resolve) => {
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
    if (child.pid !== undefined) {
      writeFile(`/proc/${child.pid}/oom_score_adj`, "1000").catch(() => {});
      try {
        setPriority(child.pid, SCAN_NICENESS);
      } catch {
        // A platform without priorities: the scan runs at the service's.
      }
    }
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
      options.timeoutMs + BEYOND_ITS_TIME_MS,
    );
    const watch = setInterval(async () => {
      const bytes = child.pid === undefined ? null : await residentBytes(child.pid);
      if (bytes !== null && bytes > MAX_SCAN_RESIDENT_BYTES)
        stop(`used ${mib(bytes)} of memory, more than ${mib(MAX_SCAN_RESIDENT_BYTES)}`);
    }, WATCH_MS);
    child.stdout?.on("data", (chunk: Buffer) => {
      outputBytes += chunk.length;
      if (outputBytes > MAX_SCAN_OUTPUT_BYTES) stop(`wrote more than ${mib(MAX_SCAN_OUTPUT_BYTES)}`);
      else if (stopped === null) output.push(chunk);
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      if (stderr.length < MAX_STDERR_BYTES)
        stderr = (stderr + chunk.toString("utf8")).slice(0, MAX_STDERR_BYTES);
    });
    child.once("error", (error) => resolve({ failed: `could not start: ${error.message}`, said: [] }));
    child.once("close", (code) => {
      clearTimeout(timer);
      clearInterval(watch);
      const said = saidLines(stderr);
      if (stopped !== null) return resolve({ failed: `stopped: it ${stopped}`, said });
      const gauges = servedGaugesOf(Buffer.concat(output).toString("utf8"));
      output.length = 0;
      if (gauges === null) return resolve({ failed: `exit ${code}: ${said.at(-1) ?? "no output"}`, said });
      resolve({ gauges, said });
    });
  });
}

const mib = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`;

/** The scan run at `intervalMs`, the first at once; `stop` when the service stops. */
export function createScanSchedule(options: ScanScheduleOptions): ScanSchedule {
  let latest: ServedGauges | null = null;
  let child: ChildProcess | null = null;
  let current: Promise<void> | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;

  const run = async () => {
    const outcome = await runOnce(options, (started) => {
      child = started;
    });
    child = null;
    for (const line of outcome.said) options.say(`scan: ${line}`);
    if ("failed" in outcome) {
      options.say(`scan of ${options.regions.join(", ")}: ${outcome.failed}; the previous gauges kept`);
      return;
    }
    latest = outcome.gauges;
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
