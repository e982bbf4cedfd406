import { createReadStream } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import {
  FILE_EVALUATION_BOUNDS,
  type FileEvaluationBounds,
  FileRefusal,
  type FileRunner,
  type RunPlace,
  type RunTies,
  type StartedRun,
} from "../service/fileEvaluation.js";
import { type CommandEnvironment, type CommandStart, REPORT_FILE, startCommand } from "./command.js";
import { type CommandEntry, commandEntryOf } from "./commandEntry.js";
import { endOf, isFile, outcomeOf, runTimeBound } from "./outcome.js";
import { makeRunFolder } from "./runFolder.js";
import { createRunWatch, folderRefusal } from "./runWatch.js";
import { createSlots } from "./slots.js";
import { stagesOf } from "./stageReader.js";

/*
 * The service's runner of file evaluations (the port of src/service/fileEvaluation/evaluationRunner.ts):
 * each file in a private folder under the temp folder (runFolder.ts), the command line run on it
 * in a child process of its own (command.ts), so that DuckDB, the CSV parser and the engine never
 * hold the service's event loop or heap; the runs admitted by slots (slots.ts), bounded in time,
 * and watched for their memory and their folder's bytes (runWatch.ts). A run's folder is removed
 * when the run is closed, whatever closes it (its answer's end, the client gone, a bound, the
 * service stopping).
 */

/** What a runner is made of besides its bounds. */
export interface ProcessRunnerParts {
  /** The environment the commands are given: the service's own. */
  readonly environment: CommandEnvironment;
  /** The command the runs start; by default the one beside this module (commandEntryOf). */
  readonly entry?: CommandEntry | { readonly missing: string };
  /** Where the run folders are made; by default the temp folder. */
  readonly root?: string;
}

/** RLIMIT_FSIZE's signal: the command wrote a file past the folder's bytes. */
const FILE_TOO_LARGE = "SIGXFSZ";

/** What a run is tied to besides its client's signal and its slot: the watch of the runs, its time. */
interface RunWatching {
  readonly watch: ReturnType<typeof createRunWatch>["add"];
  readonly timeoutMs: number;
}

/**
 * Starts the command, watched until it ends. Its ending is tied to the signal: a run abandoned
 * before its answer's first event is read (the client gone at once) still removes its folder.
 */
function startRun(start: CommandStart, ties: RunTies, { watch, timeoutMs }: RunWatching): StartedRun {
  const { folder, bounds } = start;
  const { signal, slot } = ties;
  const child = startCommand(start);
  const { ended, stop } = endOf(child, runTimeBound(timeoutMs));
  const { progress, stages } = stagesOf(child);
  const unwatch =
    child.pid === undefined ? () => {} : watch({ pid: child.pid, folder, stop: (reason) => stop(reason) });
  child.once("exit", (_code, exitSignal) => {
    unwatch();
    if (exitSignal === FILE_TOO_LARGE) stop(folderRefusal(bounds));
  });
  const outcome = ended.then((end) => outcomeOf(end, join(folder, start.output), bounds));
  let closing: Promise<void> | null = null;
  const close = () => {
    closing ??= (async () => {
      signal.removeEventListener("abort", close);
      unwatch();
      child.kill("SIGKILL");
      await outcome;
      slot.release();
      await rm(folder, { recursive: true, force: true });
    })();
    return closing;
  };
  signal.addEventListener("abort", close, { once: true });
  if (signal.aborted) void close();
  const written: StartedRun["written"] = async (role, partBytes) => {
    const path = join(folder, role === "report" ? REPORT_FILE : start.output);
    return (await isFile(path)) ? createReadStream(path, { highWaterMark: partBytes }) : null;
  };
  return { outcome, progress, stages, written, close };
}

/** A run's folder, made: the file received at its place, the command's files under `out/`. */
function placeOf(start: Omit<CommandStart, "output" | "request">, watching: RunWatching): RunPlace {
  const { folder, input } = start;
  return {
    file: join(folder, input),
    start: (options, ties) =>
      startRun({ ...start, output: `out/${options.output}`, request: options.request }, ties, watching),
    remove: () => rm(folder, { recursive: true, force: true }),
  };
}

/** The runner of the service: `bounds` its runs' (the page's). */
export function createProcessRunner(
  { environment, entry = commandEntryOf(import.meta.url), root }: ProcessRunnerParts,
  bounds: FileEvaluationBounds = FILE_EVALUATION_BOUNDS,
): FileRunner {
  const command = "path" in entry ? entry.path : null;
  const slots = createSlots(bounds);
  const watching: RunWatching = { watch: createRunWatch(bounds).add, timeoutMs: bounds.timeoutMs };
  return {
    command:
      "path" in entry ? entry.description : `/evaluate refuses every file: ${entry.missing} is missing`,
    admit: (client) => slots.take(client),
    open: async (input) => {
      if (command === null)
        throw new FileRefusal(503, "the command line is not installed beside this service");
      const folder = await makeRunFolder(root);
      try {
        await mkdir(join(folder, "out"));
      } catch (error) {
        await rm(folder, { recursive: true, force: true });
        throw error;
      }
      return placeOf({ entry: command, folder, input, environment, bounds }, watching);
    },
  };
}
