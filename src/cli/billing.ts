/*
 * The command line's billing commands:
 *
 * - `impact-service coefficients --edition 2.4.1 [--provider aws] [--load 50] --format csv|parquet`:
 *   the coefficient table (per-hour impacts of every instance type and place) on stdout or a file;
 * - `impact-service evaluate <export>` for a billing export (FOCUS, AWS CUR 2.0, Azure cost export;
 *   CSV, CSV.gz or Parquet): every line with its impacts, the sums per group, a summary on stderr.
 */

import { once } from "node:events";
import {
  createReadStream,
  createWriteStream,
  mkdtempSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { parseArgs } from "node:util";
import { BillingInputError, BillingReadError, BillingStrictStop } from "../billing/errors.js";
import type { BillingRequest, evaluateBillingExport } from "../billing/evaluate.js";
import { BILLING_FORMAT_NAMES, type BillingFormatName } from "../billing/formats.js";
import { ConfigError, limitsOf, loadConfig } from "../config.js";
import { EDITIONS } from "../editions/index.js";
import { loadEditions } from "../referenceData.js";
import { coefficientCsv } from "../service/coefficientColumns.js";
import { coefficientTable } from "../service/coefficients.js";
import {
  createRequestContext,
  createService,
  type EditionContext,
  editionService,
} from "../service/context.js";
import { DomainError } from "../service/errors.js";

export interface BillingIo {
  readonly stdout: Writable;
  readonly stderr: NodeJS.WriteStream | Writable;
}

export const COEFFICIENTS_USAGE = `usage: impact-service coefficients [options]

  --edition <id>        edition (default: the service's, EDITION)
  --provider <name>     one provider's instance types (default: every provider)
  --load <percent>      constant load of every instance (default: the archetype's)
  --criteria <list>     criteria, comma-separated (default: the edition's, e.g. gwp,adp,pe)
  --format csv|parquet  output format (default csv)
  -o, --output <file>   where to write (default: stdout; parquet needs a file)
`;

export const BILLING_USAGE = `usage: impact-service evaluate <billing export> [options]

  <billing export>      FOCUS 1.0-1.2, AWS CUR 2.0 or Azure cost export: .csv, .csv.gz or .parquet
  --input focus|cur|azure   the export's format (default: recognised by its header)
  --edition <id>        edition (default: the service's, EDITION)
  --criteria <list>     criteria, comma-separated (default: the edition's, e.g. gwp,adp,pe)
  --ranges              also write each impact's min and max
  --load <percent>      constant load of every instance (default: the archetype's)
  --format csv|parquet  output format (default csv)
  -o, --output <file>   where to write the lines (default: stdout; parquet needs a file)
  --group-by <columns>  sums per group of these columns (e.g. SubAccountId,ServiceName,RegionId),
                        written to <output>.groups.<csv|parquet> (needs --output)
  --instance-type-column <column>  the machine type of Google Cloud lines
  --strict              stop, writing nothing, when a line is a bad row (exit 1)
  --report <file.html>  a self-contained HTML report: totals, coverage, by method, service, region, account
`;

class UsageError extends Error {}

function criteriaOf(text: string | undefined): string[] | null {
  const criteria = text
    ?.split(",")
    .map((criterion) => criterion.trim())
    .filter((criterion) => criterion !== "");
  return criteria === undefined || criteria.length === 0 ? null : criteria;
}

function loadOf(text: string | undefined): number | null {
  if (text === undefined) return null;
  const load = Number(text);
  if (text.trim() === "" || !Number.isFinite(load))
    throw new UsageError(`--load is a percentage, not ${text}`);
  return load;
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
function editionOf(
  id: string | undefined,
  regions: boolean,
): { context: EditionContext; knownRegions: BillingRegions } {
  const config = loadConfig(process.env);
  const limits = limitsOf(config);
  const asked = id ?? config.EDITION;
  const served = [...EDITIONS, ...config.customEditions];
  const description = served.find((edition) => edition.id === asked);
  const wanted =
    description === undefined
      ? null
      : new Set([asked, ...(regions && !description.features.cloudRegions ? REGION_EDITIONS : [])]);
  const loaded = loadEditions(config.customEditions, config.settingsOverrides, wanted);
  const service = createService(
    loaded.map(({ edition, data }) => editionService(edition, data, limits)),
    wanted === null ? config.EDITION : asked,
    limits,
  );
  const request = createRequestContext(service, { spellError: (error) => error });
  const context = request.edition(id ?? null);
  const knownRegions =
    [...service.editions.values()].find((edition) => edition.data.cloudRegions !== null)?.data.cloudRegions ??
    [];
  return { context, knownRegions };
}

type BillingRegions = Parameters<typeof evaluateBillingExport>[1];

/** The built-in editions with cloud regions. */
const REGION_EDITIONS = EDITIONS.filter((edition) => edition.features.cloudRegions).map(
  (edition) => edition.id,
);

async function write(stream: Writable, text: string): Promise<void> {
  if (!stream.write(text)) await once(stream, "drain");
}

/** Reports a failure the way the command line does; the exit code. */
function failure(io: BillingIo, error: unknown, usage: string): number {
  if (error instanceof UsageError) {
    io.stderr.write(`impact-service: ${error.message}\n${usage}`);
    return 2;
  }
  if (error instanceof BillingInputError || error instanceof ConfigError) {
    io.stderr.write(`impact-service: ${error.message}\n`);
    return 2;
  }
  if (error instanceof DomainError) {
    io.stderr.write(`impact-service: ${error.message}\n`);
    return 2;
  }
  if (error instanceof BillingReadError || error instanceof BillingStrictStop) {
    io.stderr.write(`impact-service: ${error.message}\n`);
    return 1;
  }
  if ((error as NodeJS.ErrnoException).code !== undefined) {
    io.stderr.write(`impact-service: ${(error as Error).message}\n`);
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
        help: { type: "boolean", short: "h", default: false },
      },
    });
    if (values.help) {
      io.stderr.write(COEFFICIENTS_USAGE);
      return 0;
    }
    const format = formatOf(values.format, values.output);
    const { context } = editionOf(values.edition, false);
    const table = coefficientTable(context, {
      provider: values.provider ?? null,
      load: loadOf(values.load),
      criteria: criteriaOf(values.criteria),
    });
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

/** The options of `evaluate <billing export>`. */
const EVALUATE_OPTIONS = {
  help: { type: "boolean", short: "h", default: false },
  strict: { type: "boolean", default: false },
  ranges: { type: "boolean", default: false },
  "group-by": { type: "string" },
  "instance-type-column": { type: "string" },
  input: { type: "string" },
  output: { type: "string", short: "o" },
  format: { type: "string" },
  edition: { type: "string" },
  criteria: { type: "string" },
  load: { type: "string" },
  report: { type: "string" },
} as const;

function billingRequestOf(
  argv: readonly string[],
  scratchOutput: string,
): { request: BillingRequest; edition?: string; report?: string; toStdout: boolean } {
  const { values, positionals } = parseArgs({
    args: argv.slice(1),
    allowPositionals: true,
    options: EVALUATE_OPTIONS,
  });
  if (values.help) throw new UsageError("");
  if (positionals.length !== 1) throw new UsageError("evaluate takes one billing export");
  const [file] = positionals;
  const input = values.input ?? null;
  if (input !== null && !(BILLING_FORMAT_NAMES as readonly string[]).includes(input)) {
    throw new UsageError(`--input is ${BILLING_FORMAT_NAMES.join(", ")} for a billing export, not ${input}`);
  }
  const format = formatOf(values.format, values.output);
  const groupBy = criteriaOf(values["group-by"]) ?? [];
  if (groupBy.length > 0 && values.output === undefined)
    throw new UsageError("--group-by needs --output <file>");
  const output = values.output ?? scratchOutput;
  const stem = output.replace(/\.(csv|parquet)$/i, "");
  statSync(file);
  return {
    request: {
      file,
      input: input as BillingFormatName | null,
      output,
      format,
      criteria: criteriaOf(values.criteria),
      ranges: values.ranges,
      groupBy,
      groupsOutput: groupBy.length > 0 ? `${stem}.groups.${format}` : null,
      instanceTypeColumn: values["instance-type-column"] ?? null,
      load: loadOf(values.load),
      strict: values.strict,
      report: values.report !== undefined,
    },
    report: values.report,
    edition: values.edition,
    toStdout: values.output === undefined,
  };
}

/** `impact-service evaluate <billing export> …`; the exit code. */
export async function billingMain(argv: readonly string[], io: BillingIo): Promise<number> {
  const scratch = mkdtempSync(join(tmpdir(), "impact-billing-out-"));
  try {
    let parsed: ReturnType<typeof billingRequestOf>;
    try {
      parsed = billingRequestOf(argv, join(scratch, "lines.csv"));
    } catch (error) {
      if (error instanceof UsageError && error.message === "") {
        io.stderr.write(BILLING_USAGE);
        return 0;
      }
      if (error instanceof TypeError && (error as NodeJS.ErrnoException).code?.startsWith("ERR_PARSE_ARGS")) {
        return failure(io, new UsageError(error.message), BILLING_USAGE);
      }
      return failure(io, error, BILLING_USAGE);
    }
    const { request, edition, report, toStdout } = parsed;
    const { context, knownRegions } = editionOf(edition, true);
    const { evaluateBillingExport } = await import("../billing/evaluate.js");
    const { billingSummaryText, billReportModel } = await import("../billing/summary.js");
    const summary = await evaluateBillingExport(context, knownRegions, request);
    if (report !== undefined) {
      const { billReportHtml } = await import("../output/billReport.js");
      const date = new Date().toISOString().slice(0, 10);
      writeFileSync(`${report}.partial`, billReportHtml(billReportModel(summary, date)));
      renameSync(`${report}.partial`, report);
    }
    if (toStdout) await pipeline(createReadStream(request.output), io.stdout, { end: false });
    io.stderr.write(billingSummaryText(summary, request.groupsOutput));
    return 0;
  } catch (error) {
    return failure(io, error, BILLING_USAGE);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
