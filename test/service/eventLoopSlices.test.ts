/**
 * A request's item-by-item jobs (src/service/eventLoopSlices.ts, chunkScheduler): run in order of arrival,
 * except a job queued `ahead` — a reference lookup's batch that the items being prepared await —
 * which runs before the rest of the jobs already queued.
 */
import { describe, expect, it } from "vitest";
import { chunkScheduler } from "../../src/service/eventLoopSlices.js";

const never = new AbortController().signal;

/** An item's work: a busy loop on the clock, so 1,000 items span several slices on any machine. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // the item's work
  }
}
const cancellation = () => new Error("cancelled");

describe("chunkScheduler", () => {
  it("runs jobs in the order they were queued, each item once, answering its results in order", async () => {
    const scheduler = chunkScheduler(never, cancellation);
    const seen: string[] = [];
    const [a, b] = await Promise.all([
      scheduler.map([1, 2, 3], (n) => {
        seen.push(`a${n}`);
        return n * 10;
      }),
      scheduler.map([1, 2], (n) => {
        seen.push(`b${n}`);
        return n + 0.5;
      }),
    ]);
    expect(a).toEqual([10, 20, 30]);
    expect(b).toEqual([1.5, 2.5]);
    expect(seen).toEqual(["a1", "a2", "a3", "b1", "b2"]);
  });

  it("runs a job queued ahead before the remaining items of the jobs queued earlier", async () => {
    const scheduler = chunkScheduler(never, cancellation);
    const seen: string[] = [];
    // The first item of the long job queues a lookup batch, as an item being prepared does (the
    // loader's batch is dispatched after the slice's steps, in its microtasks).
    const long = scheduler.map(
      Array.from({ length: 1000 }, (_, i) => i),
      (i) => {
        if (i === 0) {
          queueMicrotask(() => {
            void scheduler.map(
              ["cpu"],
              (key) => seen.push(`lookup ${key} after ${seen.length} items`),
              "ahead",
            );
          });
        }
        busy(0.05);
        seen.push("item");
      },
    );
    await long;
    const lookup = seen.findIndex((entry) => entry.startsWith("lookup"));
    expect(lookup).toBeGreaterThan(0);
    // Ahead: the lookup ran in the slice after the first (SLICE_MS of 0.05 ms items), not after
    // the 1,000 items (50 ms of them).
    expect(lookup).toBeLessThan(1000);
    expect(seen.filter((entry) => entry === "item")).toHaveLength(1000);
  });
});
