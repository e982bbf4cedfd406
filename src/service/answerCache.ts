/*
 * Answers already serialized, kept by key, bounded by their count and their bytes (the least
 * recently used go first). The REST shim keeps here its GET answers, which are pure functions of
 * the request's edition, path and query (src/rest/index.ts): the service owns one (made at
 * start-up with the editions), so nothing is shared between services or processes.
 */

import { LRUCache } from "lru-cache";

interface AnswerCacheBounds {
  /** Answers kept at most. */
  readonly maxEntries: number;
  /** Bytes kept at most, answers and keys together (a key counted at two bytes a character). */
  readonly maxBytes: number;
  /** Larger answers are not kept. */
  readonly maxEntryBytes: number;
}

/** The bounds of the service's cache: 1,024 answers, 16 MiB, none above 1 MiB. */
const ANSWER_CACHE_BOUNDS: AnswerCacheBounds = {
  maxEntries: 1024,
  maxBytes: 16 * 1024 * 1024,
  maxEntryBytes: 1024 * 1024,
};

export interface AnswerCache {
  /** The answer kept for `key` (then the most recently used), or undefined. */
  get(key: string): Uint8Array | undefined;
  /** Keeps `bytes` for `key`, evicting the least recently used past the bounds. */
  set(key: string, bytes: Uint8Array): void;
  /** Answers kept now. */
  entries(): number;
  /** Bytes kept now (answers and keys). */
  bytes(): number;
}

/** An answer's weight: its bytes and its key's (two bytes a character). */
const answerWeight = (key: string, bytes: Uint8Array) => 2 * key.length + bytes.byteLength;

export function answerCache(bounds: AnswerCacheBounds = ANSWER_CACHE_BOUNDS): AnswerCache {
  const cache = new LRUCache<string, Uint8Array>({
    max: bounds.maxEntries,
    maxSize: bounds.maxBytes,
    maxEntrySize: bounds.maxEntryBytes,
    sizeCalculation: (bytes, key) => answerWeight(key, bytes),
  });
  return {
    get: (key) => cache.get(key),
    set: (key, bytes) => {
      cache.set(key, bytes);
    },
    entries: () => cache.size,
    bytes: () => cache.calculatedSize,
  };
}
