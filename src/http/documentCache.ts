/*
 * yoga's caches of parsed GraphQL documents and of their syntax errors, one budget for both,
 * bounded by the heap what they keep takes rather than by a count or by the text: yoga's own keep
 * 1,024 documents whatever their size, and a parsed document costs far more than its text — its
 * syntax tree keeps every token (graphql-js's `loc`), about 250–300 bytes each, so a dense 40 kB
 * document of 20,000 tokens takes about 5 MB (measured with `parse` and `heapUsed`, 50 documents:
 * 243 bytes a token dense, 296 in a query of fields and arguments). A text parses to either a
 * document or a syntax error, so both share the text as key; the least recently used go first
 * once the budget is full, and a document too large to be worth keeping is parsed each time.
 * yoga's validation results are kept by document (a WeakMap) and leave with it; graphql-js stops
 * validating at 100 errors, so they stay small beside their document.
 */

import type { DocumentNode } from "graphql";
import { LRUCache } from "lru-cache";

interface DocumentCacheOptions {
  /** Estimated heap bytes kept, documents and syntax errors together (DOCUMENT_CACHE_BYTES). */
  readonly maxBytes: number;
  /** Larger texts are never kept. */
  readonly maxDocumentChars: number;
}

/** A cache as yoga's `parserAndValidationCache` takes it (get, set by document text). */
interface TextKeyedCache<T> {
  get(text: string): T | undefined;
  set(text: string, value: T): void;
}

interface DocumentCaches {
  readonly documents: TextKeyedCache<DocumentNode>;
  readonly syntaxErrors: TextKeyedCache<unknown>;
  /** Estimated heap bytes kept now. */
  bytes(): number;
}

/** Heap of one token of a parsed document (measured 243–296 bytes, see above), rounded up. */
const BYTES_PER_TOKEN = 320;

/** Heap of a syntax error besides its text: the error, its message, location and stack. */
const SYNTAX_ERROR_BYTES = 4096;

/** Tokens of a parsed document: its token list, from its start to its end. */
function tokenCount(document: DocumentNode): number {
  let count = 0;
  for (let token = document.loc?.startToken ?? null; token !== null; token = token.next) count += 1;
  return count;
}

type Kept = { readonly document: DocumentNode } | { readonly syntaxError: unknown };

/**
 * What a kept text costs: its text twice (the key, and the body of the document's source or the
 * error's), and its tokens, or its error. A document parsed without locations (no token list)
 * is weighed as if every character were a token.
 */
function estimatedBytes(text: string, kept: Kept): number {
  if (!("document" in kept)) return 2 * text.length + SYNTAX_ERROR_BYTES;
  const tokens = kept.document.loc ? tokenCount(kept.document) : text.length;
  return 2 * text.length + BYTES_PER_TOKEN * tokens;
}

export function documentCaches({ maxBytes, maxDocumentChars }: DocumentCacheOptions): DocumentCaches {
  // lru-cache takes no budget of 0 (DOCUMENT_CACHE_BYTES=0: nothing is kept).
  const cache =
    maxBytes > 0
      ? new LRUCache<string, Kept>({
          maxSize: maxBytes,
          sizeCalculation: (kept, text) => estimatedBytes(text, kept),
        })
      : null;
  const keep = (text: string, kept: Kept) => {
    if (text.length <= maxDocumentChars) cache?.set(text, kept);
  };
  return {
    documents: {
      get: (text) => {
        const kept = cache?.get(text);
        return kept !== undefined && "document" in kept ? kept.document : undefined;
      },
      set: (text, document) => keep(text, { document }),
    },
    syntaxErrors: {
      get: (text) => {
        const kept = cache?.get(text);
        return kept !== undefined && "syntaxError" in kept ? kept.syntaxError : undefined;
      },
      set: (text, syntaxError) => keep(text, { syntaxError }),
    },
    bytes: () => cache?.calculatedSize ?? 0,
  };
}
