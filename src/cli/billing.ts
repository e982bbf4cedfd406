/*
 * The command line's billing commands:
 *
 * - `impact-service coefficients --edition 2.4.1 [--provider aws] [--load 50] --format csv|parquet`:
 *   the coefficient table (per-hour impacts of every instance type and place) on stdout or a file;
 * - `impact-service evaluate <export>` for a billing export (FOCUS, AWS CUR 2.0, Azure cost export;
 *   CSV, CSV.gz or Parquet): every line with its impacts, the sums per group, a summary on stderr.
 */

import { once } from "node:events";
import { createReadStream, createWriteStream, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { parseArgs } from "node:util";
import { BillingStrictStop, FileReadError } from "../billing/errors.js";
import { BILLING_FORMAT_NAMES, type BillingFormatName } from "../billing/formats.js";
import type { GridFiles } from "../billing/grid.js";
import { withMethodRows } from "../billing/methods.js";
import type { EditionPlaces } from "../billing/places.js";
import { type BillLayout, billLayout } from "../billing/reading/layout.js";
import type { BillingRequest } from "../billing/stages/request.js";
import type { BillingSummary } from "../billing/stages/summarise.js";
import { ConfigError, loadConfig } from "../config/serviceConfig.js";
import { InputFileError } from "../duckdb/errors.js";
import { EDITIONS } from "../editions/index.js";
import { groupsPath } from "../output/table.js";
import { coefficientCsv } from "../service/coefficientColumns.js";
import { coefficientTable } from "../service/coefficients.js";
import { createRequestContext, type EditionContext } from "../service/context.js";
import { DomainError } from "../service/errors.js";
import { openService } from "../service/open.js";
import { readNumber } from "../support/numbers.js";
import { printable, printableLines } from "../support/terminalText.js";
import {
  checkedBillingInput,
  checkedFolder,
  type Destination,
  deliver,
  destinationOf,
  FileMisuse,
} from "./files.js";
import { MAX_BILLING_LINE_BYTES, type OverlongLine, overlongLastLine } from "./lastLine.js";
import { type EvaluateArgs, gridOptionsOf, listOf, refuseOptionsOf, USAGE, UsageError } from "./options.js";
import {
  environmentReads,
  type NamedFile,
  named,
  type RunFiles,
  refuseOverlappingFiles,
} from "./runFiles.js";

export interface BillingIo {
  readonly stdout: Writable;
  readonly stderr: NodeJS.WriteStream | Writable;
}

export const COEFFICIENTS_USAGE = `usage: impact-service coefficients [options]

  --edition <id>        edition (default: the service's, EDITION)
  --provider <name>     one provider's instance types (default: every provider)
  --load <percent>      constant load of every instance (default: the archetype's)
  --criteria <list>     criteria, comma-separated (default: the edition's, e.g. gwp,adp,pe)
  --methods             also the rows of the billing methods' units (method:ssd-gb-hour,
                        method:vcpu-hour…: docs/billing.md, "The whole bill"), per provider a
                        bill names and place; they do not depend on --load
  --format csv|parquet  output format (default csv)
  -o, --output <file>   where to write (default: stdout; parquet needs a file)
`;

export function criteriaOf(text: string | undefined): string[] | null {
  const criteria = listOf(text);
  return criteria.length === 0 ? null : criteria;
}

export function loadOf(text: string | undefined): number | null {
  if (text === undefined) return null;
  // Read as every input's number (src/support/numbers.ts); the engine checks its 0–100.
  const load = readNumber(text);
  if (!("value" in load)) throw new UsageError(`--load is a percentage, not ${text}`);
  return load.value;
}

function formatOf(text: string | undefined, output: string | undefined): "csv" | "parquet" {
  const format = text ?? (output?.toLowerCase().endsWith(".parquet") ? "parquet" : "csv");
  if (format !== "csv" && format !== "parquet")
    throw new UsageError(`--format is csv or parquet, not ${format}`);
  if (format === "parquet" && output === undefined)
    throw new UsageError("--format parquet needs --output <file>");
  return format;
}

/**
 * The edition asked for (the service's default when none), loaded as the server loads it (EDITION,
 * EDITIONS_FILE, settings overrides), without the others: a custom edition with its base, and, with
 * `regions`, an edition with cloud regions when this one has none (its countries are read there).
 * An edition the service does not know loads them all, so that the answer names those it serves.
 */
export function editionOf(
  id: string | undefined,
  regions: boolean,
): { context: EditionContext; knownRegions: BillingRegions } {
  const config = loadConfig(process.env);
  const asked = id ?? config.EDITION;
  const served = [...EDITIONS, ...config.customEditions];
  const description = served.find((edition) => edition.id === asked);
  const wanted =
    description === undefined
      ? null
      : [asked, ...(regions && !description.features.cloudRegions ? REGION_EDITIONS : [])];
  const service = openService(config, wanted);
  const request = createRequestContext(service, { spellError: (error) => error });
  const context = request.edition(id ?? null);
  const knownRegions =
    [...service.editions.values()].find((edition) => edition.data.cloudRegions !== null)?.data.cloudRegions ??
    [];
  return { context, knownRegions };
}

type BillingRegions = EditionPlaces["known"];

/** The built-in editions with cloud regions. */
const REGION_EDITIONS = EDITIONS.filter((edition) => edition.features.cloudRegions).map(
  (edition) => edition.id,
);

async function write(stream: Writable, text: string): Promise<void> {
  if (!stream.write(text)) await once(stream, "drain");
}

/** Reports a failure the way the command line does; the exit code. */
export function failure(io: BillingIo, error: unknown, usage: string): number {
  if (error instanceof UsageError) {
    io.stderr.write(`impact-service: ${printable(error.message)}\n${usage}`);
    return 2;
  }
  if (error instanceof InputFileError || error instanceof ConfigError || error instanceof FileMisuse) {
    io.stderr.write(`impact-service: ${printable(error.message)}\n`);
    return 2;
  }
  if (error instanceof DomainError) {
    io.stderr.write(`impact-service: ${printable(error.message)}\n`);
    return 2;
  }
  if (error instanceof FileReadError || error instanceof BillingStrictStop) {
    io.stderr.write(`impact-service: ${printable(error.message)}\n`);
    return 1;
  }
  if ((error as NodeJS.ErrnoException).code !== undefined) {
    io.stderr.write(`impact-service: ${printable((error as Error).message)}\n`);
    return 2;
  }
  throw error;
}

/** `impact-service coefficients …`; the exit code. */
export async function coefficientsMain(argv: readonly string[], io: BillingIo): Promise<number> {
  try {
    const { values } = parseArgs({
      args: [...argv],
      options: {
        edition: { type: "string" },
        provider: { type: "string" },
        load: { type: "string" },
        criteria: { type: "string" },
        format: { type: "string" },
        output: { type: "string", short: "o" },
        methods: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    });
    if (values.help) {
      io.stderr.write(COEFFICIENTS_USAGE);
      return 0;
    }
    const format = formatOf(values.format, values.output);
    const { context } = editionOf(values.edition, false);
    const instances = coefficientTable(context, {
      provider: values.provider ?? null,
      load: loadOf(values.load),
      criteria: criteriaOf(values.criteria),
    });
    const table = values.methods ? withMethodRows(context, instances, values.provider ?? null) : instances;
    if (format === "parquet") {
      // DuckDB (a second of start-up) only where it writes: Parquet.
      const { writeCoefficientParquet } = await import("../billing/coefficientParquet.js");
      await writeCoefficientParquet(table, values.output as string);
    } else if (values.output !== undefined) {
      await pipeline(coefficientCsv(table), createWriteStream(values.output));
    } else {
      for await (const chunk of coefficientCsv(table)) await write(io.stdout, chunk);
    }
    return 0;
  } catch (error) {
    if (error instanceof TypeError && (error as NodeJS.ErrnoException).code?.startsWith("ERR_PARSE_ARGS")) {
      return failure(io, new UsageError(error.message), COEFFICIENTS_USAGE);
    }
    return failure(io, error, COEFFICIENTS_USAGE);
  }
}

/** A billing run as asked: the engine's request, and where its files end up. */
interface BillingPlan {
  readonly request: BillingRequest;
  /** A grid intensity series for the lines' gwp use: a request of its own, read by the look-up alone. */
  readonly grid: GridFiles | null;
  readonly edition: string | undefined;
  /** The lines' destination; null: standard output. */
  readonly output: Destination | null;
  readonly groups: Destination | null;
  /** The groups file as the summary names it (as given). */
  readonly groupsShown: string | null;
  /** --report's page; null without it. */
  readonly report: Destination | null;
}

/** What the billing engine tells of the files it writes (loaded with it). */
interface WrittenFiles {
  /** Where a file is written until complete. */
  readonly partialOf: (path: string) => string;
  /** The files a --tables folder receives. */
  readonly portableTableFiles: (folder: string, grid: boolean) => string[];
}

/**
 * Every file of a billing run (src/cli/runFiles.ts): the export, the series, the zones and
 * editions files read; the lines, the groups, the report and the tables written, each beside its
 * `.partial`.
 */
function billingFiles(args: EvaluateArgs, groupsShown: string | null, written: WrittenFiles): RunFiles {
  const { file, values } = args;
  const whole = (option: string, path: string | undefined): NamedFile[] =>
    path === undefined
      ? []
      : [
          { option, path },
          { option: `${option}'s partial file`, path: written.partialOf(path) },
        ];
  const tables =
    values.tables === undefined
      ? []
      : written
          .portableTableFiles(values.tables, values["grid-intensity"] !== undefined)
          .flatMap((path) => whole("--tables", path));
  return {
    reads: [
      { option: "the input", path: file },
      ...named("--grid-intensity", values["grid-intensity"]),
      ...named("--grid-zones", values["grid-zones"]),
      ...environmentReads(process.env),
    ],
    writes: [
      ...whole("--output", values.output),
      ...whole("--group-by's file", groupsShown ?? undefined),
      ...named("--report", values.report),
      ...tables,
    ],
  };
}

/** The request of `evaluate <billing export>` from its options (src/cli/options.ts). */
function billingPlanOf(
  args: EvaluateArgs,
  layout: BillLayout | undefined,
  scratch: string,
  written: WrittenFiles,
): BillingPlan {
  refuseOptionsOf(args, "billing");
  const { file, values } = args;
  const input = values.input ?? null;
  if (input !== null && !(BILLING_FORMAT_NAMES as readonly string[]).includes(input)) {
    throw new UsageError(`--input is ${BILLING_FORMAT_NAMES.join(", ")} for a billing export, not ${input}`);
  }
  const format = formatOf(values.format, values.output);
  const groupBy = listOf(values["group-by"]);
  if (groupBy.length > 0 && values.output === undefined)
    throw new UsageError("--group-by needs --output <file>");
  const groupsShown = groupBy.length > 0 ? groupsPath(values.output as string, format) : null;
  checkedBillingInput(file);
  refuseOverlappingFiles(billingFiles(args, groupsShown, written));
  const output = values.output === undefined ? null : destinationOf(values.output, scratch);
  const tablesFolder = values.tables === undefined ? null : checkedFolder("--tables", values.tables);
  const groups = groupsShown === null ? null : destinationOf(groupsShown, scratch);
  return {
    request: {
      file,
      // Read here when --input chose this path: the notes on how it is read need it.
      layout: layout ?? billLayout(file) ?? undefined,
      input: input as BillingFormatName | null,
      output: output?.path ?? join(scratch, "lines.csv"),
      format,
      criteria: criteriaOf(values.criteria),
      ranges: values.ranges,
      groupBy,
      groupsOutput: groups?.path ?? null,
      instanceTypeColumn: values["instance-type-column"] ?? null,
      load: loadOf(values.load),
      strict: values.strict,
      report: values.report !== undefined,
      tablesFolder,
    },
    grid: gridOptionsOf(values),
    report: values.report === undefined ? null : destinationOf(values.report, scratch),
    edition: values.edition,
    output,
    groups,
    groupsShown,
  };
}

/** The bad row of a last line too long to be read (src/cli/lastLine.ts). */
function overlongProblem(overlong: OverlongLine): string {
  const where = overlong.line === null ? "the last line" : `line ${overlong.line}, the last`;
  return `bad row: ${where}, is longer than ${MAX_BILLING_LINE_BYTES} bytes; not read`;
}

/** The summary with the last line too long to be read counted among its bad rows. */
function withOverlongLine(summary: BillingSummary, overlong: OverlongLine | null): BillingSummary {
  if (overlong === null) return summary;
  const dropped = {
    provider: null,
    instanceType: null,
    place: null,
    problem: overlongProblem(overlong),
    lines: 1,
    hours: 0,
    method: null,
    methodKey: null,
    methodQuantity: 0,
    service: null,
    cost: 0,
    placeWarning: null,
  };
  return { ...summary, groups: [...summary.groups, dropped] };
}

/** The bad row of a quantity or cost that is no number (sql/evaluate/billing_impacts.sql). */
const NUMBER_BAD_ROW = "bad row: quantity is missing or not a number";

const linesOf = (lines: readonly string[]) => lines.map((line) => `${line}\n`).join("");

const today = () => new Date().toISOString().slice(0, 10);

/**
 * The written files where they were asked for (standard output, a FIFO, a device), in one step:
 * the report's page (`report`, its HTML) first, then the lines and the groups.
 */
async function deliverOutputs(plan: BillingPlan, io: BillingIo, report: string | null): Promise<void> {
  if (plan.report !== null && report !== null) {
    writeFileSync(plan.report.path, report);
    await deliver(plan.report);
  }
  if (plan.output === null) {
    await pipeline(createReadStream(plan.request.output), io.stdout, { end: false });
  } else await deliver(plan.output);
  if (plan.groups !== null) await deliver(plan.groups);
}

/**
 * `impact-service evaluate <billing export> …` (read by src/cli/options.ts; `layout`: the file's
 * layout when it was read to recognise it, src/billing/reading/layout.ts); the exit code.
 */
export async function billingMain(
  args: EvaluateArgs,
  layout: BillLayout | undefined,
  io: BillingIo,
): Promise<number> {
  const scratch = mkdtempSync(join(tmpdir(), "impact-billing-out-"));
  try {
    const { evaluateBillingExport } = await import("../billing/evaluate.js");
    const { portableTableFiles } = await import("../billing/smallTables.js");
    const { partialOf } = await import("../billing/writing.js");
    const plan = billingPlanOf(args, layout, scratch, { partialOf, portableTableFiles });
    const reading = await import("../billing/reading/notes.js");
    const { layout: read, file, input } = plan.request;
    if (read !== undefined) io.stderr.write(printableLines(linesOf(reading.layoutNotes(file, read, input))));
    const { context, knownRegions } = editionOf(plan.edition, true);
    const { billingAccount } = await import("../billing/summary.js");
    // DuckDB's JSON reader refuses a record too long, by its line; its CSV reader drops a last line so.
    const overlong = read?.kind === "json" ? null : await overlongLastLine(plan.request.file);
    if (overlong !== null && plan.request.strict) {
      throw new BillingStrictStop(`--strict: 1 bad row, ${overlongProblem(overlong)}; nothing written`);
    }
    const unreadable = async () =>
      read?.kind === "csv" ? linesOf(await reading.unreadableNumbers(file, read, input)) : "";
    const summary = withOverlongLine(
      await evaluateBillingExport(context, knownRegions, plan.request, plan.grid).catch(async (error) => {
        // --strict stops at a bad row: the cells a decimal comma could not read named before it
        if (error instanceof BillingStrictStop) io.stderr.write(printableLines(await unreadable()));
        throw error;
      }),
      overlong,
    );
    const account = billingAccount(summary, plan.groupsShown, plan.report === null ? null : today());
    const page =
      account.report === null
        ? null
        : (await import("../output/billReport.js")).billReportHtml(account.report);
    await deliverOutputs(plan, io, page);
    if (summary.groups.some((group) => group.problem?.startsWith(NUMBER_BAD_ROW))) {
      io.stderr.write(printableLines(await unreadable()));
    }
    io.stderr.write(printableLines(account.text));
    return 0;
  } catch (error) {
    return failure(io, error, USAGE);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
