/*
 * A bill, from the file named to the files written: the one entry of src/billing, which the command
 * line calls with its options read (BillOptions) and a printer (BillIo). docs/billing-code.md, "A
 * billing run".
 *
 * The run is planned once, before the engine runs, in the order a user is told what is wrong: the
 * edition and the terms (as an inventory's run), every file it reads and writes checked together,
 * each part held against the first's layout, the notes on how the file is read, a last line too
 * long to be read. It is then a list of stages (src/billing/stages/), each taking what the one
 * before returned, on one DuckDB connection: DuckDB reads the file as it is (read: its format,
 * header and columns, once), the format's queries (sql/) sort its lines into kinds (classify), the
 * kinds' instance types and methods name the rows of a lookup table built from the coefficient
 * table (look up), each kind is evaluated through the same queries as its lines (evaluate), every
 * line is written with its impacts (write), and the run's summary is made (summarise) — no
 * evaluation per line. Last, the account is told and every file delivered where it was asked
 * (standard output, a FIFO, a device).
 */

import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Writable } from "node:stream";
import { type Config, reportDayOf } from "../config/serviceConfig.js";
import { interruptedOn, openDatabase } from "../duckdb/database.js";
import { readingConnection } from "../duckdb/readErrors.js";
import type { RequestedCriterion } from "../engine/index.js";
import type { GridFiles } from "../grid/billLines.js";
import { impactColumn, PHASES } from "../output/columns.js";
import { whatIfCsv, whatIfEmptyText, whatIfGroupsText } from "../output/reportParts/whatIf.js";
import { coefficientTerms, openCoefficientTerms } from "../service/coefficients.js";
import type { EditionContext } from "../service/open.js";
import { regularFileStart } from "../support/fileStart.js";
import {
  checkedRunFiles,
  type Destination,
  deliver,
  deliverOutputs,
  FileMisuse,
  type NamedFile,
  NO_LINES,
  type RunDestinations,
  type RunFiles,
} from "../support/namedFiles.js";
import { type OutputOptions, removedUnlessKept } from "../support/outputFile.js";
import type { RunStage } from "../support/runStage.js";
import { BillingStrictStop } from "./errors.js";
import type { BillingFormatName } from "./formats/knownFormats.js";
import type { EditionPlaces } from "./places.js";
import {
  type BillLayout,
  billName,
  checkPartLayout,
  layoutOfStart,
  missingPartsNote,
  partLayout,
  SEARCHED_LINES,
} from "./reading/layout.js";
import {
  layoutNotes,
  type OverlongLine,
  overlongLastLines,
  overlongProblem,
  overlongReason,
  unreadableNumbers,
} from "./reading/notes.js";
import { writtenReportData } from "./report/reportData.js";
import { billingAccount } from "./report/runSummary.js";
import { classifyLines } from "./stages/classify.js";
import { evaluateKinds } from "./stages/evaluate.js";
import { lookUpKinds } from "./stages/lookUp.js";
import { exportReading, readExport, runThreads } from "./stages/read.js";
import type { AskedFilter, BillingAsked, BillingRequest, BillingTerms, BillRun } from "./stages/request.js";
import { type BillingSummary, summarise } from "./stages/summarise.js";
import { partialOf, portableTableFiles, writeOutputs } from "./stages/write.js";

export { FileReadError } from "../duckdb/readErrors.js";
export { BillingInputError, BillingStrictStop } from "./errors.js";

import { BillingInputError } from "./errors.js";
import { loadPriceList, type PriceListReader } from "./priceList.js";

/** A bill's run as the command line was asked it, its options read (src/cli/options.ts, billOptions). */
export interface BillOptions {
  /** The file, or the first of a bill's parts. */
  readonly file: string;
  /** A bill in parts, every part (the first is `file`) in the order given; absent for one file. */
  readonly parts?: readonly string[];
  /** The file's layout when the command read it to tell a bill from an inventory. */
  readonly layout?: BillLayout;
  /** The AWS CUR manifest that named the parts: read too, and the bill's name. */
  readonly manifest?: string;
  /** Several months' manifests (the first is `manifest`): read too, and named in the bill's name. */
  readonly manifests?: readonly string[];
  /** The ZIP archives the file (or the parts) were unpacked from, and the bill as they name it. */
  readonly archive?: { readonly archives: readonly string[]; readonly shown: string };
  readonly input: BillingFormatName | null;
  readonly format: "csv" | "parquet";
  /** -o; null: the lines go to standard output. */
  readonly output: string | null;
  readonly groupBy: readonly string[];
  /** The groups file as the summary names it (as given); null without --group-by. */
  readonly groupsShown: string | null;
  /** --filter's: the lines the sums are of (src/billing/stages/filters.ts); none: every line. */
  readonly filters?: readonly AskedFilter[];
  readonly report: string | null;
  /** --what-if: the changes to the largest usages and what they save, as CSV (src/billing/stages/whatIf.ts). */
  readonly whatIf: string | null;
  readonly tables: string | null;
  readonly instanceTypeColumn: string | null;
  readonly strict: boolean;
  /** The edition asked for (--edition); null: the service's default. */
  readonly edition: string | null;
  readonly terms: BillingAsked;
  readonly grid: GridFiles | null;
  /** The configuration the command read from its environment (EDITION, EDITIONS_FILE, settings). */
  readonly config: Config;
}

/** Where a bill's run writes besides its files: the lines without -o, and what it says (the command prints it). */
export interface BillIo {
  readonly stdout: Writable;
  readonly say: (text: string) => void;
  /** Told each stage of the run (the /evaluate page's progress: src/support/runStage.ts). */
  readonly stage?: (stage: RunStage) => void;
  /**
   * Given the bill's name as its summary names it (billShown), what is told each stage with what
   * reads the share of its query done so far (a terminal's progress: src/cli/progress.ts); given
   * instead of `stage`.
   */
  readonly progress?: (bill: string) => (stage: RunStage, share: StageShare) => void;
  /** Aborted on SIGINT or SIGTERM: the run's query interrupted, nothing written, its partial files removed. */
  readonly interrupt?: AbortSignal;
  /**
   * What reads the price list (PRICE_LIST): a process running many bills hands one that keeps
   * it (keptPriceLists); absent, each run reads it (loadPriceList).
   */
  readonly priceLists?: PriceListReader;
}

/** The share of the running query DuckDB has done, in percent; null when it cannot tell. */
export type StageShare = () => number | null;

/** A billing run as decided before the engine runs: its request, its terms, where its files end up. */
interface BillingPlan extends RunDestinations {
  readonly request: BillingRequest;
  readonly grid: GridFiles | null;
  readonly terms: BillingTerms;
  /** The last lines too long to be read (a part's each), counted as bad rows after the run. */
  readonly overlong: readonly OverlongLine[];
  /** The cells a decimal comma could not read, as lines for standard error (a CSV's; else none). */
  readonly unreadable: () => Promise<string>;
  /** Where --what-if's CSV goes, null without. */
  readonly whatIf: Destination | null;
  /** The day the report is dated (reportDayOf), null without --report. */
  readonly reportDay: string | null;
}

const linesOf = (lines: readonly string[]) => lines.map((line) => `${line}\n`).join("");

/**
 * `impact-service evaluate <billing export> …`: the run planned once, evaluated, its account told
 * and its files delivered. Throws what the command words: a misuse (FileMisuse, InputFileError,
 * a DomainError of the edition or criteria), the file's read failure (FileReadError) or --strict's
 * stop (BillingStrictStop).
 */
export async function evaluateBill(options: BillOptions, io: BillIo): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), "impact-billing-out-"));
  const keptScratch = removedUnlessKept(scratch);
  try {
    const shown = billShown(options);
    const told = io.progress?.(shown) ?? io.stage;
    const plan = await billingPlanOf(options, scratch, io);
    const evaluated = await evaluateBillingExport(
      plan.terms,
      plan.request,
      plan.grid,
      told,
      io.progress !== undefined,
      io.interrupt,
    ).catch(async (error) => {
      // --strict stops at a bad row: the cells a decimal comma could not read named before it
      if (error instanceof BillingStrictStop) io.say(await plan.unreadable());
      throw error;
    });
    // A header without lines is said, not reported as a bill of zeros: nothing is delivered, the
    // lines' file of a header alone included
    if (evaluated.groups.every((group) => group.lines === 0)) {
      if (plan.request.output !== "-") rmSync(plan.request.output, { force: true });
      throw new BillingInputError(`${shown}: ${NO_LINES}`);
    }
    const named = { ...evaluated, file: shown, commandFiles: commandFilesOf(options) };
    const summary = withOverlongLines(named, plan.overlong);
    const account = billingAccount(summary, options.groupsShown, plan.reportDay);
    const page =
      account.report === null
        ? null
        : (await import("../output/billReport.js")).billReportHtml(account.report);
    // Every output made before any is delivered; --what-if's file delivered after the others.
    const whatIf =
      plan.whatIf === null ? null : { destination: plan.whatIf, text: whatIfCsv(summary.whatIf ?? []) };
    if (whatIf !== null && (summary.whatIf ?? []).length === 0)
      io.say(`${whatIfEmptyText(summary.whatIfUsages)}\n`);
    if (summary.whatIf !== null && options.groupBy.length > 0)
      io.say(`${whatIfGroupsText(options.groupBy, summary.filters)}\n`);
    io.interrupt?.throwIfAborted();
    // A FIFO named as an output is written once a process reads it, the wait said and ended by a signal
    const delivery: OutputOptions = {
      signal: io.interrupt,
      waiting: (path) =>
        io.say(`${path}: a FIFO no process reads yet; waiting for a reader (Ctrl-C stops)\n`),
    };
    await deliverOutputs(plan, io.stdout, page, delivery);
    if (whatIf !== null) {
      writeFileSync(whatIf.destination.path, whatIf.text);
      await deliver(whatIf.destination, delivery);
    }
    if (summary.groups.some((group) => group.problemCode === "quantity-not-a-number")) {
      io.say(await plan.unreadable());
    }
    io.say(account.text);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    keptScratch();
  }
}

/**
 * Evaluates a billing export on `terms` checked by the caller (billingTerms, where it resolves the
 * edition): the stages. `grid`: a grid intensity series (--grid-intensity, --grid-zones) for the
 * lines' gwp use, a request of its own: only the look-up stage reads it. `told`: told each stage
 * as it starts (the /evaluate page's progress), with `metered` what reads the share of its query
 * done (DuckDB's progress, tracked only then).
 */
export async function evaluateBillingExport(
  terms: BillingTerms,
  request: BillingRequest,
  grid: GridFiles | null = null,
  told: (stage: RunStage, share: StageShare) => void = () => {},
  metered = false,
  interrupt?: AbortSignal,
): Promise<BillingSummary> {
  // The files the run reads and how, decided from the request before the database opens
  const reading = exportReading(request);
  const db = await openDatabase(runThreads(reading));
  const uninterrupted = interruptedOn(db.connection, interrupt);
  try {
    const connection = readingConnection(db.connection, reading);
    if (metered)
      await connection.run("SET enable_progress_bar = true; SET enable_progress_bar_print = false");
    const share: StageShare = () => {
      const done = metered ? connection.progress.percentage : -1;
      return done >= 0 ? done : null;
    };
    // Each of the four stages a quarter of the run (`done`, the page's bar): they are what it can tell.
    const reachedStage = (stage: RunStage, at: number) => {
      interrupt?.throwIfAborted();
      told({ ...stage, done: at / 4 }, share);
    };
    const run: BillRun = { connection, request, terms, grid, scratch: db.scratch };
    reachedStage({ stage: "reading the export" }, 0);
    const read = await readExport(run);
    reachedStage({ stage: "telling its lines apart" }, 1);
    const classified = await classifyLines(run, read);
    reachedStage({ stage: "looking up their impacts", lines: classified.lines }, 2);
    // The rows the lines read; with --tables, every type's rows at the places billed, which its tables hold
    const lookedUp = await lookUpKinds(run, request.tablesFolder == null ? "keys" : "places");
    const evaluated = await evaluateKinds(run, classified, lookedUp);
    const lines = evaluated.groups.reduce((sum, group) => sum + group.lines, 0);
    reachedStage(
      { stage: request.report === true ? "writing the lines and the report" : "writing the lines", lines },
      3,
    );
    const written = await writeOutputs(run, evaluated, writtenReportData);
    // Awaited here: the summary reads the currency on the connection, closed in `finally`.
    interrupt?.throwIfAborted();
    return await summarise(run, written);
  } finally {
    uninterrupted();
    db.close();
  }
}

/** A run's terms from what it was asked: the criteria and the load checked, the columns named. */
export function billingTerms(
  context: EditionContext,
  knownRegions: EditionPlaces["known"],
  asked: BillingAsked,
): BillingTerms {
  return termsNamingColumns({ context, knownRegions, ...coefficientTerms(context, asked) }, asked.ranges);
}

/** Terms checked against their edition, with the impact columns they write named. */
function termsNamingColumns(checked: Omit<BillingTerms, "impactColumnNames">, ranges: boolean): BillingTerms {
  return { ...checked, impactColumnNames: billingImpactColumns(checked.criteria, ranges) };
}

/** The impact columns written, in order: criterion, phase, then min and max with ranges. */
export function billingImpactColumns(criteria: readonly RequestedCriterion[], ranges: boolean): string[] {
  const bounds = ranges ? (["value", "min", "max"] as const) : (["value"] as const);
  return criteria.flatMap((criterion) =>
    PHASES.flatMap((phase) =>
      bounds.map((bound) => impactColumn(criterion.info.name, criterion.info.unit, phase, bound)),
    ),
  );
}

/** An input read by its name (twice: its header, then its lines): a regular file. */
function checkedBillingInput(file: string): void {
  if (file === "-") throw new FileMisuse("a billing export is read from a file, not from stdin");
  // statSync's own error (no such file) is the command's to word
  if (!statSync(file).isFile()) {
    throw new FileMisuse(`${file}: not a regular file (a billing export is read from a file)`);
  }
}

/**
 * Every file of a billing run: the export (or its parts, their archives, its manifest), the
 * series, the zones and editions files read; the lines, the groups, the report and the tables
 * written, each beside its `.partial`.
 */
function billingRunFiles(options: BillOptions): RunFiles {
  const given = (option: string, ...paths: readonly (string | null | undefined)[]): NamedFile[] =>
    paths.flatMap((path) => (path === null || path === undefined ? [] : [{ option, path }]));
  const whole = (option: string, path: string | null): NamedFile[] =>
    path === null
      ? []
      : [
          { option, path },
          { option: `${option}'s partial file`, path: partialOf(path) },
        ];
  const tables =
    options.tables === null
      ? []
      : portableTableFiles(options.tables, options.grid !== null).flatMap((path) => whole("--tables", path));
  const writes = [
    ...whole("--output", options.output),
    ...whole("--group-by's file", options.groupsShown),
    ...given("--report", options.report),
    ...given("--what-if", options.whatIf),
    ...tables,
  ];
  const reads = [
    ...given(
      "the input",
      ...(options.parts ?? [options.file]),
      ...(options.archive?.archives ?? []),
      options.manifest,
      ...(options.manifests ?? []).slice(1),
    ),
    ...given("--grid-intensity", options.grid?.series),
    ...given("--grid-zones", options.grid?.zones),
    ...given("EDITIONS_FILE", options.config.EDITIONS_FILE),
  ];
  return { reads, writes };
}

/**
 * Each part of a bill after the first read as the first is (checkPartLayout), its start (read once)
 * telling its kind and its layout (partLayout), refused in one line otherwise.
 */
function checkPartLayouts(
  file: string,
  input: BillOptions["input"],
  first: BillLayout,
  laterParts: readonly string[],
): (readonly string[])[] | undefined {
  const headers: (readonly string[])[] = first.kind === "csv" ? [first.header] : [];
  for (const part of laterParts) {
    // Each part's start read and let go before the next's: a bill of many parts holds their headers alone
    const layout = partLayout(part, input, regularFileStart(part, SEARCHED_LINES));
    checkPartLayout(file, first, part, layout);
    if (layout?.kind === "csv") headers.push(layout.header);
  }
  return first.kind === "csv" ? headers : undefined;
}

/** The price list a run's what-if reads (PRICE_LIST), only where a what-if is made: a run without one reads no list. */
function priceListOf(options: BillOptions, read: PriceListReader = loadPriceList) {
  return options.whatIf !== null || options.report !== null ? read(options.config.PRICE_LIST) : null;
}

/** What the stages are asked of a bill's options, its files' destinations apart. */
function requestOf(
  options: BillOptions,
  layout: BillLayout | null,
  headers: (readonly string[])[] | undefined,
): Omit<BillingRequest, "output" | "groupsOutput" | "tablesFolder"> {
  return {
    file: options.file,
    ...(options.parts === undefined ? {} : { parts: options.parts }),
    layout,
    ...(headers === undefined ? {} : { headers }),
    input: options.input,
    format: options.format,
    groupBy: options.groupBy,
    filters: options.filters ?? [],
    instanceTypeColumn: options.instanceTypeColumn,
    strict: options.strict,
    report: options.report !== null,
    whatIf: options.whatIf !== null,
  };
}

/**
 * The run of a bill, decided once, in the order a user is told what is wrong: the export a regular
 * file, the edition and terms, every file, the notes on how the file is read (said), the last line.
 */
async function billingPlanOf(options: BillOptions, scratch: string, io: BillIo): Promise<BillingPlan> {
  const { file, input } = options;
  const parts = options.parts ?? [file];
  for (const part of parts) checkedBillingInput(part);
  const files = billingRunFiles(options);
  // The terms before the files, as an inventory's run checks them: the edition opened and the
  // criteria and load checked in it in one call (billingTerms' checks), with what else the run
  // reads of its configuration.
  const opened = openCoefficientTerms(options.config, options.edition, true, options.terms);
  const reportDay = options.report === null ? null : reportDayOf(options.config);
  const { output, groups, report, whatIf, folder } = checkedRunFiles(
    parts,
    files,
    {
      output: options.output,
      groups: options.groupsShown,
      report: options.report,
      whatIf: options.whatIf,
      folder: options.tables === null ? null : { option: "--tables", path: options.tables },
    },
    scratch,
  );
  // The starts the run decides on: the first's when --input chose this path (the notes on how it
  // is read need it), then each later part's for its layout.
  const firstStart = options.layout === undefined ? regularFileStart(file, SEARCHED_LINES) : null;
  const laterParts = parts.slice(1);
  const layout = options.layout ?? layoutOfStart(file, firstStart);
  const headers =
    layout !== null && laterParts.length > 0 ? checkPartLayouts(file, input, layout, laterParts) : undefined;
  const request: BillingRequest = {
    ...requestOf(options, layout, headers),
    output: output?.path ?? join(scratch, "lines.csv"),
    groupsOutput: groups?.path ?? null,
    tablesFolder: folder,
  };
  if (layout !== null) io.say(linesOf(layoutNotes(file, layout, input)));
  const missing = missingPartsNote(parts);
  if (missing !== null) io.say(`${missing}\n`);
  const terms = termsNamingColumns(
    { ...opened, priceList: priceListOf(options, io.priceLists) },
    options.terms.ranges,
  );
  // DuckDB's JSON reader refuses a record too long, by its line; its CSV reader drops a last line so.
  const overlong = layout?.kind === "csv" ? await overlongLastLines(parts, layout) : [];
  if (overlong.length > 0 && request.strict) {
    throw new BillingStrictStop(`--strict: 1 bad row, ${overlongProblem(overlong[0])}; nothing written`);
  }
  const unreadable = async () =>
    layout?.kind === "csv" ? linesOf(await unreadableNumbers(parts, layout, input)) : "";
  const destinations = { lines: request.output, output, groups, report };
  return { ...destinations, request, grid: options.grid, terms, overlong, unreadable, whatIf, reportDay };
}

/**
 * The bill as its progress, its summary and its report's title name it: by the manifest given
 * (src/billing/reading/manifest.ts), as an archive's file (src/support/zipArchive.ts), else by its
 * parts (billName).
 */
function billShown(options: BillOptions): string {
  if (options.manifest !== undefined) {
    const parts = options.parts?.length ?? 1;
    const more = (options.manifests?.length ?? 1) - 1;
    const whose =
      more === 0
        ? "its"
        : `and ${more} more month${more === 1 ? "'s" : "s'"} manifest${more === 1 ? "" : "s"}: their`;
    return `${options.manifest} (${whose} ${parts} part${parts === 1 ? "" : "s"})`;
  }
  return options.archive?.shown ?? billName(options.parts ?? [options.file]);
}

/** The files a command names to read the bill again: its manifests, its archives, else its parts. */
function commandFilesOf(options: BillOptions): readonly string[] {
  if (options.manifest !== undefined) return options.manifests ?? [options.manifest];
  return options.archive?.archives ?? options.parts ?? [options.file];
}

/** The summary with the last lines too long to be read (a part's each) counted among its bad rows. */
function withOverlongLines(summary: BillingSummary, overlong: readonly OverlongLine[]): BillingSummary {
  if (overlong.length === 0) return summary;
  const dropped = overlong.map((line) => ({
    provider: null,
    instanceType: null,
    place: null,
    problem: overlongProblem(line),
    problemStatus: "bad-row" as const,
    problemCode: "line-too-long" as const,
    problemReason: overlongReason(line),
    lines: 1,
    hours: 0,
    method: null,
    methodKey: null,
    methodQuantity: 0,
    service: null,
    cost: 0,
    billedCost: 0,
    placeWarning: null,
    reason: null,
    reasonCode: null,
    unlistedGpu: null,
  }));
  return { ...summary, groups: [...summary.groups, ...dropped] };
}
