/**
 * The bounded cache of serialized answers (src/service/answerCache.ts): bounded by count and by
 * bytes, the least recently used evicted first, oversized answers not kept.
 */
import { describe, expect, it } from "vitest";
import { answerCache } from "../../src/service/answerCache.js";

const bytes = (size: number, fill = 1) => new Uint8Array(size).fill(fill);

describe("answerCache", () => {
  it("gives back what it keeps, and nothing for an unknown key", () => {
    const cache = answerCache({ maxEntries: 4, maxBytes: 1000, maxEntryBytes: 100 });
    const answer = bytes(10, 7);
    cache.set("a", answer);
    expect(cache.get("a")).toBe(answer);
    expect(cache.get("b")).toBeUndefined();
    // Keys count two bytes a character.
    expect(cache.bytes()).toBe(2 + 10);
  });

  it("keeps at most maxEntries, evicting the least recently used", () => {
    const cache = answerCache({ maxEntries: 3, maxBytes: 1000, maxEntryBytes: 100 });
    cache.set("a", bytes(1));
    cache.set("b", bytes(1));
    cache.set("c", bytes(1));
    cache.get("a"); // now b is the least recently used
    cache.set("d", bytes(1));
    expect(cache.entries()).toBe(3);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBeDefined();
    expect(cache.get("c")).toBeDefined();
    expect(cache.get("d")).toBeDefined();
  });

  it("keeps at most maxBytes, answers and keys together", () => {
    const cache = answerCache({ maxEntries: 100, maxBytes: 100, maxEntryBytes: 100 });
    for (const key of ["k1", "k2", "k3", "k4"]) cache.set(key, bytes(30)); // 34 bytes each
    expect(cache.entries()).toBe(2);
    expect(cache.bytes()).toBe(68);
    expect(cache.get("k1")).toBeUndefined();
    expect(cache.get("k2")).toBeUndefined();
    expect(cache.get("k4")).toBeDefined();
  });

  it("does not keep an answer above maxEntryBytes, nor evict anything for it", () => {
    const cache = answerCache({ maxEntries: 10, maxBytes: 1000, maxEntryBytes: 50 });
    cache.set("small", bytes(10));
    cache.set("large", bytes(51));
    expect(cache.get("large")).toBeUndefined();
    expect(cache.get("small")).toBeDefined();
    expect(cache.bytes()).toBe(10 + 10);
  });

  it("replaces the answer of a key already kept, counting its bytes once", () => {
    const cache = answerCache({ maxEntries: 10, maxBytes: 1000, maxEntryBytes: 100 });
    cache.set("a", bytes(10, 1));
    const newer = bytes(20, 2);
    cache.set("a", newer);
    expect(cache.entries()).toBe(1);
    expect(cache.bytes()).toBe(2 + 20);
    expect(cache.get("a")).toBe(newer);
  });
});
