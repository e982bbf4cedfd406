import { setImmediate as nextTurn } from "node:timers/promises";
import { type ResourceRequest, resourceAsk, SCANNER_CRITERIA } from "./requests.js";
import type { EstimatedInventory, ImpactsValues, ResourceWithImpacts, ScannedResource } from "./resources.js";

/*
 * Resources evaluated as cloud-scanner's estimated inventory: each one's request
 * (src/scan/requests.ts) answered by the service's own single route — the command line through the
 * REST shim in its process, the REST route through the routes' handlers — and the answer's six
 * values kept (cloud-scanner's ImpactsValues). A value the route does not compute (a disk's use:
 * "not implemented") is 0, as cloud-scanner counts a volume's use, and said in the resource's
 * warnings; a resource not evaluated has no values and says why.
 */

/** The route's answer to a resource's request (the query holds the criteria and verbose). */
export type RouteAnswer = (
  request: ResourceRequest,
  query: URLSearchParams,
) => Promise<{
  readonly status: number;
  readonly body: unknown;
}>;

/** What an estimation is made with. */
export interface EstimateOptions {
  /** The edition answering, as the metadata's `boavizta_api_version` names it. */
  readonly edition: string;
  /** This service's version, as the metadata's `cloud_scanner_version` names the writer. */
  readonly version: string;
  /** The route's whole answer as each resource's `raw_data` (cloud-scanner's `--output-verbose-json`). */
  readonly verbose: boolean;
  /** When the estimation was made, ISO 8601. */
  readonly date: string;
  /** Aborted: no further resource is evaluated. */
  readonly signal?: AbortSignal;
  /** What the inventory held that was not read (src/scan/inventoryJson.ts), said in the metadata. */
  readonly notRead?: readonly string[];
}

/** Time spent evaluating before the event loop is given a turn (other requests answered meanwhile). */
const SLICE_MS = 10;

type Criterion = (typeof SCANNER_CRITERIA)[number];
const PHASES = [
  ["embedded", "manufacture"],
  ["use", "use"],
] as const;
const UNITS: Readonly<Record<Criterion, string>> = { gwp: "kgco2eq", adp: "kgsbeq", pe: "megajoules" };

/** The six values of a 200 answer, and what it did not compute. */
function valuesOf(body: unknown, verbose: boolean): { values: ImpactsValues; missing: string[] } {
  const impacts = ((body as { impacts?: unknown })?.impacts ?? {}) as Record<string, Record<string, unknown>>;
  const values: Record<string, unknown> = {};
  const missing: string[] = [];
  for (const criterion of SCANNER_CRITERIA) {
    for (const [phase, spelled] of PHASES) {
      const value = (impacts[criterion]?.[phase] as { value?: unknown } | undefined)?.value;
      if (typeof value === "number") values[`${criterion}_${spelled}_${UNITS[criterion]}`] = value;
      else {
        values[`${criterion}_${spelled}_${UNITS[criterion]}`] = 0;
        missing.push(`${criterion} ${phase}`);
      }
    }
  }
  return {
    values: { ...(values as Omit<ImpactsValues, "raw_data">), raw_data: verbose ? body : null },
    missing,
  };
}

/** The warnings an answer carries (§19.7.3's top-level `warnings`). */
function answerWarnings(body: unknown): string[] {
  const warnings = (body as { warnings?: unknown })?.warnings;
  return Array.isArray(warnings)
    ? warnings.filter((warning): warning is string => typeof warning === "string")
    : [];
}

/** A refusal's words: its detail's message, or the body. */
function refusalText(status: number, body: unknown): string {
  const detail = (body as { detail?: unknown })?.detail;
  const text =
    typeof detail === "string"
      ? detail
      : Array.isArray(detail)
        ? detail.map((item) => (item as { msg?: string }).msg ?? JSON.stringify(item)).join("; ")
        : JSON.stringify(body);
  return `${status} ${text}`;
}

/** One resource evaluated. */
async function estimated(
  scanned: ScannedResource,
  answer: RouteAnswer,
  query: URLSearchParams,
  verbose: boolean,
) {
  const base = { cloud_resource: scanned.resource, impacts_duration_hours: scanned.hours };
  const ask = resourceAsk(scanned);
  if (!("request" in ask))
    return { ...base, impacts_values: null, warnings: [`not evaluated: ${ask.notEvaluated}`] };
  const { status, body } = await answer(ask.request, query);
  if (status !== 200)
    return { ...base, impacts_values: null, warnings: [`not evaluated: ${refusalText(status, body)}`] };
  const { values, missing } = valuesOf(body, verbose);
  const warnings = [
    ...(scanned.loadUnknown === true ? ["no CPU datapoint in the period: the archetype's load"] : []),
    ...answerWarnings(body),
    ...(missing.length > 0 ? [`${missing.join(", ")}: not computed by the route, 0 here`] : []),
  ];
  return { ...base, impacts_values: values, ...(warnings.length > 0 ? { warnings } : {}) };
}

/** The query every resource's route is asked with: cloud-scanner's criteria, verbose or not. */
function scannerQuery(verbose: boolean): URLSearchParams {
  const query = new URLSearchParams({ verbose: String(verbose) });
  for (const criterion of SCANNER_CRITERIA) query.append("criteria", criterion);
  return query;
}

/** One resource at a time evaluated through `answer`, as the estimated inventory holds it. */
export function resourceEstimator(
  answer: RouteAnswer,
  verbose: boolean,
): (scanned: ScannedResource) => Promise<ResourceWithImpacts> {
  const query = scannerQuery(verbose);
  return (scanned) => estimated(scanned, answer, query, verbose);
}

/** The estimated inventory's metadata. */
function estimateMetadata(options: EstimateOptions): EstimatedInventory["metadata"] {
  return {
    estimation_date: options.date,
    description: `Estimation by impact-service, edition ${options.edition}`,
    cloud_scanner_version: options.version,
    boavizta_api_version: options.edition,
    execution_statistics: null,
    ...(options.notRead === undefined || options.notRead.length === 0 ? {} : { not_read: options.notRead }),
  };
}

/** The resources' estimated inventory, in their order. */
export async function estimatedInventory(
  resources: readonly ScannedResource[],
  answer: RouteAnswer,
  options: EstimateOptions,
): Promise<EstimatedInventory> {
  const estimate = resourceEstimator(answer, options.verbose);
  const impacting: ResourceWithImpacts[] = [];
  let sliceStart = performance.now();
  for (const scanned of resources) {
    options.signal?.throwIfAborted();
    impacting.push(await estimate(scanned));
    if (performance.now() - sliceStart > SLICE_MS) {
      await nextTurn();
      sliceStart = performance.now();
    }
  }
  return { metadata: estimateMetadata(options), impacting_resources: impacting };
}
