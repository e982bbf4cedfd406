/**
 * The one bounded cache behind the parsed-document, kept-answer and shared-lookup caches: least
 * recently used first, as "second chance" approximates it (src/support/weighedCache.ts).
 */
import { describe, expect, it } from "vitest";
import { weighedCache } from "../../src/support/weighedCache.js";

const byLength = (key: string) => key.length;

describe("weighedCache", () => {
  it("keeps at most maxWeight, the least recently used going first", () => {
    const cache = weighedCache<string, number>(
      { maxEntries: Infinity, maxWeight: 10, maxEntryWeight: 10 },
      byLength,
    );
    cache.set("aaaa", 1);
    cache.set("bbbb", 2);
    expect(cache.get("aaaa")).toBe(1); // now the most recently used
    cache.set("cccc", 3); // 12 > 10: "bbbb", the least recently used, goes
    expect(cache.get("bbbb")).toBeUndefined();
    expect([cache.get("aaaa"), cache.get("cccc")]).toEqual([1, 3]);
    expect([cache.entries(), cache.weight()]).toEqual([2, 8]);
  });

  it("keeps at most maxEntries, and never an entry heavier than maxEntryWeight", () => {
    const cache = weighedCache<string, number>(
      { maxEntries: 2, maxWeight: 100, maxEntryWeight: 5 },
      byLength,
    );
    cache.set("a", 1);
    cache.set("b", 2);
    cache.set("c", 3);
    expect([cache.get("a"), cache.get("b"), cache.get("c")]).toEqual([undefined, 2, 3]);
    cache.set("toolong", 4);
    expect(cache.get("toolong")).toBeUndefined();
    expect([cache.entries(), cache.weight()]).toEqual([2, 2]);
  });

  it("replacing a key's value counts its weight once", () => {
    const cache = weighedCache<string, string>(
      { maxEntries: 10, maxWeight: 100, maxEntryWeight: 100 },
      (k, v) => k.length + v.length,
    );
    cache.set("k", "xx");
    cache.set("k", "yyyy");
    expect([cache.get("k"), cache.entries(), cache.weight()]).toEqual(["yyyy", 1, 5]);
  });

  it("passes once over each entry read since it came in, the others going in the order they came", () => {
    const cache = weighedCache<string, number>(
      { maxEntries: 3, maxWeight: Infinity, maxEntryWeight: 1 },
      () => 1,
    );
    cache.set("a", 1);
    cache.set("b", 2);
    cache.set("c", 3);
    cache.get("b");
    cache.get("a");
    cache.set("d", 4); // a and b were read: each passed over once (to the end, unmarked), c goes
    expect(cache.get("c")).toBeUndefined();
    // Now a, b, d in that order, unread: a goes first (exactly least recently used, b would).
    cache.set("e", 5);
    expect([cache.get("a"), cache.get("b"), cache.get("d"), cache.get("e")]).toEqual([undefined, 2, 4, 5]);
  });
});
