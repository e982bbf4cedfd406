import type { IncomingMessage, ServerResponse } from "node:http";
import { costLimitPlugin } from "@escape.tech/graphql-armor-cost-limit";
import { maxAliasesPlugin } from "@escape.tech/graphql-armor-max-aliases";
import { maxDepthPlugin } from "@escape.tech/graphql-armor-max-depth";
import { maxDirectivesPlugin } from "@escape.tech/graphql-armor-max-directives";
import { maxTokensPlugin } from "@escape.tech/graphql-armor-max-tokens";
import type { GraphQLError, ValidationContext } from "graphql";
import { createYoga } from "graphql-yoga";
import { ConfigError, DEFAULT_LIMITS, type Limits, limitsOf, loadConfig } from "./config.js";
import { editionDataDir, loadReferenceData } from "./data/load.js";
import { DEFAULT_EDITION_ID, EDITIONS } from "./editions/index.js";
import type { Environment } from "./editions/settings.js";
import { type BodyOutcome, readBody } from "./http.js";
import { runService } from "./lifecycle.js";
import { log } from "./log.js";
import { createRestHandler } from "./rest/index.js";
import { createRequestContext, createService, editionService } from "./schema/context.js";
import { buildSchema } from "./schema/index.js";

/**
 * Limits on `/graphql` documents (graphql-armor). Fleets travel in variables, so every
 * legitimate query — including the shim's verbose operations and 10,000-item batches — stays
 * far below them.
 */
export const GRAPHQL_LIMITS = {
  maxDepth: 15,
  maxAliases: 30,
  maxTokens: 20_000,
  maxCost: 20_000,
  maxDirectives: 50,
} as const;

function abuseProtection() {
  // Report rejections as validation errors (400, GRAPHQL_VALIDATION_FAILED) rather than throwing.
  const asValidationError = {
    propagateOnRejection: false,
    onReject: [(context: ValidationContext | null, error: GraphQLError) => context?.reportError(error)],
  };
  return [
    maxDepthPlugin({ n: GRAPHQL_LIMITS.maxDepth, ...asValidationError }),
    maxAliasesPlugin({ n: GRAPHQL_LIMITS.maxAliases, ...asValidationError }),
    maxTokensPlugin({ n: GRAPHQL_LIMITS.maxTokens }),
    costLimitPlugin({ maxCost: GRAPHQL_LIMITS.maxCost, ...asValidationError }),
    maxDirectivesPlugin({ n: GRAPHQL_LIMITS.maxDirectives, ...asValidationError }),
  ];
}

/** Why a request was cancelled: its execution budget was spent. */
class ExecutionBudgetSpent extends Error {}

/** What the transport passes to each GraphQL execution. */
interface TransportContext {
  /** Aborted when the request is cancelled (client gone, execution budget spent). */
  readonly signal?: AbortSignal;
}

/** Request headers that describe the connection or the body's framing, not the request. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-length",
  "upgrade",
  "expect",
  "te",
  "trailer",
]);

function forwardedHeaders(request: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  return headers;
}

function send(
  response: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: string | Buffer,
): void {
  if (response.headersSent || response.destroyed) return;
  response.writeHead(status, { ...headers, "content-length": Buffer.byteLength(body) });
  response.end(body);
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  send(response, status, { "content-type": "application/json" }, JSON.stringify(body));
}

export interface AppOptions {
  /** The edition of requests that name none (`EDITION`). */
  readonly defaultEdition?: string;
  readonly limits?: Limits;
  /** Edition settings overrides (`BOAVIZTA_<KEY>`, docs/methodology.md §19.1.2), validated by loadConfig. */
  readonly settingsOverrides?: Environment;
}

/**
 * Wires the reference data of every edition (each loaded once, here), the GraphQL schema (yoga at
 * /graphql) and the v1 REST shim.
 */
export function createApp({
  defaultEdition = DEFAULT_EDITION_ID,
  limits = DEFAULT_LIMITS,
  settingsOverrides = {},
}: AppOptions = {}) {
  const service = createService(
    EDITIONS.map((edition) =>
      editionService(edition, loadReferenceData(edition, editionDataDir(edition), settingsOverrides), limits),
    ),
    defaultEdition,
    limits,
  );
  const schema = buildSchema();
  const yoga = createYoga<TransportContext>({
    schema,
    context: ({ signal }) => createRequestContext(service, { signal }),
    graphqlEndpoint: "/graphql",
    landingPage: false,
    graphiql: true,
    // Unexpected errors are masked; GraphQLErrors raised on purpose (codes) pass through.
    maskedErrors: true,
    plugins: abuseProtection(),
  });
  const rest = createRestHandler(schema, service);

  const bodyTooLarge = {
    message: `the request body exceeds ${limits.maxBodyBytes} bytes (MAX_BODY_BYTES)`,
    limit: "MAX_BODY_BYTES",
  };
  const budgetSpent = `the request did not complete within its execution budget of ${limits.executionTimeoutMs} ms (EXECUTION_TIMEOUT_MS)`;

  async function graphql(
    request: IncomingMessage,
    response: ServerResponse,
    body: Buffer,
    signal: AbortSignal,
  ) {
    const method = request.method ?? "GET";
    const answer = await yoga.fetch(
      `http://localhost${request.url ?? "/graphql"}`,
      {
        method,
        headers: forwardedHeaders(request),
        body: method === "GET" || method === "HEAD" ? undefined : new Uint8Array(body),
      },
      { signal },
    );
    const headers: Record<string, string> = {};
    // Lower-cased: the fetch layer may keep a header's original case (e.g. Content-Length), and
    // the length is set by `send` once.
    answer.headers.forEach((value, name) => {
      headers[name.toLowerCase()] = value;
    });
    send(response, answer.status, headers, Buffer.from(await answer.arrayBuffer()));
  }

  async function restCall(
    request: IncomingMessage,
    response: ServerResponse,
    body: Buffer,
    signal: AbortSignal,
  ) {
    const answer = await rest({
      method: request.method ?? "GET",
      url: request.url ?? "/",
      body: body.toString("utf8"),
      signal,
    });
    if (answer.html !== undefined) {
      send(response, answer.status, { "content-type": "text/html; charset=utf-8" }, answer.html);
    } else if (typeof answer.body === "string" && answer.status >= 500) {
      send(response, answer.status, { "content-type": "text/plain; charset=utf-8" }, answer.body);
    } else {
      sendJson(response, answer.status, answer.body);
    }
  }

  /**
   * One HTTP request: its body read within MAX_BODY_BYTES (413 past it), then GraphQL or the
   * shim, cancelled when the client goes away or the execution budget is spent (answered 422).
   */
  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const isGraphql = (request.url ?? "/").startsWith("/graphql");
    const cancel = new AbortController();
    let budget: NodeJS.Timeout | undefined;
    response.once("close", () => {
      clearTimeout(budget);
      if (!response.writableFinished) cancel.abort(new Error("the client disconnected"));
    });
    const cancelled = new Promise<"cancelled">((resolve) =>
      cancel.signal.addEventListener("abort", () => resolve("cancelled"), { once: true }),
    );
    try {
      const body: BodyOutcome = await readBody(request, limits.maxBodyBytes);
      if (body === "too large") {
        // The rest of the body is discarded; the connection closes after this answer.
        response.setHeader("connection", "close");
        if (isGraphql)
          sendJson(response, 413, {
            errors: [
              {
                message: bodyTooLarge.message,
                extensions: { code: "LIMIT_EXCEEDED", limit: "MAX_BODY_BYTES" },
              },
            ],
          });
        else sendJson(response, 413, { detail: bodyTooLarge.message });
        return;
      }
      // The budget counts execution, not the client's upload (node:http's requestTimeout bounds that).
      budget = setTimeout(
        () => cancel.abort(new ExecutionBudgetSpent(budgetSpent)),
        limits.executionTimeoutMs,
      );
      const work = isGraphql
        ? graphql(request, response, body, cancel.signal)
        : restCall(request, response, body, cancel.signal);
      // The work itself stops at its next chunk boundary once cancelled (see scheduling.ts).
      work.catch(() => {});
      if ((await Promise.race([work, cancelled])) !== "cancelled") return;
      if (cancel.signal.reason instanceof ExecutionBudgetSpent) {
        if (isGraphql)
          sendJson(response, 422, {
            errors: [
              { message: budgetSpent, extensions: { code: "LIMIT_EXCEEDED", limit: "EXECUTION_TIMEOUT_MS" } },
            ],
          });
        else sendJson(response, 422, { detail: budgetSpent });
      }
    } finally {
      clearTimeout(budget);
    }
  }

  return { service, schema, yoga, rest, handle, limits, description: `default edition ${defaultEdition}` };
}

export type App = ReturnType<typeof createApp>;

/** Reads the configuration (one clear line and exit 2 when it is wrong), then runs the service. */
function main(): void {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    log.error(error.message);
    process.exit(2);
  }
  runService(config, () =>
    createApp({
      defaultEdition: config.EDITION,
      limits: limitsOf(config),
      settingsOverrides: config.settingsOverrides,
    }),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) main();
