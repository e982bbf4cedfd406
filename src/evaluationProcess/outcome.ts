import type { ChildProcess } from "node:child_process";
import { stat } from "node:fs/promises";
import type { RunOutcome } from "../service/fileEvaluation.js";
import { inPageWords } from "./command.js";
import { folderRefusal, type WatchBounds } from "./runWatch.js";

/*
 * How a run's command ended, read from its process: its exit code, its stderr (the summary,
 * bounded), the bound that stopped it if one did; then what that means for the run — stopped by a
 * bound, a refusal of the file (nothing written), or a run to its end.
 */

/** What the command answered: its exit code and its stderr (the summary), bounded; why it was stopped. */
export interface Ended {
  readonly exitCode: number | null;
  readonly stderr: string;
  /** The refusal of a run stopped by a bound (its time, memory or files), null when it ended itself. */
  readonly stopped: string | null;
  /** Why its process could not start (node's error), null when it started. */
  readonly notStarted: string | null;
}

/** Stderr kept of a run: its summary and bad rows, not an unbounded stream. */
const MAX_STDERR_BYTES = 64 * 1024;

/** How a command's time is bounded. */
export interface TimeBound {
  readonly timeoutMs: number;
  /** Why it is stopped once past it. */
  readonly tookTooLong: string;
  /**
   * Time it is given to end after SIGTERM, before SIGKILL; absent: SIGKILL at once (a file's run,
   * whose folder goes with it, has nothing to finish).
   */
  readonly graceMs?: number;
}

/** A run's time bound: the page's. */
export const runTimeBound = (timeoutMs: number): TimeBound => ({
  timeoutMs,
  tookTooLong: `the run took longer than ${timeoutMs / 1000} s (the page's bound) and was stopped`,
});

/** The end of a started command, its time bounded: `stop` kills it with the refusal given. */
export function endOf(child: ChildProcess, { timeoutMs, tookTooLong, graceMs }: TimeBound) {
  let stopped: string | null = null;
  const stop = (reason: string) => {
    stopped ??= reason;
    if (graceMs === undefined) {
      child.kill("SIGKILL");
      return;
    }
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), graceMs).unref();
  };
  const ended = new Promise<Ended>((resolve) => {
    let stderr = "";
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (text: string) => {
      if (stderr.length < MAX_STDERR_BYTES) stderr += text.slice(0, MAX_STDERR_BYTES - stderr.length);
    });
    const timer = setTimeout(() => stop(tookTooLong), timeoutMs);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ exitCode: code, stderr, stopped, notStarted: null });
    });
    child.once("error", (error) => {
      clearTimeout(timer);
      resolve({ exitCode: null, stderr, stopped, notStarted: error.message });
    });
  });
  return { ended, stop };
}

export const isFile = async (path: string) => (await stat(path).catch(() => null))?.isFile() === true;

/** The last line of the command's stderr: its one-line refusal (exit 2). */
const lastLine = (text: string) =>
  text
    .trim()
    .split("\n")
    .at(-1)
    ?.replace(/^impact-service: /, "") ?? "";

/** A write the file-size bound stopped (EFBIG), as the command's line says it (DuckDB's, node's). */
const FILE_TOO_LARGE_SAID = /\bFile too large\b|\bEFBIG\b/i;

/**
 * The outcome of a command that ended as `ended` says, its output at `output`. A misuse (exit 2)
 * or a file the command could not read (exit 1, nothing written) is its one line; a write past the
 * run's bytes (node and DuckDB go on past SIGXFSZ, failing the write) is the bound.
 */
export async function outcomeOf(ended: Ended, output: string, bounds: WatchBounds): Promise<RunOutcome> {
  if (ended.stopped !== null) return { ended: "stopped", refusal: ended.stopped };
  if (ended.exitCode !== 0 && !(await isFile(output))) {
    const said = lastLine(ended.stderr);
    if (FILE_TOO_LARGE_SAID.test(said)) return { ended: "stopped", refusal: folderRefusal(bounds) };
    return { ended: "refused", refusal: inPageWords(said) || "the command could not run" };
  }
  return { ended: "ran", exitCode: ended.exitCode ?? 1, summary: ended.stderr };
}
