import { Readable } from "node:stream";
import type { ResourceSink } from "../../scan/aws/account.js";
import { resourceEstimator } from "../../scan/estimate.js";
import { inventoryJson } from "../../scan/inventoryJson.js";
import { resourceAsk } from "../../scan/requests.js";
import type { ScannedEstimate, ScannedResource, ScanProblem } from "../../scan/resources.js";
import { scanCsv } from "../../scan/rows.js";
import { MAX_RESOURCE_SERIES, scanGaugeSet, scanMetricsText } from "../../scan/scanGauges.js";
import { SERVICE_VERSION } from "../../support/serviceVersion.js";
import { printable } from "../../support/terminalText.js";
import { type CliIo, evaluateArgs, failure, interruptedCode, misuse } from "../options.js";
import { estimateInProcess, notEvaluatedLines, openEstimator, writeText } from "./estimating.js";
import { SCAN_USAGE, type ScanOptions, scanOptions } from "./scanOptions.js";

/*
 * `impact-service scan aws`: the account read (src/scan/aws/account.ts, loaded only here: the AWS
 * SDK is the command's, never the server's), what it could not read said on stderr one line each,
 * then what was asked written — the inventory CSV, cloud-scanner's inventory JSON, its estimated
 * inventory, the Prometheus gauges, the inventory evaluated as `evaluate` does. The gauges asked
 * alone (what the service's scan asks, src/scan/schedule.ts) are made as the account is read: each
 * page evaluated and counted, then dropped, so that the command's memory does not grow with the
 * account (src/scan/scanGauges.ts bounds the series kept).
 */

const HOUR_MS = 3_600_000;

/** The account read within the scan's time (or until Ctrl-C); its resources (or each page to `sink`) and problems. */
async function readAccount(options: ScanOptions, io: CliIo, sink?: ResourceSink) {
  // The SDK's notice that its later releases need a newer Node says nothing of this run.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
  const { scanAccount } = await import("../../scan/aws/account.js");
  const signals = [
    AbortSignal.timeout(options.timeoutMs),
    ...(io.interrupt === undefined ? [] : [io.interrupt]),
  ];
  return scanAccount(
    {
      regions: options.regions,
      filters: options.filters,
      period: options.period,
      endpoint: options.endpoint,
      signal: AbortSignal.any(signals),
      timeoutMs: options.timeoutMs,
    },
    sink,
  );
}

/** Whether a resource is an instance (else a volume). */
const isInstance = ({ resource }: ScannedResource) =>
  typeof resource.resource_details === "object" && "instance" in resource.resource_details;

/** The scan's one summary line. */
function summaryLine(
  options: ScanOptions,
  resources: readonly ScannedResource[] | { readonly instances: number; readonly volumes: number },
  problems: readonly ScanProblem[],
) {
  const instances = "instances" in resources ? resources.instances : resources.filter(isInstance).length;
  const volumes = "volumes" in resources ? resources.volumes : resources.length - instances;
  const [start, end] = options.period.map((time) => new Date(time).toISOString());
  const hours = (options.period[1] - options.period[0]) / HOUR_MS;
  const failed =
    problems.length === 0
      ? ""
      : `; ${problems.length} thing${problems.length === 1 ? "" : "s"} not read (above)`;
  return `aws: ${instances} running instance${instances === 1 ? "" : "s"} and ${volumes} volume${volumes === 1 ? "" : "s"} in ${options.regions.join(", ")}, ${start}/${end} (${Number(hours.toPrecision(6))} h)${failed}`;
}

/** The estimate with the scan it comes from. */
async function scannedEstimate(
  options: ScanOptions,
  resources: readonly ScannedResource[],
  problems: readonly ScanProblem[],
) {
  const estimated = await estimateInProcess(resources, options.edition);
  const scan = {
    regions: options.regions,
    filter_keys: options.filters.map((filter) => filter.key),
    period: options.period.map((time) => new Date(time).toISOString()) as [string, string],
    hours: (options.period[1] - options.period[0]) / HOUR_MS,
    scanned_at: new Date().toISOString(),
    problems,
  };
  return { ...estimated, scan } satisfies ScannedEstimate;
}

/** The inventory evaluated as `evaluate <inventory.csv>` evaluates it, from memory. */
async function evaluated(options: ScanOptions, csv: string, io: CliIo): Promise<number> {
  const given = options.evaluate ?? {};
  const values: Record<string, string | boolean | undefined> = {
    ...given,
    edition: options.edition ?? undefined,
  };
  const flags = Object.entries(values).flatMap(([name, value]) =>
    value === undefined || value === false ? [] : value === true ? [`--${name}`] : [`--${name}=${value}`],
  );
  const { inventoryMain } = await import("../inventoryRun.js");
  return inventoryMain(evaluateArgs(["evaluate", "-", "--input=csv", ...flags]), {
    ...io,
    stdin: Readable.from([csv]),
  });
}

/** What the scan writes, as asked; the exit code of --evaluate, else 0. */
async function written(
  options: ScanOptions,
  resources: readonly ScannedResource[],
  problems: readonly ScanProblem[],
  io: CliIo,
) {
  const { outputs } = options;
  const csv = [...scanCsv(resources)].join("");
  if (outputs.inventory !== null) await writeText(outputs.inventory, csv, io.stdout);
  if (outputs.json !== null) {
    const json = inventoryJson(resources, `impact-service ${SERVICE_VERSION}`, new Date().toISOString());
    await writeText(outputs.json, `${JSON.stringify(json)}\n`, io.stdout);
  }
  if (outputs.estimated !== null || outputs.metrics !== null) {
    const estimate = await scannedEstimate(options, resources, problems);
    // Those the route refused (the others were said before anything was written).
    const asked = new Set(
      resources.filter((scanned) => "request" in resourceAsk(scanned)).map(({ resource }) => resource.id),
    );
    for (const line of notEvaluatedLines(estimate, "aws", asked))
      io.stderr.write(`impact-service: ${printable(line)}\n`);
    if (outputs.estimated !== null)
      await writeText(outputs.estimated, `${JSON.stringify(estimate)}\n`, io.stdout);
    if (outputs.metrics !== null) await writeText(outputs.metrics, scanMetricsText(estimate), io.stdout);
  }
  return options.evaluate === null ? 0 : evaluated(options, csv, io);
}

/** Lines of each kind said of the resources as they pass, at most (then how many more). */
const MAX_LINES_SAID = 20;

/** What the gauges' run says of the resources as they pass: counts, and the first lines of each kind. */
function streamTally() {
  const counts = { instances: 0, volumes: 0, unknownLoad: 0 };
  const unknownLoad: string[] = [];
  const notEvaluated: string[] = [];
  let notEvaluatedCount = 0;
  return {
    counts,
    add(scanned: ScannedResource, warnings: readonly string[] | undefined, evaluated: boolean) {
      if (isInstance(scanned)) counts.instances += 1;
      else counts.volumes += 1;
      if (scanned.loadUnknown === true) {
        counts.unknownLoad += 1;
        if (counts.unknownLoad <= 5) unknownLoad.push(scanned.resource.id);
      }
      unknownLoad.push(scanned.resource.id);
      if (evaluated) return;
      notEvaluatedCount += 1;
      if (notEvaluated.length < MAX_LINES_SAID)
        notEvaluated.push(`aws: ${scanned.resource.id}: ${(warnings ?? ["not evaluated"]).join("; ")}`);
    },
    lines(): string[] {
      const more = notEvaluatedCount - notEvaluated.length;
      return [
        ...(counts.unknownLoad === 0
          ? []
          : [
              `aws: ${counts.unknownLoad} instance${counts.unknownLoad === 1 ? "" : "s"} without a CPU datapoint in the period, evaluated at the archetype's load: ${unknownLoad.join(", ")}${counts.unknownLoad > 5 ? ", …" : ""}`,
            ]),
        ...notEvaluated,
        ...(more > 0 ? [`aws: ${more} more resources not evaluated`] : []),
      ];
    },
  };
}

/** `--metrics` alone: the gauges made as the account is read, a page at a time; the exit code. */
async function streamedGauges(options: ScanOptions, metrics: string, io: CliIo): Promise<number> {
  const estimator = await openEstimator(options.edition);
  const estimate = resourceEstimator(estimator.answer, false);
  const gauges = scanGaugeSet({
    regions: options.regions,
    filterKeys: options.filters.map((filter) => filter.key),
    hours: (options.period[1] - options.period[0]) / HOUR_MS,
    cloudScannerVersion: estimator.version,
    boaviztapiVersion: estimator.edition,
  });
  const tally = streamTally();
  const { problems } = await readAccount(options, io, async (resources) => {
    for (const scanned of resources) {
      const item = await estimate(scanned);
      tally.add(scanned, item.warnings, item.impacts_values !== null);
      gauges.add(item);
    }
  });
  const said = [
    ...problems.map((problem) => problem.line),
    ...tally.lines(),
    summaryLine(options, tally.counts, problems),
  ];
  const cut = gauges.notExported();
  if (cut > 0)
    said.push(
      `aws: ${cut} resources counted in their region's sums without series of their own (a scan exports the series of ${MAX_RESOURCE_SERIES} resources at most, shared by its regions)`,
    );
  for (const line of said) io.stderr.write(`impact-service: ${printable(line)}\n`);
  if (io.interrupt?.aborted) return interruptedCode(io.interrupt.reason);
  await writeText(metrics, gauges.text(problems, Date.now()), io.stdout);
  return tally.counts.instances + tally.counts.volumes === 0 && problems.length > 0 ? 1 : 0;
}

/** `impact-service scan …`; the exit code. */
export async function scanMain(argv: readonly string[], io: CliIo): Promise<number> {
  let options: ScanOptions;
  try {
    const asked = scanOptions(argv, process.env, Date.now());
    if (asked.help === true) {
      io.stdout.write(SCAN_USAGE);
      return 0;
    }
    options = asked.options;
  } catch (error) {
    return misuse(io, error);
  }
  const { outputs } = options;
  if (
    outputs.metrics !== null &&
    outputs.inventory === null &&
    outputs.json === null &&
    outputs.estimated === null &&
    options.evaluate === null
  ) {
    try {
      return await streamedGauges(options, outputs.metrics, io);
    } catch (error) {
      return failure(io, error);
    }
  }
  const { resources, problems } = await readAccount(options, io);
  for (const problem of problems) io.stderr.write(`impact-service: ${printable(problem.line)}\n`);
  const unknownLoad = resources
    .filter((scanned) => scanned.loadUnknown === true)
    .map(({ resource }) => resource.id);
  if (unknownLoad.length > 0) {
    const some = unknownLoad.slice(0, 5).join(", ") + (unknownLoad.length > 5 ? ", …" : "");
    io.stderr.write(
      `impact-service: aws: ${unknownLoad.length} instance${unknownLoad.length === 1 ? "" : "s"} without a CPU datapoint in the period, evaluated at the archetype's load: ${printable(some)}\n`,
    );
  }
  for (const scanned of resources) {
    const ask = resourceAsk(scanned);
    if ("notEvaluated" in ask)
      io.stderr.write(
        `impact-service: aws: ${printable(scanned.resource.id)}: not evaluated: ${printable(ask.notEvaluated)}\n`,
      );
  }
  io.stderr.write(`impact-service: ${printable(summaryLine(options, resources, problems))}\n`);
  if (io.interrupt?.aborted) return interruptedCode(io.interrupt.reason);
  try {
    const code = await written(options, resources, problems, io);
    return resources.length === 0 && problems.length > 0 ? 1 : code;
  } catch (error) {
    return failure(io, error);
  }
}
