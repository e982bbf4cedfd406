import { setImmediate as nextMacrotask } from "node:timers/promises";
import type { GraphQLError } from "graphql";
import { microtasksDrained, OWN_TURNS, SLICE_MS, type TurnShare } from "../../service/chunks.js";
import type { RequestContext } from "../../service/context.js";
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
 * The fleet's entries as an async iterable handed out chunk by chunk: GraphQL completes the items
 * of a chunk (their selected fields) in the slice the request's turns grant it (chunks.ts's
 * TurnShare), other requests getting their share between slices. The chunk size adapts so a
 * chunk takes about SLICE_MS. `completed` is told of each entry once its chunk's completion has
 * run (the microtasks after it: fields resolved synchronously, as a fleet item's are without
 * `@defer`). Once the request is cancelled, every entry not handed out yet is the cancellation
 * (each item null with the error at its path).
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
  // The generator holds a copy, never `entries` (a generator keeps its arguments as long as it
  // runs), and forgets each entry once handed out: the loop runs until the last chunk, and what
  // it held would live as long (an item's model is garbage once its fields are answered).
  return chunks([...entries], signal, turns, completed);
}

async function* chunks<T>(
  waiting: (T | undefined)[],
  signal: AbortSignal,
  turns: TurnShare,
  completed: ((entry: T) => void) | undefined,
): AsyncGenerator<T | GraphQLError> {
  const count = waiting.length;
  let size = 8;
  let next = 0;
  while (next < count) {
    await turns.nextSlice();
    if (signal.aborted) {
      const error = cancellationOf(signal);
      for (; next < count; next++) {
        waiting[next] = undefined;
        yield error;
      }
      return;
    }
    const started = performance.now();
    const end = Math.min(count, next + size);
    const released: T[] = [];
    for (; next < end; next++) {
      const entry = waiting[next] as T;
      waiting[next] = undefined;
      if (completed) released.push(entry);
      yield entry;
    }
    // The chunk's own time: its items' fields resolved asynchronously complete in the microtasks
    // that follow. The wait for the next turn is not counted: under load it is the other
    // requests' work, and counting it shrank every fleet to one item a turn (a 2,000-item fleet
    // then took 30 s).
    await microtasksDrained();
    if (completed) for (const entry of released) completed(entry);
    const elapsed = performance.now() - started;
    if (elapsed < SLICE_MS / 2) size = Math.min(LARGEST_CHUNK, size * 2);
    else if (elapsed > SLICE_MS * 2) size = Math.max(1, Math.floor(size / 2));
  }
}
