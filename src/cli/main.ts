import { createReadStream, createWriteStream, statSync, writeFileSync } from "node:fs";
import type { Writable } from "node:stream";
import { parseArgs } from "node:util";
import type { BatchDefaults, LineOutcome } from "../batch/index.js";
import { ConfigError, loadConfig } from "../config.js";
import { EDITION_IDS } from "../editions/index.js";
import { formatNumber } from "../output/columns.js";
import { csvLine } from "../output/csv.js";
import { reportHtml, reportRows } from "../output/report.js";
import { OutputError, type TextSink, textSink } from "../output/sink.js";
import {
  type AssessedRow,
  addTo,
  type CriterionUnit,
  createGroups,
  emptySums,
  header,
  rowCells,
  type Sums,
  sumsAsImpacts,
  sumsStatus,
  type TableLayout,
} from "../output/table.js";
import { withoutControls } from "../output/text.js";
import { workbookWriter } from "../output/xlsx.js";
import { assessedRow, problemOf, rowLabel } from "./assess.js";
import type { ChunkEvaluator } from "./chunk.js";
import { createProgress } from "./progress.js";
import { csvItems, type InputFormat, ndjsonItems, type SourceItem } from "./source.js";

/*
 * `impact-service evaluate <inventory> …`: an inventory (CSV) or a batch (NDJSON) evaluated by
 * the engine in this process — or on worker threads — with the batch's per-line code
 * (src/batch); one output row per input row (NDJSON, CSV or an Excel workbook, src/output), an
 * HTML report if asked, progress and bad rows on stderr.
 */

const USAGE = `usage: impact-service evaluate <file | -> [options]

  <file>               an inventory: CSV with a header (kind, quantity, provider, instance_type,
                       archetype, usage_location, hours, …: see README "Command line") or a batch
                       (NDJSON, one {"method", "path", "body"} per line); - reads stdin
  --input csv|ndjson   the input's format (default: ndjson for a .ndjson/.jsonl file, else csv)
  --edition <id>       edition of the rows (default: the service's EDITION; served: ${EDITION_IDS.join(", ")})
  --criteria <list>    criteria, comma-separated (default: the edition's, e.g. gwp,adp,pe)
  --format ndjson|csv|xlsx  output format (default ndjson; xlsx needs -o or a pipe)
  -o, --output <file>  write the output there instead of stdout
  --ranges             csv, xlsx: each impact's min and max columns too
  --group-by <list>    sums per group of rows sharing these columns' values (e.g. team,site)
  --report <file.html> also write a self-contained HTML report with charts
  --workers <n>        evaluate on n worker threads (default: in this thread)
  --strict             stop at the first bad row (exit 1) instead of reporting it and going on

exit codes: 0 done (bad rows, if any, reported), 1 every row failed (or --strict stopped, or
the output failed), 2 misused (unknown option, edition, criterion or column), 130/143 interrupted
`;

/** Lines handed to an evaluator at once (a worker thread's task). */
const CHUNK_LINES = 256;
/** A bad row's message on stderr is cut past this many characters. */
const MESSAGE_CHARACTERS = 300;

export interface CliIo {
  readonly stdin: NodeJS.ReadableStream;
  readonly stdout: Writable;
  readonly stderr: NodeJS.WriteStream;
  /** Aborted on SIGINT or SIGTERM: the run stops reading, writes what it has, and ends. */
  readonly interrupt?: AbortSignal;
}

class UsageError extends Error {}
/** --strict: the first bad row ends the run. */
class StrictStop extends Error {}

type Format = "ndjson" | "csv" | "xlsx";

interface Options {
  readonly file: string;
  readonly input: InputFormat;
  readonly format: Format;
  readonly output: string | undefined;
  readonly report: string | undefined;
  readonly ranges: boolean;
  readonly groupBy: readonly string[];
  readonly defaults: BatchDefaults;
  readonly workers: number;
  readonly strict: boolean;
}

const list = (text: string | undefined) =>
  text
    ?.split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "") ?? [];

function optionsOf(argv: readonly string[]): Options {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      input: { type: "string" },
      edition: { type: "string" },
      criteria: { type: "string" },
      format: { type: "string", default: "ndjson" },
      output: { type: "string", short: "o" },
      report: { type: "string" },
      ranges: { type: "boolean", default: false },
      "group-by": { type: "string" },
      workers: { type: "string" },
      strict: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) throw new UsageError("");
  const [command, file, ...rest] = positionals;
  if (command !== "evaluate") throw new UsageError(`unknown command: ${command ?? "(none)"}`);
  if (file === undefined || rest.length > 0) throw new UsageError("evaluate takes one file (or -)");
  const input = values.input ?? (/\.(ndjson|jsonl)$/i.test(file) ? "ndjson" : "csv");
  if (input !== "csv" && input !== "ndjson") throw new UsageError(`--input is csv or ndjson, not ${input}`);
  const format = values.format;
  if (format !== "csv" && format !== "ndjson" && format !== "xlsx") {
    throw new UsageError(`--format is ndjson, csv or xlsx, not ${format}`);
  }
  // No --workers: the evaluation runs in this thread (0 worker threads).
  const workers = values.workers === undefined ? 0 : Number(values.workers);
  if (values.workers !== undefined && !(Number.isInteger(workers) && workers >= 1 && workers <= 256)) {
    throw new UsageError("--workers is a whole number from 1 to 256");
  }
  const criteria = list(values.criteria);
  return {
    file,
    input,
    format,
    output: values.output,
    report: values.report,
    ranges: values.ranges,
    groupBy: list(values["group-by"]),
    defaults: {
      ...(values.edition !== undefined ? { edition: values.edition } : {}),
      ...(criteria.length > 0 ? { criteria } : {}),
    },
    workers,
    strict: values.strict,
  };
}

/** A problem found before any row: one line, exit 2. */
class Misuse extends Error {}

/**
 * The edition and criteria, checked once before any row by asking the default server of the
 * edition with the criteria (the routes' own checks and messages), and the criteria's units.
 */
async function criteriaOf(evaluate: ChunkEvaluator, defaults: BatchDefaults): Promise<CriterionUnit[]> {
  const [outcome] = await evaluate({
    lines: [JSON.stringify({ method: "POST", path: "/v1/server/?verbose=false", body: {} })],
    defaults,
  });
  if (outcome.status !== 200) {
    const detail = (outcome.body as { detail?: { loc?: unknown[]; msg?: string }[] } | null)?.detail;
    const first = Array.isArray(detail) ? detail[0] : undefined;
    const field = first?.loc?.[first.loc.length - 1];
    if (field === "edition") throw new Misuse(`--edition ${defaults.edition}: ${first?.msg ?? "unknown"}`);
    if (field === "criteria") throw new Misuse(`--criteria: ${first?.msg ?? "unknown criterion"}`);
    throw new Misuse(`the edition's check failed: ${problemOf(outcome)}`);
  }
  const impacts = (outcome.body as { impacts?: Record<string, { unit?: unknown }> }).impacts ?? {};
  return Object.entries(impacts).map(([criterion, { unit }]) => ({
    criterion,
    unit: typeof unit === "string" ? unit : "",
  }));
}

/** How the output is written, whatever its format. */
interface TableWriter {
  row(row: AssessedRow, outcome: LineOutcome): Promise<void>;
  end(totals: Sums, groups: ReturnType<typeof createGroups>, interrupted: boolean): Promise<void>;
}

const tidy = (value: number) => Number(formatNumber(value));

function totalsJson(sums: Sums): Record<string, Record<string, number>> {
  return Object.fromEntries(
    Object.entries(sums.impacts).map(([criterion, phases]) => [
      criterion,
      Object.fromEntries(Object.entries(phases).map(([phase, bounds]) => [phase, tidy(bounds?.value ?? 0)])),
    ]),
  );
}

function ndjsonWriter(sink: TextSink): TableWriter {
  return {
    row: (row, outcome) => {
      const quantity = outcome.quantity !== 1 ? `"quantity":${outcome.quantity},` : "";
      const warnings = row.warnings.length > 0 ? `"warnings":${JSON.stringify(row.warnings)},` : "";
      return sink.write(
        `{"line":${row.line},${quantity}"status":${outcome.status},${warnings}"body":${JSON.stringify(outcome.body)}}\n`,
      );
    },
    async end(totals, groups, interrupted) {
      let text = "";
      for (const group of groups.list()) {
        const values = Object.fromEntries(
          groups.columns.map((column, index) => [column, group.values[index]]),
        );
        text += `${JSON.stringify({ group: values, rows: group.sums.rows, errors: group.sums.failed, total: totalsJson(group.sums) })}\n`;
      }
      const summary = {
        lines: totals.rows,
        ok: totals.rows - totals.failed,
        errors: totals.failed,
        warnings: totals.warned,
        ...(interrupted ? { interrupted: true } : {}),
        total: totalsJson(totals),
      };
      await sink.write(`${text}${JSON.stringify({ summary })}\n`);
    },
  };
}

function csvWriter(sink: TextSink, layout: TableLayout): TableWriter {
  let started = false;
  const sumRow = (cells: readonly string[], sums: Sums, status: string) =>
    csvLine(rowCells(layout, { line: 0, cells, impacts: sumsAsImpacts(sums), warnings: [], status }));
  return {
    async row(row) {
      const text = csvLine(rowCells(layout, row));
      await sink.write(started ? text : csvLine(header(layout)) + text);
      started = true;
    },
    async end(totals, groups, interrupted) {
      let text = started ? "" : csvLine(header(layout));
      const width = layout.inputColumns.length;
      const indices = groups.columns.map((column) => layout.inputColumns.indexOf(column));
      // Sums follow the rows, told apart by their status: `group …`, then `total …`.
      for (const group of groups.list()) {
        const cells = new Array<string>(width).fill("");
        indices.forEach((index, at) => {
          cells[index] = group.values[at];
        });
        text += sumRow(cells, group.sums, `group: ${sumsStatus(group.sums)}`);
      }
      const status = `total: ${sumsStatus(totals)}${interrupted ? " (interrupted)" : ""}`;
      text += sumRow(new Array<string>(width).fill(""), totals, status);
      await sink.write(text);
    },
  };
}

function xlsxWriter(sink: TextSink, layout: TableLayout, note: string): TableWriter {
  const workbook = workbookWriter(layout, sink.stream);
  return {
    async row(row) {
      workbook.row(row);
      const failure = sink.failure();
      if (failure) throw failure;
    },
    async end(totals, groups, interrupted) {
      await workbook.end(totals, groups.list(), groups.columns, interrupted ? `${note}; interrupted` : note);
      const failure = sink.failure();
      if (failure) throw failure;
    },
  };
}

interface Pending {
  readonly items: readonly Exclude<SourceItem, { header: readonly string[] }>[];
  readonly outcomes: Promise<LineOutcome[]>;
}

/** Counts the bytes read from the input (the progress bar's share) and stops on interruption. */
async function* counted(
  source: AsyncIterable<Uint8Array | string>,
  count: (bytes: number) => void,
  interrupt: AbortSignal | undefined,
): AsyncGenerator<Uint8Array | string> {
  try {
    for await (const chunk of source) {
      if (interrupt?.aborted) return;
      count(typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.byteLength);
      yield chunk;
    }
  } catch (error) {
    // The read cut by an interruption ends the input as its end would: the parser gives out
    // the last row it holds.
    if (!interrupt?.aborted) throw error;
  }
}

/** The first item of the input: its header (the source always yields one first). */
async function headerOf(items: AsyncGenerator<SourceItem>): Promise<readonly string[]> {
  const first = await items.next();
  return first.done || !("header" in first.value) ? [] : first.value.header;
}

interface Run {
  readonly options: Options;
  readonly io: CliIo;
  readonly evaluate: ChunkEvaluator;
  readonly window: number;
  readonly maxLineBytes: number;
}

async function run({ options, io, evaluate, window, maxLineBytes }: Run): Promise<number> {
  const criteria = await criteriaOf(evaluate, options.defaults);
  const stream = options.file === "-" ? io.stdin : createReadStream(options.file);
  const totalBytes = options.file === "-" ? null : statSync(options.file).size;
  let bytesRead = 0;
  // An interruption ends a read that waits for input (a terminal, a pipe that stays open).
  const stopReading = () => (stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
  io.interrupt?.addEventListener("abort", stopReading, { once: true });
  const bytes = counted(
    stream as AsyncIterable<Uint8Array | string>,
    (n) => {
      bytesRead += n;
    },
    io.interrupt,
  );
  const items = options.input === "csv" ? csvItems(bytes, maxLineBytes) : ndjsonItems(bytes, maxLineBytes);
  const inputColumns = await headerOf(items);
  const missing = options.groupBy.filter((column) => !inputColumns.includes(column));
  if (missing.length > 0) {
    stopReading();
    throw new Misuse(
      `--group-by ${missing.join(", ")}: not a column of the input (its columns: ${inputColumns.join(", ")})`,
    );
  }
  const layout: TableLayout = { inputColumns, criteria, ranges: options.ranges };
  const out = options.output === undefined ? io.stdout : createWriteStream(options.output);
  const sink = textSink(out);
  const edition = options.defaults.edition;
  const name = options.file === "-" ? "stdin" : options.file;
  const writer =
    options.format === "ndjson"
      ? ndjsonWriter(sink)
      : options.format === "csv"
        ? csvWriter(sink, layout)
        : xlsxWriter(sink, layout, `${name}, edition ${edition}`);
  const totals = emptySums();
  const groups = createGroups(layout, options.groupBy);
  const label = rowLabel(inputColumns);
  const reported = reportRows(criteria[0]?.criterion, label);
  const progress = createProgress(io.stderr, name);
  const state = () => ({
    rows: totals.rows,
    ok: totals.rows - totals.failed,
    errors: totals.failed,
    bytesRead,
    totalBytes,
  });
  const pending: Pending[] = [];
  let chunk: Pending["items"][number][] = [];

  const submit = () => {
    const lines = chunk.flatMap((item) => ("line" in item ? [item.line] : []));
    pending.push({
      items: chunk,
      outcomes: lines.length > 0 ? evaluate({ lines, defaults: options.defaults }) : Promise.resolve([]),
    });
    chunk = [];
  };
  const settleFirst = async () => {
    const { items: settled, outcomes: evaluated } = pending.shift() as Pending;
    const outcomes = await evaluated;
    let next = 0;
    for (const item of settled) {
      const outcome: LineOutcome =
        "line" in item ? outcomes[next++] : { status: 422, body: { detail: item.problem }, quantity: 1 };
      const row = assessedRow(item.number, item.cells, outcome, "problem" in item ? item.problem : undefined);
      addTo(totals, row);
      groups.add(row);
      reported.add(row);
      await writer.row(row, outcome);
      if (row.impacts === null) {
        const message = withoutControls(row.status);
        io.stderr.write(
          `line ${item.number}: ${message.length > MESSAGE_CHARACTERS ? `${message.slice(0, MESSAGE_CHARACTERS)}…` : message}\n`,
        );
        if (options.strict) throw new StrictStop();
      }
    }
    progress.update(state());
  };

  let stopped: "strict" | "output" | undefined;
  let failure: OutputError | undefined;
  try {
    let lines = 0;
    try {
      for await (const item of items) {
        if ("header" in item) continue;
        chunk.push(item);
        if ("line" in item) lines += 1;
        if (lines >= CHUNK_LINES) {
          lines = 0;
          submit();
          while (pending.length >= window) await settleFirst();
        }
      }
    } catch (error) {
      // Interrupted: the input's read is cut; the rows already read are still evaluated.
      if (!io.interrupt?.aborted) throw error;
    }
    submit();
    while (pending.length > 0) await settleFirst();
  } catch (error) {
    // Chunks already given to workers are left to finish unread.
    for (const { outcomes } of pending) outcomes.catch(() => {});
    if (error instanceof StrictStop) stopped = "strict";
    else if (error instanceof OutputError) {
      stopped = "output";
      failure = error;
    } else throw error;
  } finally {
    io.interrupt?.removeEventListener("abort", stopReading);
  }
  const interrupted = io.interrupt?.aborted === true;
  if (stopped !== "output") {
    try {
      await writer.end(totals, groups, interrupted || stopped === "strict");
    } catch (error) {
      if (!(error instanceof OutputError)) throw error;
      failure = error;
    }
  }
  if (options.report !== undefined) {
    writeFileSync(
      options.report,
      reportHtml({
        title: `Impacts of ${name}`,
        subtitle: `edition ${edition}, ${new Date().toISOString().slice(0, 10)}, ${sumsStatus(totals)}`,
        criteria,
        totals,
        groupColumns: groups.columns,
        groups: groups.list(),
        ...reported.result(),
        interrupted,
      }),
    );
  }
  if (options.output !== undefined && failure === undefined) {
    await new Promise<void>((resolve) => out.end(resolve));
  }
  progress.done(state());
  if (failure !== undefined) {
    io.stderr.write(`impact-service: ${failure.message}\n`);
    return 1;
  }
  if (interrupted) {
    io.stderr.write(`impact-service: interrupted after ${totals.rows} rows (the output holds them, whole)\n`);
    return interruptedCode(io.interrupt?.reason);
  }
  if (stopped === "strict") return 1;
  return totals.rows > 0 && totals.failed === totals.rows ? 1 : 0;
}

/** 128 + the signal's number, as shells report a process ended by it. */
function interruptedCode(reason: unknown): number {
  return reason === "SIGTERM" ? 143 : 130;
}

/** Runs the command line; the exit code (see USAGE). */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  // A closed stderr (`2>&-`, a reader gone) must not end the run with an unhandled error.
  io.stderr.on?.("error", () => {});
  let options: Options;
  let maxLineBytes: number;
  try {
    const given = optionsOf(argv);
    const config = loadConfig();
    // The edition named on every line that names none: its warnings and messages can name it.
    options = {
      ...given,
      defaults: { ...given.defaults, edition: given.defaults.edition ?? config.EDITION },
    };
    maxLineBytes = config.MAX_BODY_BYTES;
    if (options.file !== "-") statSync(options.file);
    const missing = options.groupBy.length > 0 && options.input === "ndjson";
    if (missing) throw new UsageError("--group-by needs a CSV input (its columns)");
    if (
      options.format === "xlsx" &&
      options.output === undefined &&
      (io.stdout as { isTTY?: boolean }).isTTY
    ) {
      throw new UsageError("--format xlsx writes a workbook: give -o <file.xlsx> (or a pipe)");
    }
  } catch (error) {
    if (error instanceof UsageError && error.message === "") {
      io.stderr.write(USAGE);
      return 0;
    }
    const known = error instanceof UsageError || error instanceof ConfigError || error instanceof TypeError;
    const message = (error as Error).message;
    if (!known && (error as NodeJS.ErrnoException).code === undefined) throw error;
    io.stderr.write(
      `impact-service: ${withoutControls(message)}\n${error instanceof UsageError ? USAGE : ""}`,
    );
    return 2;
  }
  const misused = (error: unknown) => {
    if (!(error instanceof Misuse)) throw error;
    io.stderr.write(`impact-service: ${withoutControls(error.message)}\n`);
    return 2;
  };
  if (options.workers === 0) {
    const { inProcessEvaluator } = await import("./engine.js");
    return run({ options, io, evaluate: inProcessEvaluator(), window: 1, maxLineBytes }).catch(misused);
  }
  const { pooledEvaluator } = await import("./pool.js");
  const pool = pooledEvaluator(options.workers);
  try {
    // Two chunks per worker in flight: each finds its next task ready; memory stays bounded.
    return await run({
      options,
      io,
      evaluate: pool.evaluate,
      window: options.workers * 2,
      maxLineBytes,
    }).catch(misused);
  } finally {
    await pool.close();
  }
}
