import { once } from "node:events";
import { createReadStream, statSync } from "node:fs";
import type { Writable } from "node:stream";
import { parseArgs } from "node:util";
import { type BatchDefaults, createSummary, type LineOutcome, summaryLine } from "../batch/index.js";
import { ConfigError, loadConfig } from "../config.js";
import { EDITION_IDS } from "../editions/index.js";
import { isBillingInvocation } from "./billingDispatch.js";
import type { ChunkEvaluator } from "./chunk.js";
import { createProgress } from "./progress.js";
import { csvItems, type InputFormat, ndjsonItems, type SourceItem } from "./source.js";

/*
 * `impact-service evaluate <inventory> …`: an inventory (CSV) or a batch (NDJSON) evaluated by
 * the engine in this process — or on worker threads — with the batch's per-line code
 * (src/batch), its impacts written on stdout as NDJSON or CSV with a total, progress on stderr.
 */

const USAGE = `usage: impact-service evaluate <file | -> [options]

  <file>               an inventory: CSV with a header (kind, provider, instance_type, region,
                       usage_location, hours, quantity, server fields …; see the README) or batch
                       NDJSON (one {"method", "path", "body"} per line); - reads stdin
  --input csv|ndjson   the input's format (default: csv for a .csv file, ndjson otherwise)
  --edition <id>       edition of the lines that name none (e.g. ${EDITION_IDS[EDITION_IDS.length - 1]})
  --criteria <list>    criteria of the lines that name none, comma-separated (e.g. gwp,pe)
  --format ndjson|csv  output format (default ndjson); csv has one column per criterion and phase
  --workers <n>        evaluate on n worker threads (default: in this thread)
  --strict             stop at the first bad row (exit 1) instead of reporting and skipping it
`;

/** Lines handed to an evaluator at once (a worker thread's task). */
const CHUNK_LINES = 256;
/** Default CSV columns' criteria when --criteria is absent (the routes' default criteria). */
const DEFAULT_CRITERIA = ["gwp", "adp", "pe"];
const PHASES = ["embedded", "use"] as const;

export interface CliIo {
  readonly stdin: NodeJS.ReadableStream;
  readonly stdout: Writable;
  readonly stderr: NodeJS.WriteStream;
}

class UsageError extends Error {}
/** --strict: the first bad row ends the run. */
class StrictStop extends Error {}

interface Options {
  readonly file: string;
  readonly input: InputFormat;
  readonly format: "ndjson" | "csv";
  readonly defaults: BatchDefaults;
  readonly criteria: readonly string[];
  readonly workers: number;
  readonly strict: boolean;
}

function optionsOf(argv: readonly string[]): Options {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      input: { type: "string" },
      edition: { type: "string" },
      criteria: { type: "string" },
      format: { type: "string", default: "ndjson" },
      workers: { type: "string" },
      strict: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) throw new UsageError("");
  const [command, file, ...rest] = positionals;
  if (command !== "evaluate") throw new UsageError(`unknown command: ${command ?? "(none)"}`);
  if (file === undefined || rest.length > 0) throw new UsageError("evaluate takes one file (or -)");
  const input = values.input ?? (file.toLowerCase().endsWith(".csv") ? "csv" : "ndjson");
  if (input !== "csv" && input !== "ndjson") throw new UsageError(`--input is csv or ndjson, not ${input}`);
  if (values.format !== "csv" && values.format !== "ndjson") {
    throw new UsageError(`--format is ndjson or csv, not ${values.format}`);
  }
  // No --workers: the evaluation runs in this thread (0 worker threads).
  const workers = values.workers === undefined ? 0 : Number(values.workers);
  if (values.workers !== undefined && !(Number.isInteger(workers) && workers >= 1 && workers <= 256)) {
    throw new UsageError("--workers is a whole number from 1 to 256");
  }
  const criteria = values.criteria
    ?.split(",")
    .map((criterion) => criterion.trim())
    .filter((criterion) => criterion !== "");
  return {
    file,
    input,
    format: values.format,
    defaults: {
      ...(values.edition !== undefined ? { edition: values.edition } : {}),
      ...(criteria !== undefined && criteria.length > 0 ? { criteria } : {}),
    },
    criteria: criteria !== undefined && criteria.length > 0 ? criteria : DEFAULT_CRITERIA,
    workers,
    strict: values.strict,
  };
}

/** What is wrong with a line, in one line: the answer's detail. */
function problemOf(outcome: LineOutcome): string {
  const detail = (outcome.body as { detail?: unknown } | null)?.detail;
  if (typeof detail === "string") return `${outcome.status} ${detail}`;
  if (Array.isArray(detail) && detail.length > 0) {
    const first = detail[0] as { loc?: unknown[]; msg?: string };
    return `${outcome.status} ${(first.loc ?? []).join(".")}: ${first.msg ?? ""}`;
  }
  return `${outcome.status} ${typeof outcome.body === "string" ? outcome.body : JSON.stringify(outcome.body)}`;
}

/** A CSV cell (quoted when it needs to be). */
function csvCell(value: string | number | undefined): string {
  if (value === undefined) return "";
  const text = String(value);
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

interface Output {
  header(): string;
  row(number: number, outcome: LineOutcome): string;
  total(summary: ReturnType<ReturnType<typeof createSummary>["result"]>): string;
}

function outputOf(options: Options): Output {
  if (options.format === "ndjson") {
    return {
      header: () => "",
      row: (number, outcome) =>
        `{"line":${number},${outcome.quantity !== 1 ? `"quantity":${outcome.quantity},` : ""}"status":${outcome.status},"body":${JSON.stringify(outcome.body)}}\n`,
      total: summaryLine,
    };
  }
  const columns = options.criteria.flatMap((criterion) => PHASES.map((phase) => [criterion, phase] as const));
  const header = ["line", "quantity", ...columns.map(([criterion, phase]) => `${criterion}_${phase}`)];
  return {
    header: () => `${header.join(",")}\n`,
    // A row's impacts are those of all its units (the route's value × quantity), so the total is their sum.
    row: (number, outcome) => {
      const impacts = (outcome.body as { impacts?: Record<string, Record<string, { value?: unknown }>> })
        .impacts;
      const cells = columns.map(([criterion, phase]) => {
        const value = impacts?.[criterion]?.[phase]?.value;
        return typeof value === "number" ? value * outcome.quantity : undefined;
      });
      return `${[number, outcome.quantity, ...cells].map(csvCell).join(",")}\n`;
    },
    total: (summary) => {
      const cells = columns.map(([criterion, phase]) => summary.total[criterion]?.[phase]);
      return `${["total", "", ...cells].map(csvCell).join(",")}\n`;
    },
  };
}

/** Writes text, waiting while the reader is behind (backpressure). */
async function write(stream: Writable, text: string): Promise<void> {
  if (text !== "" && !stream.write(text)) await once(stream, "drain");
}

/** Counts the bytes read from the input (the progress bar's share). */
async function* counted(
  source: AsyncIterable<Uint8Array>,
  count: (bytes: number) => void,
): AsyncGenerator<Uint8Array> {
  for await (const chunk of source) {
    count(chunk.byteLength);
    yield chunk;
  }
}

interface Pending {
  readonly items: readonly SourceItem[];
  readonly outcomes: Promise<LineOutcome[]>;
}

async function run(
  options: Options,
  io: CliIo,
  evaluate: ChunkEvaluator,
  window: number,
  maxLineBytes: number,
) {
  const input = (
    options.file === "-" ? io.stdin : createReadStream(options.file)
  ) as AsyncIterable<Uint8Array>;
  const totalBytes = options.file === "-" ? null : statSync(options.file).size;
  let bytesRead = 0;
  const bytes = counted(input, (n) => {
    bytesRead += n;
  });
  const items = options.input === "csv" ? csvItems(bytes, maxLineBytes) : ndjsonItems(bytes, maxLineBytes);
  const summary = createSummary();
  const output = outputOf(options);
  const progress = createProgress(io.stderr, options.file === "-" ? "stdin" : options.file);
  const state = () => {
    const { lines, ok, errors } = summary.result();
    return { rows: lines, ok, errors, bytesRead, totalBytes };
  };
  const pending: Pending[] = [];
  let chunk: SourceItem[] = [];

  const submit = () => {
    const lines = chunk.flatMap((item) => ("line" in item ? [item.line] : []));
    pending.push({
      items: chunk,
      outcomes: lines.length > 0 ? evaluate({ lines, defaults: options.defaults }) : Promise.resolve([]),
    });
    chunk = [];
  };
  const bad = (number: number, problem: string) => {
    io.stderr.write(`line ${number}: ${problem}\n`);
    if (options.strict) throw new StrictStop();
  };
  const settleFirst = async () => {
    const { items: settled, outcomes: evaluated } = pending.shift() as Pending;
    const outcomes = await evaluated;
    let text = "";
    let next = 0;
    for (const item of settled) {
      const outcome: LineOutcome =
        "line" in item ? outcomes[next++] : { status: 422, body: { detail: item.problem }, quantity: 1 };
      summary.add(outcome);
      if (outcome.status === 200) text += output.row(item.number, outcome);
      else {
        // What was evaluated before the bad row is written before it stops the run.
        if (options.strict) await write(io.stdout, text);
        bad(item.number, "line" in item ? problemOf(outcome) : item.problem);
      }
    }
    await write(io.stdout, text);
    progress.update(state());
  };

  try {
    await write(io.stdout, output.header());
    let lines = 0;
    for await (const item of items) {
      chunk.push(item);
      if ("line" in item) lines += 1;
      if (lines >= CHUNK_LINES) {
        lines = 0;
        submit();
        while (pending.length >= window) await settleFirst();
      }
    }
    submit();
    while (pending.length > 0) await settleFirst();
    await write(io.stdout, output.total(summary.result()));
    progress.done(state());
    return 0;
  } catch (error) {
    // Chunks already given to workers are left to finish unread.
    for (const { outcomes } of pending) outcomes.catch(() => {});
    if (error instanceof StrictStop) {
      progress.done(state());
      return 1;
    }
    throw error;
  }
}

/** Runs the command line; the exit code (0 done, 1 stopped by --strict or failed, 2 misused). */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  if (argv[0] === "coefficients") return (await import("./billing.js")).coefficientsMain(argv.slice(1), io);
  if (argv[0] === "evaluate" && isBillingInvocation(argv.slice(1))) {
    return (await import("./billing.js")).billingMain(argv, io);
  }
  let options: Options;
  let maxLineBytes: number;
  try {
    options = optionsOf(argv);
    maxLineBytes = loadConfig().MAX_BODY_BYTES;
    if (options.file !== "-") statSync(options.file);
  } catch (error) {
    if (error instanceof UsageError && error.message === "") {
      io.stderr.write(USAGE);
      return 0;
    }
    const known = error instanceof UsageError || error instanceof ConfigError || error instanceof TypeError;
    const message = (error as Error).message;
    if (!known && (error as NodeJS.ErrnoException).code === undefined) throw error;
    io.stderr.write(`impact-service: ${message}\n${error instanceof UsageError ? USAGE : ""}`);
    return 2;
  }
  if (options.workers === 0) {
    const { inProcessEvaluator } = await import("./engine.js");
    return run(options, io, inProcessEvaluator(), 1, maxLineBytes);
  }
  const { pooledEvaluator } = await import("./pool.js");
  const pool = pooledEvaluator(options.workers);
  try {
    // Two chunks per worker in flight: each finds its next task ready; memory stays bounded.
    return await run(options, io, pool.evaluate, options.workers * 2, maxLineBytes);
  } finally {
    await pool.close();
  }
}
