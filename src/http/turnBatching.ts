/*
 * The requests read in one turn of the event loop are worked on together, after the reads, and
 * their answers written together, at the end of the turn: reads, work and writes each in one
 * run, instead of interleaved request by request. A request's work then runs with the caches
 * warm from the previous one's (the same code over other numbers) rather than from the kernel's
 * and node:http's; measured by alternating the two builds (bench/README.md, "Answers of a turn written together"), the varied
 * verbose POSTs spend 4–7 % less main thread per request when their work waits for the reads.
 */

/**
 * The answers of the requests read in one turn, written together once their work is done.
 *
 * A write wakes the client's side of the connection. When the client sits idle waiting for it
 * (a closed-loop client, a proxy), the wake-up is paid by the writer in the kernel — on a
 * virtual machine, with an interrupt from one processor to the other. Answers written one after
 * another within microseconds find the peer already awake. Measured (bench/README.md, "Answers of a
 * turn written together"): a bare node:http server holding its loop 300 µs per request spends 51–62 µs per
 * request beyond its hold when it writes each answer at once, 39–41 µs when it writes the
 * answers of a turn together. The requests of one turn were read together, so none of them
 * waits for more than the work of the others of its turn.
 *
 * The writes of the turn's requests run in the same check phase as their work (an immediate
 * kept behind every work immediate queued so far), not in the next turn's: a turn of the next
 * loop holds a fleet's slice (src/service/eventLoopSlices.ts), and a single request answered there would
 * wait one slice more (bench/README.md, "Single requests during fleets").
 */
export interface TurnBatch {
  /**
   * Resolves once the requests read in this turn of the event loop have all been read: in the
   * check phase, after the poll phase that read them, each request's work running whole before
   * the next one's (one immediate each; the microtasks run between two immediates).
   */
  readonly afterReads: () => Promise<void>;
  /**
   * Runs `write` once the work of the requests read with it is done (at the end of the current
   * turn's check phase, or of the next one's for an answer completed later), after the writes
   * queued before it; settles with its outcome (a throwing write rejects, as it would have in place).
   */
  readonly queue: (write: () => void) => Promise<void>;
}

interface QueuedWrite {
  readonly write: () => void;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

export function createTurnBatch(): TurnBatch {
  let pending: QueuedWrite[] = [];
  let flushing: NodeJS.Immediate | null = null;
  const flush = () => {
    flushing = null;
    const writes = pending;
    pending = [];
    for (const { write, resolve, reject } of writes) {
      try {
        write();
        resolve();
      } catch (error) {
        reject(error);
      }
    }
  };
  /** The flush queued behind every immediate queued so far. */
  const flushLast = () => {
    if (flushing !== null) clearImmediate(flushing);
    flushing = setImmediate(flush);
  };
  return {
    afterReads() {
      const work = new Promise<void>((resolve) => setImmediate(resolve));
      flushLast();
      return work;
    },
    queue: (write) =>
      new Promise<void>((resolve, reject) => {
        pending.push({ write, resolve, reject });
        if (flushing === null) flushLast();
      }),
  };
}
