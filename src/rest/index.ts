import type { GraphQLSchema } from "graphql";
import type { Limits } from "../config.js";
import { type EditionDescription, UnknownEditionError } from "../editions/index.js";
import type { Service } from "../service/context.js";
import { BodyValidationError } from "./body.js";
import { BodyBoundsError, checkBodyLists, checkBodyNesting } from "./bodyBounds.js";
import { CLOUD_PROVIDER_PATH, cloudProviderRoute, isCloudProviderPath } from "./cloud.js";
import {
  createRunner,
  type ErrorReporter,
  RefusedValue,
  RestError,
  type RestResponse,
  type Route,
} from "./common.js";
import { sentValue } from "./errorDialect.js";
import { QueryValidationError } from "./query.js";
import { ROUTES } from "./routes.js";
import { type RequestValidation, validationDetail } from "./validation.js";

export type { RestResponse } from "./common.js";

/** A malformed JSON body (FastAPI answers 422). */
export class MalformedBodyError extends Error {}

export interface RestCall {
  readonly method: string;
  /** Path and query string, e.g. `/v1/server/?verbose=false`. */
  readonly url: string;
  /** Raw body text ("" when absent). */
  readonly body: string;
  /** Aborted when the request is cancelled (client gone, execution budget spent, shutdown). */
  readonly signal?: AbortSignal;
  /**
   * The same, as an object whose `signal` is read only if the execution asks for it (fleets,
   * turns; a REST answer does not): the HTTP front's cancellation, which makes its signal then.
   */
  readonly cancellation?: { readonly signal: AbortSignal };
  /** The id of the HTTP request this call serves, for the lines its unexpected errors log. */
  readonly requestId?: string;
}

/** The JSON body, its nesting bounded before it is parsed and its lists before their items. */
function parseBody(text: string, limits: Limits, rules: RequestValidation): unknown {
  // A POST without a body is treated as `{}` (the reference fails on it).
  if (text.trim() === "") return {};
  checkBodyNesting(text, limits, rules);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new MalformedBodyError("body is not valid JSON");
  }
  checkBodyLists(body, limits, rules);
  return body;
}

const ROUTES_BY_PATH = new Map<string, Route>(ROUTES.map((route) => [route.path, route]));

/**
 * A v1 path without its trailing slashes (`/v1/server/` is `/v1/server`). Scanned from the end:
 * the pattern `/\/+$/` retried from every slash of a run, quadratic in a path of many slashes.
 */
function routePath(pathname: string): string {
  let end = pathname.length;
  while (end > 1 && pathname.charCodeAt(end - 1) === 0x2f) end--;
  return end === pathname.length ? pathname : pathname.slice(0, end);
}

/** The route template a path is served by (for metrics and logs), or null when none serves it. */
export function routeTemplate(pathname: string): string | null {
  const path = routePath(pathname);
  if (ROUTES_BY_PATH.has(path)) return path;
  return isCloudProviderPath(path) ? CLOUD_PROVIDER_PATH : null;
}

/** The REST shim: maps each v1 path to its GraphQL operation and reshapes the answer. */
export function createRestHandler(schema: GraphQLSchema, service: Service, reportError: ErrorReporter) {
  const runner = createRunner(schema, service, reportError);

  return async (call: RestCall): Promise<RestResponse> => {
    // Errors found before the request's edition is known are worded like the default edition's.
    let validation = servedEdition(service, service.defaultEdition).requestValidation;
    // What was sent, once read: a refusal echoes the refused value from it.
    let sent: SentRequest | null = null;
    try {
      const url = parseTarget(call.url);
      const path = routePath(url.pathname);
      const route = ROUTES_BY_PATH.get(path) ?? cloudProviderRoute(path);
      if (!route) return { status: 404, body: { detail: "Not Found" } };
      const handler = route.methods[call.method];
      if (!handler) return { status: 405, body: { detail: "Method Not Allowed" } };
      const params = singleValued(url.searchParams);
      const edition = requestedEdition(params, service);
      validation = edition.requestValidation;
      if (route.requires && !route.requires.offeredBy(edition)) {
        return { status: 404, body: { detail: "Not Found" } };
      }
      const body = call.method === "POST" ? parseBody(call.body, service.limits, validation) : {};
      sent = { params, body };
      const key = call.method === "GET" ? answerKey(edition, path, params) : null;
      const kept = key === null ? undefined : service.answers.get(key);
      if (kept !== undefined) return keptAnswer(kept);
      const answer = await handler(
        { method: call.method, params, body, validation },
        runner(edition, call.cancellation ?? call, call.requestId),
      );
      return key === null || answer.status !== 200 ? answer : keep(service, key, answer);
    } catch (error) {
      return errorResponse(error, validation, sent, reportError, call.requestId);
    }
  };
}

/**
 * A GET answer is a pure function of its edition, its route's path and its query parameters
 * (handlers read parameters by name, only `criteria` as a list, whose order the stable sort
 * keeps), not of the request's headers or body: its key names the three, so spellings of one
 * request (trailing slashes, parameter order, a repeated single-valued parameter) share it, and
 * each edition (built-in or custom, each its own id) has its own answers.
 */
function answerKey(edition: EditionDescription, path: string, params: URLSearchParams): string {
  const sorted = new URLSearchParams(params);
  sorted.sort();
  return `${edition.id} ${path}?${sorted}`;
}

/** A 200 answer to a GET, serialized once and kept for the next same request. */
function keep(service: Service, key: string, answer: RestResponse): RestResponse {
  const serialized = Buffer.from(JSON.stringify(answer.body));
  service.answers.set(key, serialized);
  return { status: answer.status, body: answer.body, serialized };
}

const utf8 = new TextDecoder();

/** A kept answer: sent as its bytes; its body parsed only if read (the batch route's lines). */
function keptAnswer(serialized: Uint8Array): RestResponse {
  let body: { readonly value: unknown } | undefined;
  return {
    status: 200,
    serialized,
    get body() {
      body ??= { value: JSON.parse(utf8.decode(serialized)) };
      return body.value;
    },
  };
}

/**
 * The edition a request's query string asks for (null: the service's default), or the answer
 * refusing it — the same 422 as every route's. For routes outside the route table (the batch).
 */
export function queryEdition(
  params: URLSearchParams,
  service: Service,
): { readonly edition: string | null } | { readonly refused: RestResponse } {
  try {
    return { edition: params.has("edition") ? requestedEdition(params, service).id : null };
  } catch (error) {
    const validation = servedEdition(service, service.defaultEdition).requestValidation;
    return { refused: errorResponse(error, validation, null, () => {}, undefined) };
  }
}

/** The parts of a request target the shim reads. */
interface Target {
  readonly pathname: string;
  readonly searchParams: URLSearchParams;
}

/** A request target that is not a path (e.g. `//` or `//host:port`) is answered 400. */
export function parseTarget(target: string): Target {
  if (!target.startsWith("/") || target.startsWith("//")) throw new RestError(400, { detail: "Bad Request" });
  const query = plainQueryStart(target);
  if (query !== -1) {
    return {
      pathname: target.slice(0, query),
      searchParams: new URLSearchParams(query < target.length ? target.slice(query + 1) : ""),
    };
  }
  try {
    return new URL(target, "http://localhost");
  } catch {
    throw new RestError(400, { detail: "Bad Request" });
  }
}

const isAlphanumeric = (c: number) =>
  (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
/** `_ - /` (no dot: no dot segments to resolve, no backslash, no percent-encoding). */
const isPlainPathCharacter = (c: number) => isAlphanumeric(c) || c === 0x5f || c === 0x2d || c === 0x2f;
/** `_ - . ~ % = & + , :`: characters the URL parser leaves as they are in a query. */
const isPlainQueryCharacter = (c: number) =>
  isAlphanumeric(c) ||
  c === 0x5f ||
  c === 0x2d ||
  c === 0x2e ||
  c === 0x7e ||
  c === 0x25 ||
  c === 0x3d ||
  c === 0x26 ||
  c === 0x2b ||
  c === 0x2c ||
  c === 0x3a;

/**
 * Where the query of a plain target starts (the index of its `?`, or its length when it has
 * none), or -1. A plain target is one the URL parser would leave as it is — its path and its
 * query made of the characters above, no fragment —, so its path and query are read without it
 * (`new URL` was 4 % of the CPU of a kept GET answer); any other target goes through the parser.
 */
function plainQueryStart(target: string): number {
  let i = 0;
  while (i < target.length && isPlainPathCharacter(target.charCodeAt(i))) i++;
  if (i === target.length) return i;
  if (target.charCodeAt(i) !== 0x3f) return -1;
  for (let j = i + 1; j < target.length; j++) if (!isPlainQueryCharacter(target.charCodeAt(j))) return -1;
  return i;
}

/** A served edition by id (built-in or custom). @throws UnknownEditionError naming the served ones. */
function servedEdition(service: Service, id: string): EditionDescription {
  const served = service.editions.get(id);
  if (!served) throw new UnknownEditionError(id, [...service.editions.keys()]);
  return served.edition;
}

/** The `edition` query parameter of every route (422 naming the allowed values when unknown). */
function requestedEdition(params: URLSearchParams, service: Service): EditionDescription {
  const requested = params.get("edition");
  try {
    return servedEdition(service, requested ?? service.defaultEdition);
  } catch (error) {
    if (error instanceof UnknownEditionError) {
      const values = [...service.editions.keys()];
      throw new QueryValidationError("edition", { kind: "choice", params: { values } }, requested);
    }
    throw error;
  }
}

/**
 * FastAPI reads a repeated single-valued parameter (`?archetype=a&archetype=b`) as its last value;
 * only `criteria` is a list.
 */
function singleValued(params: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams();
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    if (key === "criteria") for (const value of values) out.append(key, value);
    else out.set(key, values[values.length - 1]);
  }
  return out;
}

interface SentRequest {
  readonly params: URLSearchParams;
  readonly body: unknown;
}

/** The value a refusal located by the GraphQL validation refuses, as the client sent it. */
function refusedInput(refusal: RefusedValue, sent: SentRequest | null): unknown {
  const [where, ...path] = refusal.loc;
  if (!sent) return null;
  if (where === "query") return sent.params.get(String(path[0]));
  return sentValue(sent.body, path) ?? null;
}

function errorResponse(
  error: unknown,
  validation: RequestValidation,
  sent: SentRequest | null,
  reportError: ErrorReporter,
  requestId: string | undefined,
): RestResponse {
  if (error instanceof RestError) return { status: error.status, body: error.body };
  if (error instanceof RefusedValue) {
    const input = refusedInput(error, sent);
    // A list's length, for the dialects that state it.
    const issue = Array.isArray(input)
      ? { ...error.issue, params: { ...error.issue.params, actual: input.length } }
      : error.issue;
    const detail = validationDetail(validation, error.loc, issue, input);
    return { status: 422, body: { detail: [detail] } };
  }
  if (error instanceof BodyValidationError || error instanceof BodyBoundsError)
    return { status: 422, body: { detail: error.detail } };
  if (error instanceof QueryValidationError) {
    const detail = validationDetail(validation, ["query", error.parameter], error.issue, error.input);
    return { status: 422, body: { detail: [detail] } };
  }
  if (error instanceof MalformedBodyError) {
    // FastAPI echoes `{}` as the input of a body that is not JSON.
    const issue = { kind: "json", params: { message: error.message } } as const;
    return { status: 422, body: { detail: [validationDetail(validation, ["body"], issue, {})] } };
  }
  reportError("REST: unexpected error", error, requestId);
  return { status: 500, body: "Internal Server Error" };
}
