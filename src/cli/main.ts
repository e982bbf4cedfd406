import { createReadStream, createWriteStream, statSync, writeFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import type { Writable } from "node:stream";
import type { BatchDefaults, LineOutcome } from "../batch/index.js";
import { ConfigError, loadConfig } from "../config.js";
import { reportHtml, reportRows } from "../output/report.js";
import { OutputError, textSink } from "../output/sink.js";
import {
  addTo,
  type CriterionUnit,
  createGroups,
  emptySums,
  groupsPath,
  sumsStatus,
  type TableLayout,
} from "../output/table.js";
import { withoutControls } from "../output/text.js";
import { StartupDataError } from "../referenceData.js";
import { assessedRow, problemOf, rowLabel } from "./assess.js";
import { isBillingInvocation } from "./billingDispatch.js";
import type { ChunkEvaluator } from "./chunk.js";
import { editionNotes } from "./editionNotes.js";
import { type Options, optionsOf, USAGE, UsageError } from "./options.js";
import { createProgress, rowNotices } from "./progress.js";
import { csvItems, ndjsonItems, type SourceItem } from "./source.js";

/*
 * `impact-service evaluate <inventory> …`: an inventory (CSV) or a batch (NDJSON) evaluated by
 * the engine in this process — or on worker threads — with the batch's per-line code
 * (src/batch); one output row per input row (NDJSON, CSV or an Excel workbook, src/output), an
 * HTML report if asked, progress and bad rows on stderr.
 */

/** Lines handed to an evaluator at once (a worker thread's task). */
const CHUNK_LINES = 256;

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
  const groupsFile = groupsFileOf(options);
  const layout: TableLayout = { inputColumns, criteria, ranges: options.ranges };
  const out = options.output === undefined ? io.stdout : createWriteStream(options.output);
  const sink = textSink(out);
  const edition = options.defaults.edition;
  const name = options.file === "-" ? "stdin" : options.file;
  // The writers (the workbook's library among them) load with the inventory run, not with every command.
  const { csvWriter, groupsText, ndjsonWriter, xlsxWriter } = await import("../output/writers.js");
  const writer =
    options.format === "ndjson"
      ? ndjsonWriter(sink, options.input === "csv" ? inputColumns : null)
      : options.format === "csv"
        ? csvWriter(sink, layout)
        : xlsxWriter(sink, layout, `${name}, edition ${edition}`);
  const totals = emptySums();
  const groups = createGroups(layout, options.groupBy);
  const label = rowLabel(inputColumns);
  const reported = reportRows(criteria[0]?.criterion, label);
  const notes = editionNotes(edition ?? "", inputColumns);
  const progress = createProgress(io.stderr, name);
  const notices = rowNotices(io.stderr);
  const state = () => ({
    rows: totals.rows,
    ok: totals.rows - totals.failed,
    errors: totals.failed,
    warned: totals.warned,
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
      const row = notes.annotate(
        assessedRow(item.number, item.cells, outcome, "problem" in item ? item.problem : undefined),
      );
      addTo(totals, row);
      groups.add(row);
      reported.add(row);
      await writer.row(row, outcome);
      notices.row(row);
      if (row.impacts === null && options.strict) throw new StrictStop();
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
  let groupsWritten = false;
  if (stopped !== "output") {
    try {
      await writer.end(totals, groups, interrupted || stopped === "strict");
      if (groupsFile !== null) {
        const format = options.format === "ndjson" ? "ndjson" : "csv";
        await writeGroupsFile(groupsFile, groupsText(format, layout, groups.columns, groups.list()));
        groupsWritten = true;
      }
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
        criteria: criteria.map((criterion) => ({
          ...criterion,
          meaning: notes.meaning(criterion.criterion),
        })),
        embedded: notes.embedded,
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
  notices.done(totals.warned);
  progress.done(state());
  if (groupsWritten) io.stderr.write(`sums per group: ${withoutControls(groupsFile ?? "")}\n`);
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

/**
 * Where the sums per group are written: beside the output (`impacts.groups.csv`), as the billing
 * output does; null without --group-by, or for a workbook (its `groups` sheet). Sums that would
 * go nowhere (no output file, no report) are a misuse.
 */
function groupsFileOf(options: Options): string | null {
  if (options.groupBy.length === 0 || options.format === "xlsx") return null;
  if (options.output === undefined) {
    if (options.report !== undefined) return null;
    throw new Misuse(
      "--group-by writes the sums per group beside the output: give -o <file> (or --report, or --format xlsx)",
    );
  }
  return groupsPath(options.output, options.format);
}

/** Writes the groups file; a failure (a full disk, a folder not writable) is the output's. */
async function writeGroupsFile(path: string, text: string): Promise<void> {
  try {
    await writeFile(path, text);
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    throw new OutputError(code, `the sums per group: ${message}`);
  }
}

/** 128 + the signal's number, as shells report a process ended by it. */
function interruptedCode(reason: unknown): number {
  return reason === "SIGTERM" ? 143 : 130;
}

/** Runs the command line; the exit code (see USAGE). */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  // A closed stderr (`2>&-`, a reader gone) must not end the run with an unhandled error.
  io.stderr.on?.("error", () => {});
  if (argv[0] === "coefficients") return (await import("./billing.js")).coefficientsMain(argv.slice(1), io);
  if (argv[0] === "evaluate" && isBillingInvocation(argv.slice(1))) {
    return (await import("./billing.js")).billingMain(argv, io);
  }
  let options: Options;
  let maxLineBytes: number;
  try {
    const given = optionsOf(argv);
    const config = loadConfig(process.env);
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
