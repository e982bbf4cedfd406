/**
 * One request's cancellation (src/http/limits/cancellation.ts): the client gone and the execution budget
 * cancel the same object, the first reason is kept, and its AbortSignal exists only once asked for.
 */
import { describe, expect, it } from "vitest";
import { Cancellation } from "../../src/http/limits/cancellation.js";

describe("Cancellation", () => {
  it("keeps the first reason and calls each listener once", () => {
    const cancellation = new Cancellation();
    const calls: string[] = [];
    cancellation.onCancel(() => calls.push("a"));
    cancellation.onCancel(() => calls.push("b"));
    expect(cancellation.cancelled).toBe(false);
    expect(cancellation.reason).toBeUndefined();
    const first = new Error("budget spent");
    cancellation.cancel(first);
    cancellation.cancel(new Error("client gone"));
    expect(cancellation.cancelled).toBe(true);
    expect(cancellation.reason).toBe(first);
    expect(calls).toEqual(["a", "b"]);
  });

  it("does not call a removed listener, and calls one added after the cancellation at once", () => {
    const cancellation = new Cancellation();
    const calls: string[] = [];
    const remove = cancellation.onCancel(() => calls.push("removed"));
    cancellation.onCancel(() => calls.push("kept"));
    remove();
    cancellation.cancel("why");
    cancellation.onCancel(() => calls.push("late"));
    expect(calls).toEqual(["kept", "late"]);
  });

  it("aborts a signal asked for before the cancellation, with its reason", () => {
    const cancellation = new Cancellation();
    const signal = cancellation.signal;
    expect(cancellation.signal).toBe(signal);
    let seen: unknown = null;
    signal.addEventListener("abort", () => {
      seen = signal.reason;
    });
    expect(signal.aborted).toBe(false);
    cancellation.cancel("the client disconnected");
    expect(signal.aborted).toBe(true);
    expect(seen).toBe("the client disconnected");
  });

  it("gives an already aborted signal when first asked after the cancellation", () => {
    const cancellation = new Cancellation();
    const reason = new Error("past the budget");
    cancellation.cancel(reason);
    expect(cancellation.signal.aborted).toBe(true);
    expect(cancellation.signal.reason).toBe(reason);
  });
});
