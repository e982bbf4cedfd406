import type { IncomingMessage, ServerResponse } from "node:http";
import { corsHeaders, isCorsPath, isPreflight, preflight } from "./cors.js";
import { Cancellation } from "./limits/cancellation.js";
import { closeOnceBodyIsRead, disconnectIfNotRead, sendWhileBodyArrives } from "./limits/delivery.js";
import { createExecution } from "./limits/execution.js";
import { requestIdOf } from "./logging.js";
import type { HttpParts } from "./parts.js";
import { limitReply, type Reply } from "./reply.js";
import { CLIENT_GONE, type Hold } from "./route.js";
import { preflightTemplate, routeOf, routeTable, UNMATCHED } from "./routeTable.js";
import { send } from "./send.js";
import { createTurnBatch, type TurnBatch } from "./turnBatching.js";

/*
 * The HTTP front of the service: request id, CORS, the route table (routeTable.ts: pages, probes,
 * metrics, GraphQL, the REST shim, streaming routes), compression, then one log line and the
 * request metrics.
 */

/** Methods kept as labels; any other (a client may send anything) is `other`. */
const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

function pathOf(url: string): string {
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}

/** What the line logged when a request ends says of it. */
interface EndedRequest {
  readonly requestId: string;
  readonly method: string;
  readonly path: string;
  /** The route's label (its template), `unmatched` for none. */
  readonly template: string;
  /** When it was read (process.hrtime.bigint()). */
  readonly started: bigint;
  /** The limit its answer refused it by, when it was refused by one. */
  readonly limit: string | undefined;
  /** Whether its answer told the client when to retry (Retry-After): no room now, by design. */
  readonly retryAfter: boolean;
}

/** A limit a small JSON refusal names: `(MAX_…)` at the end of its text, or GraphQL's `extensions.limit`. */
const NAMED_LIMIT = /\(([A-Z][A-Z_]{2,40})\)|"limit":"([A-Z][A-Z_]{2,40})"/;
/** Refusals are short: a longer answer is not searched for a limit. */
const LONGEST_REFUSAL = 4096;

/**
 * The limit a refusal names: the reply's own (limitReply), or the one a route's small JSON
 * refusal names in its text (the batch and stream routes' 503, GraphQL's LIMIT_EXCEEDED).
 */
function limitOf(reply: Reply): string | undefined {
  if (reply.limit !== undefined || reply.status < 400) return reply.limit;
  const { body } = reply;
  if (!(typeof body === "string" || body instanceof Uint8Array) || body.length > LONGEST_REFUSAL)
    return undefined;
  const text =
    typeof body === "string" ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString();
  const named = NAMED_LIMIT.exec(text);
  return named?.[1] ?? named?.[2];
}

/**
 * The level of a request's line. A 5xx is the service's fault, an error (its cause, with the
 * stack, logged just before) — except a refusal by design: a 503 with Retry-After (no room now
 * in an admission budget, the batches or the streams: docs/limits.md) and `/readyz`'s 503 while
 * stopping are warnings; a 4xx is the client's, info.
 */
function levelOf(status: number, { template, retryAfter }: EndedRequest): "error" | "warn" | "info" {
  if (status < 500) return "info";
  if (status === 503 && (retryAfter || template === "/readyz")) return "warn";
  return "error";
}

/** A request's metrics and its one log line, once its response is closed. */
function recordEnd({ metrics, logger }: HttpParts, response: ServerResponse, ended: EndedRequest): void {
  const { requestId, method, path, template, limit } = ended;
  const seconds = Number(process.hrtime.bigint() - ended.started) / 1e9;
  // A client that left before the end of the answer: 499, as proxies record it.
  const status = response.writableFinished ? response.statusCode : CLIENT_GONE.status;
  metrics.observeRequest(KNOWN_METHODS.has(method) ? method : "other", template, status, seconds);
  const line = {
    requestId,
    method,
    route: template,
    path,
    status,
    durationMs: Math.round(seconds * 1e4) / 10,
  };
  logger[levelOf(status, ended)](limit === undefined ? line : { ...line, limit }, "request");
}

/** The answer written: at once, while the body still arrives, or streamed; then the body's end awaited. */
async function deliver(
  request: IncomingMessage,
  response: ServerResponse,
  sent: Reply,
  { parts, turnBatch }: { parts: HttpParts; turnBatch: TurnBatch },
): Promise<void> {
  const { bodyTimeoutMs } = parts.limits;
  const streamed = sent.body !== null && Symbol.asyncIterator in Object(sent.body);
  disconnectIfNotRead(response, streamed, bodyTimeoutMs);
  // (A 408 or 414 closes its connection on purpose: the body is not awaited.)
  const bodyArriving = !request.complete && sent.headers.connection !== "close";
  if (bodyArriving && (typeof sent.body === "string" || sent.body instanceof Uint8Array)) {
    await sendWhileBodyArrives(request, response, sent, bodyTimeoutMs);
  } else {
    await send(request, response, sent, parts.compressionMinBytes, turnBatch);
  }
  if (!request.complete) closeOnceBodyIsRead(request, bodyTimeoutMs);
}

/** The route of a request; a target past MAX_URL_LENGTH is refused before any work on it. */
function boundedRoute(
  table: ReturnType<typeof routeTable>,
  { maxUrlLength }: HttpParts["limits"],
  request: IncomingMessage,
  path: string,
  method: string,
) {
  if ((request.url ?? "/").length > maxUrlLength) {
    const urlTooLong = `the request target exceeds ${maxUrlLength} characters (MAX_URL_LENGTH)`;
    const reply = limitReply(414, path === "/graphql", urlTooLong, "MAX_URL_LENGTH");
    const refused: Reply = { ...reply, headers: { ...reply.headers, connection: "close" } };
    return { template: UNMATCHED, answer: async () => refused };
  }
  return routeOf(table, path, method);
}

/** A request being served: what its log line says (filled in as it is learnt), its cancellation and its budgets. */
interface Tracked {
  template: string;
  limit: string | undefined;
  retryAfter: boolean;
  /** The client went away before its answer was written. */
  gone: boolean;
  /** Cancelled when the client goes away (the work stops), or when the execution budget is spent. */
  readonly cancellation: Cancellation;
  /** Budgets held by this request (body bytes, fleet items): given back when it ends. */
  readonly hold: Hold;
}

/** A request tracked until its response closes: its budgets given back, its work cancelled if the client left, its end recorded. */
function tracked(
  parts: HttpParts,
  response: ServerResponse,
  { requestId, method, path }: Pick<EndedRequest, "requestId" | "method" | "path">,
): Tracked {
  const started = process.hrtime.bigint();
  const held: (() => void)[] = [];
  const state: Tracked = {
    template: UNMATCHED,
    limit: undefined,
    retryAfter: false,
    gone: false,
    cancellation: new Cancellation(),
    hold: (release) => {
      if (response.closed) release();
      else held.push(release);
    },
  };
  response.once("close", () => {
    for (const release of held.splice(0)) release();
    if (!response.writableFinished) {
      state.gone = true;
      state.cancellation.cancel(new Error("the client disconnected"));
    }
    const { template, limit, retryAfter } = state;
    recordEnd(parts, response, { requestId, method, path, template, started, limit, retryAfter });
  });
  return state;
}

/** The failure of a request answered 500 (unless its client left: not the service's fault, logged as 499 at its end). */
function answerFailure(
  { logger }: HttpParts,
  request: IncomingMessage,
  response: ServerResponse,
  state: Tracked,
  details: {
    readonly error: unknown;
    readonly requestId: string;
    readonly method: string;
    readonly path: string;
  },
): void {
  if (state.gone || request.readableAborted) return;
  const { error, requestId, method, path } = details;
  logger.error({ err: error, requestId, method, path }, "request failed");
  if (!response.headersSent) {
    response.writeHead(500, { "content-type": "text/plain; charset=utf-8", "x-request-id": requestId });
  }
  response.end("Internal Server Error");
}

export function createHttpHandler(parts: HttpParts) {
  const table = routeTable(parts, createExecution(parts.limits, parts.capacity, parts.metrics));
  const turnBatch = createTurnBatch();
  const delivery = { parts, turnBatch };

  /** The reply of a request: a CORS preflight's, or its route's answer with the CORS headers; null when its client left. */
  async function replyOf(
    request: IncomingMessage,
    path: string,
    method: string,
    requestId: string,
    state: Tracked,
  ) {
    const corsPath = isCorsPath(path);
    if (corsPath && isPreflight(method, request.headers)) {
      state.template = preflightTemplate(path);
      return preflight(parts.allowedOrigins, request.headers);
    }
    const routed = boundedRoute(table, parts.limits, request, path, method);
    state.template = routed.template;
    await turnBatch.afterReads();
    const { cancellation, hold } = state;
    const answer = await routed.answer({ request, path, method, requestId, cancellation, hold });
    if (state.gone) return null;
    const cors = corsPath ? corsHeaders(parts.allowedOrigins, request.headers) : {};
    return { ...answer, headers: { ...answer.headers, ...cors } };
  }

  /** One request; every line logged while serving it carries its id (given to what it calls). */
  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const requestId = requestIdOf(request.headers["x-request-id"]);
    const method = request.method ?? "GET";
    const path = pathOf(request.url ?? "/");
    const state = tracked(parts, response, { requestId, method, path });
    try {
      const reply = await replyOf(request, path, method, requestId, state);
      if (reply === null) return;
      state.limit = limitOf(reply);
      state.retryAfter = Object.keys(reply.headers).some((name) => name.toLowerCase() === "retry-after");
      const sent: Reply = { ...reply, headers: { ...reply.headers, "x-request-id": requestId } };
      await deliver(request, response, sent, delivery);
    } catch (error) {
      answerFailure(parts, request, response, state, { error, requestId, method, path });
    }
  }

  return handle;
}
