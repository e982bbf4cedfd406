/*
 * The requests read in one turn of the event loop are worked on together, after the reads, and
 * their answers written together, at the end of the turn: reads, work and writes each in one
 * run, instead of interleaved request by request. A request's work then runs with the caches
 * warm from the previous one's (the same code over other numbers) rather than from the kernel's
 * and node:http's; measured by alternating the two builds (bench/README.md, "Answers of a turn written together"), the varied
 * verbose POSTs spend 4–7 % less main thread per request when their work waits for the reads.
 */

/**
 * Resolves once the requests read in this turn of the event loop have all been read: in the
 * check phase, after the poll phase that read them, each request's work running whole before
 * the next one's (one immediate each; the microtasks run between two immediates).
 */
export function afterTheTurnsReads(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * The answers completed during one turn of the event loop, written together at its end.
 *
 * A write wakes the client's side of the connection. When the client sits idle waiting for it
 * (a closed-loop client, a proxy), the wake-up is paid by the writer in the kernel — on a
 * virtual machine, with an interrupt from one processor to the other. Answers written one after
 * another within microseconds find the peer already awake. Measured (bench/README.md, "Answers of a
 * turn written together"): a bare node:http server holding its loop 300 µs per request spends 51–62 µs per
 * request beyond its hold when it writes each answer at once, 39–41 µs when it writes the
 * answers of a turn together. The requests of one turn were read together, so none of them
 * waits for more than the work of the others of its turn.
 */
export interface TurnWrites {
  /**
   * Runs `write` at the end of the current turn of the event loop, after the writes queued
   * before it; settles with its outcome (a throwing write rejects, as it would have in place).
   */
  readonly queue: (write: () => void) => Promise<void>;
}

interface QueuedWrite {
  readonly write: () => void;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

export function createTurnWrites(): TurnWrites {
  let pending: QueuedWrite[] = [];
  const flush = () => {
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
  return {
    queue: (write) =>
      new Promise<void>((resolve, reject) => {
        pending.push({ write, resolve, reject });
        // An immediate queued now runs after those queued before it: the work of every request
        // read with this one (each an immediate of its own, afterTheTurnsReads) is done by then.
        if (pending.length === 1) setImmediate(flush);
      }),
  };
}
