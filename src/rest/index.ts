import type { GraphQLSchema } from "graphql";
import type { EditionService, Service } from "../service/open.js";
import type { HeapAdmission } from "../support/steppedJson.js";
import { restEditions } from "./editionChoice.js";
import { errorResponse, type SentRequest } from "./errorAnswer.js";
import type { ErrorReporter } from "./graphqlErrors.js";
import { answerKey, keep, keptAnswer } from "./keptAnswers.js";
import type { RestResponse, Route } from "./route.js";
import { CLOUD_PROVIDER_PATH, cloudProviderRoute, isCloudProviderPath } from "./routes/cloud.js";
import { ROUTES } from "./routes/index.js";
import { createRunner } from "./runner.js";
import { parseTarget, routePath, singleValued } from "./target.js";
import { checkBodyLists, parseBody } from "./validation/bodyBounds.js";

export type { RestResponse } from "./route.js";

/*
 * The REST shim: each v1 path is a route of `routes/index.ts` running GraphQL operations; here a call
 * is read (target, edition, body), answered by its route (or from the kept GET answers), and
 * whatever it threw is worded as the reference words it.
 */

export interface RestCall {
  readonly method: string;
  /** Path and query string, e.g. `/v1/server/?verbose=false`. */
  readonly url: string;
  /** Raw body text ("" when absent or given parsed). */
  readonly body: string;
  /** The body already parsed, its nesting bounded (a batch line's: src/batch/line.ts, readLine). */
  readonly parsedBody?: unknown;
  /** Aborted when the request is cancelled (client gone, execution budget spent, shutdown). */
  readonly signal?: AbortSignal;
  /**
   * The same, as an object whose `signal` is read only if the execution asks for it (fleets,
   * turns; a REST answer does not): the HTTP front's cancellation, which makes its signal then.
   */
  readonly cancellation?: { readonly signal: AbortSignal };
  /** The id of the HTTP request this call serves, for the lines its unexpected errors log. */
  readonly requestId?: string;
  /**
   * Waits for room for this many fleet items in the process's budget (MAX_CONCURRENT_FLEET_ITEMS):
   * a coefficient table answered whole asks for the items of an answer of its size.
   */
  readonly admitFleetItems?: (items: number) => Promise<void>;
  /**
   * Waits for room for the heap its body's text takes parsed, estimated before it is built
   * (MAX_PARSED_BYTES_IN_FLIGHT); a body given parsed was admitted by whoever parsed it.
   */
  readonly admitBodyHeap?: HeapAdmission;
  /**
   * The edition of a call whose query names none, as its transport resolved it at its edge (a
   * batch's `edition`, src/rest/routes/batch.ts); default: the service's default edition.
   */
  readonly edition?: EditionService;
}

const ROUTES_BY_PATH = new Map<string, Route>(ROUTES.map((route) => [route.path, route]));

/** The route template a path is served by (for metrics and logs), or null when none serves it. */
export function routeTemplate(pathname: string): string | null {
  const path = routePath(pathname);
  if (ROUTES_BY_PATH.has(path)) return path;
  return isCloudProviderPath(path) ? CLOUD_PROVIDER_PATH : null;
}

/**
 * A POST's body: given parsed (a batch line's), its lists checked; else read from its text, in
 * steps sharing the service's turns, its heap admitted.
 */
function postedBody(call: RestCall, { limits, turns }: Service): unknown {
  if (call.parsedBody === undefined)
    return parseBody(call.body, limits, { admit: call.admitBodyHeap, pause: () => turns.nextSlice() });
  checkBodyLists(call.parsedBody, limits);
  return call.parsedBody;
}

/** The REST shim: maps each v1 path to its GraphQL operation and reshapes the answer. */
export function createRestHandler(schema: GraphQLSchema, service: Service, reportError: ErrorReporter) {
  const { answers } = service;
  const editions = restEditions(service);
  const runner = createRunner(schema, service, reportError);

  return async (call: RestCall): Promise<RestResponse> => {
    // Errors found before the request's edition is known are worded like the default edition's.
    let validation = editions.defaultValidation;
    // What was sent, once read: a refusal echoes the refused value from it.
    let sent: SentRequest | null = null;
    try {
      const url = parseTarget(call.url);
      const path = routePath(url.pathname);
      const route = ROUTES_BY_PATH.get(path) ?? cloudProviderRoute(path);
      if (!route) return { status: 404, body: { detail: "Not Found" } };
      // Own keys only: a batch line's method is the client's text.
      const handler = Object.hasOwn(route.methods, call.method) ? route.methods[call.method] : undefined;
      if (!handler) return { status: 405, body: { detail: "Method Not Allowed" } };
      const params = singleValued(url.searchParams);
      const served = editions.requested(params, call.edition);
      const { edition } = served;
      validation = edition.requestValidation;
      if (route.requires && !route.requires.offeredBy(edition)) {
        return { status: 404, body: { detail: "Not Found" } };
      }
      const body = call.method === "POST" ? await postedBody(call, service) : {};
      sent = { params, body };
      const key = call.method === "GET" ? answerKey(edition, path, params) : null;
      const kept = key === null ? undefined : answers.get(key);
      if (kept !== undefined) return keptAnswer(kept);
      const answer = await handler(
        { method: call.method, params, body, validation },
        runner(served, call.cancellation ?? call, call.requestId, call.admitFleetItems),
      );
      return key === null || answer.status !== 200 ? answer : keep(answers, key, answer);
    } catch (error) {
      return errorResponse(error, validation, sent, reportError, call.requestId);
    }
  };
}
