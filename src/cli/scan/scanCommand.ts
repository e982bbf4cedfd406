import { Readable } from "node:stream";
import { inventoryJson } from "../../scan/inventoryJson.js";
import { scanMetricsText } from "../../scan/metrics.js";
import { resourceAsk } from "../../scan/requests.js";
import type { ScannedEstimate, ScannedResource, ScanProblem } from "../../scan/resources.js";
import { scanCsv } from "../../scan/rows.js";
import { printable } from "../../support/terminalText.js";
import { SERVICE_VERSION } from "../../support/version.js";
import { type CliIo, evaluateArgs, failure, interruptedCode, misuse } from "../options.js";
import { estimateInProcess, notEvaluatedLines, writeText } from "./estimating.js";
import { SCAN_USAGE, type ScanOptions, scanOptions } from "./scanOptions.js";

/*
 * `impact-service scan aws`: the account read (src/scan/aws/account.ts, loaded only here: the AWS
 * SDK is the command's, never the server's), what it could not read said on stderr one line each,
 * then what was asked written — the inventory CSV, cloud-scanner's inventory JSON, its estimated
 * inventory, the Prometheus gauges, the inventory evaluated as `evaluate` does.
 */

const HOUR_MS = 3_600_000;

/** The account read within the scan's time (or until Ctrl-C); its resources and problems. */
async function readAccount(options: ScanOptions, io: CliIo) {
  // The SDK's notice that its later releases need a newer Node says nothing of this run.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
  const { scanAccount } = await import("../../scan/aws/account.js");
  const signals = [
    AbortSignal.timeout(options.timeoutMs),
    ...(io.interrupt === undefined ? [] : [io.interrupt]),
  ];
  return scanAccount({
    regions: options.regions,
    filters: options.filters,
    period: options.period,
    endpoint: options.endpoint,
    signal: AbortSignal.any(signals),
    timeoutMs: options.timeoutMs,
  });
}

/** The scan's one summary line. */
function summaryLine(
  options: ScanOptions,
  resources: readonly ScannedResource[],
  problems: readonly ScanProblem[],
) {
  const instances = resources.filter(
    ({ resource }) =>
      typeof resource.resource_details === "object" && "instance" in resource.resource_details,
  ).length;
  const volumes = resources.length - instances;
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
    if (outputs.metrics !== null)
      await writeText(outputs.metrics, await scanMetricsText(estimate, null), io.stdout);
  }
  return options.evaluate === null ? 0 : evaluated(options, csv, io);
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
