import { setImmediate as nextMacrotask } from "node:timers/promises";
import type { GraphQLError } from "graphql";
import { microtasksDrained, OWN_TURNS, SLICE_MS, type TurnShare } from "../../service/eventLoopSlices.js";
import type { RequestContext } from "../../service/requestState.js";
import { cancelled, limitExceeded, overloaded } from "../errors.js";

/*
 * Fleets share the event loop with every other request: their items are handed to GraphQL in
 * chunks, one chunk per event-loop turn, so a 10,000-item fleet never holds the loop for more
 * than a few milliseconds, and the rest is dropped when the request is cancelled (client gone,
 * execution budget spent, shutdown deadline).
 */

const LARGEST_CHUNK = 1024;

/**
 * Reserves `count` fleet items for this request and answers once every fleet field of the
 * request has reserved its own: query root fields are all started before the first macrotask,
 * so the items are counted across aliases before any is evaluated.
 */
export async function admitFleet(
  context: RequestContext,
  count: number,
  path: readonly (string | number)[],
  answerBytes = 0,
): Promise<void> {
  context.fleetItems.reserved += count;
  context.fleetItems.answerBytes += answerBytes;
  await nextMacrotask();
  const largestAnswer = context.service.limits.maxAnswerBytes;
  if (context.fleetItems.answerBytes > largestAnswer) {
    const megabytes = (bytes: number) => `${Math.round(bytes / 1e5) / 10} MB`;
    throw limitExceeded(
      `the answer of this request's fleets would take about ${megabytes(context.fleetItems.answerBytes)} (the selected fields of each item × the items, all fleet fields and aliases together); at most ${megabytes(largestAnswer)} is answered (MAX_ANSWER_BYTES): select fewer fields or aliases, or split the fleet`,
      "MAX_ANSWER_BYTES",
      path,
    );
  }
  const limit = context.service.limits.maxFleetItems;
  if (context.fleetItems.reserved > limit) {
    throw limitExceeded(
      `this request asks for ${context.fleetItems.reserved} fleet items (all fleet fields and aliases together, each @defer inside a fleet's items one more per item); at most ${limit} are evaluated per request (MAX_FLEET_ITEMS)`,
      "MAX_FLEET_ITEMS",
      path,
    );
  }
  throwIfCancelled(context.signal);
  // The request's fleets wait together for room in the process's budget (one admission for all).
  context.fleetItems.admitted ??= context.admitFleetItems(context.fleetItems.reserved).catch((error) => {
    throwIfCancelled(context.signal);
    const { message, limit, retryAfterSeconds } = error as Partial<FleetRefusal>;
    if (typeof limit === "string" && typeof retryAfterSeconds === "number")
      throw overloaded(String(message), limit, retryAfterSeconds);
    throw error;
  });
  await context.fleetItems.admitted;
  throwIfCancelled(context.signal);
}

/** How the transport refuses fleets it has no room for (src/http/limits/admission.ts's AdmissionRefused). */
interface FleetRefusal {
  readonly message: string;
  readonly limit: string;
  readonly retryAfterSeconds: number;
}

/** A GraphQL error telling why the request was cancelled. */
export function cancellationOf(signal: AbortSignal): GraphQLError {
  return cancelled(signal.reason instanceof Error ? signal.reason.message : "the request was cancelled");
}

function throwIfCancelled(signal: AbortSignal): void {
  if (signal.aborted) throw cancellationOf(signal);
}

/**
 * How a fleet's entries are handed out, a slice per turn of the event loop the request is granted
 * (eventLoopSlices.ts's TurnShare): an unstreamed fleet's slices hold a number of entries, a streamed one's
 * last a time.
 */
export interface Slicing<T> {
  /** Whether the slice begun at `started` (performance.now()) is full, `handed` entries in. */
  readonly full: (started: number, handed: number) => boolean;
  /** Awaited before each slice when it gives a promise (a reader's pace). */
  readonly ready?: () => Promise<unknown> | undefined;
  /** Told of each entry as it is handed out. */
  readonly handing?: (entry: T) => void;
  /** Awaited after each slice (its entries' completion, measured from `started`). */
  readonly after?: (started: number) => Promise<void>;
}

/**
 * `waiting`'s entries, a slice per granted turn, each forgotten once handed out (the caller's
 * copy: a generator keeps its arguments as long as it runs, and an item's model is garbage once
 * its fields are answered). Once the request is cancelled, the entries not handed out are each
 * the cancellation (`"each"`: every item null with the error at its path) or the iterable throws
 * it (`"throw"`: a stream ends). Work a request pushes is src/service/eventLoopSlices.ts's ChunkScheduler
 * (why both, there).
 */
export function handOutInSlices<T>(
  waiting: (T | undefined)[],
  signal: AbortSignal,
  turns: TurnShare,
  slicing: Slicing<T>,
  onCancel: "each",
): AsyncGenerator<T | GraphQLError>;
export function handOutInSlices<T>(
  waiting: (T | undefined)[],
  signal: AbortSignal,
  turns: TurnShare,
  slicing: Slicing<T>,
  onCancel: "throw",
): AsyncGenerator<T>;
export async function* handOutInSlices<T>(
  waiting: (T | undefined)[],
  signal: AbortSignal,
  turns: TurnShare,
  slicing: Slicing<T>,
  onCancel: "each" | "throw",
): AsyncGenerator<T | GraphQLError> {
  let next = 0;
  while (next < waiting.length) {
    const ready = slicing.ready?.();
    if (ready) await ready;
    await turns.nextSlice();
    if (signal.aborted) {
      const error = cancellationOf(signal);
      if (onCancel === "throw") throw error;
      for (; next < waiting.length; next++) {
        waiting[next] = undefined;
        yield error;
      }
      return;
    }
    const started = performance.now();
    for (let handed = 0; next < waiting.length && !slicing.full(started, handed); handed++) {
      const entry = waiting[next] as T;
      waiting[next] = undefined;
      next += 1;
      slicing.handing?.(entry);
      yield entry;
    }
    if (slicing.after) await slicing.after(started);
  }
}

/**
 * The fleet's entries as an async iterable handed out chunk by chunk: GraphQL completes the items
 * of a chunk (their selected fields) in the slice the request's turns grant it, other requests
 * getting their share between slices. The chunk size adapts so a chunk takes about SLICE_MS.
 * `completed` is told of each entry once its chunk's completion has run (the microtasks after it:
 * fields resolved synchronously, as a fleet item's are without `@defer`). Once the request is
 * cancelled, every entry not handed out yet is the cancellation.
 *
 * An iterable, not a list of promises: GraphQL takes the next item once it has completed the
 * previous one, so nothing is made for an item before its chunk; 10,000 pending promises made at
 * once (with the executor's two more each) would hold the loop 60–120 ms when a fleet's items
 * begin, and survive the collections of the whole fleet (bench/README.md, "Single requests during
 * fleets").
 */
export function releaseInChunks<T>(
  entries: readonly T[],
  signal: AbortSignal,
  turns: TurnShare = OWN_TURNS,
  completed?: (entry: T) => void,
): AsyncGenerator<T | GraphQLError> {
  let size = 8;
  const released: T[] = [];
  const slicing: Slicing<T> = {
    full: (_started, handed) => handed >= size,
    handing: completed && ((entry) => released.push(entry)),
    async after(started) {
      // The chunk's own time: its items' fields resolved asynchronously complete in the
      // microtasks that follow. The wait for the next turn is not counted: under load it is the
      // other requests' work, and counting it shrank every fleet to one item a turn (a
      // 2,000-item fleet then took 30 s).
      await microtasksDrained();
      if (completed) for (const entry of released.splice(0)) completed(entry);
      const elapsed = performance.now() - started;
      if (elapsed < SLICE_MS / 2) size = Math.min(LARGEST_CHUNK, size * 2);
      else if (elapsed > SLICE_MS * 2) size = Math.max(1, Math.floor(size / 2));
    },
  };
  return handOutInSlices([...entries], signal, turns, slicing, "each");
}
