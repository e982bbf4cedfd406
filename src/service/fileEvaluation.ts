import { type ChildProcess, spawn } from "node:child_process";
import { createReadStream, createWriteStream, existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createGunzip } from "node:zlib";
import { contentOf, MARK_BYTES, SIGNATURE_BYTES } from "../support/fileSignature.js";
import { LOG_LEVELS } from "../support/log.js";

/*
 * "Evaluate a file" (the service's /evaluate page, POST /v1/evaluate): an inventory or a billing
 * export evaluated by the command line itself — `impact-service evaluate FILE -o OUT --report
 * REPORT`, the same readers, limits, numbers and report — in a child process of its own, so that
 * DuckDB, the CSV parser and the engine never hold the service's event loop or heap. The file is
 * written to a private temporary folder, bounded as it arrives (bytes, lines), the run bounded in
 * time; the folder is removed when the answer ends, whatever ends it (the client gone, the time
 * bound, a refusal). Nothing of the file is logged: the command's summary goes to the client only.
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
}

export const FILE_EVALUATION_BOUNDS: FileEvaluationBounds = {
  maxBytes: 50 * 1024 * 1024,
  maxLines: 200_000,
  timeoutMs: 120_000,
  maxConcurrent: 2,
};

/** The endings of the files the command reads (docs/inventory.md, docs/billing.md). */
export const READ_ENDINGS = [
  ".csv",
  ".csv.gz",
  ".parquet",
  ".xlsx",
  ".ndjson",
  ".jsonl",
  // BigQuery's JSON export (`bq extract`), plain or gzipped (src/billing/reading/layout.ts)
  ".json",
  ".json.gz",
] as const;

/** The output formats the command writes: csv and xlsx for an inventory, csv and parquet for a bill. */
const OUTPUT_FORMATS = ["csv", "xlsx", "parquet"] as const;
type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** What a client asks: its file's name (for its ending and the summary), the edition, criteria, output. */
export interface FileRequest {
  readonly name: string;
  readonly edition: string | null;
  readonly criteria: string | null;
  readonly format: OutputFormat;
}

/** A request refused before any work, with its HTTP status and the sentence the page shows. */
export class FileRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** One event of a run, as the client reads it (one NDJSON line each). */
export type FileEvent =
  | { readonly event: "running"; readonly seconds: number }
  | {
      readonly event: "file";
      readonly role: "output" | "report";
      readonly name: string;
      readonly type: string;
      /** A part of the file, base64: the parts in order are the file. */
      readonly data: string;
    }
  | { readonly event: "done"; readonly exitCode: number; readonly summary: string }
  | { readonly event: "refused"; readonly message: string };

/**
 * A ZIP archive, by its name or, named otherwise, by its first bytes: the command would unpack
 * its file (src/support/zipArchive.ts), whose lines the page could not count as they arrive.
 */
const ZIP_REFUSAL = "the file is a ZIP archive: unzip it and drop the file it holds";

/** A query value that may reach the command's arguments: letters, digits and `.,_-` only. */
const PLAIN_VALUE = /^[A-Za-z0-9._,-]{1,200}$/;

/** The request of a query string, checked; a FileRefusal (422) naming the parameter otherwise. */
export function fileRequestOf(query: URLSearchParams): FileRequest {
  const name = query.get("name") ?? "";
  const lower = name.toLowerCase();
  if (lower.endsWith(".zip")) throw new FileRefusal(415, ZIP_REFUSAL);
  if (!READ_ENDINGS.some((ending) => lower.endsWith(ending))) {
    throw new FileRefusal(
      422,
      `name: the command reads ${READ_ENDINGS.join(", ")} files, not "${name.slice(0, 100)}"`,
    );
  }
  const optional = (parameter: string): string | null => {
    const value = query.get(parameter);
    if (value === null || value === "") return null;
    if (!PLAIN_VALUE.test(value))
      throw new FileRefusal(422, `${parameter}: letters, digits and , . _ - only`);
    return value;
  };
  const format = optional("format") ?? "csv";
  if (!(OUTPUT_FORMATS as readonly string[]).includes(format)) {
    throw new FileRefusal(422, `format: ${OUTPUT_FORMATS.join(", ")}, not ${format}`);
  }
  return {
    name,
    edition: optional("edition"),
    criteria: optional("criteria"),
    format: format as OutputFormat,
  };
}

/** The longest of READ_ENDINGS a name ends with (`.csv.gz` rather than `.gz`), "" if none. */
function endingOf(name: string): string {
  return (
    READ_ENDINGS.filter((e) => name.toLowerCase().endsWith(e)).sort((a, b) => b.length - a.length)[0] ?? ""
  );
}

/** The file's name in the run's folder: its letters kept (the command's summary names it), its ending whole. */
function localName(name: string): string {
  const ending = endingOf(name);
  const stem = name
    .slice(0, name.length - ending.length)
    .replace(/[^A-Za-z0-9._-]/g, "_")
    .replace(/^[.-]+/, "")
    .slice(0, 80);
  return `${stem === "" ? "file" : stem}${ending}`;
}

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
 * the module a .ts file), the package's bin (bin/impact-service.mjs, which registers tsx),
 * found from this module up to the project's root.
 */
export function commandEntryOf(moduleUrl: string): CommandEntry | { readonly missing: string } {
  const module = fileURLToPath(moduleUrl);
  if (!module.endsWith(".ts")) {
    const path = join(dirname(module), COMMAND_BUNDLE);
    return existsSync(path)
      ? { path, description: `/evaluate runs the bundled command ${path}` }
      : { missing: path };
  }
  for (let dir = dirname(module); ; dir = dirname(dir)) {
    const path = join(dir, "bin", "impact-service.mjs");
    if (existsSync(path)) return { path, description: `/evaluate runs ${path} through tsx` };
    if (dirname(dir) === dir) return { missing: "bin/impact-service.mjs" };
  }
}

/** Counts the lines of the text received (a gzip's inflated text), refusing past the bound. */
function lineCounter(maxLines: number, gzip: boolean) {
  let lines = 0;
  const count = (chunk: Uint8Array) => {
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines += 1;
    if (lines > maxLines) {
      throw new FileRefusal(
        413,
        `the file has more than ${maxLines.toLocaleString("en")} lines (the page's bound)`,
      );
    }
  };
  if (!gzip) return { feed: count, end: async () => lines, fail: () => {} };
  const inflate = createGunzip();
  let failure: unknown = null;
  inflate.on("data", (chunk: Buffer) => {
    try {
      count(chunk);
    } catch (error) {
      failure = error;
      inflate.destroy();
    }
  });
  inflate.on("error", (error) => {
    failure ??= new FileRefusal(422, `the gzip file is damaged or cut short: ${error.message}`);
  });
  const ended = new Promise<void>((resolve) => {
    inflate.once("end", resolve);
    inflate.once("close", resolve);
  });
  return {
    feed: (chunk: Uint8Array) => {
      if (failure !== null) throw failure;
      inflate.write(chunk);
    },
    end: async () => {
      inflate.end();
      await ended;
      if (failure !== null) throw failure;
      return lines;
    },
    fail: () => inflate.destroy(),
  };
}

type LineCounter = ReturnType<typeof lineCounter>;

/** A file whose lines are not counted: a Parquet file, a workbook's ZIP, what the command refuses. */
const NOT_COUNTED: LineCounter = { feed: () => {}, end: async () => 0, fail: () => {} };

/**
 * Counts the lines of what is received as its first bytes tell (as the command tells it,
 * src/support/fileSignature.ts), not its name: text as it is, gzip inflated (a gzip named .csv is
 * bounded by its inflated lines too), a Parquet file, a workbook or another binary not at all. The
 * first bytes are held until they tell, whatever the chunks they arrive in. A ZIP archive that is
 * no workbook is refused (ZIP_REFUSAL).
 */
function receivedLineCounter(maxLines: number, workbook: boolean): LineCounter {
  let head = Buffer.alloc(0);
  let counter: LineCounter | null = null;
  const told = (): LineCounter => {
    const content = contentOf(head.subarray(0, SIGNATURE_BYTES));
    if (content === "zip" && !workbook) throw new FileRefusal(415, ZIP_REFUSAL);
    const chosen =
      content === "text" || content === "gzip" ? lineCounter(maxLines, content === "gzip") : NOT_COUNTED;
    counter = chosen;
    chosen.feed(head);
    return chosen;
  };
  return {
    feed: (chunk: Uint8Array) => {
      if (counter !== null) return counter.feed(chunk);
      head = Buffer.concat([head, chunk]);
      if (head.length >= MARK_BYTES) told();
    },
    end: () => (counter ?? told()).end(),
    fail: () => counter?.fail(),
  };
}

/** Writes the body to `path` within the bounds; a FileRefusal past one. */
async function receive(
  body: AsyncIterable<Uint8Array>,
  path: string,
  bounds: FileEvaluationBounds,
): Promise<void> {
  const out = createWriteStream(path, { flags: "wx", mode: 0o600 });
  const lines = receivedLineCounter(bounds.maxLines, path.toLowerCase().endsWith(".xlsx"));
  let bytes = 0;
  let failed: Error | null = null;
  out.on("error", (error) => {
    failed = error;
    out.emit("drain");
  });
  try {
    for await (const chunk of body) {
      if (failed !== null) throw failed;
      bytes += chunk.byteLength;
      if (bytes > bounds.maxBytes) {
        throw new FileRefusal(
          413,
          `the file exceeds ${bounds.maxBytes / 1024 / 1024} MiB (the page's bound)`,
        );
      }
      lines.feed(chunk);
      if (!out.write(chunk)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
    }
    if (bytes === 0) throw new FileRefusal(422, "the file is empty");
    await lines.end();
  } catch (error) {
    lines.fail();
    throw error;
  } finally {
    await new Promise<void>((resolve) => out.end(() => resolve()));
  }
}

/** What the command answered: its exit code and its stderr (the summary), bounded. */
interface Outcome {
  readonly exitCode: number | null;
  readonly stderr: string;
  readonly timedOut: boolean;
}

/** Stderr kept of a run: its summary and bad rows, not an unbounded stream. */
const MAX_STDERR_BYTES = 64 * 1024;

/** The time between two `running` events. */
const HEARTBEAT_MS = 1_000;

/** Bytes of a `file` event's part before base64: the answer never holds a whole output. */
const PART_BYTES = 384 * 1024;

/** The environment a run's command is given: the service's own, from its start-up (src/app/main.ts). */
export type CommandEnvironment = Readonly<Record<string, string | undefined>>;

/**
 * The command's log level: the service's when it says as little as `warn` or less (`error`,
 * `fatal`, `silent`), `warn` otherwise (`info`, `debug`, `trace`, unset).
 */
function commandLogLevel(serviceLevel: string | undefined): string {
  const levels: readonly string[] = LOG_LEVELS;
  const at = levels.indexOf(serviceLevel ?? "");
  return at !== -1 && (serviceLevel === "silent" || at <= levels.indexOf("warn"))
    ? (serviceLevel as string)
    : "warn";
}

function spawnCommand({ entry, folder, input, request, environment }: RunParts, output: string) {
  const args = [
    entry,
    "evaluate",
    input,
    "-o",
    output,
    "--report",
    "out/report.html",
    "--format",
    request.format,
  ];
  if (request.edition !== null) args.push("--edition", request.edition);
  if (request.criteria !== null) args.push("--criteria", request.criteria);
  // The service's environment (EDITION, EDITIONS_FILE: the same editions as the service serves);
  // its temp folder the run's, so what the command's libraries write there (exceljs keeps a
  // worksheet stored before the workbook's shared strings in a temporary file) goes with it.
  // Its log lines at `warn` at most, whatever the service's LOG_LEVEL: its stderr is the summary
  // the client reads, where a service debugged at `debug` put the engine's debug lines (the
  // server's paths) before the command's own lines.
  return spawn(process.execPath, args, {
    cwd: folder,
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...environment, TMPDIR: folder, LOG_LEVEL: commandLogLevel(environment.LOG_LEVEL) },
  });
}

function outcomeOf(child: ChildProcess, timeoutMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    let stderr = "";
    let timedOut = false;
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (text: string) => {
      if (stderr.length < MAX_STDERR_BYTES) stderr += text.slice(0, MAX_STDERR_BYTES - stderr.length);
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ exitCode: code, stderr, timedOut });
    });
    child.once("error", () => {
      clearTimeout(timer);
      resolve({ exitCode: null, stderr, timedOut });
    });
  });
}

const TYPES: Readonly<Record<string, string>> = {
  csv: "text/csv",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  parquet: "application/vnd.apache.parquet",
  html: "text/html",
};

const isFile = async (path: string) => (await stat(path).catch(() => null))?.isFile() === true;

/** A written file as `file` events, part by part (nothing when the command did not write it). */
async function* fileEvents(path: string, role: "output" | "report", name: string): AsyncGenerator<FileEvent> {
  if (!(await isFile(path))) return;
  const type = TYPES[name.slice(name.lastIndexOf(".") + 1)] ?? "application/octet-stream";
  for await (const part of createReadStream(path, { highWaterMark: PART_BYTES })) {
    yield { event: "file", role, name, type, data: (part as Buffer).toString("base64") };
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
  /** Admission: false when `maxConcurrent` files are being evaluated. */
  readonly admit: () => boolean;
  /**
   * Receives `body` (a FileRefusal when a bound is passed), then returns the run's events; the
   * temporary folder is removed when they end or are abandoned, or when `signal` aborts.
   */
  readonly evaluate: (
    request: FileRequest,
    body: AsyncIterable<Uint8Array>,
    signal: AbortSignal,
  ) => Promise<AsyncGenerator<FileEvent>>;
}

/**
 * The evaluator of the service. `stopping` (the process's shutdown) ends every run as its
 * client's leaving would: the children killed, the folders removed before the process exits.
 */
export function createFileEvaluator(
  environment: CommandEnvironment,
  bounds: FileEvaluationBounds = FILE_EVALUATION_BOUNDS,
  stopping: AbortSignal = new AbortController().signal,
): FileEvaluator {
  let running = 0;
  const command = commandEntryOf(import.meta.url);
  const entry = "path" in command ? command.path : null;
  const admit = () => {
    if (running >= bounds.maxConcurrent) return false;
    running += 1;
    return true;
  };
  const release = () => {
    running -= 1;
  };
  return {
    command:
      "path" in command ? command.description : `/evaluate refuses every file: ${command.missing} is missing`,
    admit,
    evaluate: async (request, body, clientSignal) => {
      const signal = AbortSignal.any([clientSignal, stopping]);
      let folder: string | null = null;
      try {
        if (entry === null)
          throw new FileRefusal(503, "the command line is not installed beside this service");
        folder = await mkdtemp(join(tmpdir(), "impact-evaluate-"));
        const input = localName(request.name);
        await receive(body, join(folder, input), bounds);
        await mkdir(join(folder, "out"));
      } catch (error) {
        release();
        if (folder !== null) await rm(folder, { recursive: true, force: true });
        throw error;
      }
      return run(
        startRun({ entry, folder, input: localName(request.name), request, environment, signal, release }),
        bounds,
      );
    },
  };
}

/** A started run: its child, its output's name, and its one ending (child killed, folder removed). */
interface Run {
  readonly child: ChildProcess;
  readonly folder: string;
  readonly outputName: string;
  readonly reportName: string;
  readonly signal: AbortSignal;
  /** Kills the child, gives the admission back and removes the folder; once, whoever calls first. */
  readonly close: () => Promise<void>;
}

interface RunParts {
  readonly entry: string;
  readonly folder: string;
  readonly input: string;
  readonly request: FileRequest;
  readonly environment: CommandEnvironment;
  readonly signal: AbortSignal;
  readonly release: () => void;
}

/**
 * Starts the command. Its ending is tied to the client's signal too: an answer abandoned before
 * its first event is read (the client gone at once) still removes the folder.
 */
function startRun(parts: RunParts): Run {
  const { folder, input, request, signal, release } = parts;
  const stem = input.slice(0, input.length - endingOf(input).length);
  const outputName = `${stem}-impacts.${request.format}`;
  const child = spawnCommand(parts, `out/${outputName}`);
  let closing: Promise<void> | null = null;
  const close = () => {
    closing ??= (async () => {
      signal.removeEventListener("abort", close);
      child.kill("SIGKILL");
      release();
      await rm(folder, { recursive: true, force: true });
    })();
    return closing;
  };
  signal.addEventListener("abort", close, { once: true });
  if (signal.aborted) void close();
  return { child, folder, outputName, reportName: `${stem}-report.html`, signal, close };
}

async function* run(started: Run, bounds: FileEvaluationBounds): AsyncGenerator<FileEvent> {
  const { child, folder, outputName, signal } = started;
  try {
    const outcome = outcomeOf(child, bounds.timeoutMs);
    const since = Date.now();
    for (;;) {
      const ticked = await Promise.race([outcome, new Promise((r) => setTimeout(r, HEARTBEAT_MS, null))]);
      if (ticked !== null || signal.aborted) break;
      yield { event: "running", seconds: Math.round((Date.now() - since) / 1000) };
    }
    const { exitCode, stderr, timedOut } = await outcome;
    if (signal.aborted) return;
    if (timedOut) {
      yield {
        event: "refused",
        message: `the run took longer than ${bounds.timeoutMs / 1000} s (the page's bound) and was stopped`,
      };
    } else if (exitCode !== 0 && !(await isFile(join(folder, "out", outputName)))) {
      // A misuse (exit 2) or a file the command could not read (exit 1, nothing written): its one line.
      yield { event: "refused", message: lastLine(stderr) || "the command could not run" };
    } else {
      yield* fileEvents(join(folder, "out", outputName), "output", outputName);
      yield* fileEvents(join(folder, "out", "report.html"), "report", started.reportName);
      yield { event: "done", exitCode: exitCode ?? 1, summary: stderr };
    }
  } finally {
    await started.close();
  }
}
