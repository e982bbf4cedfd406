/*
 * A cache bounded by what it keeps: a count of entries and a total weight (bytes, characters: the
 * caller weighs), an entry heavier than `maxEntryWeight` never kept. Past the bounds the least
 * recently used go first, as "second chance" approximates it: entries leave in the order they
 * came in, except that one read since then is given another round (moved to the end) instead. A
 * read only marks its entry: re-inserting it at every read, as an exact order needs, would rewrite
 * the Map's table and keep the reader's key — a string made for that read — in place of the stored
 * one, and a cache lives in the old generation, so every read of a shared cache would promote a key
 * and a table to it (bench/README.md, "Caches read by second chance"). The service's caches
 * (yoga's parsed documents, the shim's kept GET answers, the engine's shared lookups) are this one
 * mechanism with their own bounds and weights.
 */

interface WeighedCacheBounds {
  /** Entries kept at most. */
  readonly maxEntries: number;
  /** Weight kept at most, all entries together. */
  readonly maxWeight: number;
  /** Heavier entries are never kept. */
  readonly maxEntryWeight: number;
}

interface WeighedCache<K, V> {
  /** The value kept for `key` (marked as read), or undefined. */
  get(key: K): V | undefined;
  /** Keeps `value` for `key`, the least recently used going first past the bounds. */
  set(key: K, value: V): void;
  /** Entries kept now. */
  entries(): number;
  /** Weight kept now. */
  weight(): number;
}

interface Entry<V> {
  readonly value: V;
  readonly weight: number;
  /** Read since it was (re)inserted: passed over once when its turn to go comes. */
  read: boolean;
}

export function weighedCache<K, V>(
  bounds: WeighedCacheBounds,
  weigh: (key: K, value: V) => number,
): WeighedCache<K, V> {
  // A Map iterates in insertion order: its first entry is the next to go.
  const kept = new Map<K, Entry<V>>();
  let total = 0;

  function remove(key: K): void {
    const entry = kept.get(key);
    if (entry === undefined) return;
    kept.delete(key);
    total -= entry.weight;
  }

  /** Removes the first entry not read since its insertion; read ones met on the way go to the end. */
  function evictOne(): void {
    for (const [key, entry] of kept) {
      kept.delete(key);
      if (entry.read) {
        entry.read = false;
        kept.set(key, entry);
        continue;
      }
      total -= entry.weight;
      return;
    }
  }

  return {
    get(key) {
      const entry = kept.get(key);
      if (entry === undefined) return undefined;
      entry.read = true;
      return entry.value;
    },
    set(key, value) {
      remove(key);
      const weight = weigh(key, value);
      if (bounds.maxEntries < 1 || weight > bounds.maxEntryWeight || weight > bounds.maxWeight) return;
      while (kept.size > 0 && (kept.size >= bounds.maxEntries || total + weight > bounds.maxWeight)) {
        evictOne();
      }
      kept.set(key, { value, weight, read: false });
      total += weight;
    },
    entries: () => kept.size,
    weight: () => total,
  };
}
