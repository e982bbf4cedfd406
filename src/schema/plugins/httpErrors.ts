import { type ExecutionResult, GraphQLError } from "graphql";
import type { Plugin } from "graphql-yoga";

/*
 * The statuses and codes of /graphql errors, as the GraphQL-over-HTTP specification sets them:
 * - with `Accept: application/json` (Apollo Client 3 sends `*∕*`, which yoga answers as JSON),
 *   every well-formed request is answered 200 and its errors carry `extensions.code`: clients
 *   that treat any other status as a network failure (Apollo 3: "Response not successful") can
 *   read the errors;
 * - with `Accept: application/graphql-response+json`, a request that has no data keeps its
 *   status (400 for a variable that does not coerce, 422 for a request past a limit).
 * yoga answers an error marked `http.spec` with 200 for application/json and with its status for
 * the GraphQL response type: the errors below are marked so.
 */

/** graphql-armor's limits report themselves as "Syntax Error: Aliases limit of 30 exceeded…". */
const ARMOR_PREFIX = "Syntax Error: ";

/** The limit an armor message names, by the words it starts with (the keys of GRAPHQL_LIMITS). */
const ARMOR_LIMITS: readonly (readonly [string, string])[] = [
  ["Aliases limit ", "maxAliases"],
  ["Query depth limit ", "maxDepth"],
  ["Directives limit ", "maxDirectives"],
  ["Query Cost limit ", "maxCost"],
  ["Token limit ", "maxTokens"],
];

/** The GRAPHQL_LIMITS key an armor refusal names, if the message is one. */
function armorLimit(message: string): string | undefined {
  if (!message.startsWith(ARMOR_PREFIX)) return undefined;
  return ARMOR_LIMITS.find(([words]) => message.startsWith(words, ARMOR_PREFIX.length))?.[1];
}

/** graphql-js's message for a variable value that does not coerce to its type. */
function isVariableCoercion(error: GraphQLError): boolean {
  return error.message.startsWith('Variable "$') && error.extensions.code === undefined;
}

/**
 * The errors of a well-formed request that keep their status only for the GraphQL response
 * type: a request refused whole by a limit (422: 503, no room now, stays a 503 with Retry-After)
 * and the persisted-query answers (an unknown hash, a hash that is not the document's, a text
 * where only trusted documents run).
 */
const SPEC_STATUSES: ReadonlyMap<unknown, ReadonlySet<number>> = new Map([
  ["LIMIT_EXCEEDED", new Set([422])],
  ["PERSISTED_QUERY_NOT_FOUND", new Set([404])],
  ["PERSISTED_QUERY_MISMATCH", new Set([400])],
  ["PERSISTED_QUERY_ONLY", new Set([400])],
]);

interface HttpExtension {
  readonly status?: number;
  readonly spec?: boolean;
  readonly headers?: Record<string, string>;
}

function httpOf(error: GraphQLError): HttpExtension | undefined {
  return error.extensions.http as HttpExtension | undefined;
}

function rebuilt(error: GraphQLError, message: string, extensions: Record<string, unknown>): GraphQLError {
  return new GraphQLError(message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: { ...error.extensions, ...extensions },
  });
}

/** An error as the specification has it (unchanged when it already is). */
function specError(error: GraphQLError): GraphQLError {
  if (isVariableCoercion(error)) {
    return rebuilt(error, error.message, { code: "BAD_USER_INPUT", http: { status: 400, spec: true } });
  }
  const limit = armorLimit(error.message);
  if (limit) return rebuilt(error, error.message.slice(ARMOR_PREFIX.length), { limit });
  const http = httpOf(error);
  if (
    http?.status !== undefined &&
    !http.spec &&
    SPEC_STATUSES.get(error.extensions.code)?.has(http.status)
  ) {
    return rebuilt(error, error.message, { http: { ...http, spec: true } });
  }
  return error;
}

function withSpecErrors<T extends ExecutionResult>(result: T): T {
  if (!result.errors?.length) return result;
  const errors = result.errors.map(specError);
  return errors.every((error, i) => error === result.errors?.[i]) ? result : { ...result, errors };
}

/** The yoga plugin giving /graphql errors the statuses and codes of the specification. */
export function httpErrorsPlugin(): Plugin {
  return {
    onResultProcess({ result, setResult }) {
      if (Array.isArray(result)) setResult(result.map(withSpecErrors));
      else if (!(Symbol.asyncIterator in result)) setResult(withSpecErrors(result));
    },
  };
}
