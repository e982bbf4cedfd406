import { randomUUID } from "node:crypto";
import type { Logger } from "../log.js";

/*
 * What the HTTP front adds to the service's logger (src/log.ts): request ids, and yoga's logger
 * interface over it.
 */

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
