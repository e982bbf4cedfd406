import type { ExecutionResult } from "graphql";
import { snakeCase } from "../inputs/field.js";
import { V1_NAMES } from "../inputs/inputFields.js";
import type { FieldIssue, IssueKind } from "./validation/errorDialect.js";

/*
 * GraphQL errors of the shim's operations as the v1 answers them: a status from the error's code,
 * a refused value located in the v1 request (its 422 worded later, with the value as sent), or a
 * 500 for what is not the client's doing.
 */

/** A GraphQL error reported to a REST client: status from its code, FastAPI-like body. */
export class RestError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    /** Headers of the answer (a 503's Retry-After). */
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    super(`REST ${status}`);
  }
}

/**
 * Called with an unexpected error (a bug), what was being done and the id of the request it
 * happened in, before the 500 is answered.
 */
export type ErrorReporter = (message: string, error: unknown, requestId?: string) => void;

/** GraphQL arguments the shim fills from query parameters. */
const QUERY_ARGUMENTS: ReadonlySet<string> = new Set(["criteria", "duration", "allocation"]);

/**
 * A request value the GraphQL validation refused, located in the v1 request; the 422 is worded
 * when the answer is built, with the value as sent (`input`) read from the request.
 */
export class RefusedValue extends Error {
  constructor(
    readonly loc: readonly ["body" | "query", ...(string | number)[]],
    readonly issue: FieldIssue,
  ) {
    super(`refused ${loc.join(".")}: ${issue.kind}`);
  }
}

/**
 * The bound a GraphQL refusal names (`extensions.constraint`, JSON Schema's keywords) as the issue
 * pydantic raises for it; other refusals are the service's own rules, worded by their message.
 */
const CONSTRAINT_ISSUES: Readonly<Record<string, IssueKind>> = {
  minimum: "greaterThanOrEqual",
  exclusiveMinimum: "greaterThan",
  maximum: "lessThanOrEqual",
  maxLength: "textTooLong",
  maxItems: "listTooLong",
};

function refusalOf(error: GraphQLFormattedErrorLike): FieldIssue {
  const constraint = error.extensions?.constraint as Record<string, number> | undefined;
  const setting = error.extensions?.limit as string | undefined;
  for (const [keyword, limit] of Object.entries(constraint ?? {})) {
    const kind = CONSTRAINT_ISSUES[keyword];
    if (kind) return { kind, params: { limit, setting } };
  }
  return { kind: "invalid", params: { message: error.message.replace(/^[^:]*: /, "") } };
}

type GraphQLFormattedErrorLike = NonNullable<ExecutionResult["errors"]>[number];

export function restErrorOf(
  errors: NonNullable<ExecutionResult["errors"]>,
  reportError: ErrorReporter,
  requestId: string | undefined,
): RestError | RefusedValue {
  const [first] = errors;
  const code = first.extensions?.code;
  if (code === "NOT_FOUND") return new RestError(404, { detail: first.extensions?.detail ?? first.message });
  if (code === "CANCELLED") return new RestError(422, { detail: first.message });
  // No room now in a budget of the whole process (a large coefficient table): 503, retry later.
  const http = first.extensions?.http as { status?: number; headers?: Record<string, string> } | undefined;
  if (http?.status === 503) return new RestError(503, { detail: first.message }, http.headers);
  if (code === "BAD_USER_INPUT" || code === "LIMIT_EXCEEDED" || first.path === undefined) {
    const field = (first.extensions?.field as (string | number)[] | undefined) ?? [];
    // The GraphQL `input` argument is the whole v1 body; other arguments (usage, workload) are body keys.
    const loc = (field[0] === "input" ? field.slice(1) : field).map(v1FieldName);
    // Impact arguments come from the query string (e.g. a criterion the edition lacks).
    const where = QUERY_ARGUMENTS.has(String(field[0])) ? "query" : "body";
    return new RefusedValue([where, ...loc], refusalOf(first));
  }
  // Not the client's doing: logged (with its cause), answered 500 without details.
  reportError(
    `REST: unexpected GraphQL error at ${first.path.join(".")}: ${first.message}`,
    first.originalError ?? first,
    requestId,
  );
  return new RestError(500, "Internal Server Error");
}

/**
 * The v1 name of a GraphQL input field or list index, for error locations: the catalogue's
 * (src/inputs), or the snake_case of an argument it does not describe.
 */
function v1FieldName(field: string | number): string | number {
  if (typeof field === "number") return field;
  if (isIndex(field)) return Number(field);
  return V1_NAMES.get(field) ?? snakeCase(field);
}

function isIndex(text: string): boolean {
  if (text.length === 0 || text.length > 10) return false;
  for (const char of text) if (char < "0" || char > "9") return false;
  return true;
}
