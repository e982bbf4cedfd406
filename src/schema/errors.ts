import { GraphQLError } from "graphql";
import type { ZodError } from "zod";

/** Error codes clients (and the REST shim) rely on. */
export type ErrorCode = "BAD_USER_INPUT" | "NOT_FOUND";

export function badUserInput(message: string, field: readonly (string | number)[] = []): GraphQLError {
  return new GraphQLError(message, { extensions: { code: "BAD_USER_INPUT", field } });
}

export function notFound(detail: string): GraphQLError {
  return new GraphQLError(detail, { extensions: { code: "NOT_FOUND", detail } });
}

/** The first zod issue as a GraphQL error naming the offending field. */
export function fromZodError(error: ZodError, prefix: readonly (string | number)[]): GraphQLError {
  const issue = error.issues[0];
  const field = [...prefix, ...issue.path.map((p) => (typeof p === "symbol" ? String(p) : p))];
  return badUserInput(`${field.join(".") || "input"}: ${issue.message}`, field);
}
