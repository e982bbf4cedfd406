import type { IncomingMessage, ServerResponse } from "node:http";
import type { YogaServerInstance } from "graphql-yoga";
import type { Limits } from "../config.js";
import { type Logger, withRequestId } from "../log.js";
import type { RestCall, RestResponse } from "../rest/index.js";
import { routeTemplate } from "../rest/index.js";
import type { Assets } from "./assets.js";
import { type BodyOutcome, readBody } from "./body.js";
import { chooseEncoding } from "./compression.js";
import type { AllowedOrigins } from "./cors.js";
import { corsHeaders, isCorsPath, isPreflight, preflight } from "./cors.js";
import { requestIdOf } from "./logging.js";
import type { Metrics } from "./metrics.js";
import { type ProjectDocs, projectDocRoutes } from "./projectDocs.js";
import type { Readiness } from "./readiness.js";
import { htmlReply, jsonReply, type Reply } from "./reply.js";
import { send } from "./send.js";

/*
 * The HTTP front of the service: request id, CORS, routing to the pages, probes, metrics,
 * GraphQL (yoga) and the REST shim — their body read within MAX_BODY_BYTES and their execution
 * cancelled when the client goes away or the budget is spent —, compression, then one log line
 * and the request metrics.
 */

export interface HttpParts {
  readonly allowedOrigins: AllowedOrigins;
  readonly compressionMinBytes: number;
  readonly limits: Limits;
  readonly logger: Logger;
  readonly metrics: Metrics;
  readonly readiness: Readiness;
  // biome-ignore lint/suspicious/noExplicitAny: yoga's server context type is irrelevant here
  readonly yoga: YogaServerInstance<any, any>;
  readonly rest: (call: RestCall) => Promise<RestResponse>;
  readonly assets: Assets;
  readonly pages: { readonly root: string; readonly docs: string };
  /** The OpenAPI document, serialized (called on each request for it: memoize). */
  readonly openApi: () => string;
  readonly projectDocs: ProjectDocs;
  /** Streaming routes by path (without trailing slash). */
  readonly streamingRoutes?: ReadonlyMap<string, StreamingRoute>;
}

/**
 * A route that reads its request body as it arrives and answers while reading (the batch
 * route): it stands outside the whole-body reading and the execution budget of the others.
 */
export interface StreamingRoute {
  readonly method: string;
  readonly reply: (request: {
    readonly url: string;
    readonly body: AsyncIterable<Uint8Array>;
    /** Aborted when the client goes away. */
    readonly signal: AbortSignal;
  }) => Reply;
}

interface Routed {
  /** The route template (bounded set: metrics labels and logs). */
  readonly route: string;
  readonly reply: (cancellation: Cancellation) => Promise<Reply>;
}

/** Why a request was cancelled: its execution budget was spent. */
class ExecutionBudgetSpent extends Error {}

/**
 * A request's cancellation: by the client going away or by its execution budget. Its AbortSignal
 * is made only when the work asks for it (GraphQL, a fleet, the batch route): making one costs
 * several microseconds, and a REST answer never reads it unless it is cancelled.
 */
class Cancellation {
  // Node makes a controller's signal on first use (`signal` or `abort`).
  readonly #controller = new AbortController();
  #cancelled = false;
  #reason: unknown;
  #onCancel: (() => void) | undefined;

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get reason(): unknown {
    return this.#reason;
  }

  cancel(reason: unknown): void {
    if (this.#cancelled) return;
    this.#cancelled = true;
    this.#reason = reason;
    this.#controller.abort(reason);
    this.#onCancel?.();
  }

  /** Calls `listener` once when cancelled (at once if already); one listener at a time. */
  onCancel(listener: (() => void) | undefined): void {
    this.#onCancel = listener;
    if (listener && this.#cancelled) listener();
  }

  /** Whether the client went away (a request cancelled by its budget still gets its answer). */
  get clientGone(): boolean {
    return this.#cancelled && !(this.#reason instanceof ExecutionBudgetSpent);
  }
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

/** A limit refused in the answer layout of GraphQL or of the shim. */
function limitReply(status: number, graphql: boolean, message: string, limit: string): Reply {
  return graphql
    ? jsonReply(status, { errors: [{ message, extensions: { code: "LIMIT_EXCEEDED", limit } }] })
    : jsonReply(status, { detail: message });
}

/** Paths not matched by any route share one label (raw URLs would make labels unbounded). */
const UNMATCHED = "unmatched";

/** Methods kept as labels; any other (a client may send anything) is `other`. */
const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

function restReply(answer: RestResponse): Reply {
  // The reference answers its 500s as plain text.
  if (answer.status >= 500) {
    const text = typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body);
    return { status: answer.status, headers: { "content-type": "text/plain; charset=utf-8" }, body: text };
  }
  return jsonReply(answer.status, answer.body);
}

/** GraphQL answers sent part by part (subscriptions, @defer/@stream): never buffered. */
function isIncremental(contentType: string | undefined): boolean {
  return contentType !== undefined && /^(text\/event-stream|multipart\/)/i.test(contentType);
}

/** `/v1/batch/` is `/v1/batch` (a loop, not a regex: the path is the client's). */
function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 1 && path.charCodeAt(end - 1) === 0x2f) end -= 1;
  return path.slice(0, end);
}

function pathOf(url: string): string {
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}

export function createHttpHandler(parts: HttpParts) {
  const { logger, metrics, readiness, yoga, rest, assets, limits } = parts;
  const bodyTooLarge = `the request body exceeds ${limits.maxBodyBytes} bytes (MAX_BODY_BYTES)`;
  const budgetSpent = `the request did not complete within its execution budget of ${limits.executionTimeoutMs} ms (EXECUTION_TIMEOUT_MS)`;

  /**
   * GraphQL or the shim: the body read within MAX_BODY_BYTES (413 past it, the rest discarded
   * and the connection closed), then the work, cancelled by `signal` (client gone) or past the
   * execution budget (422). The budget counts execution, not the client's upload. One
   * cancellation per request: the client's going away and the budget cancel the same one.
   */
  async function execute(
    request: IncomingMessage,
    cancellation: Cancellation,
    graphql: boolean,
    work: (body: Buffer, cancellation: Cancellation) => Promise<Reply>,
  ): Promise<Reply> {
    const body: BodyOutcome = await readBody(request, limits.maxBodyBytes);
    if (body === "too large") {
      const reply = limitReply(413, graphql, bodyTooLarge, "MAX_BODY_BYTES");
      return { ...reply, headers: { ...reply.headers, connection: "close" } };
    }
    const budget = setTimeout(
      () => cancellation.cancel(new ExecutionBudgetSpent(budgetSpent)),
      limits.executionTimeoutMs,
    );
    const cancelled = new Promise<"cancelled">((resolve) =>
      cancellation.onCancel(() => resolve("cancelled")),
    );
    try {
      const running = work(body, cancellation);
      // The work itself stops at its next chunk boundary once cancelled (see scheduling.ts).
      running.catch(() => {});
      const outcome = await Promise.race([running, cancelled]);
      if (outcome !== "cancelled") return outcome;
      if (cancellation.reason instanceof ExecutionBudgetSpent) {
        return limitReply(422, graphql, budgetSpent, "EXECUTION_TIMEOUT_MS");
      }
      // The client is gone: nobody reads this answer.
      return { status: 499, headers: {}, body: null };
    } finally {
      clearTimeout(budget);
      cancellation.onCancel(undefined);
    }
  }

  const fixed = new Map<string, () => Reply>([
    ["/", () => htmlReply(parts.pages.root)],
    ["/docs", () => htmlReply(parts.pages.docs)],
    [
      "/openapi.json",
      () => ({ status: 200, headers: { "content-type": "application/json" }, body: parts.openApi() }),
    ],
    ["/healthz", () => jsonReply(200, { status: "ok" })],
    [
      "/readyz",
      () => {
        const phase = readiness.phase();
        return jsonReply(phase === "ready" ? 200 : 503, { status: phase });
      },
    ],
    ...projectDocRoutes(parts.projectDocs),
  ]);

  const urlTooLong = `the request target exceeds ${limits.maxUrlLength} characters (MAX_URL_LENGTH)`;

  function route(request: IncomingMessage, path: string, method: string): Routed {
    // Checked before any work on the path (routing, trimming, parsing the query string).
    if ((request.url ?? "/").length > limits.maxUrlLength) {
      return {
        route: UNMATCHED,
        reply: async () => {
          const reply = limitReply(414, path === "/graphql", urlTooLong, "MAX_URL_LENGTH");
          return { ...reply, headers: { ...reply.headers, connection: "close" } };
        },
      };
    }
    const page = fixed.get(path);
    if (page && (method === "GET" || method === "HEAD")) return { route: path, reply: async () => page() };
    if (path === "/metrics" && method === "GET") {
      return {
        route: path,
        reply: async () => ({
          status: 200,
          headers: { "content-type": metrics.registry.contentType },
          body: await metrics.registry.metrics(),
        }),
      };
    }
    if (path.startsWith("/assets/")) {
      return {
        route: "/assets/{file}",
        reply: async () =>
          (await assets.serve(path, chooseEncoding(request.headers["accept-encoding"]))) ??
          jsonReply(404, { detail: "Not Found" }),
      };
    }
    if (path === "/graphql") {
      return {
        route: path,
        reply: (cancellation) =>
          execute(request, cancellation, true, async (body, cancel) => {
            const answer = await yoga.fetch(
              `http://localhost${request.url ?? "/graphql"}`,
              {
                method,
                headers: forwardedHeaders(request),
                body: method === "GET" || method === "HEAD" ? undefined : new Uint8Array(body),
              },
              { signal: cancel.signal },
            );
            const headers: Record<string, string> = {};
            // Lower-cased: the fetch layer may keep a header's original case (e.g. Content-Length).
            answer.headers.forEach((value, name) => {
              headers[name.toLowerCase()] = value;
            });
            // A single result is already one string inside yoga: taken whole, it is written at once
            // (see send.ts). Incremental answers (event streams, multipart) keep streaming.
            if (answer.body === null || isIncremental(headers["content-type"])) {
              return {
                status: answer.status,
                headers,
                body: answer.body as AsyncIterable<Uint8Array> | null,
              };
            }
            return { status: answer.status, headers, body: new Uint8Array(await answer.arrayBuffer()) };
          }),
      };
    }
    const streamingPath = withoutTrailingSlashes(path);
    const streaming = parts.streamingRoutes?.get(streamingPath);
    if (streaming) {
      const url = request.url ?? path;
      return {
        route: streamingPath,
        reply: async (cancellation) =>
          method === streaming.method
            ? streaming.reply({ url, body: request, signal: cancellation.signal })
            : jsonReply(405, { detail: "Method Not Allowed" }),
      };
    }
    return {
      route: routeTemplate(path) ?? UNMATCHED,
      reply: (cancellation) =>
        execute(request, cancellation, false, async (body, cancel) =>
          restReply(
            await rest({
              method,
              url: request.url ?? "/",
              body: body.toString("utf8"),
              // Read only if the work needs it (see Cancellation).
              get signal() {
                return cancel.signal;
              },
            }),
          ),
        ),
    };
  }

  /** One request; every line logged while serving it carries its id. */
  function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const requestId = requestIdOf(request.headers["x-request-id"]);
    return withRequestId(requestId, () => serve(request, response, requestId));
  }

  async function serve(request: IncomingMessage, response: ServerResponse, requestId: string): Promise<void> {
    const started = process.hrtime.bigint();
    const method = request.method ?? "GET";
    const path = pathOf(request.url ?? "/");
    let template = UNMATCHED;
    // Cancelled when the client goes away before its answer is written: the work stops.
    const gone = new Cancellation();
    response.once("close", () => {
      if (!response.writableFinished) gone.cancel(new Error("the client disconnected"));
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      // A client that left before the end of the answer: 499, as proxies record it.
      const status = response.writableFinished ? response.statusCode : 499;
      metrics.observeRequest(KNOWN_METHODS.has(method) ? method : "other", template, status, seconds);
      // A 5xx is the service's fault: logged as an error (its cause, with the stack, just before).
      logger[status >= 500 ? "error" : "info"](
        { requestId, method, route: template, path, status, durationMs: Math.round(seconds * 1e4) / 10 },
        "request",
      );
    });
    const corsPath = isCorsPath(path);
    try {
      let reply: Reply;
      if (corsPath && isPreflight(method, request.headers)) {
        template =
          path === "/graphql" || path === "/openapi.json" ? path : (routeTemplate(path) ?? UNMATCHED);
        reply = preflight(parts.allowedOrigins, request.headers);
      } else {
        const routed = route(request, path, method);
        template = routed.route;
        const answer = await routed.reply(gone);
        if (gone.clientGone) return;
        const cors = corsPath ? corsHeaders(parts.allowedOrigins, request.headers) : {};
        reply = { ...answer, headers: { ...answer.headers, ...cors } };
      }
      await send(
        request,
        response,
        { ...reply, headers: { ...reply.headers, "x-request-id": requestId } },
        parts.compressionMinBytes,
      );
    } catch (error) {
      // A client that left during its upload: not the service's fault, logged once at info
      // with status 499 by the line written when the response closes.
      if (gone.clientGone || request.readableAborted) return;
      logger.error({ err: error, requestId, method, path }, "request failed");
      if (!response.headersSent) {
        response.writeHead(500, { "content-type": "text/plain; charset=utf-8", "x-request-id": requestId });
      }
      response.end("Internal Server Error");
    }
  }

  return handle;
}
