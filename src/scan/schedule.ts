import type { Readable } from "node:stream";
import { MAX_RESOURCE_SERIES_BYTES } from "./scanGauges.js";
import { type ServedGauges, servedGaugesOf } from "./servedGauges.js";

/*
 * The server's scan of an AWS account (SCAN_AWS_REGIONS, docs/scan.md): `impact-service scan aws …
 * --metrics=-` run in a child process at the operator's interval, one at a time, its gauges kept
 * between scrapes for `/metrics` to write. The command is the process that holds the AWS SDK, the
 * credentials, the calls and the evaluation, a page of the account at a time, and writes the
 * gauges with their series bounded (src/scan/scanGauges.ts): the service's event loop only reads a
 * bounded text, so a scan never blocks another request, whatever the account's size. The process
 * is started and bounded by the service's runner of commands, the one a file's evaluation runs
 * through (src/evaluationProcess/scanProcess.ts, given by src/app): its time (SCAN_TIMEOUT_SECONDS,
 * then SIGTERM, then SIGKILL), its heap, its resident memory; here, the bytes of its output read.
 * A run that fails keeps the previous scan's gauges; what it could not read is logged, one line each.
 */

/** Bytes of a scan's output read, at most: the gauges' text, its resources' series bounded. */
export const MAX_SCAN_OUTPUT_BYTES = 2 * MAX_RESOURCE_SERIES_BYTES;

/** Lines of a scan's stderr logged, at most. */
const MAX_LINES_LOGGED = 50;

/**
 * Time the command is given beyond its own time (`--timeout`, its calls' and evaluation's) before
 * it is stopped: to start (a niced node loading its bundle on a busy machine) and write its gauges.
 */
const BEYOND_ITS_TIME_MS = 30_000;

/** How a scan's command ended: its exit code, its stderr (bounded), why it was stopped or did not start. */
export interface ScanEnd {
  readonly exitCode: number | null;
  readonly stderr: string;
  readonly stopped: string | null;
  readonly notStarted: string | null;
}

/** A scan's command, started by the service's runner (src/evaluationProcess/scanProcess.ts). */
export interface ScanCommand {
  readonly output: Readable | null;
  readonly ended: Promise<ScanEnd>;
  /** Stops the command, `reason` its failure's words (`took more than 60 s`). */
  readonly stop: (reason: string) => void;
}

/** Starts a scan's command: its arguments, its time bound and what is said past it. */
export type ScanStarter = (start: {
  readonly args: readonly string[];
  readonly timeoutMs: number;
  readonly tookTooLong: string;
}) => ScanCommand;

/** What the schedule is configured with. */
export interface ScanScheduleOptions {
  /** Starts the command line's scan (its bundle, or its sources through tsx) in a child process. */
  readonly start: ScanStarter;
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
async function runOnce(
  options: ScanScheduleOptions,
  started: (command: ScanCommand) => void,
): Promise<RunOutcome> {
  const command = options.start({
    args: scanArguments(options),
    timeoutMs: options.timeoutMs + BEYOND_ITS_TIME_MS,
    tookTooLong: `took more than ${options.timeoutMs / 1000} s`,
  });
  started(command);
  const output: Buffer[] = [];
  let outputBytes = 0;
  command.output?.on("data", (chunk: Buffer) => {
    outputBytes += chunk.length;
    // Past its bound nothing more is kept: the run has failed, its gauges are not read
    if (outputBytes > MAX_SCAN_OUTPUT_BYTES) {
      output.length = 0;
      command.stop(`wrote more than ${mib(MAX_SCAN_OUTPUT_BYTES)}`);
    } else output.push(chunk);
  });
  const end = await command.ended;
  if (end.notStarted !== null) return { failed: `could not start: ${end.notStarted}`, said: [] };
  const said = saidLines(end.stderr);
  if (end.stopped !== null) return { failed: `stopped: it ${end.stopped}`, said };
  const gauges = servedGaugesOf(Buffer.concat(output).toString("utf8"));
  output.length = 0;
  if (gauges === null) return { failed: `exit ${end.exitCode}: ${said.at(-1) ?? "no output"}`, said };
  return { gauges, said };
}

const mib = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`;

/** The scan run at `intervalMs`, the first at once; `stop` when the service stops. */
export function createScanSchedule(options: ScanScheduleOptions): ScanSchedule {
  let latest: ServedGauges | null = null;
  let child: ScanCommand | null = null;
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
      (child as ScanCommand | null)?.stop("was stopped with the service");
    },
  };
}
