/*
 * yoga's cache of parsed GraphQL documents, bounded by the size of what it keeps rather than by
 * a count: yoga's own keeps 1,024 documents, whatever their size, so distinct documents of a
 * few megabytes (padding is legal) could fill the heap. Here the documents are weighed by their
 * text (their syntax tree grows with it), the least recently used go first once the budget is
 * full, and a document too large to be worth keeping is parsed each time.
 */

import { weighedCache } from "../support/weighedCache.js";

interface DocumentCacheOptions {
  /** Characters of document text kept, all documents together. */
  readonly maxChars: number;
  /** Larger documents are never kept. */
  readonly maxDocumentChars: number;
}

/** The cache yoga's `parserAndValidationCache` option takes (get, set by document text). */
interface DocumentCache<T> {
  get(text: string): T | undefined;
  set(text: string, value: T): void;
  /** Characters of document text kept now. */
  size(): number;
}

export function documentCache<T>({ maxChars, maxDocumentChars }: DocumentCacheOptions): DocumentCache<T> {
  const cache = weighedCache<string, T>(
    { maxEntries: Number.POSITIVE_INFINITY, maxWeight: maxChars, maxEntryWeight: maxDocumentChars },
    (text) => text.length,
  );
  return { get: cache.get, set: cache.set, size: cache.weight };
}
