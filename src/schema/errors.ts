import { GraphQLError } from "graphql";
import { DomainError } from "../service/errors.js";

/** Error codes clients (and the REST shim) rely on. */
type ErrorCode = "BAD_USER_INPUT" | "NOT_FOUND" | "LIMIT_EXCEEDED" | "CANCELLED";

function coded(message: string, code: ErrorCode, extensions: Record<string, unknown>): GraphQLError {
  return new GraphQLError(message, { extensions: { code, ...extensions } });
}

export function badUserInput(
  message: string,
  field: readonly (string | number)[] = [],
  constraint?: Constraint,
  limit?: string,
): GraphQLError {
  return coded(message, "BAD_USER_INPUT", {
    field,
    ...(constraint ? { constraint } : {}),
    ...(limit ? { limit } : {}),
  });
}

/**
 * The bound a refused value breaks, in JSON Schema's words (`{"minimum": 0}`, `{"maxLength": 100}`,
 * `{"maxItems": 100}`): clients (and the REST shim's pydantic wording) read it.
 */
type Constraint = Readonly<Record<string, number>>;

export function notFound(detail: string): GraphQLError {
  return coded(detail, "NOT_FOUND", { detail });
}

/**
 * A request past one of the service's limits (named by its environment variable, e.g.
 * MAX_FLEET_ITEMS). Answered with HTTP 422 on /graphql too, as the whole request is refused.
 */
export function limitExceeded(
  message: string,
  limit: string,
  field: readonly (string | number)[] = [],
  status = 422,
): GraphQLError {
  return coded(message, "LIMIT_EXCEEDED", { limit, field, http: { status } });
}

/**
 * A request the service has no room for now (its budget of concurrent work, named by its
 * environment variable): HTTP 503 with Retry-After, as a retry later may be admitted.
 */
export function overloaded(message: string, limit: string, retryAfterSeconds: number): GraphQLError {
  return coded(message, "LIMIT_EXCEEDED", {
    limit,
    http: { status: 503, headers: { "retry-after": String(retryAfterSeconds) } },
  });
}

/** Work dropped because its request was cancelled (client gone, execution budget, shutdown). */
export function cancelled(reason: string): GraphQLError {
  return coded(reason, "CANCELLED", {});
}

/** A domain error of the service (src/service/errors.ts) as the GraphQL error clients rely on. */
export function graphqlErrorOf(error: DomainError): GraphQLError {
  if (error.kind === "CANCELLED") return cancelled(error.message);
  if (error.kind === "NOT_FOUND") return notFound(error.message);
  return badUserInput(error.message, error.field, error.constraint, error.limit);
}

/** Rethrows a domain error of the service as its GraphQL error; any other error as it is. */
export function rethrowSpelled(error: unknown): never {
  throw error instanceof DomainError ? graphqlErrorOf(error) : error;
}

/** Runs a use case's synchronous step, its domain error spelled as the GraphQL error clients rely on. */
export function spelled<T>(step: () => T): T {
  try {
    return step();
  } catch (error) {
    return rethrowSpelled(error);
  }
}

/** A use case of the service whose domain errors are spelled as the GraphQL errors clients rely on. */
export function spelledUseCase<A extends unknown[], R>(
  useCase: (...args: A) => Promise<R>,
): (...args: A) => Promise<R> {
  return (...args) => useCase(...args).catch(rethrowSpelled);
}
