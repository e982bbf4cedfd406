/**
 * The service's domain errors: what went wrong in a use case, in no transport's spelling. Each
 * transport maps them to its own (GraphQL: `graphqlErrorOf` in src/schema/errors.ts, with the same
 * codes and messages as before the service had its own layer).
 */

/** What kind of failure: a value the client sent, something it names that does not exist, or a request dropped on cancellation. */
type DomainErrorKind = "BAD_USER_INPUT" | "NOT_FOUND" | "CANCELLED";

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    /** The input field the failure is about (empty when none). */
    readonly field: readonly (string | number)[] = [],
    /** The bound a refused value breaks, in JSON Schema's words (`{"minimum": 0}`), if it is one. */
    readonly constraint?: Readonly<Record<string, number>>,
    /** The service setting that bound is (its environment variable, e.g. MAX_STRING_LENGTH), if any. */
    readonly limit?: string,
  ) {
    super(message);
    this.name = "DomainError";
  }
}

/** How a transport spells a domain error (the error it throws or rejects with instead). */
export type DomainErrorSpelling = (error: DomainError) => Error;
