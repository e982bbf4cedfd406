/**
 * A fleet's items are released chunk by chunk (src/schema/execution/scheduling.ts); the releasing loop runs
 * until the last chunk, so it must not keep what it already released: with `@stream`, an item
 * (its model) is garbage once it is sent, not at the end of the answer.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { releaseInChunks } from "../../src/schema/execution/scheduling.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** Collected entries, counted in the same turn (no further chunk is released meanwhile). */
function collected(refs: readonly WeakRef<object>[]): number {
  gc();
  gc();
  return refs.filter((ref) => ref.deref() === undefined).length;
}

describe("releaseInChunks", () => {
  it("forgets each entry once released, while later chunks are still pending", async () => {
    const count = 200_000;
    let entries: { payload: number[] }[] | null = Array.from({ length: count }, (_, i) => ({ payload: [i] }));
    const early = entries.slice(0, 100).map((entry) => new WeakRef(entry));
    let promises: Promise<{ payload: number[] }>[] | null = releaseInChunks(
      entries,
      new AbortController().signal,
    );
    const last = promises[count - 1];
    const middle = promises[5000];
    entries = null;
    promises = null;
    // Entry 5,000 is released a few turns in, the last one many turns later.
    expect((await middle).payload).toEqual([5000]);
    let lastSettled = false;
    void last.then(() => {
      lastSettled = true;
    });
    const freed = collected(early);
    expect(lastSettled).toBe(false);
    expect(freed).toBe(early.length);
    expect((await last).payload).toEqual([count - 1]);
  });
});
