import {
  type DocumentNode,
  type GraphQLField,
  type GraphQLSchema,
  getArgumentValues,
  getOperationAST,
  isListType,
  isNonNullType,
  Kind,
} from "graphql";
import type { Plugin } from "graphql-yoga";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/*
 * Prometheus metrics (prom-client), one registry per app: requests by route template and status,
 * latency histograms, fleet sizes, and prom-client's default process metrics (CPU, memory, event
 * loop lag, GC, handles).
 */

export interface Metrics {
  readonly registry: Registry;
  /** Records one finished request (`route` is a template such as `/v1/cloud/{provider}`). */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  /** A yoga plugin recording the item count of each fleet field executed. */
  readonly fleetPlugin: Plugin;
  /** Reports an admission budget (its variable's name) as gauges: units in use, requests waiting. */
  observeAdmission(limit: string, admission: AdmissionState): void;
  /** Reports the size of the parsed-document cache (characters of document text kept). */
  observeDocumentCache(size: () => number): void;
}

/** What an admission budget reports (src/http/limits/admission.ts). */
interface AdmissionState {
  inUse(): number;
  waiting(): number;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  arrayBuffersGauge(registry);
  return {
    registry,
    observeRequest: requestSeries(registry),
    fleetPlugin: fleetItemsPlugin(registry),
    observeAdmission: admissionGauges(registry),
    observeDocumentCache: documentCacheGauge(registry),
  };
}

/** Requests counted and timed by (method, route, status): `Metrics.observeRequest`. */
function requestSeries(registry: Registry): Metrics["observeRequest"] {
  const requests = new Counter({
    name: "http_requests_total",
    help: "HTTP requests by method, route template and status.",
    labelNames: ["method", "route", "status"] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: "http_request_duration_seconds",
    help: "HTTP request duration by method and route template.",
    labelNames: ["method", "route"] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  /**
   * The series of each (method, route, status), made on first use: labelling by an object hashes
   * its keys on every request. Bounded: methods and routes are the known ones or `other` /
   * `unmatched`, statuses the service's own.
   */
  const seriesByRequest = new Map<
    string,
    { readonly count: () => void; readonly time: (s: number) => void }
  >();
  const seriesOf = (method: string, route: string, status: number) => {
    const key = `${method} ${route} ${status}`;
    let series = seriesByRequest.get(key);
    if (series === undefined) {
      const counter = requests.labels({ method, route, status: String(status) });
      const histogram = duration.labels({ method, route });
      series = { count: () => counter.inc(), time: (seconds) => histogram.observe(seconds) };
      seriesByRequest.set(key, series);
    }
    return series;
  };
  return (method, route, status, seconds) => {
    const series = seriesOf(method, route, status);
    series.count();
    series.time(seconds);
  };
}

/** The item count of each fleet field executed, as a histogram by field: `Metrics.fleetPlugin`. */
function fleetItemsPlugin(registry: Registry): Plugin {
  const fleetItems = new Histogram({
    name: "graphql_fleet_items",
    help: "Items per evaluated fleet, by GraphQL field (servers, components, cloudInstances, terminals).",
    labelNames: ["field"] as const,
    buckets: [1, 10, 100, 1000, 2500, 5000, 10000],
    registers: [registry],
  });
  return {
    onExecute({ args }) {
      const { schema, document, operationName, variableValues } = args;
      for (const [field, items] of fleetSizes(schema, document, operationName, variableValues)) {
        fleetItems.observe({ field }, items);
      }
    },
  };
}

/** Each admission budget's units in use and requests waiting, as gauges: `Metrics.observeAdmission`. */
function admissionGauges(registry: Registry): Metrics["observeAdmission"] {
  const admissions = new Map<string, AdmissionState>();
  new Gauge({
    name: "admission_in_use",
    help: "Units of each admission budget in use (fleet items, bytes of request bodies), by its variable.",
    labelNames: ["limit"] as const,
    registers: [registry],
    collect() {
      for (const [limit, admission] of admissions) this.set({ limit }, admission.inUse());
    },
  });
  new Gauge({
    name: "admission_waiting",
    help: "Requests waiting for room in each admission budget, by its variable.",
    labelNames: ["limit"] as const,
    registers: [registry],
    collect() {
      for (const [limit, admission] of admissions) this.set({ limit }, admission.waiting());
    },
  });
  return (limit, admission) => {
    admissions.set(limit, admission);
  };
}

/**
 * Bytes of ArrayBuffers and Buffers (request bodies, answers as bytes, socket and compression
 * buffers): part of prom-client's external memory, the part the service's answers make, and
 * not among its default metrics (bench/README.md, "Memory under a mixed load", reads it).
 */
function arrayBuffersGauge(registry: Registry): void {
  new Gauge({
    name: "nodejs_array_buffers_bytes",
    help: "Bytes of ArrayBuffers and Buffers (process.memoryUsage().arrayBuffers), part of nodejs_external_memory_bytes.",
    registers: [registry],
    collect() {
      this.set(process.memoryUsage().arrayBuffers);
    },
  });
}

/** The parsed-document cache's size, as a gauge: `Metrics.observeDocumentCache`. */
function documentCacheGauge(registry: Registry): Metrics["observeDocumentCache"] {
  let documentCacheSize = () => 0;
  new Gauge({
    name: "graphql_document_cache_bytes",
    help: "Estimated heap bytes of the parsed GraphQL documents kept, DOCUMENT_CACHE_BYTES at most (src/http/documentCache.ts).",
    registers: [registry],
    collect() {
      this.set(documentCacheSize());
    },
  });
  return (size) => {
    documentCacheSize = size;
  };
}

/** A fleet field: a root query field taking a list of items as `inputs`. */
function isFleetField(field: GraphQLField<unknown, unknown>): boolean {
  const inputs = field.args.find((arg) => arg.name === "inputs");
  if (!inputs) return false;
  const type = isNonNullType(inputs.type) ? inputs.type.ofType : inputs.type;
  return isListType(type);
}

/** Item counts of the fleet fields selected at the root of the executed operation. */
function fleetSizes(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Readonly<Record<string, unknown>> | null | undefined,
): [string, number][] {
  const operation = getOperationAST(document, operationName);
  const fields = schema.getQueryType()?.getFields();
  if (operation?.operation !== "query" || !fields) return [];
  const sizes: [string, number][] = [];
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD) continue;
    const field = fields[selection.name.value];
    if (!field || !isFleetField(field)) continue;
    try {
      const { inputs } = getArgumentValues(field, selection, variables ?? {});
      if (Array.isArray(inputs)) sizes.push([field.name, inputs.length]);
    } catch {
      // Invalid arguments: the execution reports them; nothing to measure.
    }
  }
  return sizes;
}
