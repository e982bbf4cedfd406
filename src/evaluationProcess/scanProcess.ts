import type { Readable } from "node:stream";
import { type CommandEnvironment, startNodeCommand } from "./command.js";
import { type Ended, endOf } from "./outcome.js";
import { createRunWatch, type WatchBounds } from "./runWatch.js";

/*
 * The server's scan of an AWS account (src/scan/schedule.ts) run as a file's evaluation is: the
 * command line (`impact-service scan aws … --metrics=-`) in a child process started by
 * startNodeCommand, its time bounded by endOf and its resident memory by a run watch — here with
 * the scan's bounds: its heap, its resident memory, its niceness, SIGTERM then SIGKILL past its
 * time. The schedule reads its output (the gauges) and what it said; this module starts and
 * bounds the process, and knows nothing of AWS nor of gauges.
 */

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

/** Time the command is given to end after SIGTERM, before SIGKILL: to write what it read. */
const KILL_GRACE_MS = 5_000;

/** The scan's bounds as a run watch holds them: its resident memory, no folder of its own. */
const SCAN_WATCH_BOUNDS: WatchBounds = { runsMemoryBytes: MAX_SCAN_RESIDENT_BYTES, runFolderBytes: Infinity };

const mib = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`;

/** A scan's command running: its output, its end, and how it is stopped. */
export interface ScanProcess {
  /** The command's standard output (the gauges' text). */
  readonly output: Readable | null;
  readonly ended: Promise<Ended>;
  /** Stops the command (SIGTERM, then SIGKILL), `reason` its failure's words. */
  readonly stop: (reason: string) => void;
}

/** What the scan's command is started with: its arguments, its time and what is said past it. */
export interface ScanStart {
  readonly args: readonly string[];
  readonly timeoutMs: number;
  readonly tookTooLong: string;
}

/** Starts the scan's command, `entry` the command line's, with the service's `environment`. */
export function scanProcessStarter(entry: string, environment: CommandEnvironment) {
  const watch = createRunWatch(
    SCAN_WATCH_BOUNDS,
    (bounds, used) => `used ${mib(used)} of memory, more than ${mib(bounds.runsMemoryBytes)}`,
  );
  return (start: ScanStart): ScanProcess => {
    const child = startNodeCommand({
      entry,
      args: start.args,
      heapMb: SCAN_HEAP_MB,
      niceness: SCAN_NICENESS,
      stdout: "pipe",
      environment: { ...environment, LOG_LEVEL: "warn" },
    });
    const { ended, stop } = endOf(child, {
      timeoutMs: start.timeoutMs,
      tookTooLong: start.tookTooLong,
      graceMs: KILL_GRACE_MS,
    });
    const unwatch = child.pid === undefined ? () => {} : watch.add({ pid: child.pid, folder: null, stop });
    return { output: child.stdout, ended: ended.finally(unwatch), stop };
  };
}
