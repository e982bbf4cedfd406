/**
 * lru-cache as the service's caches use it (the parsed documents, the persisted queries, the kept
 * GET answers, the shared lookups): bounded by a count (`max`) and by a total weight (`maxSize`,
 * each entry weighed by `sizeCalculation`), an entry heavier than `maxEntrySize` never kept, the
 * least recently used going first. What the service relies on of the library, held here.
 */
import { LRUCache } from "lru-cache";
import { describe, expect, it } from "vitest";

const byLength = (_value: unknown, key: string) => key.length;

describe("lru-cache, as the service's caches bound it", () => {
  it("keeps at most maxSize, the least recently used going first", () => {
    const cache = new LRUCache<string, number>({ maxSize: 10, sizeCalculation: byLength });
    cache.set("aaaa", 1);
    cache.set("bbbb", 2);
    expect(cache.get("aaaa")).toBe(1); // now the most recently used
    cache.set("cccc", 3); // 12 > 10: "bbbb", the least recently used, goes
    expect(cache.get("bbbb")).toBeUndefined();
    expect([cache.get("aaaa"), cache.get("cccc")]).toEqual([1, 3]);
    expect([cache.size, cache.calculatedSize]).toEqual([2, 8]);
  });

  it("keeps at most max, and never an entry heavier than maxEntrySize", () => {
    const cache = new LRUCache<string, number>({
      max: 2,
      maxSize: 100,
      maxEntrySize: 5,
      sizeCalculation: byLength,
    });
    cache.set("a", 1);
    cache.set("b", 2);
    cache.set("c", 3);
    expect([cache.get("a"), cache.get("b"), cache.get("c")]).toEqual([undefined, 2, 3]);
    cache.set("toolong", 4);
    expect(cache.get("toolong")).toBeUndefined();
    expect([cache.size, cache.calculatedSize]).toEqual([2, 2]);
  });

  it("replacing a key's value counts its weight once", () => {
    const cache = new LRUCache<string, string>({
      max: 10,
      maxSize: 100,
      sizeCalculation: (value, key) => key.length + value.length,
    });
    cache.set("k", "xx");
    cache.set("k", "yyyy");
    expect([cache.get("k"), cache.size, cache.calculatedSize]).toEqual(["yyyy", 1, 5]);
  });

  it("evicts exactly the least recently used, a read making an entry the most recent", () => {
    // Bounded by count through maxSize, every entry weighing 1, as the shared lookups are.
    const cache = new LRUCache<string, number>({ maxSize: 3, sizeCalculation: () => 1 });
    cache.set("a", 1);
    cache.set("b", 2);
    cache.set("c", 3);
    cache.get("b");
    cache.get("a");
    cache.set("d", 4); // c, read least recently, goes
    expect(cache.get("c")).toBeUndefined();
    // Now b, a, d from the least to the most recently used: b goes first.
    cache.set("e", 5);
    expect([cache.get("a"), cache.get("b"), cache.get("d"), cache.get("e")]).toEqual([1, undefined, 4, 5]);
  });
});
