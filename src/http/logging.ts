import { randomUUID } from "node:crypto";
import { useErrorHandler } from "graphql-yoga";
import type { Logger } from "../support/log.js";

/*
 * What the HTTP front adds to the service's logger (src/support/log.ts): request ids, and yoga's logger
 * interface over it.
 */

/** A client's `x-request-id` is kept when it is a plausible id; otherwise a new one is made. */
const REQUEST_ID = /^[\w.:@/+=-]{1,128}$/;

export function requestIdOf(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && REQUEST_ID.test(value) ? value : randomUUID();
}

/** An error a resolver raised on purpose (a GraphQLError all the way down), not a bug. */
function isRaisedOnPurpose(error: unknown): boolean {
  if (!(error instanceof Error) || error.name !== "GraphQLError") return false;
  const cause = (error as { originalError?: unknown }).originalError;
  return cause == null || isRaisedOnPurpose(cause);
}

/** The request id a GraphQL execution's context carries (the HTTP front puts it there). */
function executionRequestId(executionArgs: Readonly<Record<string, unknown>>): string | undefined {
  const context = executionArgs.contextValue as { readonly requestId?: unknown } | undefined;
  return typeof context?.requestId === "string" ? context.requestId : undefined;
}

/**
 * Yoga's logger over the service's logger, and the plugin that logs an execution's unexpected
 * errors (those yoga masks) with the id of the request they happened in. Yoga logs a masked
 * error itself, without the request at hand: an error the plugin has logged is not logged twice.
 */
export function graphqlLogging(logger: Logger) {
  const child = logger.child({ component: "graphql" });
  const logged = new WeakSet<object>();
  const plugin = useErrorHandler(({ errors, context, phase }) => {
    if (phase !== "execution") return;
    const requestId = executionRequestId(context);
    for (const error of errors) {
      if (isRaisedOnPurpose(error)) continue;
      logged.add(error);
      child.error({ err: error, requestId }, "graphql error");
    }
  });
  const yogaLogger: YogaLogger = {
    debug: (...args: unknown[]) => child.debug({ details: args }, "graphql"),
    info: (...args: unknown[]) => child.info({ details: args }, "graphql"),
    warn: (...args: unknown[]) => child.warn({ details: args }, "graphql"),
    error: (...args: unknown[]) => {
      const error = args.find((arg): arg is Error => arg instanceof Error);
      if (error !== undefined && logged.has(error)) return;
      child.error({ err: error, details: args.filter((arg) => arg !== error) }, "graphql error");
    },
  };
  return { plugin, logger: yogaLogger };
}

type YogaLogger = Record<"debug" | "info" | "warn" | "error", (...args: unknown[]) => void>;
