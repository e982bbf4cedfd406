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

/*
 * The process's logger. The start-up (src/server.ts) sets it from LOG_LEVEL and hands it to
 * what it builds; it is kept here as well because some modules report errors without being handed
 * a logger (the REST shim's `log.error`). Until set, lines go to stdout at `info`.
 */
let processLogger: Logger | undefined;

export function getProcessLogger(): Logger {
  processLogger ??= createLogger("info");
  return processLogger;
}

export function setProcessLogger(logger: Logger): void {
  processLogger = logger;
}

/** Lines through the process's logger, for callers that are not handed one. */
export const log = {
  info(message: string): void {
    getProcessLogger().info(message);
  },
  /** Something went wrong; `error` (a stack, a cause) goes in the line's `err`. */
  error(message: string, error?: unknown): void {
    if (error === undefined) getProcessLogger().error(message);
    else getProcessLogger().error({ err: error }, message);
  },
};
