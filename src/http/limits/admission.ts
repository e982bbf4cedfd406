/*
 * Admission by a budget of concurrent work. Each request states its cost (fleet items, body
 * bytes…) before the work it measures; it runs at once when the work already admitted leaves
 * room for it, waits in a short queue (first come, first served) otherwise, and is refused when
 * the queue is full — refused, not killed: the process keeps the memory the budget was sized for
 * (docs/limits.md). One instance per budget; the HTTP front owns them, the GraphQL fleets and the
 * body reader ask them.
 */

/** Units reserved by `acquire`, held until released. */
export interface Lease {
  /** Gives the units back; calling it again does nothing. */
  release(): void;
  /**
   * Holds `cost` units instead: fewer at once; more only if they fit now with nobody waiting
   * (false otherwise, the lease unchanged) — a holder never waits, so holders never wait for
   * each other.
   */
  resize(cost: number): boolean;
}

/** A request refused because the budget is spent and its queue full: answer 503 with Retry-After. */
export class AdmissionRefused extends Error {
  constructor(
    message: string,
    /** The environment variable sizing the budget. */
    readonly limit: string,
    /** Seconds after which a retry may be admitted (the Retry-After header). */
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

interface AdmissionOptions {
  /** Units of work admitted at once. */
  readonly budget: number;
  /** Requests waiting for room at most; past them, refused. 0: never wait. */
  readonly queueLength: number;
  /** The variable sizing the budget, named in refusals (e.g. MAX_CONCURRENT_FLEET_ITEMS). */
  readonly limit: string;
  /** What one unit is, in refusals (e.g. "fleet items"). */
  readonly unit: string;
  /** Retry-After of a refusal, in seconds. */
  readonly retryAfterSeconds?: number;
}

export interface Admission {
  /**
   * Reserves `cost` units: at once when they fit, after the work ahead in the queue otherwise.
   * A cost above the whole budget is admitted alone (it is a legal request: the budget is the
   * concurrency, not a per-request limit). Rejects with AdmissionRefused when the queue is full,
   * or with the signal's reason when it aborts while waiting.
   */
  acquire(cost: number, signal?: AbortSignal): Promise<Lease>;
  /** Reserves `cost` units if they fit now (nobody waiting ahead), else null. */
  tryAcquire(cost: number): Lease | null;
  /** The refusal of this budget (for callers of tryAcquire). */
  refusal(cost: number): AdmissionRefused;
  /** Units reserved now. */
  inUse(): number;
  /** Requests waiting now. */
  waiting(): number;
}

interface Waiter {
  readonly cost: number;
  readonly admit: (lease: Lease) => void;
}

export function createAdmission(options: AdmissionOptions): Admission {
  const { budget, queueLength, limit, unit } = options;
  const retryAfterSeconds = options.retryAfterSeconds ?? 1;
  let used = 0;
  const queue: Waiter[] = [];

  const charge = (cost: number): number => Math.min(Math.max(0, cost), budget);
  const fits = (cost: number) => used + cost <= budget;

  function reserve(initial: number): Lease {
    let held = initial;
    used += held;
    return {
      release() {
        used -= held;
        held = 0;
        admitWaiting();
      },
      resize(requested) {
        const cost = charge(requested);
        if (cost > held && !(queue.length === 0 && fits(cost - held))) return false;
        used += cost - held;
        held = cost;
        admitWaiting();
        return true;
      },
    };
  }

  function admitWaiting(): void {
    while (queue.length > 0 && fits(queue[0].cost)) {
      const next = queue.shift() as Waiter;
      next.admit(reserve(next.cost));
    }
  }

  function refusal(cost: number): AdmissionRefused {
    return new AdmissionRefused(
      `the service is at its capacity of ${budget} ${unit} in progress (${limit}) and cannot take ${cost} more now; retry after ${retryAfterSeconds} s`,
      limit,
      retryAfterSeconds,
    );
  }

  return {
    acquire(requested, signal) {
      const cost = charge(requested);
      if (queue.length === 0 && fits(cost)) return Promise.resolve(reserve(cost));
      if (queue.length >= queueLength) return Promise.reject(refusal(requested));
      if (signal?.aborted) return Promise.reject(signal.reason);
      return new Promise<Lease>((resolve, reject) => {
        const waiter: Waiter = {
          cost,
          admit: (lease) => {
            signal?.removeEventListener("abort", leave);
            resolve(lease);
          },
        };
        function leave() {
          const at = queue.indexOf(waiter);
          if (at !== -1) queue.splice(at, 1);
          // The one that left may have held back smaller costs behind it.
          admitWaiting();
          reject(signal?.reason);
        }
        signal?.addEventListener("abort", leave, { once: true });
        queue.push(waiter);
      });
    },
    tryAcquire(requested) {
      const cost = charge(requested);
      return queue.length === 0 && fits(cost) ? reserve(cost) : null;
    },
    refusal,
    inUse: () => used,
    waiting: () => queue.length,
  };
}
