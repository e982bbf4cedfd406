/**
 * A fleet's items are handed out chunk by chunk (src/schema/execution/scheduling.ts); the loop runs
 * until the last chunk, so it must not keep what it already handed out: an item (its model) is
 * garbage once its fields are answered, not at the end of the answer.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { GraphQLError } from "graphql";
import { describe, expect, it } from "vitest";
import { releaseInChunks } from "../../src/schema/execution/scheduling.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** Collected entries, counted in the same turn (no further chunk is handed out meanwhile). */
function collected(refs: readonly WeakRef<object>[]): number {
  gc();
  gc();
  return refs.filter((ref) => ref.deref() === undefined).length;
}

describe("releaseInChunks", () => {
  it("forgets each entry once handed out, while later chunks are still pending", async () => {
    const count = 200_000;
    let entries: { payload: number[] }[] | null = Array.from({ length: count }, (_, i) => ({ payload: [i] }));
    const early = entries.slice(0, 100).map((entry) => new WeakRef(entry));
    const items = releaseInChunks(entries, new AbortController().signal);
    entries = null;
    let taken: unknown;
    for (let i = 0; i <= 5000; i++) taken = (await items.next()).value;
    expect(taken).toEqual({ payload: [5000] });
    expect(collected(early)).toBe(early.length);
    let last: unknown;
    let seen = 5001;
    for await (const item of items) {
      last = item;
      seen += 1;
    }
    expect(seen).toBe(count);
    expect(last).toEqual({ payload: [count - 1] });
  });

  it("once cancelled, hands out the cancellation for every entry left, in order", async () => {
    const controller = new AbortController();
    const items = releaseInChunks([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], controller.signal);
    // The first chunk is 8 entries.
    const first: unknown[] = [];
    for (let i = 0; i < 8; i++) first.push((await items.next()).value);
    expect(first).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    controller.abort(new Error("the client went away"));
    const rest: unknown[] = [];
    for await (const item of items) rest.push(item);
    expect(rest).toHaveLength(4);
    for (const item of rest) {
      expect(item).toBeInstanceOf(GraphQLError);
      expect((item as GraphQLError).message).toContain("the client went away");
    }
  });

  it("tells `completed` of a chunk's entries after the microtasks that follow it", async () => {
    const order: string[] = [];
    const items = releaseInChunks(["a", "b"], new AbortController().signal, undefined, (entry) =>
      order.push(`${String(entry)} completed`),
    );
    for await (const item of items) {
      // The item's fields, resolved in a microtask after it is taken.
      void Promise.resolve().then(() => order.push(`${String(item)} answered`));
    }
    expect(order).toEqual(["a answered", "b answered", "a completed", "b completed"]);
  });
});
