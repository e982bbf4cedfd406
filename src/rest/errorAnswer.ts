import { type ErrorReporter, RefusedValue, RestError } from "./graphqlErrors.js";
import type { RestResponse } from "./restRoute.js";
import { BodyBoundsError, MalformedBodyError } from "./validation/bodyBounds.js";
import { BodyValidationError } from "./validation/bodyValidation.js";
import { sentValue } from "./validation/errorDialect.js";
import { type RequestValidation, validationDetail } from "./validation/fieldTypes.js";
import { QueryValidationError } from "./validation/query.js";

/*
 * Whatever a v1 call threw, as its answer: the 4xx of the client's mistakes worded in the
 * request's edition's dialect, a 500 without details for the service's own (reported first).
 */

/** What a request sent, once read: a refusal echoes the refused value from it. */
export interface SentRequest {
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

export function errorResponse(
  error: unknown,
  validation: RequestValidation,
  sent: SentRequest | null,
  reportError: ErrorReporter,
  requestId: string | undefined,
): RestResponse {
  if (error instanceof RestError) {
    const { status, body, headers } = error;
    return headers === undefined ? { status, body } : { status, body, headers };
  }
  if (error instanceof RefusedValue) {
    const input = refusedInput(error, sent);
    // A list's length, for the dialects that state it.
    const issue = Array.isArray(input)
      ? { ...error.issue, params: { ...error.issue.params, actual: input.length } }
      : error.issue;
    const detail = validationDetail(validation, error.loc, issue, input);
    return { status: 422, body: { detail: [detail] } };
  }
  if (error instanceof BodyValidationError) return { status: 422, body: { detail: error.detail } };
  // A bounded list is not echoed back (its length is named instead).
  if (error instanceof BodyBoundsError)
    return { status: 422, body: { detail: [validationDetail(validation, error.loc, error.issue, null)] } };
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
