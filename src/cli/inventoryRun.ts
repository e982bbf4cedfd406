import { createReadStream, statSync } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { setImmediate as nextTurn, setTimeout as nextTurnAfter } from "node:timers/promises";
import { createGzip } from "node:zlib";
import type { BatchDefaults } from "../batch/index.js";
import { billElsewhere } from "../billing/reading/layout.js";
import { StartupDataError } from "../config/referenceData.js";
import { loadConfig, reportDayOf } from "../config/serviceConfig.js";
import type { CloudRegion } from "../data/types.js";
import { NEW_WORK_EDITION_ID } from "../editions/index.js";
import type { GridRows, LoadedGrid } from "../grid/inventoryRows.js";
import { type GridUse, reportHtml, reportRows } from "../output/report.js";
import { whatIfCsv } from "../output/reportParts/whatIf.js";
import { OutputError, textSink } from "../output/sink.js";
import {
  addTo,
  type CriterionUnit,
  createGroups,
  emptySums,
  type Groups,
  groupsPath,
  type Sums,
  sumsStatus,
  type TableLayout,
  writtenInputColumns,
} from "../output/table.js";
import type { TableWriter } from "../output/writers.js";
import type { EditionService } from "../service/open.js";
import {
  checkedInventoryFiles,
  environmentReads,
  FileMisuse,
  named,
  refuseOverlappingFiles,
} from "../support/namedFiles.js";
import {
  OutputAbandoned,
  type OutputOptions,
  openOutput as openOutputFile,
  removedUnlessKept,
  writeOutput,
} from "../support/outputFile.js";
import { printable } from "../support/terminalText.js";
import { assessedRow, problemOf, rowLabel } from "./assess.js";
import { editionNotes } from "./editionNotes.js";
import { columnName, INVENTORY_COLUMN_NAMES, rowPeriod } from "./inventory/inventory.js";
import { inventoryReportParts, inventoryWhatIfs, type LinesGwp } from "./inventory/inventoryReport.js";
import type { ChunkEvaluator, linesEdition, RowOutcome } from "./inventoryChunk.js";
import { csvItems, inputText, ndjsonItems, type SourceItem, xlsxItems } from "./inventoryRecords.js";
import {
  type CliIo,
  checkedCriteria,
  type EvaluateArgs,
  editionOf,
  interruptedCode,
  inventoryOptions,
  misuse,
  type Options,
  UsageError,
} from "./options.js";
import { createProgress, rowNotices } from "./progress.js";

/*
 * `impact-service evaluate <inventory> …`: an inventory (CSV) or a batch (NDJSON) evaluated by
 * the engine in this process — or on worker threads — with the batch's per-line code
 * (src/batch); one output row per input row (NDJSON, CSV or an Excel workbook, src/output), an
 * HTML report if asked, progress and bad rows on stderr.
 */

/** Lines handed to an evaluator at once (a worker thread's task). */
const CHUNK_LINES = 256;
/**
 * Lines of a chunk evaluated in this thread (no --workers): a signal is handled between chunks,
 * and 256 lines took up to half a second on a loaded machine.
 */
const IN_THREAD_CHUNK_LINES = 64;

/** --strict: the first bad row ends the run. */
class StrictStop extends Error {}

/** A problem found before any row: one line, exit 2. */
class Misuse extends Error {}

/** The first refusal's message of a v1 answer's `detail`, and the field it names. */
function refusalOf(body: unknown): { field: unknown; msg: string | undefined } {
  const detail = (body as { detail?: { loc?: unknown[]; msg?: string }[] } | null)?.detail;
  const first = Array.isArray(detail) ? detail[0] : undefined;
  return { field: first?.loc?.[first.loc.length - 1], msg: first?.msg };
}

/**
 * The criteria, checked once before any row by asking the default server of the run's edition
 * with them (the routes' own checks and messages), and the criteria's units.
 */
async function criteriaOf(
  evaluate: ChunkEvaluator,
  edition: string,
  defaults: BatchDefaults,
): Promise<CriterionUnit[]> {
  const [outcome] = await evaluate({
    lines: [JSON.stringify({ method: "POST", path: "/v1/server/?verbose=false", body: {} })],
    edition,
    defaults,
  });
  if (outcome.status !== 200) {
    const { field, msg } = refusalOf(outcome.body);
    if (field === "criteria") throw new Misuse(`--criteria: ${msg ?? "unknown criterion"}`);
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
  readonly outcomes: Promise<RowOutcome[]>;
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

/** The first item of the input: its header and the notes on how it is read (the source always yields one first). */
async function headerOf(
  items: AsyncGenerator<SourceItem>,
): Promise<{ header: readonly string[]; notes: readonly string[] }> {
  const first = await items.next();
  return first.done || !("header" in first.value)
    ? { header: [], notes: [] }
    : { header: first.value.header, notes: first.value.notes ?? [] };
}

interface Run {
  readonly options: Options;
  readonly io: CliIo;
  /** The edition the rows are served in, resolved once (src/cli/inventoryChunk.ts, linesEdition). */
  readonly edition: EditionService;
  readonly evaluate: ChunkEvaluator;
  readonly window: number;
  readonly maxLineBytes: number;
  /** The day the report is dated (src/config/serviceConfig.ts, reportDayOf). */
  readonly reportDay: string;
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

/** The input's items by its format. */
async function* itemsOf(
  input: Options["input"],
  bytes: AsyncIterable<Uint8Array | string>,
  maxLineBytes: number,
  name: string,
): AsyncGenerator<SourceItem> {
  if (input === "csv") return yield* csvItems(bytes, maxLineBytes, name);
  if (input === "ndjson") return yield* ndjsonItems(bytes, maxLineBytes);
  return yield* xlsxItems(Readable.from(bytes), maxLineBytes);
}

/**
 * Bytes a file's read takes at once: the rows parsed ahead of the evaluation are evaluated when
 * the run is interrupted, and 64 KiB (node's default) were 800 rows, a second of a loaded machine.
 */
const READ_BYTES = 16 * 1024;

function openInput({ options, io, maxLineBytes }: Run): Input {
  const stream =
    options.file === "-" ? io.stdin : createReadStream(options.file, { highWaterMark: READ_BYTES });
  let bytesRead = 0;
  // An interruption ends a read that waits for input (a terminal, a pipe that stays open).
  const stop = () => (stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
  io.interrupt?.addEventListener("abort", stop, { once: true });
  // The bytes counted as read from the file (its progress), then inflated when it is gzip.
  const read = counted(
    stream as AsyncIterable<Uint8Array | string>,
    (n) => {
      bytesRead += n;
    },
    io.interrupt,
  );
  const name = options.file === "-" ? "stdin" : options.file;
  // A workbook is a ZIP that its reader opens; a text is told by its first bytes (gzip inflated).
  const bytes = options.input === "xlsx" ? read : inputText(read, name);
  return {
    name,
    items: itemsOf(options.input, bytes, maxLineBytes, name),
    totalBytes: options.file === "-" ? null : statSync(options.file).size,
    bytesRead: () => bytesRead,
    stop,
    release: () => io.interrupt?.removeEventListener("abort", stop),
  };
}

/**
 * A text whose first line names no inventory column, when it is no billing export's either (the
 * bill's formats were tried first: src/billing/reading/layout.ts): a headerless invoice, a report,
 * a table of something else. Its lines are never evaluated as assets, each a `kind is missing`.
 */
function neitherBillNorInventory(name: string, header: readonly string[]): string | null {
  if (header.length === 0 || header.some((cell) => INVENTORY_COLUMN_NAMES.has(columnName(cell)))) return null;
  const shown = header.slice(0, 4).join(", ").slice(0, 120);
  return `${name}: neither a billing export nor an inventory: its first line (${shown}${header.length > 4 ? ", …" : ""}) names no inventory column (kind, provider, instance_type…) and is no billing format's header; it is not evaluated (a bill is read with its header line; --input focus|cur|azure|gcp|oci names its format)`;
}

/** The output table's layout: the input's header (read here) and the criteria; --group-by checked. */
async function layoutOf(
  input: Input,
  { options, io }: Pick<Run, "options" | "io">,
  criteria: CriterionUnit[],
  grid: LoadedGrid | null,
): Promise<TableLayout> {
  const { header: inputColumns, notes } = await headerOf(input.items);
  // A pipe's start is not read ahead, nor a workbook's sheet (src/billing/reading/layout.ts, inputKindOf): a bill
  // there is told by its header.
  const piped = options.file === "-" || !statSync(options.file).isFile();
  const place = piped ? "pipe" : options.input === "xlsx" ? "workbook" : null;
  const bill = place === null ? null : billElsewhere(input.name, inputColumns, place);
  if (bill !== null) {
    input.stop();
    throw new Misuse(bill);
  }
  const neither = options.input === "csv" ? neitherBillNorInventory(input.name, inputColumns) : null;
  if (neither !== null) {
    input.stop();
    throw new Misuse(neither);
  }
  for (const note of notes) io.stderr.write(`${printable(note)}\n`);
  const missing = options.groupBy.filter((column) => !inputColumns.includes(column));
  if (missing.length > 0) {
    input.stop();
    throw new Misuse(
      `--group-by ${missing.join(", ")}: not a column of the input (its columns: ${inputColumns.join(", ")})`,
    );
  }
  return { inputColumns, criteria, ranges: options.ranges, ...(grid !== null ? { grid: true } : {}) };
}

/** Where the rows are written: stdout or -o's file, in the format asked for. */
interface Output {
  readonly writer: TableWriter;
  /**
   * Ends -o's file (stdout is left open); false where an interrupted run's FIFO reader did not take
   * all of it.
   */
  readonly close: () => Promise<boolean>;
}

async function openOutput(
  { options, io, edition }: Pick<Run, "options" | "io" | "edition">,
  layout: TableLayout,
  input: Input,
): Promise<Output> {
  const opened =
    options.output === undefined ? null : await openOutputFile(options.output, outputOptions(io));
  const file = opened?.stream ?? null;
  // A regular file not closed when the process ends (a second signal, its time after one) is removed
  const kept =
    opened?.regular === true && options.output !== undefined ? removedUnlessKept(options.output) : () => {};
  // A text output named `.gz` (the /evaluate page's) is gzipped as it is written
  const gzip =
    file !== null && options.format !== "xlsx" && /\.gz$/i.test(options.output ?? "") ? createGzip() : null;
  const written = gzip === null || file === null ? null : pipeline(gzip, file);
  const out = gzip ?? file ?? io.stdout;
  // A FIFO's or a socket's reader that stopped reading is not waited for once the run is interrupted
  const sink = textSink(out, opened?.regular === false ? io.interrupt : undefined);
  // The writers load with the inventory run, not with every command (the workbook's library with
  // the first workbook written: src/output/writers.ts).
  const { csvWriter, ndjsonWriter, xlsxWriter } = await import("../output/writers.js");
  const writer =
    options.format === "ndjson"
      ? ndjsonWriter(sink, options.input !== "ndjson" ? writtenInputColumns(layout) : null)
      : options.format === "csv"
        ? csvWriter(sink, layout)
        : xlsxWriter(sink, layout, `${input.name}, edition ${edition.edition.id}`);
  return {
    writer,
    close: async () => {
      let whole = true;
      if (options.output !== undefined) {
        const ended = new Promise<void>((resolve) => out.end(resolve));
        // Interrupted, a FIFO's or a socket's reader that takes nothing more is not waited for
        if (opened?.regular === false && io.interrupt?.aborted) {
          whole = await Promise.race([ended.then(() => true), nextTurnAfter(READER_GRACE_MS, false)]);
          if (!whole) out.destroy();
        } else await ended;
      }
      await written;
      kept();
      return whole;
    },
  };
}

/** How long an interrupted run waits for a FIFO's reader to take the output's last bytes. */
const READER_GRACE_MS = 100;

/** How the run's files are opened: a FIFO waited for until the run is interrupted, the wait said. */
function outputOptions(io: CliIo): OutputOptions {
  return {
    ...(io.interrupt === undefined ? {} : { signal: io.interrupt }),
    waiting: (path) =>
      io.stderr.write(
        `${printable(path)}: a FIFO no process reads yet; waiting for a reader (Ctrl-C stops)\n`,
      ),
  };
}

/**
 * The cloud regions of the inventory's edition (null for an edition without, or rows without a
 * region column), for the notes on regions it lacks (src/cli/editionNotes.ts).
 */
function editionRegions(
  edition: EditionService,
  inputColumns: readonly string[],
): readonly CloudRegion[] | null {
  if (!inputColumns.map(columnName).includes("region")) return null;
  return edition.data.cloudRegions;
}

/** What the rows add up to as they are written: the sums, the groups', the report's rows. */
interface Tally {
  readonly layout: TableLayout;
  readonly totals: Sums;
  readonly groups: Groups;
  readonly reported: ReturnType<typeof reportRows>;
  readonly progress: ReturnType<typeof createProgress>;
  /** Bad rows and the first rows with warnings, told on stderr as they come. */
  readonly notices: ReturnType<typeof rowNotices>;
  /** The edition's notes on rows (an embedded impact it does not allocate) and criteria. */
  readonly notes: ReturnType<typeof editionNotes>;
  /** The rows' gwp use from the grid series (--grid-intensity), null without one. */
  readonly grid: GridRows | null;
  /** The report's impacts over time, groups and cloud rows (src/cli/inventory/inventoryReport.ts). */
  readonly parts: ReturnType<typeof inventoryReportParts>;
  readonly state: () => Parameters<ReturnType<typeof createProgress>["update"]>[0];
}

function tallyOf(
  { options, io, edition }: Pick<Run, "options" | "io" | "edition">,
  layout: TableLayout,
  input: Input,
  grid: GridRows | null,
): Tally {
  const totals = emptySums();
  return {
    grid,
    layout,
    totals,
    groups: createGroups(layout, options.groupBy),
    reported: reportRows(layout.criteria[0]?.criterion, rowLabel(layout.inputColumns)),
    parts: inventoryReportParts(layout.inputColumns, layout.criteria),
    progress: createProgress(io.stderr, input.name, undefined, io.stage ?? null),
    notices: rowNotices(io.stderr),
    notes: editionNotes(edition.edition, layout.inputColumns, editionRegions(edition, layout.inputColumns)),
    state: () => ({
      rows: totals.rows,
      ok: totals.rows - totals.failed,
      errors: totals.failed,
      warned: totals.warned,
      bytesRead: input.bytesRead(),
      totalBytes: input.totalBytes,
    }),
  };
}

/** Writes a chunk's rows once evaluated, in order; bad rows and warnings told (the end with --strict). */
async function settle(run: Run, pending: Pending, writer: TableWriter, tally: Tally): Promise<void> {
  const outcomes = await pending.outcomes;
  let next = 0;
  for (const item of pending.items) {
    const answer: RowOutcome =
      "line" in item ? outcomes[next++] : { status: 422, body: { detail: item.problem }, quantity: 1 };
    const outcome = tally.grid === null ? answer : tally.grid.apply(item.cells, answer);
    const row = tally.notes.annotate(
      assessedRow(item.number, item.cells, outcome, "problem" in item ? item.problem : undefined),
    );
    addTo(tally.totals, row);
    tally.groups.add(row);
    tally.reported.add(row);
    tally.parts.add(row, "line" in item ? item.line : undefined);
    await writer.row(row, outcome);
    tally.notices.row(row);
    if (row.impacts === null && run.options.strict) throw new StrictStop();
  }
  tally.progress.update(tally.state());
}

/**
 * Reads, evaluates and writes every row, `window` chunks in flight; the rows taken before an
 * interruption (the chunk in hand, those in flight) are still evaluated.
 */
async function evaluateRows(run: Run, input: Input, writer: TableWriter, tally: Tally): Promise<void> {
  const pending: Pending[] = [];
  let chunk: Pending["items"][number][] = [];
  let lines = 0;
  const submit = () => {
    const batch = chunk.flatMap((item) => ("line" in item ? [item.line] : []));
    pending.push({
      items: chunk,
      outcomes:
        batch.length > 0
          ? run.evaluate({
              lines: batch,
              edition: run.edition.edition.id,
              defaults: run.options.defaults,
              verboseForEnergy: run.options.input !== "ndjson",
            })
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
        if (lines < (run.options.workers === 0 ? IN_THREAD_CHUNK_LINES : CHUNK_LINES)) continue;
        submit();
        while (pending.length >= run.window) await settle(run, pending.shift() as Pending, writer, tally);
        // A turn of the event loop between chunks: a signal is handled within one chunk's work (a
        // file's buffered rows evaluated in this thread otherwise held it for seconds)
        await nextTurn();
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

/** The report's charts of the gwp use from the grid series, when rows used one. */
function gridUseOf(grid: GridRows | null): { gridUse?: GridUse } {
  const use = grid?.use() ?? null;
  return use === null ? {} : { gridUse: use };
}

/** The gwp of request lines answered by the run's evaluator (each × its quantity), null where one failed. */
function linesGwp(run: Pick<Run, "evaluate" | "edition" | "options">): LinesGwp {
  return async (lines) => {
    if (lines.length === 0) return [];
    const outcomes = await run.evaluate({
      lines: [...lines],
      edition: run.edition.edition.id,
      defaults: run.options.defaults,
    });
    return outcomes.map((outcome) => {
      const gwp = assessedRow(0, [], outcome, undefined).impacts?.gwp;
      return gwp?.embedded === undefined || gwp.use === undefined ? null : gwp.embedded.value + gwp.use.value;
    });
  };
}

/** The what-ifs of the run's largest cloud rows, when the report or --what-if asks. */
async function whatIfsOf(run: Run, clouds: ReturnType<Tally["parts"]["result"]>["clouds"]) {
  if (run.options.report === undefined && run.options.whatIf === undefined) return null;
  return inventoryWhatIfs(run.edition, clouds, linesGwp(run));
}

/** The command a reader runs for the groups the report's page shows (its `--group-by` added by the page). */
const commandOf = (run: Run, input: Input) =>
  `npx impact-service evaluate ${/^[\w./-]+$/.test(input.name) ? input.name : JSON.stringify(input.name)} --edition ${run.edition.edition.id} -o impacts.csv`;

async function writeReport(run: Run, input: Input, tally: Tally, interrupted: boolean) {
  const { options, edition, reportDay, criteria } = run;
  if (options.report === undefined && options.whatIf === undefined) return;
  const parts = tally.parts.result();
  const whatIf = await whatIfsOf(run, parts.clouds);
  if (options.whatIf !== undefined)
    await writeOutput(options.whatIf, whatIfCsv(whatIf ?? []), outputOptions(run.io));
  if (options.report === undefined) return;
  await writeOutput(
    options.report,
    reportHtml({
      title: `Impacts of ${input.name}`,
      subtitle: `edition ${edition.edition.id}, ${reportDay}, ${sumsStatus(tally.totals)}`,
      ...(tally.grid !== null ? { note: tally.grid.summary() } : {}),
      criteria: criteria.map((criterion) => ({
        ...criterion,
        meaning: tally.notes.meaning(criterion.criterion),
      })),
      embedded: tally.notes.embedded,
      totals: tally.totals,
      groupColumns: tally.groups.columns,
      groups: tally.groups.list(),
      ...tally.reported.result(),
      ...gridUseOf(tally.grid),
      interrupted,
      overTime: parts.overTime,
      cube: parts.cube,
      whatIf,
      command: commandOf(run, input),
    }),
    outputOptions(run.io),
  );
}

/** The sums written after the rows, the report, the output closed; the exit code. */
async function finish(run: Run, input: Input, output: Output, tally: Tally, stop: Stop): Promise<number> {
  const { io, options } = run;
  const interrupted = io.interrupt?.aborted === true;
  let failure = stop.failure;
  const groupsFile = groupsFileOf(options);
  let groupsWritten = false;
  if (stop.stopped !== "output") {
    try {
      await output.writer.end(tally.totals, tally.groups, interrupted || stop.stopped === "strict");
      if (groupsFile !== null) {
        await writeGroupsFile(groupsFile, await groupsTextOf(options, tally), io);
        groupsWritten = true;
      }
    } catch (error) {
      if (!(error instanceof OutputError)) throw error;
      failure = error;
    }
  }
  await writeReport(run, input, tally, interrupted);
  const whole = failure === undefined ? await output.close() : false;
  tally.notices.done(tally.totals.warned);
  tally.progress.done(tally.state());
  // After the run's line, never before a misuse's: which edition, and which new work should use
  const note = editionChoiceNote(run.options.edition, run.edition.edition.id);
  if (note !== null) io.stderr.write(`${note}\n`);
  if (tally.grid !== null) io.stderr.write(`${printable(tally.grid.summary())}\n`);
  if (groupsWritten) io.stderr.write(`sums per group: ${printable(groupsFile ?? "")}\n`);
  if (failure !== undefined) {
    io.stderr.write(`impact-service: ${printable(failure.message)}\n`);
    return interrupted ? interruptedCode(io.interrupt?.reason) : 1;
  }
  if (interrupted) {
    const held = whole ? "the output holds them, whole" : "the output's reader did not take them all";
    io.stderr.write(`impact-service: interrupted after ${tally.totals.rows} rows (${held})\n`);
    return interruptedCode(io.interrupt?.reason);
  }
  if (stop.stopped === "strict") return 1;
  return tally.totals.rows > 0 && tally.totals.failed === tally.totals.rows ? 1 : 0;
}

/** The grid series asked for, read before any row (a bad series is a misuse: one line, exit 2). */
async function gridOf({ options, edition }: Pick<Run, "options" | "edition">): Promise<LoadedGrid | null> {
  if (options.grid === null) return null;
  // DuckDB and the series' readers load with a run that has a series, not with every run.
  const { InputFileError, loadGrid } = await import("../grid/inventoryRows.js");
  try {
    return await loadGrid(options.grid, edition.edition.id, loadConfig(process.env));
  } catch (error) {
    // The series, the zone table or a file name DuckDB cannot read literally.
    if (error instanceof InputFileError) throw new Misuse(error.message);
    throw error;
  }
}

/** An inventory's run: the criteria checked, the input's header read, every row evaluated and written. */
async function run(given: Omit<Run, "criteria">): Promise<number> {
  const criteria = await criteriaOf(given.evaluate, given.edition.edition.id, given.options.defaults);
  const each: Run = { ...given, criteria };
  const grid = await gridOf(each);
  const input = openInput(each);
  try {
    const layout = await layoutOf(input, each, criteria, grid);
    const output = await openOutput(each, layout, input);
    const rows =
      grid === null
        ? null
        : (await import("../grid/inventoryRows.js")).gridRows(
            grid,
            layout.inputColumns,
            each.options.report !== undefined,
            { columnName, rowPeriod },
          );
    const tally = tallyOf(each, layout, input, rows);
    const stop = await stopOf(evaluateRows(each, input, output.writer, tally));
    return await finish(each, input, output, tally, stop);
  } catch (error) {
    // A FIFO named as an output that no process read before the run was interrupted
    if (!(error instanceof OutputAbandoned)) throw error;
    each.io.stderr.write(`impact-service: ${printable(error.message)}\n`);
    return interruptedCode(each.io.interrupt?.reason);
  } finally {
    input.release();
  }
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
    throw new FileMisuse(
      "--group-by writes the sums per group beside the output: give -o <file> (or --report, or --format xlsx)",
    );
  }
  return groupsPath(options.output, options.format);
}

/** The groups file's text, in the output's format (NDJSON for NDJSON, else CSV). */
async function groupsTextOf(options: Options, tally: Tally): Promise<string> {
  const { groupsText } = await import("../output/writers.js");
  const format = options.format === "ndjson" ? "ndjson" : "csv";
  return groupsText(format, tally.layout, tally.groups.columns, tally.groups.list());
}

/** Writes the groups file; a failure (a full disk, a folder not writable) is the output's. */
async function writeGroupsFile(path: string, text: string, io: CliIo): Promise<void> {
  try {
    await writeOutput(path, text, outputOptions(io));
  } catch (error) {
    if (error instanceof OutputAbandoned) throw error;
    const { code, message } = error as NodeJS.ErrnoException;
    throw new OutputError(code, `the sums per group: ${message}`);
  }
}

/**
 * What a run given no --edition says of the edition it used when the environment's EDITION chose
 * one other than the edition for new work: which one, and which new work should use.
 */
export function editionChoiceNote(asked: string | null, used: string): string | null {
  if (asked !== null || used === NEW_WORK_EDITION_ID) return null;
  return `edition ${used} (the environment's EDITION); new work should use --edition ${NEW_WORK_EDITION_ID}, Boavizta's current release (docs/editions.md)`;
}

/** An inventory's options, checked before any row: the edition named, the files usable. */
function checkedOptions(
  args: EvaluateArgs,
  io: CliIo,
): { options: Options; editionId: string; maxLineBytes: number; reportDay: string } {
  const options = inventoryOptions(args);
  const config = loadConfig(process.env);
  const editionId = editionOf(options.edition ?? undefined, config);
  checkedCriteria(args.values.criteria, editionId, config);
  const writes = [
    ...named("--output", options.output),
    ...named("--report", options.report),
    ...named("--what-if", options.whatIf),
    ...named("--group-by's file", groupsFileOf(options)),
  ];
  checkedInventoryFiles(
    options.file,
    writes.map(({ option, path }) => [option, path]),
  );
  refuseOverlappingFiles({
    reads: [
      { option: "the input", path: options.file },
      ...(args.archive?.archives ?? []).map((path) => ({ option: "the input", path })),
      ...named("--grid-intensity", options.grid?.series),
      ...named("--grid-zones", options.grid?.zones),
      ...environmentReads(process.env),
    ],
    writes,
  });
  if (options.groupBy.length > 0 && options.input === "ndjson") {
    throw new UsageError("--group-by needs a CSV input (its columns)");
  }
  if (options.format === "xlsx" && options.output === undefined && (io.stdout as { isTTY?: boolean }).isTTY) {
    throw new UsageError("--format xlsx writes a workbook: give -o <file.xlsx> (or a pipe)");
  }
  return {
    options,
    // Without --edition, the edition of new work (newWorkEdition), as a bill's and the page's.
    editionId,
    maxLineBytes: config.MAX_BODY_BYTES,
    reportDay: reportDayOf(config),
  };
}

/**
 * The edition the rows are served in, resolved once as a batch's is (linesEdition); its refusal is
 * a misuse naming --edition in the routes' words.
 */
function runEdition(resolved: ReturnType<typeof linesEdition>, asked: string | null): EditionService {
  if ("served" in resolved) return resolved.served;
  throw new Misuse(`--edition ${asked}: ${refusalOf(resolved.refused.body).msg ?? "unknown"}`);
}

/** `evaluate <inventory>`: in this thread, or on worker threads. */
export async function inventoryMain(args: EvaluateArgs, io: CliIo): Promise<number> {
  let checked: ReturnType<typeof checkedOptions>;
  try {
    checked = checkedOptions(args, io);
  } catch (error) {
    return misuse(io, error);
  }
  const { options, editionId, maxLineBytes, reportDay } = checked;
  const misused = (error: unknown) => {
    // A FileMisuse here: a workbook that cannot be read (src/cli/inventoryRecords.ts).
    if (!(error instanceof Misuse || error instanceof FileMisuse)) throw error;
    io.stderr.write(`impact-service: ${printable(error.message)}\n`);
    return 2;
  };
  const { inProcessEvaluator, inProcessService, linesEdition } = await import("./inventoryChunk.js");
  let opened: ReturnType<typeof inProcessService>;
  try {
    // On worker threads, this thread serves only the edition asked (its notes, its refusal).
    opened = inProcessService(options.workers === 0 ? undefined : { edition: editionId });
  } catch (error) {
    // Data that cannot be served (a custom edition's folder): one line, as the service says it.
    if (!(error instanceof StartupDataError)) throw error;
    io.stderr.write(`impact-service: invalid data: ${printable(error.message)}\n`);
    return 2;
  }
  let edition: EditionService;
  try {
    edition = runEdition(linesEdition(opened.service, editionId), editionId);
  } catch (error) {
    return misused(error);
  }
  if (options.workers === 0) {
    const evaluate = inProcessEvaluator(opened);
    return run({ options, io, edition, evaluate, window: 1, maxLineBytes, reportDay }).catch(misused);
  }
  const { pooledEvaluator } = await import("./pool.js");
  const pool = pooledEvaluator(options.workers);
  try {
    // Two chunks per worker in flight: each finds its next task ready; memory stays bounded.
    return await run({
      options,
      io,
      edition,
      evaluate: pool.evaluate,
      window: options.workers * 2,
      maxLineBytes,
      reportDay,
    }).catch(misused);
  } finally {
    await pool.close();
  }
}
