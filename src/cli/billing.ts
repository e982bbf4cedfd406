/*
 * The command line's billing commands:
 *
 * - `impact-service coefficients --edition 2.4.1 [--provider aws] [--load 50] --format csv|parquet`:
 *   the coefficient table (per-hour impacts of every instance type and place) on stdout or a file;
 * - `impact-service evaluate <export>` for a billing export (FOCUS, AWS CUR 2.0, Azure cost export;
 *   CSV, CSV.gz or Parquet): every line with its impacts, the sums per group, a summary on stderr.
 */

import { once } from "node:events";
import { createWriteStream, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { parseArgs } from "node:util";
import { BillingStrictStop, FileReadError } from "../billing/errors.js";
import type { GridFiles } from "../billing/grid.js";
import { type BillLayout, billLayout } from "../billing/reading/layout.js";
import { checkPartLayout, missingPartsNote } from "../billing/reading/parts.js";
import { withMethodRows } from "../billing/stages/methodRows.js";
import { type BillingRequest, type BillingTerms, billingTerms } from "../billing/stages/request.js";
import { ConfigError, loadConfig } from "../config/serviceConfig.js";
import { InputFileError } from "../duckdb/errors.js";
import { coefficientCsv } from "../service/coefficientColumns.js";
import { coefficientTable } from "../service/coefficients.js";
import { DomainError } from "../service/errors.js";
import { openEdition } from "../service/open.js";
import { nestedArchiveRefusal } from "../support/fileSignature.js";
import { printable, printableLines } from "../support/terminalText.js";
import { inputKindOf } from "./billingDispatch.js";
import {
  checkedBillingInput,
  checkedFolder,
  deliverOutputs,
  destinationOf,
  FileMisuse,
  type RunDestinations,
} from "./files.js";
import { type OverlongLine, overlongLastLines, overlongProblem, withOverlongLines } from "./lastLine.js";
import {
  billingOptions,
  criteriaOf,
  type EvaluateArgs,
  gridOptionsOf,
  loadOf,
  tableFormatOf,
  USAGE,
  UsageError,
} from "./options.js";
import { billingRunFiles, refuseOverlappingFiles, refuseRepeatedParts } from "./runFiles.js";

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
    const format = tableFormatOf(values.format, values.output);
    const { context } = openEdition(loadConfig(process.env), values.edition ?? null, false);
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

/** A billing run as decided before the engine runs: its request, its edition, where its files end up. */
interface BillingPlan extends RunDestinations {
  readonly request: BillingRequest;
  /** A grid intensity series for the lines' gwp use: a request of its own, read by the look-up alone. */
  readonly grid: GridFiles | null;
  /** The edition, the criteria and the load, checked against it before the file is opened. */
  readonly terms: BillingTerms;
  /** The groups file as the summary names it (as given). */
  readonly groupsShown: string | null;
  /** The last lines too long to be read (src/cli/lastLine.ts), a part's each, counted as bad rows after the run. */
  readonly overlong: readonly OverlongLine[];
  /** The cells a decimal comma could not read, as lines for standard error (a CSV's; else none). */
  readonly unreadable: () => Promise<string>;
}

/**
 * Each part of a bill after the first: a file the command reads (no file of another kind) and read
 * as the first is (src/billing/reading/parts.ts), refused in one line otherwise.
 */
function checkPartLayouts(args: EvaluateArgs, first: BillLayout): void {
  for (const part of args.parts?.slice(1) ?? []) {
    const kind = inputKindOf(part, args.values.input);
    if (kind.kind === "foreign") throw new FileMisuse(kind.problem);
    // A ZIP part was unpacked before (src/cli/main.ts): this one was inside an archive.
    if (kind.kind === "archive") throw new FileMisuse(nestedArchiveRefusal(part));
    const layout = kind.kind === "billing" && kind.layout !== undefined ? kind.layout : billLayout(part);
    checkPartLayout(args.file, first, part, layout);
  }
}

const linesOf = (lines: readonly string[]) => lines.map((line) => `${line}\n`).join("");

/**
 * The run of `evaluate <billing export>`, decided once from its options (src/cli/options.ts), in
 * the order a user is told what is wrong: the options, the files (src/cli/runFiles.ts), the notes
 * on how the file is read (to `stderr`), the edition, the last line. `layout`: the file's layout
 * when it was read to recognise it.
 */
async function billingPlanOf(
  args: EvaluateArgs,
  layout: BillLayout | undefined,
  scratch: string,
  stderr: BillingIo["stderr"],
): Promise<BillingPlan> {
  const { portableTableFiles } = await import("../billing/stages/write.js");
  const { partialOf } = await import("../billing/stages/write.js");
  const reading = await import("../billing/reading/notes.js");
  const { input, format, groupBy, groupsShown } = billingOptions(args);
  const { file, values } = args;
  const parts = args.parts ?? [file];
  for (const part of parts) checkedBillingInput(part);
  refuseRepeatedParts(parts);
  refuseOverlappingFiles(billingRunFiles(args, groupsShown, { partialOf, portableTableFiles }));
  const output = values.output === undefined ? null : destinationOf(values.output, scratch);
  const tablesFolder = values.tables === undefined ? null : checkedFolder("--tables", values.tables);
  const groups = groupsShown === null ? null : destinationOf(groupsShown, scratch);
  // Read here when --input chose this path: the notes on how it is read need it.
  const firstLayout = layout ?? billLayout(file);
  if (firstLayout !== null) checkPartLayouts(args, firstLayout);
  const request: BillingRequest = {
    file,
    ...(args.parts === undefined ? {} : { parts }),
    layout: firstLayout,
    input,
    output: output?.path ?? join(scratch, "lines.csv"),
    format,
    groupBy,
    groupsOutput: groups?.path ?? null,
    instanceTypeColumn: values["instance-type-column"] ?? null,
    strict: values.strict,
    report: values.report !== undefined,
    tablesFolder,
  };
  const grid = gridOptionsOf(values);
  const report = values.report === undefined ? null : destinationOf(values.report, scratch);
  const read = request.layout;
  if (read !== null) stderr.write(printableLines(linesOf(reading.layoutNotes(file, read, input))));
  const missing = missingPartsNote(parts);
  if (missing !== null) stderr.write(printableLines(`${missing}\n`));
  const { context, knownRegions } = openEdition(loadConfig(process.env), values.edition ?? null, true);
  const terms = billingTerms(context, knownRegions, {
    criteria: criteriaOf(values.criteria),
    load: loadOf(values.load),
    ranges: values.ranges,
  });
  // DuckDB's JSON reader refuses a record too long, by its line; its CSV reader drops a last line so.
  const overlong = read?.kind === "csv" ? await overlongLastLines(parts, read) : [];
  if (overlong.length > 0 && request.strict) {
    throw new BillingStrictStop(`--strict: 1 bad row, ${overlongProblem(overlong[0])}; nothing written`);
  }
  const unreadable = async () =>
    read?.kind === "csv" ? linesOf(await reading.unreadableNumbers(parts, read, input)) : "";
  const destinations = { lines: request.output, output, groups, report };
  return { ...destinations, request, grid, terms, groupsShown, overlong, unreadable };
}

/**
 * The bill as the summary and the report's title name it when the user named it otherwise than
 * its first part: by the manifest given (src/billing/reading/manifest.ts), or as an archive's file
 * (src/support/zipArchive.ts).
 */
function billShown(args: EvaluateArgs): string | undefined {
  if (args.manifest !== undefined) {
    const parts = args.parts?.length ?? 1;
    return `${args.manifest} (its ${parts} part${parts === 1 ? "" : "s"})`;
  }
  return args.archive?.shown;
}

/** The bad row of a quantity or cost that is no number (sql/evaluate/billing_impacts.sql). */
const NUMBER_BAD_ROW = "bad row: quantity is missing or not a number";

const today = () => new Date().toISOString().slice(0, 10);

/**
 * `impact-service evaluate <billing export> …` (read by src/cli/options.ts; `layout`: the file's
 * layout when it was read to recognise it, src/billing/reading/layout.ts): the run planned once,
 * evaluated, then told and delivered; the exit code.
 */
export async function billingMain(
  args: EvaluateArgs,
  layout: BillLayout | undefined,
  io: BillingIo,
): Promise<number> {
  const scratch = mkdtempSync(join(tmpdir(), "impact-billing-out-"));
  try {
    const plan = await billingPlanOf(args, layout, scratch, io.stderr);
    const { evaluateBillingExport } = await import("../billing/evaluate.js");
    const { billingAccount } = await import("../billing/summary.js");
    const evaluated = await evaluateBillingExport(plan.terms, plan.request, plan.grid).catch(
      async (error) => {
        // --strict stops at a bad row: the cells a decimal comma could not read named before it
        if (error instanceof BillingStrictStop) io.stderr.write(printableLines(await plan.unreadable()));
        throw error;
      },
    );
    const named = { ...evaluated, file: billShown(args) ?? evaluated.file };
    const summary = withOverlongLines(named, plan.overlong);
    const account = billingAccount(summary, plan.groupsShown, plan.report === null ? null : today());
    const page =
      account.report === null
        ? null
        : (await import("../output/billReport.js")).billReportHtml(account.report);
    await deliverOutputs(plan, io.stdout, page);
    if (summary.groups.some((group) => group.problem?.startsWith(NUMBER_BAD_ROW))) {
      io.stderr.write(printableLines(await plan.unreadable()));
    }
    io.stderr.write(printableLines(account.text));
    return 0;
  } catch (error) {
    return failure(io, error, USAGE);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
