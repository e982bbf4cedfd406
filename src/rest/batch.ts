import { type BatchDefaults, evaluateBatch, ndjsonLines, type RouteEvaluator } from "../batch/index.js";
import type { RestResponse } from "./common.js";
import { queryEdition } from "./index.js";

/*
 * `POST /v1/batch`: an NDJSON body of single-route requests, answered in NDJSON as its lines are
 * evaluated (src/batch), each line by the shim's own dispatch, in-process. The body is read as
 * it arrives and never whole: the route stands outside the whole-body reading of the other
 * routes. At most `maxConcurrent` batches run at once; past that, 503 with Retry-After.
 */

export const BATCH_PATH = "/v1/batch";

/** Seconds a client refused for lack of room is told to wait. */
const RETRY_AFTER_SECONDS = 1;

export interface BatchRequest {
  /** Path and query string. */
  readonly url: string;
  /** The request's bytes, as they arrive. */
  readonly body: AsyncIterable<Uint8Array>;
  /** Aborted when the client goes away: no further line is evaluated. */
  readonly signal: AbortSignal;
}

export interface BatchReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** A JSON error, or the NDJSON answer as it is produced. */
  readonly body: string | AsyncIterable<Uint8Array>;
}

export interface BatchRouteOptions {
  readonly evaluate: RouteEvaluator;
  readonly defaultEdition: string;
  /** Largest line (MAX_BODY_BYTES, the single routes' body limit). */
  readonly maxLineBytes: number;
  /** Batches running at once (MAX_CONCURRENT_BATCHES). */
  readonly maxConcurrent: number;
}

const jsonReply = (answer: RestResponse, headers: Record<string, string> = {}): BatchReply => ({
  status: answer.status,
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(answer.body),
});

/** The answer's text as bytes. */
async function* utf8(pieces: AsyncIterable<string>): AsyncGenerator<Uint8Array> {
  for await (const piece of pieces) yield Buffer.from(piece);
}

export function createBatchRoute(options: BatchRouteOptions) {
  let running = 0;
  return (request: BatchRequest): BatchReply => {
    const query = new URLSearchParams(request.url.slice(request.url.indexOf("?") + 1 || request.url.length));
    const editions = query.getAll("edition");
    const params = new URLSearchParams(editions.length > 0 ? { edition: editions[editions.length - 1] } : {});
    const edition = queryEdition(params, options.defaultEdition);
    if ("refused" in edition) return jsonReply(edition.refused, { connection: "close" });
    if (running >= options.maxConcurrent) {
      return jsonReply(
        {
          status: 503,
          body: {
            detail: `${options.maxConcurrent} batches are running, the most at once (MAX_CONCURRENT_BATCHES)`,
          },
        },
        { "retry-after": String(RETRY_AFTER_SECONDS), connection: "close" },
      );
    }
    running += 1;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      running -= 1;
    };
    // The slot is freed when the answer ends, or when the client leaves before it starts.
    request.signal.addEventListener("abort", release, { once: true });
    const defaults: BatchDefaults = edition.edition === null ? {} : { edition: edition.edition };
    const lines = evaluateBatch(ndjsonLines(request.body, options.maxLineBytes), options.evaluate, {
      defaults,
      maxLineBytes: options.maxLineBytes,
      signal: request.signal,
    });
    async function* answer(): AsyncGenerator<Uint8Array> {
      try {
        yield* utf8(lines);
      } finally {
        release();
      }
    }
    return { status: 200, headers: { "content-type": "application/x-ndjson" }, body: answer() };
  };
}
