import type { IncomingMessage } from "node:http";
import type { Capacity, Limits } from "../../config/serviceConfig.js";
import { aTurn, type HeapAdmission, STEPPED_BODY_CHARS } from "../../support/steppedJson.js";
import { clientOf } from "../clientAddress.js";
import type { Metrics } from "../metrics.js";
import { limitReply, type Reply } from "../reply.js";
import { CLIENT_GONE, type Hold } from "../route.js";
import type { Lease } from "./admission.js";
import {
  BODIES_LIMIT,
  type BodyBytes,
  type BodyRoomRefusal,
  CLIENT_SHARE_LIMIT,
  createBodyBytes,
} from "./bodyBytes.js";
import { bodyHeapAdmission, type HeapRequest, PARSED_BYTES_LIMIT } from "./bodyHeap.js";
import type { Cancellation } from "./cancellation.js";
import { fleetAdmission } from "./fleetAdmission.js";
import { type BodyOutcome, readBody } from "./requestBody.js";

/*
 * The bounds of a GraphQL or REST request: its body read within MAX_BODY_BYTES (413 past it, the
 * rest discarded), BODY_TIMEOUT_MS and its pace (BODY_MIN_BYTES_PER_WINDOW in every
 * BODY_RATE_WINDOW_MS: 408, the connection closed) and the room its bytes find as they arrive in
 * MAX_BODY_BYTES_IN_FLIGHT and the client's share MAX_BODY_BYTES_PER_CLIENT (503, bodyBytes.ts), then its work, cancelled when the client goes or past the
 * execution budget (422): one `cancellation` for both. The budget counts execution, not the
 * client's upload. The work's body is admitted again once scanned, by the heap its parse will take
 * (bodyHeap.ts, MAX_PARSED_BYTES_IN_FLIGHT): a body still waiting for that room when the budget is
 * spent is answered 503.
 */

/** Why a request was cancelled: its execution budget was spent. */
class ExecutionBudgetSpent extends Error {}

/**
 * The work of a request, given its body, the lease of its fleet items (large GraphQL bodies), its
 * hold and the admission of its body's heap (to await before the body is built).
 */
type Work = (body: Buffer, lease: Lease | null, hold: Hold, admitHeap: HeapAdmission) => Promise<Reply>;

export interface Execution {
  /** Runs `work` on the request's body within the bounds above; `graphql` chooses the answers' layout. */
  readonly execute: (
    request: IncomingMessage,
    cancellation: Cancellation,
    hold: Hold,
    graphql: boolean,
    work: Work,
  ) => Promise<Reply>;
  /** Room for a GraphQL request's fleet items (MAX_CONCURRENT_FLEET_ITEMS). */
  readonly admitFleetItems: (
    items: number,
    held: Lease | null,
    signal: AbortSignal,
    hold: Hold,
  ) => Promise<void>;
  /** The admission of a body's heap outside `execute` (a batch's lines: MAX_PARSED_BYTES_IN_FLIGHT). */
  readonly admitBodyHeap: (request: HeapRequest) => HeapAdmission;
}

/** The refusals' texts, worded once per process from its limits. */
function refusalTexts(limits: Limits) {
  return {
    bodyTooLarge: `the request body exceeds ${limits.maxBodyBytes} bytes (MAX_BODY_BYTES)`,
    bodyTimedOut: `the request body was not received within ${limits.bodyTimeoutMs} ms (BODY_TIMEOUT_MS)`,
    bodyTooSlow: `the request body arrived slower than ${limits.bodyMinBytesPerWindow} bytes in ${limits.bodyRateWindowMs} ms (BODY_MIN_BYTES_PER_WINDOW, BODY_RATE_WINDOW_MS)`,
    budgetSpent: `the request did not complete within its execution budget of ${limits.executionTimeoutMs} ms (EXECUTION_TIMEOUT_MS)`,
  };
}

type RefusalTexts = ReturnType<typeof refusalTexts>;

/** The request's body, its bytes held in `bodies` (as they arrive) until the request's hold is released. */
function boundedBody(
  request: IncomingMessage,
  limits: Limits,
  bodies: BodyBytes,
  hold: Hold,
): Promise<BodyOutcome> {
  const account = bodies.open(clientOf(request));
  hold(() => account.release());
  return readBody(request, {
    maxBytes: limits.maxBodyBytes,
    timeoutMs: limits.bodyTimeoutMs,
    pace: { minBytes: limits.bodyMinBytesPerWindow, windowMs: limits.bodyRateWindowMs },
    account,
  });
}

/** Seconds a body refused for room is told to wait: the bodies ahead are read within a few. */
const RETRY_AFTER_SECONDS = 1;

/** The 503 of a body finding no room for its bytes: in all clients' budget, or in its client's share. */
function noRoomText(limit: BodyRoomRefusal, capacity: Capacity): string {
  if (limit === CLIENT_SHARE_LIMIT)
    return `this client's request bodies hold ${capacity.maxBodyBytesPerClient} bytes at once already, its share (${CLIENT_SHARE_LIMIT}); retry after ${RETRY_AFTER_SECONDS} s`;
  return `the service holds ${capacity.maxBodyBytesInFlight} bytes of request bodies at once, all clients together, and has no room for more now (${BODIES_LIMIT}); retry after ${RETRY_AFTER_SECONDS} s`;
}

/** The answer to a body that could not be read within its bounds: 413, 408 or 503. */
function bodyRefusal(
  outcome: Exclude<BodyOutcome, Buffer>,
  graphql: boolean,
  { texts, capacity }: { texts: RefusalTexts; capacity: Capacity },
): Reply {
  if (outcome === "too large") return limitReply(413, graphql, texts.bodyTooLarge, "MAX_BODY_BYTES");
  if (outcome === "timed out")
    return limitReply(408, graphql, texts.bodyTimedOut, "BODY_TIMEOUT_MS", { connection: "close" });
  if (outcome === "too slow")
    return limitReply(408, graphql, texts.bodyTooSlow, "BODY_MIN_BYTES_PER_WINDOW", { connection: "close" });
  return limitReply(503, graphql, noRoomText(outcome.noRoom, capacity), outcome.noRoom, {
    "retry-after": String(RETRY_AFTER_SECONDS),
  });
}

/**
 * The answer, or the cancellation's if it comes first: the work itself stops at its next chunk
 * boundary once cancelled (see scheduling.ts).
 */
function answerOrCancellation(
  running: Promise<Reply>,
  cancellation: Cancellation,
): Promise<Reply | "cancelled"> {
  return new Promise<Reply | "cancelled">((resolve, reject) => {
    const stopWaiting = cancellation.onCancel(() => resolve("cancelled"));
    running.then(
      (reply) => {
        stopWaiting();
        resolve(reply);
      },
      (error) => {
        stopWaiting();
        reject(error);
      },
    );
  });
}

/** A body that waited for room for its heap as long as its execution budget: 503, to retry. */
function heapWaitSpent(graphql: boolean, limits: Limits): Reply {
  return limitReply(
    503,
    graphql,
    `the service had no room for this request body's memory within ${limits.executionTimeoutMs} ms (${PARSED_BYTES_LIMIT}, EXECUTION_TIMEOUT_MS); retry after 1 s`,
    PARSED_BYTES_LIMIT,
    { "retry-after": "1" },
  );
}

/** What `withinBudget` runs the work with. */
interface Budgeted {
  readonly cancellation: Cancellation;
  readonly graphql: boolean;
  readonly limits: Limits;
  readonly texts: RefusalTexts;
  /** The admission of the body's heap, telling `waiting` when it starts and stops waiting. */
  readonly admitHeap: (waiting: (waiting: boolean) => void) => HeapAdmission;
}

/**
 * The work's answer within the execution budget: past it, 422 (503 when the body was still
 * waiting for room for its heap: the service's lack of room, not the request's work), or nothing
 * for a client gone.
 */
async function withinBudget(
  start: (admitHeap: HeapAdmission) => Promise<Reply>,
  { cancellation, graphql, limits, texts, admitHeap }: Budgeted,
): Promise<Reply> {
  const budget = setTimeout(
    () => cancellation.cancel(new ExecutionBudgetSpent(texts.budgetSpent)),
    limits.executionTimeoutMs,
  );
  let waitingForHeap = false;
  try {
    const running = start(
      admitHeap((waiting) => {
        waitingForHeap = waiting;
      }),
    );
    const outcome = await answerOrCancellation(running, cancellation);
    if (outcome !== "cancelled") return outcome;
    if (cancellation.reason instanceof ExecutionBudgetSpent) {
      if (waitingForHeap) return heapWaitSpent(graphql, limits);
      return limitReply(422, graphql, texts.budgetSpent, "EXECUTION_TIMEOUT_MS");
    }
    return CLIENT_GONE;
  } finally {
    clearTimeout(budget);
  }
}

export function createExecution(limits: Limits, capacity: Capacity, metrics: Metrics): Execution {
  const texts = refusalTexts(limits);
  /** Bytes of bodies held at once (arrived, or read and in use by their request). */
  const bodies = createBodyBytes({
    budget: capacity.maxBodyBytesInFlight,
    perClient: capacity.maxBodyBytesPerClient,
  });
  const fleets = fleetAdmission(limits, capacity);
  const heap = bodyHeapAdmission(capacity);
  metrics.observeAdmission(BODIES_LIMIT, bodies.admission);
  metrics.observeAdmission("MAX_CONCURRENT_FLEET_ITEMS", fleets.admission);
  metrics.observeAdmission(PARSED_BYTES_LIMIT, heap.admission);

  async function execute(
    request: IncomingMessage,
    cancellation: Cancellation,
    hold: Hold,
    graphql: boolean,
    work: Work,
  ): Promise<Reply> {
    const body = await boundedBody(request, limits, bodies, hold);
    if (!Buffer.isBuffer(body)) return bodyRefusal(body, graphql, { texts, capacity });
    // The work's budgets are held until its answer is sent and the work has stopped: a cancelled
    // fleet still finishes its current chunk, and its memory is not free before.
    let running: Promise<Reply> = Promise.resolve(CLIENT_GONE);
    const holdWhileWorking: Hold = (release) =>
      hold(() => {
        void running.then(release, release);
      });
    const admitted = graphql ? await fleets.admitLargeBody(body, cancellation, holdWhileWorking) : null;
    if (admitted !== null && !("release" in admitted)) return admitted;
    // A large body was just put together: it is decoded and read in turns of their own (8 MB's
    // concatenation, decoding and first scan were one stretch of 20-37 ms of CPU at load 11)
    if (body.length >= STEPPED_BODY_CHARS) await aTurn();
    if (cancellation.cancelled) return CLIENT_GONE;
    const admitHeap = (waiting: (waiting: boolean) => void) =>
      heap.admit({ hold: holdWhileWorking, cancellation, fleetLease: admitted, waiting });
    return withinBudget(
      (heapAdmission) => {
        running = work(body, admitted, holdWhileWorking, heapAdmission);
        return running;
      },
      { cancellation, graphql, limits, texts, admitHeap },
    );
  }

  return { execute, admitFleetItems: fleets.admitFleetItems, admitBodyHeap: heap.admit };
}
