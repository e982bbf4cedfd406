import type { IncomingHttpHeaders } from "node:http";

/*
 * CORS as boaviztapi configures it (Starlette's CORSMiddleware: any origin, any header, preflights
 * answered 200 "OK" and cached 600 s), with one difference: `*` never comes with credentials
 * (Starlette reflects the origin with credentials when a cookie is sent; an API without sessions
 * has no use for that). With an explicit list, an allowed origin is echoed with credentials.
 */

export type AllowedOrigins = "*" | readonly string[];

/** Methods the service answers on the CORS paths. */
const ALLOWED_METHODS: readonly string[] = ["GET", "POST", "OPTIONS"];
const ALLOWED_METHODS_HEADER = ALLOWED_METHODS.join(", ");
const PREFLIGHT_MAX_AGE_SECONDS = "600";

/** Paths under the CORS policy: the v1 shim, GraphQL and the OpenAPI description. */
export function isCorsPath(path: string): boolean {
  return path === "/graphql" || path === "/openapi.json" || path === "/v1" || path.startsWith("/v1/");
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function isAllowed(policy: AllowedOrigins, origin: string): boolean {
  return policy === "*" || policy.includes(origin);
}

/** Headers of an actual (non-preflight) cross-origin answer; none for a same-origin request. */
export function corsHeaders(policy: AllowedOrigins, request: IncomingHttpHeaders): Record<string, string> {
  const origin = header(request, "origin");
  if (origin === undefined) return policy === "*" ? {} : { vary: "Origin" };
  if (policy === "*") return { "access-control-allow-origin": "*" };
  if (!isAllowed(policy, origin)) return { vary: "Origin" };
  return {
    "access-control-allow-origin": origin,
    "access-control-allow-credentials": "true",
    vary: "Origin",
  };
}

/** A CORS preflight: an OPTIONS request naming the method it will use. */
export function isPreflight(method: string, request: IncomingHttpHeaders): boolean {
  return (
    method === "OPTIONS" &&
    header(request, "origin") !== undefined &&
    header(request, "access-control-request-method") !== undefined
  );
}

interface PreflightAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** The answer to a preflight: 200 with the allowed methods and headers, or 400 for another origin. */
export function preflight(policy: AllowedOrigins, request: IncomingHttpHeaders): PreflightAnswer {
  const origin = header(request, "origin") ?? "";
  const base: Record<string, string> = {
    "access-control-allow-methods": ALLOWED_METHODS_HEADER,
    "access-control-max-age": PREFLIGHT_MAX_AGE_SECONDS,
    "content-type": "text/plain; charset=utf-8",
  };
  const requestedHeaders = header(request, "access-control-request-headers");
  // Any request header is allowed (allow_headers=["*"] in boaviztapi): the requested ones are echoed.
  if (requestedHeaders) base["access-control-allow-headers"] = requestedHeaders;
  const method = (header(request, "access-control-request-method") ?? "").toUpperCase();
  if (!isAllowed(policy, origin) || !ALLOWED_METHODS.includes(method)) {
    return { status: 400, headers: { ...base, vary: "Origin" }, body: "Disallowed CORS request" };
  }
  return { status: 200, headers: { ...base, ...corsHeaders(policy, request) }, body: "OK" };
}
