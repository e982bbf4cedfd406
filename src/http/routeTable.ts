import { routeTemplate } from "../rest/index.js";
import { BATCH_PATH } from "../rest/routes/batch.js";
import { COEFFICIENTS_STREAM_PATH } from "../rest/routes/coefficientStream.js";
import { POSSIBLE_TYPES_PATH } from "../schema/introspection/possibleTypes.js";
import { graphqlAnswer } from "./graphqlBridge.js";
import type { Execution } from "./limits/execution.js";
import { metricsAnswer } from "./metricsRoute.js";
import type { HttpParts } from "./parts.js";
import { health, readinessProbe } from "./probes.js";
import { jsonReply } from "./reply.js";
import { restAnswer } from "./restBridge.js";
import type { Answer } from "./route.js";
import { EVALUATE_PATH, evaluateFileAnswer } from "./site/evaluateRoute.js";
import { assetAnswer, htmlPage, openApiAnswer, projectDocPages } from "./site/index.js";
import { streamingAnswer, withoutTrailingSlashes } from "./streaming.js";

/*
 * Every path the HTTP front serves, in the order they are tried: the first entry matching the
 * path and the method answers; a method an entry does not take goes on to the next entries
 * (ending at the REST shim's 404 or 405), unless the entry refuses it itself (405).
 */

interface RouteEntry {
  /**
   * `exact`: the path itself; `prefix`: every path under it; `slashes`: the path, trailing
   * slashes ignored; `otherwise`: every path no entry above serves.
   */
  readonly match: "exact" | "prefix" | "slashes" | "otherwise";
  readonly path: string;
  /** The methods answered (`any`: every one). */
  readonly methods: readonly string[] | "any";
  /** 405: other methods are refused here instead of going on to the next entries. */
  readonly otherMethods?: 405;
  /** The label of metrics and logs (a bounded set); the path when absent. */
  readonly template?: (path: string) => string;
  readonly answer: Answer;
}

/** Paths not matched by any route share one label (raw URLs would make labels unbounded). */
export const UNMATCHED = "unmatched";

const READ = ["GET", "HEAD"];

/** The label of a REST path: its route template (`/v1/cloud/{provider}/...`), or `unmatched`. */
const restTemplate = (path: string) => routeTemplate(path) ?? UNMATCHED;

const exact = (path: string, methods: readonly string[] | "any", answer: Answer): RouteEntry => ({
  match: "exact",
  path,
  methods,
  answer,
});

/** A route of one method whose path may end in slashes (streaming.ts): others answered 405. */
const oneMethod = (path: string, method: string, answer: Answer): RouteEntry => ({
  match: "slashes",
  path,
  methods: [method],
  otherMethods: 405,
  answer,
});

/** Probes (probes.ts) and metrics (metricsRoute.ts). */
const probeRoutes = (parts: HttpParts): RouteEntry[] => [
  exact("/healthz", READ, health),
  exact("/readyz", READ, readinessProbe(parts.readiness)),
  exact("/metrics", ["GET"], metricsAnswer(parts.metrics, parts.scan ?? null)),
];

/** Pages, documentation and their assets (site/). */
const siteRoutes = (parts: HttpParts): RouteEntry[] => [
  exact("/", READ, htmlPage(parts.pages.root)),
  exact("/docs", READ, htmlPage(parts.pages.docs)),
  exact("/evaluate", READ, htmlPage(parts.pages.evaluate)),
  exact("/openapi.json", READ, openApiAnswer(parts.openApi)),
  // `/README.md` and `/README`, `/docs/methodology.md` and `/docs/methodology`, …
  ...projectDocPages(parts.projectDocs).map(({ path, answer }) => exact(path, READ, answer)),
  {
    match: "prefix",
    path: "/assets/",
    methods: "any",
    template: () => "/assets/{file}",
    answer: assetAnswer(parts.assets),
  },
];

/**
 * Streaming routes (streaming.ts): Apollo's possibleTypes, for clients that fetch them at
 * start-up; the batch; the coefficient table; a file evaluated by the command line
 * (site/evaluateRoute.ts).
 */
const streamingRoutes = (parts: HttpParts, execution: Execution): RouteEntry[] => [
  oneMethod(
    POSSIBLE_TYPES_PATH,
    "GET",
    streamingAnswer(() => jsonReply(200, parts.possibleTypes())),
  ),
  oneMethod(BATCH_PATH, "POST", streamingAnswer(parts.batch, execution)),
  oneMethod(COEFFICIENTS_STREAM_PATH, "GET", streamingAnswer(parts.coefficientStream)),
  oneMethod(EVALUATE_PATH, "POST", evaluateFileAnswer(parts.fileEvaluator)),
];

export function routeTable(parts: HttpParts, execution: Execution): readonly RouteEntry[] {
  return [
    ...probeRoutes(parts),
    ...siteRoutes(parts),
    // GraphQL (graphqlBridge.ts).
    exact("/graphql", "any", graphqlAnswer(parts.yoga, execution)),
    ...streamingRoutes(parts, execution),
    // The v1 REST shim (restBridge.ts): its own routes answer 404 and 405 (src/rest/routes/index.ts).
    {
      match: "otherwise",
      path: "/v1/...",
      methods: "any",
      template: restTemplate,
      answer: restAnswer(parts.rest, execution),
    },
  ];
}

function matches(entry: RouteEntry, path: string): boolean {
  switch (entry.match) {
    case "exact":
      return path === entry.path;
    case "prefix":
      return path.startsWith(entry.path);
    case "slashes":
      return withoutTrailingSlashes(path) === entry.path;
    case "otherwise":
      return true;
  }
}

const methodNotAllowed: Answer = async () => jsonReply(405, { detail: "Method Not Allowed" });

/** The entry serving a request, its label and answer. */
export function routeOf(
  table: readonly RouteEntry[],
  path: string,
  method: string,
): { readonly template: string; readonly answer: Answer } {
  for (const entry of table) {
    if (!matches(entry, path)) continue;
    const template = entry.template?.(path) ?? entry.path;
    if (entry.methods === "any" || entry.methods.includes(method)) return { template, answer: entry.answer };
    if (entry.otherMethods === 405) return { template, answer: methodNotAllowed };
  }
  return { template: UNMATCHED, answer: methodNotAllowed };
}

/** The label of a CORS preflight: the path it asks about, when a route serves it. */
export function preflightTemplate(path: string): string {
  return path === "/graphql" || path === "/openapi.json" ? path : restTemplate(path);
}
