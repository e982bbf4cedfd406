/*
 * yoga's cache of parsed GraphQL documents, bounded by the size of what it keeps rather than by
 * a count: yoga's own keeps 1,024 documents, whatever their size, so distinct documents of a
 * few megabytes (padding is legal) could fill the heap. Here the documents are weighed by their
 * text (their syntax tree grows with it), the least recently used go first once the budget is
 * full, and a document too large to be worth keeping is parsed each time.
 */

export interface DocumentCacheOptions {
  /** Characters of document text kept, all documents together. */
  readonly maxChars: number;
  /** Larger documents are never kept. */
  readonly maxDocumentChars: number;
}

/** The cache yoga's `parserAndValidationCache` option takes (get, set by document text). */
export interface DocumentCache<T> {
  get(text: string): T | undefined;
  set(text: string, value: T): void;
  /** Characters of document text kept now. */
  size(): number;
}

export function documentCache<T>({ maxChars, maxDocumentChars }: DocumentCacheOptions): DocumentCache<T> {
  // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
  const entries = new Map<string, T>();
  let kept = 0;
  return {
    get(text) {
      const value = entries.get(text);
      if (value !== undefined) {
        entries.delete(text);
        entries.set(text, value);
      }
      return value;
    },
    set(text, value) {
      if (text.length > maxDocumentChars) return;
      if (entries.delete(text)) kept -= text.length;
      entries.set(text, value);
      kept += text.length;
      for (const oldest of entries.keys()) {
        if (kept <= maxChars) break;
        entries.delete(oldest);
        kept -= oldest.length;
      }
    },
    size: () => kept,
  };
}
