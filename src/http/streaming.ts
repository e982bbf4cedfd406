import type { HeapAdmission } from "../support/steppedJson.js";
import { clientOf } from "./clientAddress.js";
import type { Execution } from "./limits/execution.js";
import type { Reply } from "./reply.js";
import type { Answer, Hold } from "./route.js";

/*
 * Routes that read their request body as it arrives and answer while reading (the batch route):
 * they stand outside the whole-body reading and the execution budget of the others.
 */

/** A streaming route's answer to one request. */
export type StreamingReply = (request: {
  readonly url: string;
  /** The client it is counted to (its connection's address, src/http/clientAddress.ts). */
  readonly client: string;
  readonly body: AsyncIterable<Uint8Array>;
  /** Aborted when the client goes away. */
  readonly signal: AbortSignal;
  /** The request's id, for the lines logged while serving it. */
  readonly requestId: string;
  /**
   * Waits for room for this many fleet items in the process's budget (MAX_CONCURRENT_FLEET_ITEMS),
   * held until `hold`'s releases are called (a batch line's whole coefficient table, until the line ends).
   */
  readonly admitFleetItems: (items: number, hold: Hold) => Promise<void>;
  /**
   * Waits for room for a body's heap in the process's budget (MAX_PARSED_BYTES_IN_FLIGHT), held
   * until `hold`'s releases are called (a batch line's, until the line ends).
   */
  readonly admitBodyHeap: (bytes: number, hold: Hold) => Promise<void>;
}) => Reply;

/** `/v1/batch/` is `/v1/batch` (a loop, not a regex: the path is the client's). */
export function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 1 && path.charCodeAt(end - 1) === 0x2f) end -= 1;
  return path.slice(0, end);
}

/** The admission of a body's heap, or none where the route is given no execution (its tests). */
function heapAdmission(
  execution: Execution | undefined,
  request: Parameters<Execution["admitBodyHeap"]>[0],
): HeapAdmission {
  return execution?.admitBodyHeap(request) ?? (async () => {});
}

/** A streaming route's answer (the route table refuses its other methods), with the process's fleet budget when given. */
export function streamingAnswer(reply: StreamingReply, execution?: Execution): Answer {
  return async ({ request, path, requestId, cancellation }) =>
    reply({
      url: request.url ?? path,
      client: clientOf(request),
      body: request,
      signal: cancellation.signal,
      requestId,
      admitFleetItems: async (items, hold) =>
        execution?.admitFleetItems(items, null, cancellation.signal, hold),
      admitBodyHeap: (bytes, hold) => heapAdmission(execution, { hold, cancellation })(bytes),
    });
}
