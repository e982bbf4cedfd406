import type { ChildProcess } from "node:child_process";
import { createReadStream, existsSync } from "node:fs";
import { mkdir, rm, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createGzip } from "node:zlib";
import { checkWorkbookDirectory, WorkbookBoundError } from "../support/boundedWorkbook.js";
import {
  type CommandEnvironment,
  type CommandStart,
  inPageWords,
  startCommand,
} from "./fileEvaluation/command.js";
import {
  type AcceptedValues,
  endingOf,
  FileRefusal,
  type FileRequest,
  fileRequestOf,
  localName,
} from "./fileEvaluation/request.js";
import { makeRunFolder } from "./fileEvaluation/runFolder.js";
import { createRunWatch, folderRefusal } from "./fileEvaluation/runWatch.js";
import { createSlots, type Slot } from "./fileEvaluation/slots.js";
import { receive } from "./fileEvaluation/upload.js";

export type { CommandEnvironment } from "./fileEvaluation/command.js";
export {
  type AcceptedValues,
  FileRefusal,
  type FileRequest,
  READ_ENDINGS,
} from "./fileEvaluation/request.js";
export { removeLeftFolders } from "./fileEvaluation/runFolder.js";
export type { Slot } from "./fileEvaluation/slots.js";

/*
 * "Evaluate a file" (the service's /evaluate page, POST /v1/evaluate): an inventory or a billing
 * export evaluated by the command line itself — `impact-service evaluate FILE -o OUT --report
 * REPORT`, the same readers, limits, numbers and report — in a child process of its own, so that
 * DuckDB, the CSV parser and the engine never hold the service's event loop or heap. The file is
 * written to a private temporary folder, bounded as it arrives (bytes, lines, pace); the run is
 * bounded in time, memory and bytes written like the service itself (fileEvaluation/command.ts,
 * fileEvaluation/runWatch.ts); the folder is removed when the answer ends, whatever ends it (the
 * client gone, a bound, a refusal, the command killed). Nothing of the file is logged: the
 * command's summary goes to the client only.
 */

/** The page's bounds (docs/limits.md, "The evaluate page"). */
export interface FileEvaluationBounds {
  /** Bytes of the file as sent (a .csv.gz or .json.gz counts compressed). */
  readonly maxBytes: number;
  /** Lines of text (CSV, NDJSON; a .csv.gz's or .json.gz's inflated text; not a workbook's or Parquet's bytes), counted as they arrive. */
  readonly maxLines: number;
  /** Time of the command's run, from its start. */
  readonly timeoutMs: number;
  /** Files evaluated at once, all clients together; past it, refused (503). */
  readonly maxConcurrent: number;
  /** Files one client (its address) has at once; past it, refused (503). */
  readonly maxPerClient: number;
  /** The upload's pace: at least `minUploadBytes` in each `uploadWindowMs` from its start (408). */
  readonly minUploadBytes: number;
  readonly uploadWindowMs: number;
  /** Bytes a gzip's text may inflate to as it is received (413). */
  readonly maxInflatedBytes: number;
  /** Time the upload may wait on a gzip's inflation, in all (413). */
  readonly inflateMs: number;
  /** Bytes of a run's folder: the file, the output, the report and the command's temporary files. */
  readonly runFolderBytes: number;
  /** Resident memory of the runs' commands together; one alone may use all of it. */
  readonly runsMemoryBytes: number;
  /** A command's heap (node's --max-old-space-size, MB). */
  readonly runHeapMb: number;
}

const MiB = 1024 * 1024;

/**
 * The bounds, sized for the container the service ships in (1 GiB of memory, a 1 GiB temp folder:
 * docs/limits.md, "The evaluate page"): a run's folder holds a file at its bound with its output
 * and report (a 50 MiB FOCUS export of 75,000 lines writes a 60 MB output); a run's command took
 * 500 MB resident on that export, so the runs together are bounded by what that one needs.
 */
export const FILE_EVALUATION_BOUNDS: FileEvaluationBounds = {
  maxBytes: 50 * MiB,
  maxLines: 200_000,
  timeoutMs: 120_000,
  maxConcurrent: 2,
  maxPerClient: 1,
  minUploadBytes: 64 * 1024,
  uploadWindowMs: 10_000,
  // 200,000 lines of 5 KiB, a wide bill's; the temporary volume's size (deploy/deployment.yaml)
  maxInflatedBytes: 1024 * MiB,
  inflateMs: 30_000,
  runFolderBytes: 160 * MiB,
  runsMemoryBytes: 512 * MiB,
  runHeapMb: 256,
};

/** One event of a run, as the client reads it (one NDJSON line each). */
export type FileEvent =
  | {
      readonly event: "running";
      readonly seconds: number;
      /** The run's stage, as the command tells it (a bill's: src/billing/bill.ts), its lines, the share done. */
      readonly stage?: string;
      readonly lines?: number;
      readonly done?: number;
    }
  | {
      readonly event: "file";
      readonly role: "output" | "report";
      readonly name: string;
      readonly type: string;
      /**
       * A part of the file, base64: the parts in order are the file — gzipped (RFC 1952) when
       * `encoding` says so (the output, ten times smaller for a bill's CSV).
       */
      readonly data: string;
      readonly encoding?: "gzip";
    }
  | { readonly event: "done"; readonly exitCode: number; readonly summary: string }
  | {
      readonly event: "refused";
      readonly message: string;
      /** Set when a bound of the page stopped the run (its time, memory, files' bytes): the command line has none but the machine's. */
      readonly bound?: true;
    };

/** The command line's bundle, beside the server's bundle (scripts/build.ts writes both). */
export const COMMAND_BUNDLE = "cli.mjs";

/** What a run starts: the command's entry, and how the service's start-up line names it. */
export interface CommandEntry {
  readonly path: string;
  readonly description: string;
}

/**
 * The command line the runs start, decided by the place of this module. Bundled (the module is
 * the server's bundle, `dist/bundle/server.mjs`: `npm start`, the image), the command's bundle
 * beside it (COMMAND_BUNDLE): plain JavaScript, no transpiling before its first row — or null,
 * a refusal naming it, when the build did not write it. Run from the sources (`npm run dev`,
 * the module a .ts file), the command's sources through tsx (src/cli/sources.mjs), as current as
 * the service's own.
 */
export function commandEntryOf(moduleUrl: string): CommandEntry | { readonly missing: string } {
  const module = fileURLToPath(moduleUrl);
  if (!module.endsWith(".ts")) {
    const path = join(dirname(module), COMMAND_BUNDLE);
    return existsSync(path)
      ? { path, description: `/evaluate runs the bundled command ${path}` }
      : { missing: path };
  }
  const path = fileURLToPath(new URL("../cli/sources.mjs", moduleUrl));
  return existsSync(path)
    ? { path, description: `/evaluate runs the command's sources ${path} through tsx` }
    : { missing: path };
}

/** What the command answered: its exit code and its stderr (the summary), bounded; why it was stopped. */
interface Outcome {
  readonly exitCode: number | null;
  readonly stderr: string;
  /** The refusal of a run stopped by a bound (its time, memory or files), null when it ended itself. */
  readonly stopped: string | null;
}

/** Stderr kept of a run: its summary and bad rows, not an unbounded stream. */
const MAX_STDERR_BYTES = 64 * 1024;

/** The time between two `running` events. */
const HEARTBEAT_MS = 1_000;

/** Bytes of a `file` event's part before base64: the answer never holds a whole output. */
const PART_BYTES = 384 * 1024;

/**
 * A workbook's directory checked before its command starts (src/support/boundedWorkbook.ts): a
 * workbook whose parts are past their bound (3 GiB of a sheet, 10^9 bytes of shared strings in
 * 3 MB) is refused at once, 413, naming it. Any other file, or a workbook yauzl cannot read, goes
 * to the command, which names what it is.
 */
async function checkedWorkbook(path: string): Promise<void> {
  if (!path.toLowerCase().endsWith(".xlsx")) return;
  try {
    await checkWorkbookDirectory(path);
  } catch (error) {
    if (error instanceof WorkbookBoundError) throw new FileRefusal(413, error.message);
    throw error;
  }
}

/** The outcome of a started run, its time bounded: `stop` kills it with the refusal given. */
function outcomeOf(child: ChildProcess, timeoutMs: number) {
  let stopped: string | null = null;
  const stop = (reason: string) => {
    stopped ??= reason;
    child.kill("SIGKILL");
  };
  const outcome = new Promise<Outcome>((resolve) => {
    let stderr = "";
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (text: string) => {
      if (stderr.length < MAX_STDERR_BYTES) stderr += text.slice(0, MAX_STDERR_BYTES - stderr.length);
    });
    const timer = setTimeout(
      () => stop(`the run took longer than ${timeoutMs / 1000} s (the page's bound) and was stopped`),
      timeoutMs,
    );
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ exitCode: code, stderr, stopped });
    });
    child.once("error", () => {
      clearTimeout(timer);
      resolve({ exitCode: null, stderr, stopped });
    });
  });
  return { outcome, stop };
}

const TYPES: Readonly<Record<string, string>> = {
  csv: "text/csv",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  parquet: "application/vnd.apache.parquet",
  html: "text/html",
};

const isFile = async (path: string) => (await stat(path).catch(() => null))?.isFile() === true;

/**
 * zlib's fastest level: a 135.5 MB bill's output CSV is 16.9 MB in 1.8 s (level 6: 14.1 MB in
 * 5.9 s), where sending it whole took the page 35 s (bench/README.md, "The evaluate page").
 */
const GZIP_LEVEL = 1;

/**
 * A written file as `file` events, part by part (nothing when the command did not write it);
 * `gzip`: "gzip" its bytes gzipped as they are read, "gzipped" its bytes sent as they are (the
 * command wrote them gzipped); the page inflates either when the file is downloaded.
 */
async function* fileEvents(
  path: string,
  role: "output" | "report",
  name: string,
  gzip: "gzip" | "gzipped" | "as it is" = "as it is",
): AsyncGenerator<FileEvent> {
  if (!(await isFile(path))) return;
  const type = TYPES[name.slice(name.lastIndexOf(".") + 1)] ?? "application/octet-stream";
  const read = createReadStream(path, { highWaterMark: PART_BYTES });
  const parts = gzip === "gzip" ? read.pipe(createGzip({ level: GZIP_LEVEL, chunkSize: PART_BYTES })) : read;
  const encoding = gzip === "as it is" ? {} : { encoding: "gzip" as const };
  for await (const part of parts) {
    yield { event: "file", role, name, type, data: (part as Buffer).toString("base64"), ...encoding };
  }
}

/** The last line of the command's stderr: its one-line refusal (exit 2). */
const lastLine = (text: string) =>
  text
    .trim()
    .split("\n")
    .at(-1)
    ?.replace(/^impact-service: /, "") ?? "";

export interface FileEvaluator {
  /** Which command the runs start (the service's start-up line says it): bundled, or through tsx. */
  readonly command: string;
  readonly bounds: FileEvaluationBounds;
  /** The request of a query string, its values checked against what the service serves. */
  readonly requestOf: (query: URLSearchParams) => FileRequest;
  /** Admission: a slot for a client (its address), or the refusal (503) when none is free to it. */
  readonly admit: (client: string) => Slot | FileRefusal;
  /**
   * Receives `body` (a FileRefusal when a bound is passed), then returns the run's events; the
   * slot is given back and the temporary folder removed when they end or are abandoned, or when
   * `signal` aborts.
   */
  readonly evaluate: (
    request: FileRequest,
    body: AsyncIterable<Uint8Array>,
    signal: AbortSignal,
    slot: Slot,
  ) => Promise<AsyncGenerator<FileEvent>>;
}

/** What an evaluator is made of besides its bounds. */
export interface FileEvaluatorParts {
  /** The environment the commands are given: the service's own. */
  readonly environment: CommandEnvironment;
  /** The values a request may name. */
  readonly accepted: AcceptedValues;
  /** Aborted when the process stops: every run ends as its client's leaving would. */
  readonly stopping?: AbortSignal;
}

/**
 * The evaluator of the service. `stopping` (the process's shutdown) ends every run as its
 * client's leaving would: the children killed, the folders removed before the process exits.
 */
export function createFileEvaluator(
  { environment, accepted, stopping = new AbortController().signal }: FileEvaluatorParts,
  bounds: FileEvaluationBounds = FILE_EVALUATION_BOUNDS,
): FileEvaluator {
  const command = commandEntryOf(import.meta.url);
  const entry = "path" in command ? command.path : null;
  const slots = createSlots(bounds);
  const watch = createRunWatch(bounds);
  return {
    command:
      "path" in command ? command.description : `/evaluate refuses every file: ${command.missing} is missing`,
    bounds,
    requestOf: (query) => fileRequestOf(query, accepted),
    admit: (client) => slots.take(client),
    evaluate: async (request, body, clientSignal, slot) => {
      const signal = AbortSignal.any([clientSignal, stopping]);
      let folder: string | null = null;
      const input = localName(request.name);
      try {
        if (entry === null)
          throw new FileRefusal(503, "the command line is not installed beside this service");
        folder = await makeRunFolder();
        await receive(body, join(folder, input), bounds, signal);
        await checkedWorkbook(join(folder, input));
        await mkdir(join(folder, "out"));
      } catch (error) {
        slot.release();
        if (folder !== null) await rm(folder, { recursive: true, force: true });
        throw error;
      }
      const stem = input.slice(0, input.length - endingOf(input).length);
      const outputName = `${stem}-impacts.${request.format}`;
      // A CSV output is gzipped as the command writes it (COPY's COMPRESSION gzip, a gzip stream):
      // a 200,000-line CUR 2.0's 218 MB of lines are 24 MB in the run's folder, sent as they are
      const written = request.format === "csv" ? `${outputName}.gz` : outputName;
      const start = { entry, folder, input, output: `out/${written}`, request, environment, bounds };
      const started = startRun(start, { signal, slot, watch: watch.add, timeoutMs: bounds.timeoutMs });
      return run({ ...started, outputName, written, reportName: `${stem}-report.html` }, bounds);
    },
  };
}

/** A started run: its child, its outcome, and its one ending (child killed, slot given back, folder removed). */
interface Run {
  readonly child: ChildProcess;
  readonly outcome: Promise<Outcome>;
  readonly folder: string;
  readonly outputName: string;
  /** The output's file as the command writes it (`.gz` after a CSV's name). */
  readonly written: string;
  readonly reportName: string;
  readonly signal: AbortSignal;
  /** Kills the child, gives the slot back and removes the folder; once, whoever calls first. */
  readonly close: () => Promise<void>;
}

/** What a run is tied to: its client's signal, its slot, the watch of the runs, its time. */
interface RunTies {
  readonly signal: AbortSignal;
  readonly slot: Slot;
  readonly watch: ReturnType<typeof createRunWatch>["add"];
  readonly timeoutMs: number;
}

/** RLIMIT_FSIZE's signal: the command wrote a file past the folder's bytes. */
const FILE_TOO_LARGE = "SIGXFSZ";

/**
 * Starts the command, watched until it ends. Its ending is tied to the client's signal too: an
 * answer abandoned before its first event is read (the client gone at once) still removes the
 * folder.
 */
function startRun(start: CommandStart, ties: RunTies): Omit<Run, "outputName" | "written" | "reportName"> {
  const { folder, bounds } = start;
  const { signal, slot, watch } = ties;
  const child = startCommand(start);
  const { outcome, stop } = outcomeOf(child, ties.timeoutMs);
  const unwatch =
    child.pid === undefined ? () => {} : watch({ pid: child.pid, folder, stop: (reason) => stop(reason) });
  child.once("exit", (_code, exitSignal) => {
    unwatch();
    if (exitSignal === FILE_TOO_LARGE) stop(folderRefusal(bounds));
  });
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
  return { child, outcome, folder, signal, close };
}

/** A write the file-size bound stopped (EFBIG), as the command's line says it (DuckDB's, node's). */
const FILE_TOO_LARGE_SAID = /\bFile too large\b|\bEFBIG\b/i;

/** Characters of a stage line kept: a line past it is not one the command writes. */
const MAX_STAGE_LINE = 512;

/** The last stage the command told on its descriptor 3 (src/support/runStage.ts), read as it comes. */
function stagesOf(child: ChildProcess): () => { stage?: string; lines?: number; done?: number } {
  let last: { stage?: string; lines?: number; done?: number } = {};
  let pending = "";
  const pipe = child.stdio[3];
  if (pipe === null || pipe === undefined || !("setEncoding" in pipe)) return () => last;
  pipe.setEncoding("utf8");
  pipe.on("data", (text: string) => {
    const lines = (pending + text).split("\n");
    pending = (lines.pop() ?? "").slice(0, MAX_STAGE_LINE);
    for (const line of lines) {
      try {
        const told = JSON.parse(line.slice(0, MAX_STAGE_LINE)) as {
          stage?: unknown;
          lines?: unknown;
          done?: unknown;
        };
        if (typeof told.stage !== "string") continue;
        const done =
          typeof told.done === "number" && told.done >= 0 && told.done <= 1 ? told.done : undefined;
        last = {
          stage: told.stage,
          ...(typeof told.lines === "number" ? { lines: told.lines } : {}),
          ...(done === undefined ? {} : { done }),
        };
      } catch {
        // Not a stage line: the last one stands.
      }
    }
  });
  pipe.on("error", () => {});
  return () => last;
}

async function* run(started: Run, bounds: FileEvaluationBounds): AsyncGenerator<FileEvent> {
  const { folder, outputName, written, signal, outcome } = started;
  const stage = stagesOf(started.child);
  try {
    const since = Date.now();
    for (;;) {
      const ticked = await Promise.race([outcome, new Promise((r) => setTimeout(r, HEARTBEAT_MS, null))]);
      if (ticked !== null || signal.aborted) break;
      yield { event: "running", seconds: Math.round((Date.now() - since) / 1000), ...stage() };
    }
    const { exitCode, stderr, stopped } = await outcome;
    if (signal.aborted) return;
    if (stopped !== null) {
      yield { event: "refused", message: stopped, bound: true };
    } else if (exitCode !== 0 && !(await isFile(join(folder, "out", written)))) {
      // A misuse (exit 2) or a file the command could not read (exit 1, nothing written): its one
      // line; a write past the run's bytes (node and DuckDB go on past SIGXFSZ, failing the
      // write): the bound.
      const said = lastLine(stderr);
      if (FILE_TOO_LARGE_SAID.test(said))
        yield { event: "refused", message: folderRefusal(bounds), bound: true };
      else yield { event: "refused", message: inPageWords(said) || "the command could not run" };
    } else {
      // The report first: the page shows it while the output (the larger) still arrives.
      yield* fileEvents(join(folder, "out", "report.html"), "report", started.reportName);
      yield* fileEvents(
        join(folder, "out", written),
        "output",
        outputName,
        written === outputName ? "gzip" : "gzipped",
      );
      yield { event: "done", exitCode: exitCode ?? 1, summary: stderr };
    }
  } finally {
    await started.close();
  }
}
