import type { Capacity, Limits } from "../../config/serviceConfig.js";
import { limitReply, type Reply } from "../reply.js";
import { CLIENT_GONE, type Hold } from "../route.js";
import { AdmissionRefused, createAdmission, type Lease } from "./admission.js";
import type { Cancellation } from "./cancellation.js";

/*
 * Fleet items evaluated at once, all requests together (MAX_CONCURRENT_FLEET_ITEMS): GraphQL
 * fleets ask before their first item (scheduling.ts); a large body asks before it is parsed.
 */

/**
 * GraphQL bodies from this size on may carry a large fleet: they wait for room in
 * MAX_CONCURRENT_FLEET_ITEMS before they are parsed, so that the requests waiting hold their
 * bytes, not their parsed variables (tens of megabytes each for 10,000 items).
 */
const LARGE_GRAPHQL_BODY_BYTES = 64 * 1024;
/** Bytes of a fleet item in a body, about: a large body's items are estimated from its size. */
const BODY_BYTES_PER_FLEET_ITEM = 256;

export function fleetAdmission(limits: Limits, capacity: Capacity) {
  const fleets = createAdmission({
    budget: capacity.maxConcurrentFleetItems,
    queueLength: capacity.admissionQueueLength,
    limit: "MAX_CONCURRENT_FLEET_ITEMS",
    unit: "fleet items",
  });

  /**
   * A large GraphQL body waits for room for the fleet items it may carry (estimated from its
   * size) before it is parsed: at most EXECUTION_TIMEOUT_MS, then 503 like a full queue. The
   * lease is resized to the exact count once the fleets are known (`admitFleetItems`).
   */
  async function admitLargeBody(
    body: Buffer,
    cancellation: Cancellation,
    hold: Hold,
  ): Promise<Lease | Reply | null> {
    if (body.length < LARGE_GRAPHQL_BODY_BYTES) return null;
    const estimate = Math.ceil(body.length / BODY_BYTES_PER_FLEET_ITEM);
    const signal = cancellation.signal;
    const waited = AbortSignal.any([signal, AbortSignal.timeout(limits.executionTimeoutMs)]);
    try {
      const lease = await fleets.acquire(estimate, waited);
      hold(() => lease.release());
      return lease;
    } catch (error) {
      if (signal.aborted) return CLIENT_GONE;
      const refusal =
        error instanceof AdmissionRefused
          ? error
          : new AdmissionRefused(
              `the service had no room for this request's fleet items within ${limits.executionTimeoutMs} ms (MAX_CONCURRENT_FLEET_ITEMS, EXECUTION_TIMEOUT_MS); retry later`,
              "MAX_CONCURRENT_FLEET_ITEMS",
              1,
            );
      return limitReply(503, true, refusal.message, refusal.limit, {
        "retry-after": String(refusal.retryAfterSeconds),
      });
    }
  }

  /**
   * Room for a GraphQL request's fleet items, exactly counted: the lease of a large body is
   * resized when it can be; otherwise (a small body, or more items than its size suggested) the
   * request waits in the queue, holding nothing.
   */
  async function admitFleetItems(items: number, held: Lease | null, signal: AbortSignal, hold: Hold) {
    if (held?.resize(items)) return;
    held?.release();
    const lease = await fleets.acquire(items, signal);
    hold(() => lease.release());
  }

  return { admission: fleets, admitLargeBody, admitFleetItems };
}
