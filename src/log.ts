import { AsyncLocalStorage } from "node:async_hooks";
import { pino } from "pino";

/*
 * The service's one logger (pino): JSON lines on stdout, at the level of LOG_LEVEL — request
 * lines, errors with their stack, and the process's own lines (listening, shutdown, workers),
 * whose texts are the `msg` field.
 */

export type Logger = pino.Logger;

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

export type LogLevel = (typeof LOG_LEVELS)[number];

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
