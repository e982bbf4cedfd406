import { REGION_COUNTRIES } from "../../billing/registry/regions.js";
import { utcMilliseconds } from "../../grid/times.js";
import { type TagFilter, tagFilterOf } from "../../scan/resources.js";
import { checkedOutput } from "../../support/namedFiles.js";
import { readNumber } from "../../support/numbers.js";
import { didYouMean } from "../nearest.js";
import { listOf, parsedOptions, UsageError } from "../options.js";

/*
 * `impact-service scan aws`'s options, read and checked before any call to AWS: the regions (AWS's
 * own, as the billing registry lists them), the tag filters, the period, the files written. Every
 * value is bounded: the hours, the period's length, the scan's time, the number of regions and of
 * filters.
 */

export const SCAN_USAGE = `usage: impact-service scan aws [options]

Reads an AWS account (describe and get calls only; credentials from the SDK's chain: environment,
profile, instance role) and writes what runs now as an inventory (docs/scan.md).

  --region <r>[,<r>…]   regions to read, comma-separated or repeated (default: AWS_REGION, else
                        AWS_DEFAULT_REGION)
  --filter-tag <k=v>    only resources carrying this tag with this value; repeated: all of them
  --hours <n>           the period: the last n hours (default 1; 0.1 to 8784)
  --period <start>/<end>  the period, ISO 8601 (2026-11-01T00:00Z/2026-11-02T00:00Z; UTC unless an
                        offset is given), instead of --hours; its end at most now
  --endpoint <url>      an emulator's endpoint (moto) instead of AWS's (or AWS_ENDPOINT_URL)
  --timeout <seconds>   the scan's time, all calls together (default 300; 10 to 3600)

 what it writes (without any of these, the inventory CSV on stdout; - is stdout, once):
  --inventory <file>    the inventory CSV that impact-service evaluate reads
  --json <file>         cloud-scanner's inventory JSON
  --estimated <file>    cloud-scanner's estimated inventory: every resource's impacts (gwp, adp, pe)
  --metrics <file>      the same as Prometheus gauges, cloud-scanner's names
  --evaluate            the inventory evaluated as impact-service evaluate does, with its options:
                        --criteria, --format, -o, --report, --ranges, --group-by
  --edition <id>        the edition of --estimated, --metrics and --evaluate

exit codes: 0 read (each thing that could not be read said on stderr in one line, the rest written),
1 nothing could be read, 2 misused, 70 a fault of the command itself
`;

const OPTIONS = {
  region: { type: "string", multiple: true },
  "filter-tag": { type: "string", multiple: true },
  hours: { type: "string" },
  period: { type: "string" },
  endpoint: { type: "string" },
  timeout: { type: "string" },
  inventory: { type: "string" },
  json: { type: "string" },
  estimated: { type: "string" },
  metrics: { type: "string" },
  evaluate: { type: "boolean", default: false },
  edition: { type: "string" },
  criteria: { type: "string" },
  format: { type: "string" },
  output: { type: "string", short: "o" },
  report: { type: "string" },
  ranges: { type: "boolean", default: false },
  "group-by": { type: "string" },
  help: { type: "boolean", short: "h", default: false },
} as const;

/** Bounds of the options. */
const MAX_REGIONS = 40;
const MAX_FILTERS = 20;
const MAX_HOURS = 8784;
const TIMEOUT_SECONDS: readonly [number, number] = [10, 3600];
const DEFAULT_TIMEOUT_SECONDS = 300;
const HOUR_MS = 3_600_000;

/** The files a scan writes, each a path or `-` (stdout); null: not asked. */
export interface ScanOutputs {
  readonly inventory: string | null;
  readonly json: string | null;
  readonly estimated: string | null;
  readonly metrics: string | null;
}

/** `scan aws` as asked. */
export interface ScanOptions {
  readonly regions: readonly string[];
  readonly filters: readonly TagFilter[];
  /** [start, end) in epoch milliseconds. */
  readonly period: readonly [number, number];
  readonly endpoint: string | null;
  readonly timeoutMs: number;
  readonly outputs: ScanOutputs;
  readonly edition: string | null;
  /** `evaluate`'s own options, as given (with --evaluate). */
  readonly evaluate: Readonly<Record<string, string | boolean | undefined>> | null;
}

/** What the command line asks of `scan`: its usage, or a scan. */
export type ScanAsk = { readonly help: true } | { readonly help?: false; readonly options: ScanOptions };

const AWS_REGIONS = Object.keys(REGION_COUNTRIES.aws);

/** A region of AWS's, else the misuse naming the nearest. */
function checkedRegion(region: string): string {
  if (Object.hasOwn(REGION_COUNTRIES.aws, region)) return region;
  throw new UsageError(`--region ${region} is not an AWS region${didYouMean(region, AWS_REGIONS)}`);
}

/** A number option within [min, max], else the misuse naming it. */
function bounded(option: string, text: string, [min, max]: readonly [number, number]): number {
  const read = readNumber(text);
  if (!("value" in read) || !(read.value >= min && read.value <= max))
    throw new UsageError(`${option} is a number from ${min} to ${max}, not ${text}`);
  return read.value;
}

/** The period asked: --period, or the last --hours hours (default 1) ending `now`. */
function periodOf(hours: string | undefined, period: string | undefined, now: number): [number, number] {
  if (period === undefined) {
    const length = hours === undefined ? 1 : bounded("--hours", hours, [0.1, MAX_HOURS]);
    return [now - length * HOUR_MS, now];
  }
  if (hours !== undefined) throw new UsageError("--hours and --period: give one of them");
  const [start, end, ...rest] = period.split("/").map((part) => utcMilliseconds(part));
  if (start === null || end === null || start === undefined || end === undefined || rest.length > 0)
    throw new UsageError(
      `--period is <start>/<end> in ISO 8601 (2026-11-01T00:00Z/2026-11-02T00:00Z), not ${period}`,
    );
  if (end <= start) throw new UsageError(`--period ${period}: its end is not after its start`);
  if (end > now) throw new UsageError(`--period ${period}: its end is after now (a scan reads what has run)`);
  if (end - start > MAX_HOURS * HOUR_MS)
    throw new UsageError(`--period ${period}: longer than ${MAX_HOURS} hours`);
  return [start, end];
}

/** The files asked, each checked; at most one on stdout. */
function outputsOf(values: Record<string, unknown>, evaluate: boolean): ScanOutputs {
  const pick = (name: string) => (typeof values[name] === "string" ? (values[name] as string) : null);
  const given = {
    inventory: pick("inventory"),
    json: pick("json"),
    estimated: pick("estimated"),
    metrics: pick("metrics"),
  };
  const none = Object.values(given).every((path) => path === null);
  const outputs = none && !evaluate ? { ...given, inventory: "-" } : given;
  const onStdout = Object.entries(outputs)
    .filter(([, path]) => path === "-")
    .map(([name]) => `--${name}`);
  if (evaluate && values.output === undefined) onStdout.push("--evaluate");
  if (onStdout.length > 1) throw new UsageError(`${onStdout.join(" and ")} both write to stdout: give files`);
  for (const [name, path] of Object.entries(outputs))
    if (path !== null && path !== "-") checkedOutput(`--${name}`, path);
  return outputs;
}

/** The regions asked, else the SDK's region from the environment (a profile's is read by the scan). */
function regionsOf(given: readonly string[] | undefined, environment: NodeJS.ProcessEnv): string[] {
  const regions = [...new Set((given ?? []).flatMap((text) => listOf(text)))];
  if (regions.length === 0) {
    const fromEnvironment = environment.AWS_REGION ?? environment.AWS_DEFAULT_REGION;
    if (fromEnvironment === undefined || fromEnvironment.trim() === "")
      throw new UsageError("no region: --region <region> (or AWS_REGION)");
    regions.push(fromEnvironment.trim());
  }
  if (regions.length > MAX_REGIONS) throw new UsageError(`${regions.length} regions: at most ${MAX_REGIONS}`);
  return regions.map(checkedRegion);
}

/** `scan aws [options]` read and checked. */
export function scanOptions(argv: readonly string[], environment: NodeJS.ProcessEnv, now: number): ScanAsk {
  const { values, positionals } = parsedOptions({
    args: [...argv],
    allowPositionals: true,
    options: OPTIONS,
  });
  if (values.help) return { help: true };
  const [provider, ...rest] = positionals;
  if (provider !== "aws") {
    throw new UsageError(
      provider === undefined
        ? "scan takes a provider: scan aws"
        : `scan reads aws, not ${provider}${didYouMean(provider, ["aws"])}`,
    );
  }
  if (rest.length > 0) throw new UsageError(`unexpected argument ${rest[0]}: scan aws takes options only`);
  const filters = (values["filter-tag"] ?? []).map((text) => {
    const filter = tagFilterOf(text);
    if (filter === null) throw new UsageError(`--filter-tag is key=value, not ${text}`);
    return filter;
  });
  if (filters.length > MAX_FILTERS)
    throw new UsageError(`${filters.length} tag filters: at most ${MAX_FILTERS}`);
  const endpoint = values.endpoint ?? null;
  if (endpoint !== null && !URL.canParse(endpoint))
    throw new UsageError(`--endpoint is a URL (http://127.0.0.1:5000), not ${endpoint}`);
  const evaluateOnly = (["criteria", "format", "output", "report", "group-by"] as const).find(
    (name) => values[name] !== undefined,
  );
  if (!values.evaluate && (evaluateOnly !== undefined || values.ranges))
    throw new UsageError(`--${evaluateOnly ?? "ranges"} is an option of --evaluate`);
  const timeout =
    values.timeout === undefined
      ? DEFAULT_TIMEOUT_SECONDS
      : bounded("--timeout", values.timeout, TIMEOUT_SECONDS);
  return {
    options: {
      regions: regionsOf(values.region, environment),
      filters,
      period: periodOf(values.hours, values.period, now),
      endpoint,
      timeoutMs: timeout * 1000,
      outputs: outputsOf(values, values.evaluate),
      edition: values.edition ?? null,
      evaluate: values.evaluate
        ? {
            criteria: values.criteria,
            format: values.format,
            output: values.output,
            report: values.report,
            ranges: values.ranges,
            "group-by": values["group-by"],
          }
        : null,
    },
  };
}
