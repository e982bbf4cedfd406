import type { IncomingMessage } from "node:http";
import type { Cancellation } from "./limits/cancellation.js";
import type { Reply } from "./reply.js";

/*
 * What every route of the HTTP front is given and answers (the route table: routeTable.ts).
 */

/** What a request holds of the process's budgets, given back once its answer is sent. */
export type Hold = (release: () => void) => void;

/** One request, as a route reads it. */
interface RouteCall {
  readonly request: IncomingMessage;
  /** The path, without the query string. */
  readonly path: string;
  readonly method: string;
  /** The request's id, for the lines logged while serving it. */
  readonly requestId: string;
  /** Cancelled when the client goes away or the execution budget is spent. */
  readonly cancellation: Cancellation;
  readonly hold: Hold;
}

/** A route's answer to one request. */
export type Answer = (call: RouteCall) => Promise<Reply>;

/** The answer to a client gone before its answer: nobody reads it (499, as proxies record it). */
export const CLIENT_GONE: Reply = Object.freeze({ status: 499, headers: Object.freeze({}), body: null });
