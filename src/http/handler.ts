import type { IncomingMessage, ServerResponse } from "node:http";
import type { YogaServerInstance } from "graphql-yoga";
import type { Capacity, Limits } from "../config.js";
import type { Logger } from "../log.js";
import type { RestCall, RestResponse } from "../rest/index.js";
import { routeTemplate } from "../rest/index.js";
import { AdmissionRefused, createAdmission, type Lease } from "./admission.js";
import type { Assets } from "./assets.js";
import { type BodyOutcome, readBody } from "./body.js";
import { Cancellation } from "./cancellation.js";
import { chooseEncoding } from "./compression.js";
import type { AllowedOrigins } from "./cors.js";
import { corsHeaders, isCorsPath, isPreflight, preflight } from "./cors.js";
import { requestIdOf } from "./logging.js";
import type { Metrics } from "./metrics.js";
import { type ProjectDocs, projectDocRoutes } from "./projectDocs.js";
import type { Readiness } from "./readiness.js";
import { htmlReply, jsonReply, type Reply } from "./reply.js";
import { send } from "./send.js";
import { afterTheTurnsReads, createTurnWrites } from "./turnBatching.js";

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
  /** The work taken at once, all requests together (admission budgets). */
  readonly capacity: Capacity;
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
    /** The request's id, for the lines logged while serving it. */
    readonly requestId: string;
  }) => Reply;
}

/** What a request holds of the process's budgets, given back once its answer is sent. */
type Hold = (release: () => void) => void;

/**
 * GraphQL bodies from this size on may carry a large fleet: they wait for room in
 * MAX_CONCURRENT_FLEET_ITEMS before they are parsed, so that the requests waiting hold their
 * bytes, not their parsed variables (tens of megabytes each for 10,000 items).
 */
const LARGE_GRAPHQL_BODY_BYTES = 64 * 1024;
/** Bytes of a fleet item in a body, about: a large body's items are estimated from its size. */
const BODY_BYTES_PER_FLEET_ITEM = 256;

interface Routed {
  /** The route template (bounded set: metrics labels and logs). */
  readonly route: string;
  readonly reply: (cancellation: Cancellation, hold: Hold) => Promise<Reply>;
}

/** Why a request was cancelled: its execution budget was spent. */
class ExecutionBudgetSpent extends Error {}

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
function limitReply(
  status: number,
  graphql: boolean,
  message: string,
  limit: string,
  headers: Record<string, string> = {},
): Reply {
  return graphql
    ? jsonReply(status, { errors: [{ message, extensions: { code: "LIMIT_EXCEEDED", limit } }] }, headers)
    : jsonReply(status, { detail: message }, headers);
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
  // A body already serialized (a kept GET answer) is sent as it is.
  if (answer.serialized !== undefined) {
    return {
      status: answer.status,
      headers: { "content-type": "application/json" },
      body: answer.serialized,
    };
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
  const { logger, metrics, readiness, yoga, rest, assets, limits, capacity } = parts;
  const bodyTooLarge = `the request body exceeds ${limits.maxBodyBytes} bytes (MAX_BODY_BYTES)`;
  const bodyTooSlow = `the request body was not received within ${limits.bodyTimeoutMs} ms (BODY_TIMEOUT_MS)`;
  /** Bytes of bodies held at once (uploading, or read and in use by their request). */
  const bodies = createAdmission({
    budget: capacity.maxBodyBytesInFlight,
    queueLength: 0,
    limit: "MAX_BODY_BYTES_IN_FLIGHT",
    unit: "bytes of request bodies",
  });
  /** Fleet items evaluated at once; GraphQL fleets ask before their first item (scheduling.ts). */
  const fleets = createAdmission({
    budget: capacity.maxConcurrentFleetItems,
    queueLength: capacity.admissionQueueLength,
    limit: "MAX_CONCURRENT_FLEET_ITEMS",
    unit: "fleet items",
  });
  metrics.observeAdmission("MAX_BODY_BYTES_IN_FLIGHT", bodies);
  metrics.observeAdmission("MAX_CONCURRENT_FLEET_ITEMS", fleets);
  const budgetSpent = `the request did not complete within its execution budget of ${limits.executionTimeoutMs} ms (EXECUTION_TIMEOUT_MS)`;

  /**
   * GraphQL or the shim: the body read within MAX_BODY_BYTES (413 past it, the rest discarded),
   * BODY_TIMEOUT_MS (408, the connection closed) and the room left in MAX_BODY_BYTES_IN_FLIGHT
   * (503), then the work, cancelled when the client goes or past the execution budget (422): one
   * `cancellation` for both. The budget counts execution, not the client's upload.
   */
  async function execute(
    request: IncomingMessage,
    cancellation: Cancellation,
    hold: Hold,
    graphql: boolean,
    work: (body: Buffer, lease: Lease | null, hold: Hold) => Promise<Reply>,
  ): Promise<Reply> {
    const body: BodyOutcome = await readBody(request, {
      maxBytes: limits.maxBodyBytes,
      timeoutMs: limits.bodyTimeoutMs,
      reserve: (bytes) => {
        const lease = bodies.tryAcquire(bytes);
        if (lease) hold(() => lease.release());
        return lease !== null;
      },
    });
    if (body === "too large") return limitReply(413, graphql, bodyTooLarge, "MAX_BODY_BYTES");
    if (body === "timed out")
      return limitReply(408, graphql, bodyTooSlow, "BODY_TIMEOUT_MS", { connection: "close" });
    if (body === "no room") {
      const refusal = bodies.refusal(Number(request.headers["content-length"]) || 0);
      return limitReply(503, graphql, refusal.message, refusal.limit, {
        "retry-after": String(refusal.retryAfterSeconds),
      });
    }
    // The work's budgets are held until its answer is sent and the work has stopped: a cancelled
    // fleet still finishes its current chunk, and its memory is not free before.
    let running: Promise<Reply> = Promise.resolve({ status: 499, headers: {}, body: null });
    const holdWhileWorking: Hold = (release) =>
      hold(() => {
        void running.then(release, release);
      });
    const admitted = graphql ? await admitLargeBody(body, cancellation, holdWhileWorking) : null;
    if (admitted !== null && !("release" in admitted)) return admitted;
    if (cancellation.cancelled) return { status: 499, headers: {}, body: null };
    const budget = setTimeout(
      () => cancellation.cancel(new ExecutionBudgetSpent(budgetSpent)),
      limits.executionTimeoutMs,
    );
    try {
      running = work(body, admitted, holdWhileWorking);
      // The answer, or the cancellation's if it comes first: the work itself stops at its next
      // chunk boundary once cancelled (see scheduling.ts).
      const outcome = await new Promise<Reply | "cancelled">((resolve, reject) => {
        const stopWaiting = cancellation.onCancel(() => resolve("cancelled"));
        running.then(
          (reply) => {
            stopWaiting();
            resolve(reply);
          },
          (error) => {
            stopWaiting();
            reject(error);
          },
        );
      });
      if (outcome !== "cancelled") return outcome;
      if (cancellation.reason instanceof ExecutionBudgetSpent) {
        return limitReply(422, graphql, budgetSpent, "EXECUTION_TIMEOUT_MS");
      }
      // The client is gone: nobody reads this answer.
      return { status: 499, headers: {}, body: null };
    } finally {
      clearTimeout(budget);
    }
  }

  /**
   * A large GraphQL body waits for room for the fleet items it may carry (estimated from its
   * size) before it is parsed: at most EXECUTION_TIMEOUT_MS, then 503 like a full queue. The
   * lease is resized to the exact count once the fleets are known (`admitFleetItems`).
   */
  async function admitLargeBody(
    body: Buffer,
    cancellation: Cancellation,
    hold: Hold,
  ): Promise<Lease | Reply | null> {
    if (body.length < LARGE_GRAPHQL_BODY_BYTES) return null;
    const estimate = Math.ceil(body.length / BODY_BYTES_PER_FLEET_ITEM);
    const signal = cancellation.signal;
    const waited = AbortSignal.any([signal, AbortSignal.timeout(limits.executionTimeoutMs)]);
    try {
      const lease = await fleets.acquire(estimate, waited);
      hold(() => lease.release());
      return lease;
    } catch (error) {
      if (signal.aborted) return { status: 499, headers: {}, body: null };
      const refusal =
        error instanceof AdmissionRefused
          ? error
          : new AdmissionRefused(
              `the service had no room for this request's fleet items within ${limits.executionTimeoutMs} ms (MAX_CONCURRENT_FLEET_ITEMS, EXECUTION_TIMEOUT_MS); retry later`,
              "MAX_CONCURRENT_FLEET_ITEMS",
              1,
            );
      return limitReply(503, true, refusal.message, refusal.limit, {
        "retry-after": String(refusal.retryAfterSeconds),
      });
    }
  }

  /**
   * Room for a GraphQL request's fleet items, exactly counted: the lease of a large body is
   * resized when it can be; otherwise (a small body, or more items than its size suggested) the
   * request waits in the queue, holding nothing.
   */
  async function admitFleetItems(items: number, held: Lease | null, signal: AbortSignal, hold: Hold) {
    if (held?.resize(items)) return;
    held?.release();
    const lease = await fleets.acquire(items, signal);
    hold(() => lease.release());
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

  const turnWrites = createTurnWrites();

  const urlTooLong = `the request target exceeds ${limits.maxUrlLength} characters (MAX_URL_LENGTH)`;

  function route(request: IncomingMessage, path: string, method: string, requestId: string): Routed {
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
        reply: (cancellation, hold) =>
          execute(request, cancellation, hold, true, async (body, lease, holdWhileWorking) => {
            const cancel = cancellation.signal;
            const answer = await yoga.fetch(
              `http://localhost${request.url ?? "/graphql"}`,
              {
                method,
                headers: forwardedHeaders(request),
                body: method === "GET" || method === "HEAD" ? undefined : new Uint8Array(body),
              },
              {
                signal: cancel,
                admitFleetItems: (items: number) => admitFleetItems(items, lease, cancel, holdWhileWorking),
                requestId,
              },
            );
            const headers: Record<string, string> = {};
            // Lower-cased: the fetch layer may keep a header's original case (e.g. Content-Length).
            answer.headers.forEach((value, name) => {
              headers[name.toLowerCase()] = value;
            });
            // A single result is already one string inside yoga: taken whole, it is written at once
            // (see send.ts). Incremental answers (event streams, multipart) and the answers of large
            // fleets (serialised as they are sent, without a length: streamedAnswer.ts) keep streaming.
            if (
              answer.body === null ||
              isIncremental(headers["content-type"]) ||
              headers["content-length"] === undefined
            ) {
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
            ? streaming.reply({ url, body: request, signal: cancellation.signal, requestId })
            : jsonReply(405, { detail: "Method Not Allowed" }),
      };
    }
    return {
      route: routeTemplate(path) ?? UNMATCHED,
      reply: (cancellation, hold) =>
        execute(request, cancellation, hold, false, async (body) =>
          restReply(
            await rest({
              method,
              url: request.url ?? "/",
              body: body.toString("utf8"),
              cancellation,
              requestId,
            }),
          ),
        ),
    };
  }

  /**
   * A client that reads nothing of its answer for BODY_TIMEOUT_MS is disconnected: the answer
   * (a streamed fleet's result, a batch) and the budgets it holds are given back, instead of being
   * held as long as the client keeps its connection open. A silent connection ends at the socket's
   * timeout; an answer whose writes wait (the client's buffers full) ends once it has waited
   * BODY_TIMEOUT_MS, checked every quarter of it, even when the client keeps sending its body
   * (its arriving bytes keep the socket from ever being idle, so the socket's timeout alone would
   * never fire for a batch's client).
   */
  function disconnectIfNotRead(response: ServerResponse, streamed: boolean): void {
    const socket = response.socket;
    if (!socket) return;
    const stalled = () => {
      if (!response.writableFinished) response.destroy();
    };
    socket.setTimeout(limits.bodyTimeoutMs, stalled);
    // An answer in memory is written at once: only streamed ones wait on their reader.
    const check = streamed ? waitingWrites(response, stalled) : undefined;
    // One listener (a streamed answer's pipeline adds several: node warns past ten).
    response.once("close", () => {
      socket.removeListener("timeout", stalled);
      clearInterval(check);
    });
  }

  /** Calls `stalled` once the answer's writes have waited BODY_TIMEOUT_MS (checked every quarter of it). */
  function waitingWrites(response: ServerResponse, stalled: () => void): NodeJS.Timeout {
    let waitingSince: number | null = null;
    const check = setInterval(
      () => {
        if (!response.writableNeedDrain) {
          waitingSince = null;
          return;
        }
        const now = performance.now();
        waitingSince ??= now;
        if (now - waitingSince >= limits.bodyTimeoutMs) stalled();
      },
      Math.max(1, Math.floor(limits.bodyTimeoutMs / 4)),
    );
    check.unref();
    return check;
  }

  /**
   * An answer sent while the request's body is still arriving (a refusal: 413, 503): written at
   * once, but ended only once the rest of the body is read (and dropped, within the bounds of
   * readBody). Ending it sooner lets node close the connection with the body unread — always so
   * when the client sent `Connection: close` —, and the kernel then resets it, dropping the
   * answer before a client that reads only once it has sent (Python's urllib) reads it.
   */
  async function sendWhileBodyArrives(request: IncomingMessage, response: ServerResponse, reply: Reply) {
    const body = reply.body as string | Uint8Array;
    response.writeHead(reply.status, {
      ...reply.headers,
      "content-length": String(typeof body === "string" ? Buffer.byteLength(body) : body.byteLength),
    });
    response.write(body);
    if (!request.complete && !request.destroyed) {
      request.resume();
      await new Promise<void>((resolve) => {
        request.once("end", resolve);
        request.once("close", resolve);
      });
    }
    response.end();
  }

  /**
   * A streamed answer (a batch interrupted) ended before its body: node reads and drops the rest;
   * a client still sending after BODY_TIMEOUT_MS is disconnected.
   */
  function closeOnceBodyIsRead(request: IncomingMessage): void {
    const timer = setTimeout(() => request.socket?.destroy(), limits.bodyTimeoutMs);
    timer.unref();
    const done = () => clearTimeout(timer);
    request.once("end", done);
    request.once("close", done);
  }

  /** One request; every line logged while serving it carries its id (given to what it calls). */
  function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    return serve(request, response, requestIdOf(request.headers["x-request-id"]));
  }

  async function serve(request: IncomingMessage, response: ServerResponse, requestId: string): Promise<void> {
    const started = process.hrtime.bigint();
    const method = request.method ?? "GET";
    const path = pathOf(request.url ?? "/");
    let template = UNMATCHED;
    // Cancelled when the client goes away before its answer is written (the work stops), or
    // when the execution budget is spent.
    const cancellation = new Cancellation();
    let gone = false;
    /** Budgets held by this request (body bytes, fleet items): given back when it ends. */
    const held: (() => void)[] = [];
    const hold: Hold = (release) => {
      if (response.closed) release();
      else held.push(release);
    };
    response.once("close", () => {
      for (const release of held.splice(0)) release();
      if (!response.writableFinished) {
        gone = true;
        cancellation.cancel(new Error("the client disconnected"));
      }
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
        const routed = route(request, path, method, requestId);
        template = routed.route;
        await afterTheTurnsReads();
        const answer = await routed.reply(cancellation, hold);
        if (gone) return;
        const cors = corsPath ? corsHeaders(parts.allowedOrigins, request.headers) : {};
        reply = { ...answer, headers: { ...answer.headers, ...cors } };
      }
      disconnectIfNotRead(response, reply.body !== null && Symbol.asyncIterator in Object(reply.body));
      const sent: Reply = { ...reply, headers: { ...reply.headers, "x-request-id": requestId } };
      // (A 408 or 414 closes its connection on purpose: the body is not awaited.)
      const bodyArriving = !request.complete && sent.headers.connection !== "close";
      if (bodyArriving && (typeof sent.body === "string" || sent.body instanceof Uint8Array)) {
        await sendWhileBodyArrives(request, response, sent);
      } else {
        await send(request, response, sent, parts.compressionMinBytes, turnWrites);
      }
      if (!request.complete) closeOnceBodyIsRead(request);
    } catch (error) {
      // A client that left during its upload: not the service's fault, logged once at info
      // with status 499 by the line written when the response closes.
      if (gone || request.readableAborted) return;
      logger.error({ err: error, requestId, method, path }, "request failed");
      if (!response.headersSent) {
        response.writeHead(500, { "content-type": "text/plain; charset=utf-8", "x-request-id": requestId });
      }
      response.end("Internal Server Error");
    }
  }

  return handle;
}
