import { type APQStore, useAPQ } from "@graphql-yoga/plugin-apq";
import type { Plugin } from "graphql-yoga";
import { weighedCache } from "../support/weighedCache.js";

/*
 * Automatic persisted queries (Apollo's APQ protocol, yoga's plugin): a client sends the SHA-256
 * of its document in `extensions.persistedQuery`; an unknown hash is answered
 * PERSISTED_QUERY_NOT_FOUND (the client then sends the document with its hash, which is checked:
 * a wrong hash is PERSISTED_QUERY_MISMATCH) and later requests carry the hash alone.
 */

export interface PersistedQueryBounds {
  /** Characters of document text kept, all documents together. */
  readonly maxChars: number;
  /** Larger documents are checked and run but not kept (their client sends them again). */
  readonly maxDocumentChars: number;
}

/** The documents registered by hash, bounded by their text (the least recently used go first). */
function boundedStore({ maxChars, maxDocumentChars }: PersistedQueryBounds): APQStore {
  const kept = weighedCache<string, string>(
    { maxEntries: Number.POSITIVE_INFINITY, maxWeight: maxChars, maxEntryWeight: maxDocumentChars },
    (document) => document.length,
  );
  return { get: (hash) => kept.get(hash), set: (hash, document) => kept.set(hash, document) };
}

/**
 * yoga's APQ plugin over a bounded store. PERSISTED_QUERY_NOT_FOUND is answered 200 under
 * `application/json` (the status Apollo's link reads as "send the document") and 404 under
 * `application/graphql-response+json`, like every error of a well-formed request (httpErrors.ts).
 */
export function persistedQueriesPlugin(bounds: PersistedQueryBounds): Plugin {
  return useAPQ({ store: boundedStore(bounds) });
}
