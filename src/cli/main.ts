import { createReadStream, createWriteStream, statSync, writeFileSync } from "node:fs";
import type { Writable } from "node:stream";
import type { BatchDefaults, LineOutcome } from "../batch/index.js";
import { ConfigError, loadConfig } from "../config.js";
import { reportHtml, reportRows } from "../output/report.js";
import { OutputError, type TextSink, textSink } from "../output/sink.js";
import {
  type AssessedRow,
  addTo,
  type CriterionUnit,
  createGroups,
  emptySums,
  type Groups,
  type Sums,
  sumsStatus,
  type TableLayout,
} from "../output/table.js";
import { withoutControls } from "../output/text.js";
import type { totalsJson as TotalsJson } from "../output/writers.js";
import { StartupDataError } from "../referenceData.js";
import { assessedRow, problemOf, rowLabel } from "./assess.js";
import { evaluationOf } from "./billingDispatch.js";
import type { ChunkEvaluator } from "./chunk.js";
import { checkedInventoryFiles, FileMisuse } from "./files.js";
import {
  type EvaluateArgs,
  evaluateArgs,
  inventoryOptions,
  type Options,
  USAGE,
  UsageError,
} from "./options.js";
import { createProgress } from "./progress.js";
import { csvItems, ndjsonItems, type SourceItem } from "./source.js";

/*
 * `impact-service evaluate <inventory> …`: an inventory (CSV) or a batch (NDJSON) evaluated by
 * the engine in this process — or on worker threads — with the batch's per-line code
 * (src/batch); one output row per input row (NDJSON, CSV or an Excel workbook, src/output), an
 * HTML report if asked, progress and bad rows on stderr.
 */

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

/** --strict: the first bad row ends the run. */
class StrictStop extends Error {}

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

/** How the output is written: a table writer, or NDJSON, which also writes the route's answer. */
interface NdjsonWriter {
  row(row: AssessedRow, outcome: LineOutcome): Promise<void>;
  end(totals: Sums, groups: Groups, interrupted: boolean): Promise<void>;
}

/** Batch NDJSON: each row's line with the route's body, then the groups' and the summary's. */
function ndjsonWriter(sink: TextSink, totalsJson: typeof TotalsJson): NdjsonWriter {
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
  /** The criteria and their units (checked once, before any row). */
  readonly criteria: CriterionUnit[];
}

/** The input being read: its items, its size and the bytes read so far. */
interface Input {
  readonly name: string;
  readonly items: AsyncGenerator<SourceItem>;
  readonly totalBytes: number | null;
  readonly bytesRead: () => number;
  /** Stops reading (an interruption, a misuse found in the header). */
  readonly stop: () => void;
  /** Forgets the interruption's listener (the run is over). */
  readonly release: () => void;
}

function openInput({ options, io, maxLineBytes }: Run): Input {
  const stream = options.file === "-" ? io.stdin : createReadStream(options.file);
  let bytesRead = 0;
  // An interruption ends a read that waits for input (a terminal, a pipe that stays open).
  const stop = () => (stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
  io.interrupt?.addEventListener("abort", stop, { once: true });
  const bytes = counted(
    stream as AsyncIterable<Uint8Array | string>,
    (n) => {
      bytesRead += n;
    },
    io.interrupt,
  );
  return {
    name: options.file === "-" ? "stdin" : options.file,
    items: options.input === "csv" ? csvItems(bytes, maxLineBytes) : ndjsonItems(bytes, maxLineBytes),
    totalBytes: options.file === "-" ? null : statSync(options.file).size,
    bytesRead: () => bytesRead,
    stop,
    release: () => io.interrupt?.removeEventListener("abort", stop),
  };
}

/** The output table's layout: the input's header (read here) and the criteria; --group-by checked. */
async function layoutOf(input: Input, options: Options, criteria: CriterionUnit[]): Promise<TableLayout> {
  const inputColumns = await headerOf(input.items);
  const missing = options.groupBy.filter((column) => !inputColumns.includes(column));
  if (missing.length > 0) {
    input.stop();
    throw new Misuse(
      `--group-by ${missing.join(", ")}: not a column of the input (its columns: ${inputColumns.join(", ")})`,
    );
  }
  return { inputColumns, criteria, ranges: options.ranges };
}

/** Where the rows are written: stdout or -o's file, in the format asked for. */
interface Output {
  readonly writer: NdjsonWriter;
  /** Ends -o's file (stdout is left open). */
  readonly close: () => Promise<void>;
}

async function openOutput(options: Options, io: CliIo, layout: TableLayout, input: Input): Promise<Output> {
  const out = options.output === undefined ? io.stdout : createWriteStream(options.output);
  const sink = textSink(out);
  // The writers (the workbook's library among them) load with the inventory run, not with every command.
  const { csvWriter, totalsJson, xlsxWriter } = await import("../output/writers.js");
  const writer =
    options.format === "ndjson"
      ? ndjsonWriter(sink, totalsJson)
      : options.format === "csv"
        ? csvWriter(sink, layout)
        : xlsxWriter(sink, layout, `${input.name}, edition ${options.defaults.edition}`);
  return {
    writer,
    close: async () => {
      if (options.output !== undefined) await new Promise<void>((resolve) => out.end(resolve));
    },
  };
}

/** What the rows add up to as they are written: the sums, the groups', the report's rows. */
interface Tally {
  readonly totals: Sums;
  readonly groups: Groups;
  readonly reported: ReturnType<typeof reportRows>;
  readonly progress: ReturnType<typeof createProgress>;
  readonly state: () => Parameters<ReturnType<typeof createProgress>["update"]>[0];
}

function tallyOf(options: Options, io: CliIo, layout: TableLayout, input: Input): Tally {
  const totals = emptySums();
  return {
    totals,
    groups: createGroups(layout, options.groupBy),
    reported: reportRows(layout.criteria[0]?.criterion, rowLabel(layout.inputColumns)),
    progress: createProgress(io.stderr, input.name),
    state: () => ({
      rows: totals.rows,
      ok: totals.rows - totals.failed,
      errors: totals.failed,
      bytesRead: input.bytesRead(),
      totalBytes: input.totalBytes,
    }),
  };
}

/** Writes a chunk's rows once evaluated, in order; a bad row on stderr (the end with --strict). */
async function settle(run: Run, pending: Pending, writer: NdjsonWriter, tally: Tally): Promise<void> {
  const outcomes = await pending.outcomes;
  let next = 0;
  for (const item of pending.items) {
    const outcome: LineOutcome =
      "line" in item ? outcomes[next++] : { status: 422, body: { detail: item.problem }, quantity: 1 };
    const row = assessedRow(item.number, item.cells, outcome, "problem" in item ? item.problem : undefined);
    addTo(tally.totals, row);
    tally.groups.add(row);
    tally.reported.add(row);
    await writer.row(row, outcome);
    if (row.impacts === null) {
      const message = withoutControls(row.status);
      run.io.stderr.write(
        `line ${item.number}: ${message.length > MESSAGE_CHARACTERS ? `${message.slice(0, MESSAGE_CHARACTERS)}…` : message}\n`,
      );
      if (run.options.strict) throw new StrictStop();
    }
  }
  tally.progress.update(tally.state());
}

/**
 * Reads, evaluates and writes every row, `window` chunks in flight; the rows read before an
 * interruption are still evaluated.
 */
async function evaluateRows(run: Run, input: Input, writer: NdjsonWriter, tally: Tally): Promise<void> {
  const pending: Pending[] = [];
  let chunk: Pending["items"][number][] = [];
  let lines = 0;
  const submit = () => {
    const batch = chunk.flatMap((item) => ("line" in item ? [item.line] : []));
    pending.push({
      items: chunk,
      outcomes:
        batch.length > 0
          ? run.evaluate({ lines: batch, defaults: run.options.defaults })
          : Promise.resolve([]),
    });
    chunk = [];
    lines = 0;
  };
  try {
    try {
      for await (const item of input.items) {
        if ("header" in item) continue;
        chunk.push(item);
        if ("line" in item) lines += 1;
        if (lines < CHUNK_LINES) continue;
        submit();
        while (pending.length >= run.window) await settle(run, pending.shift() as Pending, writer, tally);
      }
    } catch (error) {
      // Interrupted: the input's read is cut; the rows already read are still evaluated.
      if (!run.io.interrupt?.aborted) throw error;
    }
    submit();
    while (pending.length > 0) await settle(run, pending.shift() as Pending, writer, tally);
  } catch (error) {
    // Chunks already given to workers are left to finish unread.
    for (const { outcomes } of pending) outcomes.catch(() => {});
    throw error;
  }
}

/** How the rows' pass ended: every row, --strict's stop, or the output's failure. */
type Stop = { readonly stopped: "strict" | "output" | undefined; failure: OutputError | undefined };

async function stopOf(rows: Promise<void>): Promise<Stop> {
  try {
    await rows;
    return { stopped: undefined, failure: undefined };
  } catch (error) {
    if (error instanceof StrictStop) return { stopped: "strict", failure: undefined };
    if (error instanceof OutputError) return { stopped: "output", failure: error };
    throw error;
  }
}

function writeReport(
  options: Options,
  input: Input,
  tally: Tally,
  criteria: CriterionUnit[],
  interrupted: boolean,
) {
  if (options.report === undefined) return;
  writeFileSync(
    options.report,
    reportHtml({
      title: `Impacts of ${input.name}`,
      subtitle: `edition ${options.defaults.edition}, ${new Date().toISOString().slice(0, 10)}, ${sumsStatus(tally.totals)}`,
      criteria,
      totals: tally.totals,
      groupColumns: tally.groups.columns,
      groups: tally.groups.list(),
      ...tally.reported.result(),
      interrupted,
    }),
  );
}

/** The sums written after the rows, the report, the output closed; the exit code. */
async function finish(run: Run, input: Input, output: Output, tally: Tally, stop: Stop): Promise<number> {
  const { io, options } = run;
  const interrupted = io.interrupt?.aborted === true;
  let failure = stop.failure;
  if (stop.stopped !== "output") {
    try {
      await output.writer.end(tally.totals, tally.groups, interrupted || stop.stopped === "strict");
    } catch (error) {
      if (!(error instanceof OutputError)) throw error;
      failure = error;
    }
  }
  writeReport(options, input, tally, run.criteria, interrupted);
  if (failure === undefined) await output.close();
  tally.progress.done(tally.state());
  if (failure !== undefined) {
    io.stderr.write(`impact-service: ${failure.message}\n`);
    return 1;
  }
  if (interrupted) {
    io.stderr.write(
      `impact-service: interrupted after ${tally.totals.rows} rows (the output holds them, whole)\n`,
    );
    return interruptedCode(io.interrupt?.reason);
  }
  if (stop.stopped === "strict") return 1;
  return tally.totals.rows > 0 && tally.totals.failed === tally.totals.rows ? 1 : 0;
}

/** An inventory's run: the criteria checked, the input's header read, every row evaluated and written. */
async function run(given: Omit<Run, "criteria">): Promise<number> {
  const criteria = await criteriaOf(given.evaluate, given.options.defaults);
  const each: Run = { ...given, criteria };
  const input = openInput(each);
  try {
    const layout = await layoutOf(input, each.options, criteria);
    const output = await openOutput(each.options, each.io, layout, input);
    const tally = tallyOf(each.options, each.io, layout, input);
    const stop = await stopOf(evaluateRows(each, input, output.writer, tally));
    return await finish(each, input, output, tally, stop);
  } finally {
    input.release();
  }
}

/** 128 + the signal's number, as shells report a process ended by it. */
function interruptedCode(reason: unknown): number {
  return reason === "SIGTERM" ? 143 : 130;
}

/** A misuse on the command line: its line on stderr (with the usage for a UsageError); exit 2. */
function misuse(io: CliIo, error: unknown): number {
  const known =
    error instanceof UsageError ||
    error instanceof ConfigError ||
    error instanceof FileMisuse ||
    (error as NodeJS.ErrnoException).code !== undefined;
  if (!known) throw error;
  io.stderr.write(
    `impact-service: ${withoutControls((error as Error).message)}\n${error instanceof UsageError ? USAGE : ""}`,
  );
  return 2;
}

/** An inventory's options, checked before any row: the edition named, the files usable. */
function checkedOptions(args: EvaluateArgs, io: CliIo): { options: Options; maxLineBytes: number } {
  const given = inventoryOptions(args);
  const config = loadConfig(process.env);
  // The edition named on every line that names none: its warnings and messages can name it.
  const options = {
    ...given,
    defaults: { ...given.defaults, edition: given.defaults.edition ?? config.EDITION },
  };
  checkedInventoryFiles(options.file, [
    ["--output", options.output],
    ["--report", options.report],
  ]);
  if (options.groupBy.length > 0 && options.input === "ndjson") {
    throw new UsageError("--group-by needs a CSV input (its columns)");
  }
  if (options.format === "xlsx" && options.output === undefined && (io.stdout as { isTTY?: boolean }).isTTY) {
    throw new UsageError("--format xlsx writes a workbook: give -o <file.xlsx> (or a pipe)");
  }
  return { options, maxLineBytes: config.MAX_BODY_BYTES };
}

/** `evaluate <inventory>`: in this thread, or on worker threads. */
async function inventoryMain(args: EvaluateArgs, io: CliIo): Promise<number> {
  let checked: ReturnType<typeof checkedOptions>;
  try {
    checked = checkedOptions(args, io);
  } catch (error) {
    return misuse(io, error);
  }
  const { options, maxLineBytes } = checked;
  const misused = (error: unknown) => {
    if (!(error instanceof Misuse)) throw error;
    io.stderr.write(`impact-service: ${withoutControls(error.message)}\n`);
    return 2;
  };
  if (options.workers === 0) {
    const { inProcessEvaluator } = await import("./engine.js");
    let evaluate: ReturnType<typeof inProcessEvaluator>;
    try {
      evaluate = inProcessEvaluator();
    } catch (error) {
      // Data that cannot be served (a custom edition's folder): one line, as the service says it.
      if (!(error instanceof StartupDataError)) throw error;
      io.stderr.write(`impact-service: invalid data: ${withoutControls(error.message)}\n`);
      return 2;
    }
    return run({ options, io, evaluate, window: 1, maxLineBytes }).catch(misused);
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

/** Runs the command line; the exit code (see USAGE). */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  // A closed stderr (`2>&-`, a reader gone) must not end the run with an unhandled error.
  io.stderr.on?.("error", () => {});
  if (argv[0] === "coefficients") return (await import("./billing.js")).coefficientsMain(argv.slice(1), io);
  let args: EvaluateArgs;
  try {
    args = evaluateArgs(argv);
  } catch (error) {
    if (error instanceof UsageError && error.message === "") {
      io.stderr.write(USAGE);
      return 0;
    }
    return misuse(io, error);
  }
  const evaluation = evaluationOf(args.file, args.values.input);
  if (evaluation.kind === "billing") {
    return (await import("./billing.js")).billingMain(args, evaluation.header, io);
  }
  return inventoryMain(args, io);
}
