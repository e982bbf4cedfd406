import { evaluateBatch, ndjsonLines, type RouteEvaluator } from "../../batch/index.js";
import type { BodyLimits } from "../../config/serviceConfig.js";
import type { TurnShare } from "../../service/eventLoopSlices.js";
import type { EditionService } from "../../service/open.js";
import { sharedSlots } from "../../support/sharedSlots.js";
import { queryEdition, type RestEditions } from "../editionChoice.js";
import type { RestResponse } from "../restRoute.js";

/*
 * `POST /v1/batch`: an NDJSON body of single-route requests, answered in NDJSON as its lines are
 * evaluated (src/batch), each line by the shim's own dispatch, in-process. The body is read as
 * it arrives and never whole: the route stands outside the whole-body reading of the other
 * routes. At most `maxConcurrent` batches run at once, and at most `maxPerClient` of one client
 * (its address), so that one client cannot hold every slot; past either, 503 with Retry-After
 * naming which. A refusal is answered while the body still arrives, which the HTTP layer reads
 * and drops within bounds (src/http/limits/delivery.ts), so a client that sends its whole body
 * before reading reads it.
 */

export const BATCH_PATH = "/v1/batch";

/** Seconds a client refused for lack of room is told to wait. */
const RETRY_AFTER_SECONDS = 1;

interface BatchRequest {
  /** Path and query string. */
  readonly url: string;
  /** The client the batch is counted to (its connection's address). */
  readonly client: string;
  /** The request's bytes, as they arrive. */
  readonly body: AsyncIterable<Uint8Array>;
  /** Aborted when the client goes away: no further line is evaluated. */
  readonly signal: AbortSignal;
  /** The batch request's id: a line's unexpected error is logged with it. */
  readonly requestId: string;
  /** Waits for room in the process's fleet budget, held until `hold`'s releases are called. */
  readonly admitFleetItems: (items: number, hold: (release: () => void) => void) => Promise<void>;
  /** Waits for room for a line's heap in the process's budget of parsed bodies, held until `hold`'s releases are called. */
  readonly admitBodyHeap?: (bytes: number, hold: (release: () => void) => void) => Promise<void>;
}

interface BatchReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** A JSON error, or the NDJSON answer as it is produced. */
  readonly body: string | AsyncIterable<Uint8Array>;
}

interface BatchRouteOptions {
  /** A line's route, with the room it may wait for (the shim's RestCall). */
  readonly evaluate: (
    call: Parameters<RouteEvaluator>[0] & {
      readonly admitFleetItems?: (items: number) => Promise<void>;
      /** The batch's edition, resolved once here: the edition of the lines whose path names none. */
      readonly edition?: EditionService;
    },
  ) => ReturnType<RouteEvaluator>;
  /** The editions served and the default one. */
  readonly editions: RestEditions;
  /** Largest line (MAX_BODY_BYTES, the single routes' body limit). */
  readonly maxLineBytes: number;
  /** Batches running at once (MAX_CONCURRENT_BATCHES). */
  readonly maxConcurrent: number;
  /** Batches one client runs at once (MAX_BATCHES_PER_CLIENT). */
  readonly maxPerClient: number;
  /** The bounds of a line's body (the single routes'). */
  readonly bodyLimits: BodyLimits;
  /** Time to wait for each next whole line (BODY_TIMEOUT_MS). */
  readonly lineTimeoutMs: number;
  /** Aborted when the service stops: running batches end with an interrupted summary. */
  readonly stopping: AbortSignal;
  /** The turns of the event loop the batches share with the other requests' work. */
  readonly turns?: TurnShare;
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

/** The 503 of a batch refused for lack of room, its detail naming the bound. */
const busy = (detail: string): BatchReply =>
  jsonReply({ status: 503, body: { detail } }, { "retry-after": String(RETRY_AFTER_SECONDS) });

/**
 * The batch slots: all clients' together and each client's. `take` answers the slot's release,
 * or the refusal's detail naming the bound that is full (the client's share first: it is the one
 * that client can do something about).
 */
function batchSlots({
  maxConcurrent,
  maxPerClient,
}: Pick<BatchRouteOptions, "maxConcurrent" | "maxPerClient">) {
  const slots = sharedSlots({ maxConcurrent, maxPerClient });
  return (client: string): { release: () => void } | { refused: string } => {
    const taken = slots.take(client);
    if ("release" in taken) return taken;
    return taken.full === "client"
      ? { refused: `this client has ${taken.held} batches running, its share (MAX_BATCHES_PER_CLIENT)` }
      : { refused: `${maxConcurrent} batches are running, the most at once (MAX_CONCURRENT_BATCHES)` };
  };
}

/**
 * The batch's edition, resolved once here at its edge (its last `edition` parameter, as a single
 * route reads a query): the served edition, null when it names none, or the route's 422.
 */
function batchEdition(url: string, editions: RestEditions): ReturnType<typeof queryEdition> {
  const query = new URLSearchParams(url.slice(url.indexOf("?") + 1 || url.length));
  const named = query.getAll("edition");
  const params = new URLSearchParams(named.length > 0 ? { edition: named[named.length - 1] } : {});
  return queryEdition(params, editions);
}

/**
 * A line's route, in the batch's edition when its path names none (handed over resolved, never
 * written back into the line's path as text); a line's budget (a whole coefficient table's) is
 * held while the line runs, not the batch.
 */
function lineEvaluator(
  options: BatchRouteOptions,
  request: BatchRequest,
  edition: EditionService | null,
): RouteEvaluator {
  const { requestId } = request;
  return async (call) => {
    const held: (() => void)[] = [];
    const admitFleetItems = (items: number) =>
      request.admitFleetItems(items, (release) => held.push(release));
    try {
      return await options.evaluate({
        ...call,
        requestId,
        admitFleetItems,
        ...(edition === null ? {} : { edition }),
      });
    } finally {
      for (const release of held.splice(0)) release();
    }
  };
}

export function createBatchRoute(options: BatchRouteOptions) {
  const take = batchSlots(options);
  return (request: BatchRequest): BatchReply => {
    const edition = batchEdition(request.url, options.editions);
    if ("refused" in edition) return jsonReply(edition.refused);
    const slot = take(request.client);
    if ("refused" in slot) return busy(slot.refused);
    const { release } = slot;
    // The slot is freed when the answer ends, or when the client leaves before it starts.
    request.signal.addEventListener("abort", release, { once: true });
    const lines = evaluateBatch(
      ndjsonLines(request.body, options.maxLineBytes),
      lineEvaluator(options, request, edition.served),
      {
        defaults: {},
        ...(edition.served === null ? {} : { edition: edition.served.edition.id }),
        maxLineBytes: options.maxLineBytes,
        bodyLimits: options.bodyLimits,
        signal: request.signal,
        stop: options.stopping,
        lineTimeoutMs: options.lineTimeoutMs,
        turns: options.turns,
        admitLineHeap: request.admitBodyHeap,
      },
    );
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
