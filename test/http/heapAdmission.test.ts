/**
 * The admission of request bodies' heap (src/http/limits/bodyHeap.ts, MAX_PARSED_BYTES_IN_FLIGHT),
 * alone: what fits is held until its request lets go, what does not waits in the queue, past the
 * queue 503 with Retry-After, past the whole budget 413; a request holding fleet items gives them
 * back before it waits.
 */
import { describe, expect, it } from "vitest";
import { createAdmission } from "../../src/http/limits/admission.js";
import { bodyHeapAdmission } from "../../src/http/limits/bodyHeap.js";
import { BodyMemoryRefused } from "../../src/support/steppedJson.js";

const capacity = { maxParsedBytesInFlight: 10_000_000, admissionQueueLength: 2 } as Parameters<
  typeof bodyHeapAdmission
>[0];

/** A request's hold: its releases, called when it ends. */
function aRequest() {
  const releases: (() => void)[] = [];
  const cancel = new AbortController();
  return {
    hold: (release: () => void) => releases.push(release),
    cancellation: { signal: cancel.signal },
    cancel: (reason: unknown) => cancel.abort(reason),
    end: () => {
      for (const release of releases.splice(0)) release();
    },
  };
}

describe("the heap of the bodies parsed at once", () => {
  it("holds what fits until the request ends; what does not fit waits, first come first served", async () => {
    const { admission, admit } = bodyHeapAdmission(capacity);
    const first = aRequest();
    await admit(first)(6_000_000);
    expect(admission.inUse()).toBe(6_000_000);
    const second = aRequest();
    const third = aRequest();
    const order: string[] = [];
    const waits = [
      admit(second)(5_000_000).then(() => order.push("second")),
      admit(third)(3_000_000).then(() => order.push("third")),
    ];
    expect(admission.waiting()).toBe(2);
    first.end();
    await Promise.all(waits);
    expect(order).toEqual(["second", "third"]);
    expect(admission.inUse()).toBe(8_000_000);
    second.end();
    third.end();
    expect(admission.inUse()).toBe(0);
  });

  it("a light body (1 MiB or less) takes room ahead of the large ones waiting, when there is some", async () => {
    const { admission, admit } = bodyHeapAdmission(capacity);
    const holder = aRequest();
    await admit(holder)(7_000_000);
    const large = aRequest();
    const waiting = admit(large)(5_000_000);
    const light = aRequest();
    await admit(light)(1_000_000);
    expect([admission.inUse(), admission.waiting()]).toEqual([8_000_000, 1]);
    // Heavier than light: behind the one waiting, as it came after it
    const heavier = admit(aRequest())(1_100_000);
    expect(admission.waiting()).toBe(2);
    holder.end();
    light.end();
    await waiting;
    await heavier;
    large.end();
  });

  it("refuses past the queue with 503 and Retry-After, past the whole budget with 413, naming the budget", async () => {
    const { admission, admit } = bodyHeapAdmission(capacity);
    const holder = aRequest();
    await admit(holder)(10_000_000);
    const waiting = [aRequest(), aRequest()];
    const waits = waiting.map((request) => admit(request)(100_000));
    const refused = admit(aRequest())(10);
    await expect(refused).rejects.toBeInstanceOf(BodyMemoryRefused);
    await expect(refused).rejects.toMatchObject({
      status: 503,
      limit: "MAX_PARSED_BYTES_IN_FLIGHT",
      retryAfterSeconds: 1,
    });
    const tooLarge = admit(aRequest())(10_000_001);
    await expect(tooLarge).rejects.toMatchObject({ status: 413, limit: "MAX_PARSED_BYTES_IN_FLIGHT" });
    await expect(tooLarge).rejects.toThrow(
      "the request body would take about 10.0 MB of memory once parsed (its text and what is built of it), more than all the bodies parsed at once may take, 10.0 MB (MAX_PARSED_BYTES_IN_FLIGHT)",
    );
    holder.end();
    await Promise.all(waits);
    for (const request of waiting) request.end();
    expect([admission.inUse(), admission.waiting()]).toEqual([0, 0]);
  });

  it("a wait given up (client gone, budget spent) leaves the queue with its reason", async () => {
    const { admission, admit } = bodyHeapAdmission(capacity);
    const holder = aRequest();
    await admit(holder)(9_000_000);
    const leaving = aRequest();
    const seen: boolean[] = [];
    const wait = admit({ ...leaving, waiting: (waiting) => seen.push(waiting) })(2_000_000);
    leaving.cancel(new Error("the client disconnected"));
    await expect(wait).rejects.toThrow("the client disconnected");
    expect(seen).toEqual([true, false]);
    expect(admission.waiting()).toBe(0);
    holder.end();
    expect(admission.inUse()).toBe(0);
  });

  it("a request holding fleet items gives them back before it waits, never while it fits at once", async () => {
    const fleets = createAdmission({
      budget: 10,
      queueLength: 1,
      limit: "MAX_CONCURRENT_FLEET_ITEMS",
      unit: "",
    });
    const { admit } = bodyHeapAdmission(capacity);
    const fits = aRequest();
    const fitsLease = await fleets.acquire(4);
    await admit({ ...fits, fleetLease: fitsLease })(5_000_000);
    expect(fleets.inUse()).toBe(4);
    const waits = aRequest();
    const waitsLease = await fleets.acquire(6);
    const waiting = admit({ ...waits, fleetLease: waitsLease })(6_000_000);
    // Given back at once: whoever holds heap may now take fleet items without waiting for it
    expect(fleets.inUse()).toBe(4);
    fits.end();
    await waiting;
    waits.end();
    fitsLease.release();
    expect(fleets.inUse()).toBe(0);
  });
});
