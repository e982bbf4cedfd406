import type { Capacity } from "../../config/serviceConfig.js";
import { BodyMemoryRefused, type HeapAdmission } from "../../support/steppedJson.js";
import type { Hold } from "../route.js";
import { type Admission, AdmissionRefused, createAdmission, type Lease } from "./admission.js";

/*
 * The heap of the request bodies parsed at once, all transports together (MAX_PARSED_BYTES_IN_FLIGHT):
 * a REST body, a `/graphql` body and a batch line each state what their parse will build —
 * estimated by the scan of their text (src/support/jsonScan.ts), their text included — before
 * anything is built, and hold it until their request (a batch's line) has stopped working. What
 * does not fit waits in a queue of ADMISSION_QUEUE_LENGTH; past the queue, 503 with Retry-After;
 * a body estimated past the whole budget, 413: it could never fit. A light body (LIGHT_BODY_BYTES)
 * takes room ahead of the large ones waiting when there is some: queued behind them, a single
 * request waited for their whole parse (9.7 s beside eight bodies of 700,000 records and a fleet).
 */

export const PARSED_BYTES_LIMIT = "MAX_PARSED_BYTES_IN_FLIGHT";

/**
 * A body estimated at this much or less is light: read in one stretch (any body under 64 KiB but
 * the densest), gone within its request's few milliseconds; an ordinary request's is a few kB.
 */
const LIGHT_BODY_BYTES = 1024 * 1024;

/** What one body's admission is given: where its hold goes, and what may end its wait. */
export interface HeapRequest {
  /** Holds the body's bytes until the request's work has stopped. */
  readonly hold: Hold;
  /** Its signal aborts when the wait is given up (the client gone, the execution budget spent); read only to wait. */
  readonly cancellation: { readonly signal: AbortSignal };
  /**
   * Fleet items the request holds already (a large GraphQL body's, fleetAdmission.ts): given back
   * before it waits, so that no request waits for heap while holding fleet items (those who hold
   * heap may wait for fleet items: the budgets are always taken in that order).
   */
  readonly fleetLease?: Lease | null;
  /** Told when the body starts and stops waiting. */
  readonly waiting?: (waiting: boolean) => void;
}

const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

export function bodyHeapAdmission(capacity: Capacity) {
  const budget = capacity.maxParsedBytesInFlight;
  const parsed: Admission = createAdmission({
    budget,
    queueLength: capacity.admissionQueueLength,
    limit: PARSED_BYTES_LIMIT,
    unit: "bytes of parsed request bodies",
  });

  /** The admission of one body's heap (see the module's comment). */
  function admit({ hold, cancellation, fleetLease, waiting }: HeapRequest): HeapAdmission {
    return async (bytes) => {
      if (bytes > budget) {
        throw new BodyMemoryRefused(
          `the request body would take about ${megabytes(bytes)} of memory once parsed (its text and what is built of it), more than all the bodies parsed at once may take, ${megabytes(budget)} (${PARSED_BYTES_LIMIT})`,
          413,
          PARSED_BYTES_LIMIT,
        );
      }
      const now = bytes <= LIGHT_BODY_BYTES ? parsed.tryAcquireAhead(bytes) : parsed.tryAcquire(bytes);
      if (now !== null) return hold(() => now.release());
      fleetLease?.release();
      waiting?.(true);
      try {
        const lease = await parsed.acquire(bytes, cancellation.signal);
        hold(() => lease.release());
      } catch (error) {
        if (!(error instanceof AdmissionRefused)) throw error;
        throw new BodyMemoryRefused(error.message, 503, error.limit, error.retryAfterSeconds);
      } finally {
        waiting?.(false);
      }
    };
  }

  return { admission: parsed, admit };
}
