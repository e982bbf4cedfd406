import { setImmediate as nextMacrotask } from "node:timers/promises";

/*
 * One request's share of the event loop. Every piece of item-by-item work of a request (its fleets'
 * items, each total of each alias, criterion and phase) is queued here and run in slices of about
 * SLICE_MS, one slice per turn of the event loop: however many aliases and criteria a request
 * asks for, it holds the loop for one slice at a time, not one slice per piece of work.
 */

/** Target time of one slice. */
export const SLICE_MS = 8;

export interface ChunkScheduler {
  /**
   * `fn` over `items`, in slices shared with the request's other work, from the next turn of
   * the event loop on; rejects with the cancellation once the request is cancelled.
   */
  map<T, R>(items: readonly T[], fn: (item: T) => R): Promise<R[]>;
}

interface Job {
  /** Runs the next item; true when none is left. */
  step(): boolean;
  fail(error: unknown): void;
}

export function chunkScheduler(signal: AbortSignal, cancellation: () => Error): ChunkScheduler {
  const jobs: Job[] = [];
  let pumping = false;

  async function pump(): Promise<void> {
    pumping = true;
    while (jobs.length > 0) {
      await nextMacrotask();
      if (signal.aborted) {
        const error = cancellation();
        for (const job of jobs.splice(0)) job.fail(error);
        break;
      }
      const started = performance.now();
      while (jobs.length > 0 && performance.now() - started < SLICE_MS) {
        const job = jobs[0];
        try {
          if (job.step()) jobs.shift();
        } catch (error) {
          jobs.shift();
          job.fail(error);
        }
      }
    }
    pumping = false;
  }

  return {
    map(items, fn) {
      return new Promise((resolve, reject) => {
        const out: ReturnType<typeof fn>[] = [];
        jobs.push({
          step() {
            if (out.length < items.length) out.push(fn(items[out.length]));
            if (out.length < items.length) return false;
            resolve(out);
            return true;
          },
          fail: reject,
        });
        if (!pumping) void pump();
      });
    },
  };
}
