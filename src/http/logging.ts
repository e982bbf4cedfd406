import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import { pino } from "pino";

/*
 * Structured logs: one JSON line per request and errors with their stack (pino). Every logging
 * call of the service goes through the logger made here.
 */

export type Logger = pino.Logger;

export type LogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";

/** The id of the request being served, for every line logged while serving it. */
const currentRequest = new AsyncLocalStorage<string>();

/** Runs `serve` with `requestId` attached to every line it logs (errors of resolvers included). */
export function withRequestId<T>(requestId: string, serve: () => T): T {
  return currentRequest.run(requestId, serve);
}

/** A JSON logger on stdout (or on `destination`, for tests). */
export function createLogger(level: LogLevel, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      mixin: () => {
        const requestId = currentRequest.getStore();
        return requestId === undefined ? {} : { requestId };
      },
      timestamp: pino.stdTimeFunctions.isoTime,
      // `err` keeps the stack of an error (pino's standard serializer).
      serializers: { err: pino.stdSerializers.err },
    },
    destination,
  );
}

/** A client's `x-request-id` is kept when it is a plausible id; otherwise a new one is made. */
const REQUEST_ID = /^[\w.:@/+=-]{1,128}$/;

export function requestIdOf(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && REQUEST_ID.test(value) ? value : randomUUID();
}

/** Yoga's logger interface over the service's logger (yoga logs unexpected errors there). */
export function yogaLogger(logger: Logger) {
  const child = logger.child({ component: "graphql" });
  return {
    debug: (...args: unknown[]) => child.debug({ details: args }, "graphql"),
    info: (...args: unknown[]) => child.info({ details: args }, "graphql"),
    warn: (...args: unknown[]) => child.warn({ details: args }, "graphql"),
    error: (...args: unknown[]) => {
      const error = args.find((arg): arg is Error => arg instanceof Error);
      child.error({ err: error, details: args.filter((arg) => arg !== error) }, "graphql error");
    },
  };
}
