import type { Writable } from "node:stream";
import { type ParseArgsConfig, parseArgs } from "node:util";
import type { BatchDefaults } from "../batch/index.js";
import type { BillOptions } from "../billing/bill.js";
import { BillingStrictStop } from "../billing/errors.js";
import { BILLING_FORMAT_NAMES, type BillingFormatName } from "../billing/formats/knownFormats.js";
import type { PriceListReader } from "../billing/priceList.js";
import type { BillLayout } from "../billing/reading/layout.js";
import { MAX_BILL_PARTS } from "../billing/reading/layout.js";
import type { AskedFilter } from "../billing/stages/request.js";
import { type Config, ConfigError, loadConfig } from "../config/serviceConfig.js";
import { InputFileError, outOfMemoryLine } from "../duckdb/errors.js";
import { FileReadError } from "../duckdb/readErrors.js";
import { EDITION_IDS, EDITIONS, newWorkEdition } from "../editions/index.js";
import type { GridOptions } from "../grid/series.js";
import { groupsPath } from "../output/table.js";
import { requestedCriteria } from "../service/criteria.js";
import { DomainError } from "../service/errors.js";
import { FileMisuse, fileErrorLine } from "../support/namedFiles.js";
import { readNumber } from "../support/numbers.js";
import type { RunStage } from "../support/runStage.js";
import { printable } from "../support/terminalText.js";
import { COMMANDS, NO_COMMAND } from "./helpText.js";
import type { InputFormat } from "./inventoryRecords.js";
import { didYouMean } from "./nearest.js";

/*
 * `evaluate`'s options, inventory and billing export alike: one table, read once; each kind of
 * input then takes its own (a misuse is a UsageError).
 */

/** A misused command line, said in one line. */
export class UsageError extends Error {}

/** The long and short names of a table of options (`--edition`, `-o`), as a user types them. */
function optionNames(options: NonNullable<ParseArgsConfig["options"]>): string[] {
  return Object.entries(options).flatMap(([name, option]) => [
    `--${name}`,
    ...(option.short === undefined ? [] : [`-${option.short}`]),
  ]);
}

/**
 * parseArgs's refusal of a command line, as the command says it: an unknown option with the
 * nearest of `options`, an option without its value, an argument a command takes none of.
 */
export function argsRefusal(error: unknown, options: NonNullable<ParseArgsConfig["options"]>): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (!(error instanceof TypeError) || !code?.startsWith("ERR_PARSE_ARGS")) return error;
  const quoted = /'([^']+)'/.exec(error.message)?.[1] ?? "";
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    const option = quoted.replace(/=.*/, "");
    return new UsageError(`unknown option ${option}${didYouMean(option, optionNames(options))}`);
  }
  const missing = /^(?:-\w, )?(--[\w-]+) <value>$/.exec(quoted);
  if (missing !== null) return new UsageError(`${missing[1]} needs a value: ${missing[1]} <value>`);
  if (code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL")
    return new UsageError(`unexpected argument ${quoted}: this command takes options only`);
  return new UsageError(error.message.replace(/\.$/, ""));
}

/** parseArgs on a command's options, its refusals said as argsRefusal says them. */
export function parsedOptions<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (error) {
    throw argsRefusal(error, config.options ?? {});
  }
}

/** `given` among `valid`, else the misuse naming them: `--input is csv, xlsx or ndjson, not foo; did you mean …?`. */
export function oneOf<T extends string>(option: string, given: string, valid: readonly T[], what = ""): T {
  if ((valid as readonly string[]).includes(given)) return given as T;
  const listed =
    valid.length > 1 ? `${valid.slice(0, -1).join(", ")} or ${valid[valid.length - 1]}` : valid[0];
  throw new UsageError(`${option} is ${listed}${what}, not ${given}${didYouMean(given, valid)}`);
}

/**
 * The edition a command runs in: --edition, among the served ones (the built-in editions and
 * EDITIONS_FILE's), else newWorkEdition's.
 */
export function editionOf(asked: string | undefined, config: Config): string {
  if (asked === undefined) return newWorkEdition(config);
  return oneOf("--edition", asked, [...EDITION_IDS, ...config.customEditions.map((edition) => edition.id)]);
}

/**
 * --criteria's list checked against the edition's criteria (a custom edition has its base's): an
 * unknown one is named with the nearest and every criterion of the edition; null: the edition's.
 */
export function checkedCriteria(text: string | undefined, edition: string, config: Config): string[] | null {
  const criteria = criteriaOf(text);
  const description = [...EDITIONS, ...config.customEditions].find((candidate) => candidate.id === edition);
  if (criteria === null || description === undefined) return criteria;
  const known = description.rules.criteria.map((criterion) => criterion.key);
  for (const criterion of criteria) {
    try {
      requestedCriteria([criterion], description.rules);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      throw new UsageError(
        `--criteria: ${criterion} is not a criterion of edition ${edition}${didYouMean(criterion, known)} (its criteria: ${known.join(", ")})`,
      );
    }
  }
  return criteria;
}

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
  /** Told each stage of a bill's run, where IMPACT_STAGE_FD named a descriptor (src/support/runStage.ts). */
  readonly stage?: (stage: RunStage) => void;
  /** What reads a bill's price list (src/billing/bill.ts, BillIo.priceLists): a caller running many keeps it. */
  readonly priceLists?: PriceListReader;
}

/** 128 + the signal's number, as shells report a process ended by it. */
export function interruptedCode(reason: unknown): number {
  return reason === "SIGTERM" ? 143 : 130;
}

/** A misuse on the command line: its one line on stderr (a file's error as a sentence naming it); exit 2. */
export function misuse(io: CliIo, error: unknown): number {
  const known =
    error instanceof UsageError ||
    error instanceof ConfigError ||
    error instanceof FileMisuse ||
    (error as NodeJS.ErrnoException).code !== undefined;
  if (!known) throw error;
  io.stderr.write(`impact-service: ${printable(fileErrorLine(error) ?? (error as Error).message)}\n`);
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
  hours: { type: "string" },
  filter: { type: "string", multiple: true },
  help: { type: "boolean", short: "h", default: false },
  version: { type: "boolean", default: false },
} as const;

const parsedArgs = (argv: readonly string[]) =>
  parsedOptions({ args: [...argv], allowPositionals: true, options: EVALUATE_OPTIONS });

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
  /** Several months' manifests (the first is `manifest`), each naming its parts: read too. */
  readonly manifests?: readonly string[];
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
const BILLING_ONLY = ["load", "instance-type-column", "tables", "filter"] as const;

/** The command line asks for what it says of itself, not for a run: its usage, or its version. */
export class AskedAbout extends Error {
  constructor(readonly asked: "help" | "version") {
    super(asked);
  }
}

/** Reads `evaluate <file> [options]` (options before or after the file); AskedAbout for --help, --version. */
export function evaluateArgs(argv: readonly string[]): EvaluateArgs {
  const { values, positionals } = parsedArgs(argv);
  if (values.help) throw new AskedAbout("help");
  if (values.version) throw new AskedAbout("version");
  const [command, file, ...rest] = positionals;
  if (command === undefined) throw new UsageError(NO_COMMAND);
  if (command !== "evaluate") {
    throw new UsageError(
      `unknown command ${command}${didYouMean(command, COMMANDS)} (commands: ${COMMANDS.join(", ")}; impact-service --help)`,
    );
  }
  if (file === undefined) throw new UsageError("evaluate takes a file (or - for standard input)");
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
  // --hours: the hours of a cloud-scanner inventory's resources (src/cli/scan/scannerFile.ts).
  if (args.values.hours !== undefined)
    throw new UsageError(
      `--hours is for a cloud-scanner inventory (JSON), and ${args.file} is ${kind === "inventory" ? "an inventory" : "a billing export"}`,
    );
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
export type { GridOptions };

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

/** The formats an inventory is read in. */
const INVENTORY_INPUTS: readonly InputFormat[] = ["csv", "xlsx", "ndjson"];

/**
 * An inventory's format by its file's ending, past a `.gz` (read inflated, src/cli/inventoryRecords.ts): a
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
  /** The edition asked for (--edition), resolved once before any row; null: newWorkEdition's. */
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
  const input = oneOf("--input", values.input ?? inputOf(file), INVENTORY_INPUTS, " for an inventory");
  const format = oneOf(
    "--format",
    values.format ?? formatOf(values.output) ?? (input === "ndjson" ? "ndjson" : "csv"),
    ["ndjson", "csv", "xlsx"] as const,
    " for an inventory",
  );
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
  const format = oneOf("--format", text ?? (output?.toLowerCase().endsWith(".parquet") ? "parquet" : "csv"), [
    "csv",
    "parquet",
  ] as const);
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
  /** --filter's, each `COLUMN=VALUE` read. */
  readonly filters: AskedFilter[];
}

/** --filter's `COLUMN=VALUE`s: the column before the first `=`, the value after (empty: none). */
export function filtersOf(given: readonly string[] | undefined): AskedFilter[] {
  return (given ?? []).map((text) => {
    const at = text.indexOf("=");
    if (at <= 0)
      throw new UsageError(`--filter is COLUMN=VALUE (a column's value; COLUMN= for none), not ${text}`);
    return { column: text.slice(0, at), value: text.slice(at + 1) };
  });
}

/** The options of a billing export's run, checked in the order a user is told of them. */
export function billingOptions(args: EvaluateArgs): BillingOptions {
  refuseOptionsOf(args, "billing");
  const { values } = args;
  const input =
    values.input === undefined
      ? null
      : oneOf("--input", values.input, BILLING_FORMAT_NAMES, " for a billing export");
  const format = tableFormatOf(values.format, values.output);
  const groupBy = listOf(values["group-by"]);
  if (groupBy.length > 0 && values.output === undefined)
    throw new UsageError("--group-by needs --output <file>");
  const groupsShown = groupBy.length > 0 ? groupsPath(values.output as string, format) : null;
  return { input, format, groupBy, groupsShown, filters: filtersOf(values.filter) };
}

/** Reports a failure the way the command line does, in one line; the exit code. */
export function failure(io: CommandIo, error: unknown): number {
  if (error instanceof UsageError) {
    io.stderr.write(`impact-service: ${printable(error.message)}\n`);
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
  const file = fileErrorLine(error);
  if (file !== null) {
    io.stderr.write(`impact-service: ${printable(file)}\n`);
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
  const { input, format, groupBy, groupsShown, filters } = billingOptions(args);
  const { file, values } = args;
  const config = loadConfig(process.env);
  const edition = editionOf(values.edition, config);
  return {
    file,
    ...(args.parts === undefined ? {} : { parts: args.parts }),
    ...(layout === undefined ? {} : { layout }),
    ...(args.manifest === undefined ? {} : { manifest: args.manifest }),
    ...(args.manifests === undefined ? {} : { manifests: args.manifests }),
    ...(args.archive === undefined ? {} : { archive: args.archive }),
    input,
    format,
    output: values.output ?? null,
    groupBy,
    groupsShown,
    filters,
    report: values.report ?? null,
    whatIf: values["what-if"] ?? null,
    tables: values.tables ?? null,
    instanceTypeColumn: values["instance-type-column"] ?? null,
    strict: values.strict,
    edition,
    terms: {
      criteria: checkedCriteria(values.criteria, edition, config),
      load: loadOf(values.load),
      ranges: values.ranges,
    },
    grid: gridOptionsOf(values),
    config,
  };
}
