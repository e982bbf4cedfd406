import { type APQStore, useAPQ } from "@graphql-yoga/plugin-apq";
import { GraphQLError } from "graphql";
import type { Plugin } from "graphql-yoga";
import { LRUCache } from "lru-cache";

/*
 * Automatic persisted queries (Apollo's APQ protocol, yoga's plugin): a client sends the SHA-256
 * of its document in `extensions.persistedQuery`; an unknown hash is answered
 * PERSISTED_QUERY_NOT_FOUND (the client then sends the document with its hash, which is checked:
 * a wrong hash is PERSISTED_QUERY_MISMATCH) and later requests carry the hash alone.
 * Trusted documents only (PERSISTED_ONLY=true): the documents of PERSISTED_DOCUMENTS alone run,
 * named by their hash; a document sent as text is refused, so is an unknown hash.
 */

interface PersistedQueryBounds {
  /** Characters of document text kept, all documents together. */
  readonly maxChars: number;
  /** Larger documents are checked and run but not kept (their client sends them again). */
  readonly maxDocumentChars: number;
}

/** The documents registered by hash, bounded by their text (the least recently used go first). */
function boundedStore({ maxChars, maxDocumentChars }: PersistedQueryBounds): APQStore {
  const kept = new LRUCache<string, string>({
    maxSize: maxChars,
    maxEntrySize: maxDocumentChars,
    // lru-cache weighs an entry at least 1: an empty text counts as one character.
    sizeCalculation: (document) => Math.max(1, document.length),
  });
  return {
    get: (hash) => kept.get(hash),
    set: (hash, document) => {
      kept.set(hash, document);
    },
  };
}

/** The refusal of a document sent as text when only trusted documents run. */
const persistedOnly = new GraphQLError(
  "Only trusted documents run here (PERSISTED_ONLY): send a document's SHA-256 in extensions.persistedQuery, without its text",
  { extensions: { code: "PERSISTED_QUERY_ONLY", http: { status: 400 } } },
);

/** Trusted documents only: a request without a persisted hash, or with a text, is refused. */
function trustedOnly(documents: ReadonlyMap<string, string>): Plugin[] {
  return [
    {
      onParams({ params, setResult }) {
        const persisted = (params.extensions as { persistedQuery?: unknown } | undefined)?.persistedQuery;
        if (params.query != null || persisted == null) setResult({ errors: [persistedOnly] });
      },
    },
    // Read-only: the documents of the file, nothing registered by a client.
    useAPQ({ store: { get: (hash) => documents.get(hash), set: () => undefined } }),
  ];
}

/**
 * yoga's APQ plugin over a bounded store (or, with `trusted`, over the trusted documents alone). PERSISTED_QUERY_NOT_FOUND is answered 200 under
 * `application/json` (the status Apollo's link reads as "send the document") and 404 under
 * `application/graphql-response+json`, like every error of a well-formed request (httpErrors.ts).
 */
export function persistedQueriesPlugin(
  bounds: PersistedQueryBounds,
  trusted: ReadonlyMap<string, string> | null = null,
): Plugin {
  if (trusted) {
    const [refusal, store] = trustedOnly(trusted);
    return {
      onPluginInit({ addPlugin }) {
        addPlugin(refusal);
        addPlugin(store);
      },
    };
  }
  return useAPQ({ store: boundedStore(bounds) });
}
