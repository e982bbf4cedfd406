import type { Writable } from "node:stream";
import { parseArgs } from "node:util";
import type { BatchDefaults } from "../batch/index.js";
import type { BillOptions } from "../billing/bill.js";
import { BillingStrictStop } from "../billing/errors.js";
import { BILLING_FORMAT_NAMES, BILLING_FORMATS, type BillingFormatName } from "../billing/formats.js";
import type { BillLayout } from "../billing/reading/layout.js";
import { MAX_BILL_PARTS } from "../billing/reading/layout.js";
import { ConfigError, loadConfig } from "../config/serviceConfig.js";
import { InputFileError, outOfMemoryLine } from "../duckdb/errors.js";
import { FileReadError } from "../duckdb/readErrors.js";
import { EDITION_IDS, NEW_WORK_EDITION_ID } from "../editions/index.js";
import { groupsPath } from "../output/table.js";
import { DomainError } from "../service/errors.js";
import { FileMisuse } from "../support/namedFiles.js";
import { readNumber } from "../support/numbers.js";
import { printable } from "../support/terminalText.js";
import type { InputFormat } from "./source.js";

/*
 * `evaluate`'s options, inventory and billing export alike: one table, read once; each kind of
 * input then takes its own (a misuse is a UsageError).
 */

/** A description's text as the usage writes it: lines of at most 100 characters, 23 spaces in. */
function wrapped(text: string): string {
  const lines: string[] = [];
  for (const word of text.split(" ")) {
    const last = lines.length - 1;
    if (last >= 0 && 23 + lines[last].length + 1 + word.length <= 100) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  return lines.map((line) => `${" ".repeat(23)}${line}`).join("\n");
}

export const USAGE = `usage: impact-service evaluate <file | -> [options]
       impact-service evaluate <part> <part>… [options]   (a billing export delivered in parts,
                       read as one bill: report-*.csv.gz)
       impact-service coefficients [options]   (the per-hour coefficient table: coefficients --help)
       impact-service sql --engine <engine> --header <file> [options]   (a bill's script for Spark,
                       Trino, BigQuery or DuckDB: sql --help)
       impact-service tables --keys <keys.csv> --tables <folder>   (its small tables: tables --help)

  <file>               an inventory: CSV or an Excel workbook (.xlsx, its first worksheet) with a
                       header (kind, quantity, provider, instance_type, archetype, usage_location,
                       hours, …: see docs/inventory.md) or a batch
                       (NDJSON, one {"method", "path", "body"} per line); - reads stdin; or a
${wrapped(
  `billing export (${Object.values(BILLING_FORMATS)
    .map((format) => format.listed)
    .join(", ")}: .csv, .csv.gz, .parquet)`,
)}
  --input csv|xlsx|ndjson|${BILLING_FORMAT_NAMES.join("|")}  the input's format (default: a billing format
                       recognised by its header or .parquet, else xlsx for a .xlsx file (its first
                       worksheet), ndjson for a .ndjson/.jsonl file, else csv)
  --edition <id>       edition of the rows (default: the service's EDITION; a bill: EDITION if set,
                       else ${NEW_WORK_EDITION_ID}, the edition for new work; served: ${EDITION_IDS.join(", ")})
  --criteria <list>    criteria, comma-separated (default: the edition's, e.g. gwp,adp,pe)
  --format <format>    output format: inventory csv|ndjson|xlsx (default: -o's extension, else
                       csv — ndjson for a batch input; xlsx needs -o or a pipe), billing export
                       csv|parquet (default: -o's extension, else csv; parquet needs -o)
  -o, --output <file>  write the output there instead of stdout (never a file the run reads)
  --ranges             each impact's min and max too (csv, xlsx, parquet columns; NDJSON group lines)
  --group-by <list>    sums per group of rows sharing these columns' values (e.g. team,site),
                       written to <output>.groups.<csv|ndjson|parquet> (needs -o, or --report),
                       or the workbook's groups sheet
  --strict             stop at the first bad row (exit 1) instead of reporting it and going on
                       (a billing export: stop before writing anything)
  --report <file.html> also write a self-contained HTML report with charts (a bill's: totals,
                       coverage, by method, service, region and account)
  --what-if <file.csv> also write what moving the largest cloud usages would save: the provider's
                       region of lowest intensity on the same continent, the current family of
                       the same size (gwp and, where the bill prices it, cost; the requests that
                       reproduce each figure)
  --grid-intensity <file>  the grid's carbon intensity over time, per zone (an Electricity Maps
                       export, Ember's monthly data or zone,start,gco2_per_kwh; .csv, .csv.gz or
                       .parquet): gwp use from the intervals each row or line spans, the
                       edition's factor where the series has none (docs/methodology.md)
  --grid-zones <file>  provider,place,zone rows overriding or adding places' zones (e.g.
                       aws,us-west-1,US-CAL-CISO; ,FRA,FR for a country); needs --grid-intensity
 inventory only:
  --workers <n>        evaluate on n worker threads (default: in this thread)
 billing export only:
  --load <percent>     constant load of every instance (default: the archetype's)
  --instance-type-column <column>  the machine type of Google Cloud lines
  --tables <folder>    also write the small tables the run's SQL built there (instance matches,
                       places, energy, the methods' coefficient rows), for the same SQL on another
                       engine (docs/billing.md, "Beyond one machine"); created if absent

exit codes: 0 done (bad rows, if any, reported), 1 every row failed (or --strict stopped, or
the output failed), 2 misused (unknown option, edition, criterion or column; a written file
naming a file the run reads, or another written file), 70 a fault of the command itself
(one line: please report it), 130/143 interrupted
`;

/** A misused command line (an empty message: --help). */
export class UsageError extends Error {}

/** Where a command writes: its output (without -o) and what it says. */
export interface CommandIo {
  readonly stdout: Writable;
  readonly stderr: NodeJS.WriteStream | Writable;
}

/** What the command line reads and writes. */
export interface CliIo {
  readonly stdin: NodeJS.ReadableStream;
  readonly stdout: Writable;
  readonly stderr: NodeJS.WriteStream;
  /** Aborted on SIGINT or SIGTERM: the run stops reading, writes what it has, and ends. */
  readonly interrupt?: AbortSignal;
}

/** 128 + the signal's number, as shells report a process ended by it. */
export function interruptedCode(reason: unknown): number {
  return reason === "SIGTERM" ? 143 : 130;
}

/** A misuse on the command line: its line on stderr (with the usage for a UsageError); exit 2. */
export function misuse(io: CliIo, error: unknown): number {
  const known =
    error instanceof UsageError ||
    error instanceof ConfigError ||
    error instanceof FileMisuse ||
    (error as NodeJS.ErrnoException).code !== undefined;
  if (!known) throw error;
  io.stderr.write(
    `impact-service: ${printable((error as Error).message)}\n${error instanceof UsageError ? USAGE : ""}`,
  );
  return 2;
}

/** The options of `evaluate`, for an inventory and a billing export alike. */
const EVALUATE_OPTIONS = {
  input: { type: "string" },
  edition: { type: "string" },
  criteria: { type: "string" },
  format: { type: "string" },
  output: { type: "string", short: "o" },
  ranges: { type: "boolean", default: false },
  "group-by": { type: "string" },
  strict: { type: "boolean", default: false },
  report: { type: "string" },
  "grid-intensity": { type: "string" },
  "grid-zones": { type: "string" },
  workers: { type: "string" },
  load: { type: "string" },
  "instance-type-column": { type: "string" },
  tables: { type: "string" },
  "what-if": { type: "string" },
  help: { type: "boolean", short: "h", default: false },
} as const;

const parsedArgs = (argv: readonly string[]) =>
  parseArgs({ args: [...argv], allowPositionals: true, options: EVALUATE_OPTIONS });

type EvaluateValues = ReturnType<typeof parsedArgs>["values"];

/** `evaluate`'s command line as read: its file and its options' values. */
export interface EvaluateArgs {
  /** The file, or the first of a bill's parts. */
  readonly file: string;
  /** A bill in parts, every part (the first is `file`) in the order given; absent for one file. */
  readonly parts?: readonly string[];
  readonly values: EvaluateValues;
  /** The AWS CUR manifest that named the parts (src/billing/reading/manifest.ts): read too. */
  readonly manifest?: string;
  /** The ZIP archives `file` (or the parts) were unpacked from (src/support/zipArchive.ts). */
  readonly archive?: ArchiveOrigin;
}

/** Where unpacked files came from. */
export interface ArchiveOrigin {
  /** The archives as given (a bill's zipped parts each): read too, so no output replaces them. */
  readonly archives: readonly string[];
  /** The input as the run names it: `cur.csv.zip (report-00001.csv)`. */
  readonly shown: string;
}

/** The options only one kind of input takes, with the kind that takes them. */
const INVENTORY_ONLY = ["workers"] as const;
const BILLING_ONLY = ["load", "instance-type-column", "tables"] as const;

/** Reads `evaluate <file> [options]` (options before or after the file). */
export function evaluateArgs(argv: readonly string[]): EvaluateArgs {
  let parsed: ReturnType<typeof parsedArgs>;
  try {
    parsed = parsedArgs(argv);
  } catch (error) {
    // parseArgs's own message (an unknown option, a missing value) is the usage error.
    if (error instanceof TypeError) throw new UsageError(error.message);
    throw error;
  }
  const { values, positionals } = parsed;
  if (values.help) throw new UsageError("");
  const [command, file, ...rest] = positionals;
  if (command !== "evaluate") throw new UsageError(`unknown command: ${command ?? "(none)"}`);
  if (file === undefined) throw new UsageError("evaluate takes a file (or -)");
  if (rest.length === 0) return { file, values };
  if (rest.length + 1 > MAX_BILL_PARTS) {
    const count = (n: number) => n.toLocaleString("en-US");
    throw new UsageError(
      `${count(rest.length + 1)} files: a bill is read in ${count(MAX_BILL_PARTS)} parts at most`,
    );
  }
  return { file, parts: [file, ...rest], values };
}

/** Refuses the options of the other kind of input. */
export function refuseOptionsOf(args: EvaluateArgs, kind: "inventory" | "billing"): void {
  const others = kind === "inventory" ? BILLING_ONLY : INVENTORY_ONLY;
  const given = others.find((name) => args.values[name] !== undefined);
  if (given !== undefined) {
    throw new UsageError(
      `--${given} is for ${kind === "inventory" ? "a billing export" : "an inventory"}, and ${args.file} is ${kind === "inventory" ? "an inventory" : "a billing export"}`,
    );
  }
}

/** A comma-separated list's items (none for an absent option). */
export function listOf(text: string | undefined): string[] {
  return (
    text
      ?.split(",")
      .map((item) => item.trim())
      .filter((item) => item !== "") ?? []
  );
}

/** The grid series asked for: its file and the zones file overriding the places' zones. */
export interface GridOptions {
  readonly series: string;
  readonly zones: string | null;
}

/** --grid-intensity and --grid-zones, inventory and billing export alike (null without a series). */
export function gridOptionsOf(values: EvaluateValues): GridOptions | null {
  const series = values["grid-intensity"];
  const zones = values["grid-zones"];
  if (series === undefined) {
    if (zones !== undefined) throw new UsageError("--grid-zones needs --grid-intensity <file>");
    return null;
  }
  return { series, zones: zones ?? null };
}

type Format = "ndjson" | "csv" | "xlsx";

/** The format an output file's extension names, as billing reads its -o (`impacts.xlsx`). */
function formatOf(output: string | undefined): Format | undefined {
  const extension = /\.(csv|ndjson|jsonl|xlsx)(\.gz)?$/i.exec(output ?? "")?.[1].toLowerCase();
  return extension === "jsonl" ? "ndjson" : (extension as Format | undefined);
}

/**
 * An inventory's format by its file's ending, past a `.gz` (read inflated, src/cli/source.ts): a
 * batch (.ndjson, .jsonl, .jsonl.gz), a workbook (.xlsx), else CSV.
 */
function inputOf(file: string): InputFormat {
  if (/\.(ndjson|jsonl)(\.gz)?$/i.test(file)) return "ndjson";
  return /\.xlsx$/i.test(file) ? "xlsx" : "csv";
}

/** An inventory's (or batch's) run, as asked. */
export interface Options {
  readonly file: string;
  readonly input: InputFormat;
  readonly format: Format;
  readonly output: string | undefined;
  readonly report: string | undefined;
  /** --what-if: what moving or renewing the largest cloud rows saves, as CSV. */
  readonly whatIf: string | undefined;
  readonly ranges: boolean;
  readonly groupBy: readonly string[];
  /** The edition asked for (--edition), resolved once before any row; null: the service's default. */
  readonly edition: string | null;
  /** What every line whose path names none is given: the criteria. */
  readonly defaults: BatchDefaults;
  readonly workers: number;
  readonly strict: boolean;
  readonly grid: GridOptions | null;
}

/** The options of an inventory (or batch) run. */
export function inventoryOptions(args: EvaluateArgs): Options {
  refuseOptionsOf(args, "inventory");
  const { file, values } = args;
  const input = values.input ?? inputOf(file);
  if (input !== "csv" && input !== "xlsx" && input !== "ndjson") {
    throw new UsageError(`--input is csv, xlsx or ndjson, not ${input}`);
  }
  const format = values.format ?? formatOf(values.output) ?? (input === "ndjson" ? "ndjson" : "csv");
  if (format !== "csv" && format !== "ndjson" && format !== "xlsx") {
    throw new UsageError(`--format is ndjson, csv or xlsx for an inventory, not ${format}`);
  }
  // No --workers: the evaluation runs in this thread (0 worker threads).
  const workers = values.workers === undefined ? 0 : Number(values.workers);
  if (values.workers !== undefined && !(Number.isInteger(workers) && workers >= 1 && workers <= 256)) {
    throw new UsageError("--workers is a whole number from 1 to 256");
  }
  const criteria = listOf(values.criteria);
  const grid = gridOptionsOf(values);
  if (grid !== null && input === "ndjson")
    throw new UsageError("--grid-intensity needs a CSV or xlsx inventory");
  return {
    file,
    input,
    format,
    output: values.output,
    report: values.report,
    whatIf: values["what-if"],
    ranges: values.ranges,
    groupBy: listOf(values["group-by"]),
    edition: values.edition ?? null,
    defaults: criteria.length > 0 ? { criteria } : {},
    workers,
    strict: values.strict,
    grid,
  };
}

/** --criteria's list; null: the edition's. */
export function criteriaOf(text: string | undefined): string[] | null {
  const criteria = listOf(text);
  return criteria.length === 0 ? null : criteria;
}

/** --load's percentage; null: the archetype's. */
export function loadOf(text: string | undefined): number | null {
  if (text === undefined) return null;
  // Read as every input's number (src/support/numbers.ts); the engine checks its 0–100.
  const load = readNumber(text);
  if (!("value" in load)) throw new UsageError(`--load is a percentage, not ${text}`);
  return load.value;
}

/** A table's format (a billing export's lines, the coefficient table): --format, else -o's extension. */
export function tableFormatOf(text: string | undefined, output: string | undefined): "csv" | "parquet" {
  const format = text ?? (output?.toLowerCase().endsWith(".parquet") ? "parquet" : "csv");
  if (format !== "csv" && format !== "parquet")
    throw new UsageError(`--format is csv or parquet, not ${format}`);
  if (format === "parquet" && output === undefined)
    throw new UsageError("--format parquet needs --output <file>");
  return format;
}

/** A billing export's run as asked, before its files are looked at. */
export interface BillingOptions {
  readonly input: BillingFormatName | null;
  readonly format: "csv" | "parquet";
  readonly groupBy: string[];
  /** The groups file as given (as the summary names it); null without --group-by. */
  readonly groupsShown: string | null;
}

/** The options of a billing export's run, checked in the order a user is told of them. */
export function billingOptions(args: EvaluateArgs): BillingOptions {
  refuseOptionsOf(args, "billing");
  const { values } = args;
  const input = values.input ?? null;
  if (input !== null && !(BILLING_FORMAT_NAMES as readonly string[]).includes(input)) {
    throw new UsageError(`--input is ${BILLING_FORMAT_NAMES.join(", ")} for a billing export, not ${input}`);
  }
  const format = tableFormatOf(values.format, values.output);
  const groupBy = listOf(values["group-by"]);
  if (groupBy.length > 0 && values.output === undefined)
    throw new UsageError("--group-by needs --output <file>");
  const groupsShown = groupBy.length > 0 ? groupsPath(values.output as string, format) : null;
  return { input: input as BillingFormatName | null, format, groupBy, groupsShown };
}

/** Reports a failure the way the command line does; the exit code. */
export function failure(io: CommandIo, error: unknown, usage: string): number {
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
  const memory = outOfMemoryLine(error);
  if (memory !== null) {
    io.stderr.write(`impact-service: ${printable(memory)}\n`);
    return 1;
  }
  if ((error as NodeJS.ErrnoException).code !== undefined) {
    io.stderr.write(`impact-service: ${printable((error as Error).message)}\n`);
    return 2;
  }
  throw error;
}

/**
 * A bill's run as asked (src/billing/bill.ts): the options checked in the order a user is told of
 * them, the configuration read from the environment; `layout`: the file's, when it was read to
 * recognise it (src/billing/reading/layout.ts).
 */
export function billOptions(args: EvaluateArgs, layout: BillLayout | undefined): BillOptions {
  const { input, format, groupBy, groupsShown } = billingOptions(args);
  const { file, values } = args;
  return {
    file,
    ...(args.parts === undefined ? {} : { parts: args.parts }),
    ...(layout === undefined ? {} : { layout }),
    ...(args.manifest === undefined ? {} : { manifest: args.manifest }),
    ...(args.archive === undefined ? {} : { archive: args.archive }),
    input,
    format,
    output: values.output ?? null,
    groupBy,
    groupsShown,
    report: values.report ?? null,
    whatIf: values["what-if"] ?? null,
    tables: values.tables ?? null,
    instanceTypeColumn: values["instance-type-column"] ?? null,
    strict: values.strict,
    edition: values.edition ?? null,
    terms: { criteria: criteriaOf(values.criteria), load: loadOf(values.load), ranges: values.ranges },
    grid: gridOptionsOf(values),
    config: loadConfig(process.env),
  };
}
