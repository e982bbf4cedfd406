import type { IncomingMessage, ServerResponse } from "node:http";
import type { YogaServerInstance } from "graphql-yoga";
import type { Config } from "../config.js";
import type { RestCall, RestResponse } from "../rest/index.js";
import { routeTemplate } from "../rest/index.js";
import type { Assets } from "./assets.js";
import { chooseEncoding } from "./compression.js";
import { corsHeaders, isCorsPath, isPreflight, preflight } from "./cors.js";
import { type Logger, requestIdOf, withRequestId } from "./logging.js";
import type { Metrics } from "./metrics.js";
import { type ProjectDocs, projectDocRoutes } from "./projectDocs.js";
import type { Readiness } from "./readiness.js";
import { htmlReply, jsonReply, type Reply } from "./reply.js";
import { send } from "./send.js";

/*
 * The HTTP front of the service: request id, CORS, routing to the pages, probes, metrics,
 * GraphQL (yoga) and the REST shim, compression, then one log line and the request metrics.
 */

export interface HttpParts {
  readonly config: Config;
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
}

interface Routed {
  /** The route template (bounded set: metrics labels and logs). */
  readonly route: string;
  readonly reply: () => Promise<Reply>;
}

/** Paths not matched by any route share one label (raw URLs would make labels unbounded). */
const UNMATCHED = "unmatched";

/** Methods kept as labels; any other (a client may send anything) is `other`. */
const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function restReply(answer: RestResponse): Reply {
  // The reference answers its 500s as plain text.
  if (answer.status >= 500) {
    const text = typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body);
    return { status: answer.status, headers: { "content-type": "text/plain; charset=utf-8" }, body: text };
  }
  return jsonReply(answer.status, answer.body);
}

function pathOf(url: string): string {
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}

export function createHttpHandler(parts: HttpParts) {
  const { config, logger, metrics, readiness, yoga, rest, assets } = parts;
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

  function route(request: IncomingMessage, path: string, method: string): Routed {
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
        reply: async () => {
          const response = await yoga.handleNodeRequest(request);
          return {
            status: response.status,
            headers: Object.fromEntries(response.headers),
            body: response.body as AsyncIterable<Uint8Array> | null,
          };
        },
      };
    }
    return {
      route: routeTemplate(path) ?? UNMATCHED,
      reply: async () =>
        restReply(await rest({ method, url: request.url ?? "/", body: await readBody(request) })),
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
    response.once("close", () => {
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
    const cors = isCorsPath(path) ? corsHeaders(config.ALLOWED_ORIGINS, request.headers) : {};
    try {
      let reply: Reply;
      if (isCorsPath(path) && isPreflight(method, request.headers)) {
        template =
          path === "/graphql" || path === "/openapi.json" ? path : (routeTemplate(path) ?? UNMATCHED);
        reply = preflight(config.ALLOWED_ORIGINS, request.headers);
      } else {
        const routed = route(request, path, method);
        template = routed.route;
        const answer = await routed.reply();
        reply = { ...answer, headers: { ...answer.headers, ...cors } };
      }
      await send(
        request,
        response,
        { ...reply, headers: { ...reply.headers, "x-request-id": requestId } },
        config.COMPRESSION_MIN_BYTES,
      );
    } catch (error) {
      logger.error({ err: error, requestId, method, path }, "request failed");
      if (!response.headersSent) {
        response.writeHead(500, { "content-type": "text/plain; charset=utf-8", "x-request-id": requestId });
      }
      response.end("Internal Server Error");
    }
  }

  return handle;
}
