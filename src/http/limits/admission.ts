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
  /**
   * Reserves `cost` units if they fit now, ahead of those waiting, else null: for costs too small
   * to be held behind the large ones queued (they would wait for their whole work).
   */
  tryAcquireAhead(cost: number): Lease | null;
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

/** The units of a budget in use and the queue of those waiting for room, first come first served. */
class Room {
  used = 0;
  readonly queue: Waiter[] = [];

  constructor(private readonly budget: number) {}

  /** A cost as charged: never negative, a cost above the whole budget charged as the whole budget. */
  charge(cost: number): number {
    return Math.min(Math.max(0, cost), this.budget);
  }

  /** Whether `cost` fits now with nobody waiting ahead. */
  freeFor(cost: number): boolean {
    return this.queue.length === 0 && this.fits(cost);
  }

  /** Holds `initial` units (already known to fit), as a lease. */
  reserve(initial: number): Lease {
    let held = initial;
    this.used += held;
    return {
      release: () => {
        this.used -= held;
        held = 0;
        this.admitWaiting();
      },
      resize: (requested) => {
        const cost = this.charge(requested);
        if (cost > held && !this.freeFor(cost - held)) return false;
        this.used += cost - held;
        held = cost;
        this.admitWaiting();
        return true;
      },
    };
  }

  /** Waits in the queue for `cost` units; rejects with the signal's reason when it aborts first. */
  wait(cost: number, signal: AbortSignal | undefined): Promise<Lease> {
    return new Promise<Lease>((resolve, reject) => {
      const waiter: Waiter = {
        cost,
        admit: (lease) => {
          signal?.removeEventListener("abort", leave);
          resolve(lease);
        },
      };
      const leave = () => {
        const at = this.queue.indexOf(waiter);
        if (at !== -1) this.queue.splice(at, 1);
        // The one that left may have held back smaller costs behind it.
        this.admitWaiting();
        reject(signal?.reason);
      };
      signal?.addEventListener("abort", leave, { once: true });
      this.queue.push(waiter);
    });
  }

  fits(cost: number): boolean {
    return this.used + cost <= this.budget;
  }

  private admitWaiting(): void {
    while (this.queue.length > 0 && this.fits(this.queue[0].cost)) {
      const next = this.queue.shift() as Waiter;
      next.admit(this.reserve(next.cost));
    }
  }
}

export function createAdmission(options: AdmissionOptions): Admission {
  const { budget, queueLength, limit, unit } = options;
  const retryAfterSeconds = options.retryAfterSeconds ?? 1;
  const room = new Room(budget);
  const refusal = (cost: number): AdmissionRefused =>
    new AdmissionRefused(
      `the service is at its capacity of ${budget} ${unit} in progress (${limit}) and cannot take ${cost} more now; retry after ${retryAfterSeconds} s`,
      limit,
      retryAfterSeconds,
    );
  return {
    acquire(requested, signal) {
      const cost = room.charge(requested);
      if (room.freeFor(cost)) return Promise.resolve(room.reserve(cost));
      if (room.queue.length >= queueLength) return Promise.reject(refusal(requested));
      if (signal?.aborted) return Promise.reject(signal.reason);
      return room.wait(cost, signal);
    },
    tryAcquire(requested) {
      const cost = room.charge(requested);
      return room.freeFor(cost) ? room.reserve(cost) : null;
    },
    tryAcquireAhead(requested) {
      const cost = room.charge(requested);
      return room.fits(cost) ? room.reserve(cost) : null;
    },
    refusal,
    inUse: () => room.used,
    waiting: () => room.queue.length,
  };
}
