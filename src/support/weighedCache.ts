/*
 * A least-recently-used cache bounded by what it keeps: a count of entries and a total weight
 * (bytes, characters: the caller weighs), an entry heavier than `maxEntryWeight` never kept. The
 * service's caches (yoga's parsed documents, the shim's kept GET answers) are this one mechanism
 * with their own bounds and weights.
 */

export interface WeighedCacheBounds {
  /** Entries kept at most. */
  readonly maxEntries: number;
  /** Weight kept at most, all entries together. */
  readonly maxWeight: number;
  /** Heavier entries are never kept. */
  readonly maxEntryWeight: number;
}

export interface WeighedCache<K, V> {
  /** The value kept for `key` (then the most recently used), or undefined. */
  get(key: K): V | undefined;
  /** Keeps `value` for `key`, the least recently used going first past the bounds. */
  set(key: K, value: V): void;
  /** Entries kept now. */
  entries(): number;
  /** Weight kept now. */
  weight(): number;
}

export function weighedCache<K, V>(
  bounds: WeighedCacheBounds,
  weigh: (key: K, value: V) => number,
): WeighedCache<K, V> {
  // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
  const kept = new Map<K, { readonly value: V; readonly weight: number }>();
  let used = 0;

  function remove(key: K): void {
    const entry = kept.get(key);
    if (entry === undefined) return;
    kept.delete(key);
    used -= entry.weight;
  }

  return {
    get(key) {
      const entry = kept.get(key);
      if (entry === undefined) return undefined;
      kept.delete(key);
      kept.set(key, entry);
      return entry.value;
    },
    set(key, value) {
      remove(key);
      const weight = weigh(key, value);
      if (bounds.maxEntries < 1 || weight > bounds.maxEntryWeight || weight > bounds.maxWeight) return;
      while (kept.size > 0 && (kept.size >= bounds.maxEntries || used + weight > bounds.maxWeight)) {
        remove(kept.keys().next().value as K);
      }
      kept.set(key, { value, weight });
      used += weight;
    },
    entries: () => kept.size,
    weight: () => used,
  };
}
