import { setImmediate as nextMacrotask } from "node:timers/promises";

/*
 * One request's share of the event loop. Every piece of item-by-item work of a request (its fleets'
 * items, each total of each alias, criterion and phase) is queued here and run in slices of about
 * SLICE_MS, one slice per turn of the event loop: however many aliases and criteria a request
 * asks for, it holds the loop for one slice at a time, not one slice per piece of work.
 */

/** Target time of one slice. */
export const SLICE_MS = 8;

/**
 * The turns of the event loop shared by every request's background work (fleet chunks, the
 * slices of this module, streamed items, batch lines): a job asks `nextSlice()` instead of
 * waiting for the next turn. Each turn grants slices to the jobs waiting when it began, in the
 * order they asked, until SLICE_MS has passed (one slice at least); the others wait for the next
 * turn. The work of a turn is then about SLICE_MS plus one slice however many fleets and batches
 * run, and the single requests read in a turn wait for no more than that: each job taking a
 * slice every turn made a turn ~100 ms of work beside 6 fleets, 2 streams and 4 batches, and a
 * REST single waited that long.
 */
export interface TurnShare {
  /** Resolves in a later turn, when this job's slice is granted; its work then runs at once. */
  nextSlice(): Promise<void>;
}

/**
 * Resolves once the microtasks queued so far, and those they queue, have run: a tick queued from
 * a microtask runs only once the microtask queue is empty (node's order of ticks and microtasks).
 */
export function microtasksDrained(): Promise<void> {
  return new Promise((resolve) => queueMicrotask(() => process.nextTick(resolve)));
}

export function turnShare(): TurnShare {
  const waiting: (() => void)[] = [];
  let scheduled = false;

  async function turn(): Promise<void> {
    const started = performance.now();
    // Jobs asking again during this turn wait for the next one (round robin).
    const granted = waiting.splice(0);
    scheduled = false;
    do {
      (granted.shift() as () => void)();
      // Twice: a job that measures its own slice by the same means (a fleet's chunk) reads its
      // clock before the next job's slice runs.
      await microtasksDrained();
      await microtasksDrained();
    } while (granted.length > 0 && performance.now() - started < SLICE_MS);
    if (granted.length > 0) {
      waiting.unshift(...granted);
      schedule();
    }
  }

  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => void turn());
  }

  return {
    nextSlice() {
      return new Promise<void>((resolve) => {
        waiting.push(resolve);
        schedule();
      });
    },
  };
}

/** A share for work that runs alone (the command line, tests): each slice a turn of its own. */
export const OWN_TURNS: TurnShare = { nextSlice: () => nextMacrotask() };

/**
 * A request's queue of pushed work (a fleet's totals, a lookup batch's keys): every job of the
 * request shares one slice a granted turn, a job may go ahead of those waiting for it, and each
 * answers once with all its results. It stays beside `handOutInSlices`
 * (src/schema/execution/scheduling.ts), which is pulled: GraphQL's executor takes a fleet's items
 * from an iterable and completes each before taking the next, so the pace and the slice's measure
 * are the consumer's. A queue cannot serve a pull, and an iterable per job would ask a turn per
 * job instead of one per request; both take their turns from the one TurnShare above.
 */
export interface ChunkScheduler {
  /**
   * `fn` over `items`, in slices shared with the request's other work, from the next turn of
   * the event loop on; rejects with the cancellation once the request is cancelled.
   */
  map<T, R>(items: readonly T[], fn: (item: T) => R, place?: JobPlace): Promise<R[]>;
}

/**
 * Where a job joins the request's queue: `after` the jobs queued before it, or `ahead` of them
 * when they wait for it — a reference lookup's batch, whose answers the items being prepared
 * await: queued behind a fleet's preparation, every item of the fleet would be started before the
 * lookups run, and the 10,000 items' continuations would then run in one turn (60–100 ms,
 * bench/README.md "Single requests during fleets").
 */
export type JobPlace = "after" | "ahead";

interface Job {
  /** Runs the next item; true when none is left. */
  step(): boolean;
  fail(error: unknown): void;
}

function removeJob(jobs: Job[], job: Job): void {
  const at = jobs.indexOf(job);
  if (at >= 0) jobs.splice(at, 1);
}

/** The jobs' steps for `ms` (one at least), then the microtasks they queued. */
async function stepsFor(jobs: Job[], ms: number): Promise<void> {
  const started = performance.now();
  while (jobs.length > 0 && performance.now() - started < ms) {
    const job = jobs[0];
    try {
      if (job.step()) removeJob(jobs, job);
    } catch (error) {
      removeJob(jobs, job);
      job.fail(error);
    }
  }
  await microtasksDrained();
  await microtasksDrained();
}

export function chunkScheduler(
  signal: AbortSignal,
  cancellation: () => Error,
  turns: TurnShare = OWN_TURNS,
): ChunkScheduler {
  const jobs: Job[] = [];
  let pumping = false;

  /**
   * The time the next slice's steps may take: a step may start work that runs once the slice's
   * microtasks do (a fleet item's preparation, once the loaders' batch answers, every item of the
   * slice at once), so the slice is measured with them and its steps' time shrinks to fit SLICE_MS.
   */
  let budget = SLICE_MS;

  async function pump(): Promise<void> {
    pumping = true;
    while (jobs.length > 0) {
      await turns.nextSlice();
      if (signal.aborted) {
        const error = cancellation();
        for (const job of jobs.splice(0)) job.fail(error);
        break;
      }
      const started = performance.now();
      await stepsFor(jobs, budget);
      const elapsed = performance.now() - started;
      if (elapsed > SLICE_MS * 2) budget = Math.max(SLICE_MS / 32, budget / 2);
      else if (elapsed < SLICE_MS) budget = Math.min(SLICE_MS, budget * 2);
    }
    pumping = false;
  }

  return {
    map(items, fn, place = "after") {
      return new Promise((resolve, reject) => {
        const out: ReturnType<typeof fn>[] = [];
        const job: Job = {
          step() {
            if (out.length < items.length) out.push(fn(items[out.length]));
            if (out.length < items.length) return false;
            resolve(out);
            return true;
          },
          fail: reject,
        };
        if (place === "ahead") jobs.unshift(job);
        else jobs.push(job);
        if (!pumping) void pump();
      });
    },
  };
}
