import { GraphQLError } from "graphql";
import type { ZodError } from "zod";

/** Error codes clients (and the REST shim) rely on. */
export type ErrorCode = "BAD_USER_INPUT" | "NOT_FOUND";

function coded(message: string, code: ErrorCode, extensions: Record<string, unknown>): GraphQLError {
  return new GraphQLError(message, { extensions: { code, ...extensions } });
}

export function badUserInput(message: string, field: readonly (string | number)[] = []): GraphQLError {
  return coded(message, "BAD_USER_INPUT", { field });
}

export function notFound(detail: string): GraphQLError {
  return coded(detail, "NOT_FOUND", { detail });
}

/** The first zod issue as a GraphQL error naming the offending field. */
export function fromZodError(error: ZodError, prefix: readonly (string | number)[]): GraphQLError {
  const issue = error.issues[0];
  const field = [...prefix, ...issue.path.map((p) => (typeof p === "symbol" ? String(p) : p))];
  return badUserInput(`${field.join(".") || "input"}: ${issue.message}`, field);
}
