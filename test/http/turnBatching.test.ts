import { describe, expect, it } from "vitest";
import { createTurnBatch } from "../../src/http/turnBatching.js";

/** Resolves after the check phase of the current turn (a later setImmediate runs after it). */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("turn writes (answers of one event-loop turn written together)", () => {
  it("writes nothing during the turn, then every queued write in order at its end", async () => {
    const turnWrites = createTurnBatch();
    const written: string[] = [];
    const settled = ["a", "b", "c"].map((name) => turnWrites.queue(() => written.push(name)));
    // Microtasks of the same turn (the rest of the requests' work) still see nothing written.
    await Promise.resolve();
    expect(written).toEqual([]);
    await Promise.all(settled);
    expect(written).toEqual(["a", "b", "c"]);
  });

  it("a write queued in a later turn is written at the end of that turn", async () => {
    const turnWrites = createTurnBatch();
    const written: string[] = [];
    await turnWrites.queue(() => written.push("first"));
    const second = turnWrites.queue(() => written.push("second"));
    expect(written).toEqual(["first"]);
    await second;
    expect(written).toEqual(["first", "second"]);
  });

  it("a throwing write rejects its own promise; the writes after it still happen", async () => {
    const turnWrites = createTurnBatch();
    const written: string[] = [];
    const failing = turnWrites.queue(() => {
      throw new TypeError("invalid header");
    });
    const after = turnWrites.queue(() => written.push("after"));
    await expect(failing).rejects.toThrow("invalid header");
    await after;
    expect(written).toEqual(["after"]);
  });

  it("queues of two handlers are independent", async () => {
    const one = createTurnBatch();
    const other = createTurnBatch();
    const written: string[] = [];
    const settled = [one.queue(() => written.push("one")), other.queue(() => written.push("other"))];
    await nextTurn();
    await Promise.all(settled);
    expect(written.sort()).toEqual(["one", "other"]);
  });
});

describe("work after the turn's reads", () => {
  it("starts after the callbacks of the current turn, each one's microtasks before the next", async () => {
    const batch = createTurnBatch();
    const order: string[] = [];
    const work = (name: string) =>
      batch.afterReads().then(async () => {
        order.push(`${name} starts`);
        await Promise.resolve();
        order.push(`${name} ends`);
      });
    const done = [work("a"), work("b")];
    // Still in the turn that "read" both: neither has started.
    await Promise.resolve();
    order.push("reads done");
    await Promise.all(done);
    expect(order).toEqual(["reads done", "a starts", "a ends", "b starts", "b ends"]);
  });
});

describe("a turn's answers written in the same turn as its work", () => {
  it("writes the answers of the turn's requests before the work queued for the next turn", async () => {
    const batch = createTurnBatch();
    const order: string[] = [];
    // `a`'s work queues more work for the next turn (as a fleet's slice does), then its answer.
    const a = batch.afterReads().then(() => {
      setImmediate(() => order.push("next turn's work"));
      return batch.queue(() => order.push("a written"));
    });
    const b = batch.afterReads().then(() => batch.queue(() => order.push("b written")));
    await Promise.all([a, b]);
    await nextTurn();
    expect(order).toEqual(["a written", "b written", "next turn's work"]);
  });

  it("an answer completed in a later turn is still written, once", async () => {
    const batch = createTurnBatch();
    const written: string[] = [];
    await batch.afterReads();
    await nextTurn();
    await batch.queue(() => written.push("late"));
    await nextTurn();
    expect(written).toEqual(["late"]);
  });
});
