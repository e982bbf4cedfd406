import type { Evaluation, ReferenceLookups } from "../engine/index.js";
import { DomainError, type DomainErrorSpelling } from "./errors.js";
import { type ChunkScheduler, chunkScheduler } from "./eventLoopSlices.js";
import { type EditionContext, type EditionService, editionContext, type Service, servedIn } from "./open.js";

/*
 * A request's state: the contexts of the editions it uses (each built on first use, open.ts),
 * its evaluations, its signal and slices of the event loop, its fleet items' admission.
 */

/** Per-request state: the edition contexts used by this request (created on first use). */
export interface RequestContext {
  readonly service: Service;
  /** Evaluations keyed by asset and by (duration, allocation, requested criteria). */
  readonly evaluations: WeakMap<object, Map<string, Evaluation>>;
  /** Aborted when the request is cancelled (client gone, execution budget spent, shutdown). */
  readonly signal: AbortSignal;
  /** The request's item-by-item work, in slices of the event loop (see eventLoopSlices.ts). */
  readonly chunks: ChunkScheduler;
  /**
   * Fleet items asked for by this request so far, across fleet fields and aliases, and their
   * admission (once per request, for them all).
   */
  readonly fleetItems: { reserved: number; answerBytes: number; admitted?: Promise<void> };
  /** Waits for room for this many fleet items in the process's budget (see RequestOptions). */
  readonly admitFleetItems: (items: number) => Promise<void>;
  /**
   * The context of an edition for this request (servedEdition); null or undefined for the request's
   * edition (the one its transport resolved, else the service's default).
   * @throws UnknownEditionError for an edition the service does not serve.
   */
  edition(id?: string | null): EditionContext;
}

/** How a request builds its per-edition lookups; tests substitute counting lookups. */
interface RequestOptions {
  /**
   * How the request's transport spells the service's domain errors (an unknown edition, a
   * cancelled request): GraphQL's is `graphqlErrorOf` (src/schema/errors.ts).
   */
  readonly spellError: DomainErrorSpelling;
  readonly lookups?: (served: EditionService) => ReferenceLookups;
  /** Aborted when the request is cancelled (default: never). */
  readonly signal?: AbortSignal;
  /**
   * The same, read on first use instead (when no `signal` is given): a request whose execution
   * never asks for its signal (a REST answer) makes none.
   */
  readonly cancellation?: { readonly signal?: AbortSignal };
  /**
   * Waits until the process has room for this many fleet items (MAX_CONCURRENT_FLEET_ITEMS,
   * src/http/limits/admission.ts), or rejects with the refusal; the room is held until the answer is
   * sent (default: always room).
   */
  readonly admitFleetItems?: (items: number) => Promise<void>;
  /**
   * The request's edition when its transport resolved it at the edge (the REST shim's `edition`
   * query parameter, refused there when not served): what `edition()` without an id answers.
   * Default: the service's default edition.
   */
  readonly edition?: EditionService;
}

export function createRequestContext(service: Service, options: RequestOptions): RequestContext {
  const { spellError } = options;
  const evaluations = new WeakMap<object, Map<string, Evaluation>>();
  const contexts = new Map<string, EditionContext>();
  const context = {
    [LAZY]: { options, signal: options.signal } as LazyParts,
    service,
    evaluations,
    fleetItems: { reserved: 0, answerBytes: 0 },
    admitFleetItems: options.admitFleetItems ?? (async () => {}),
    edition(id?: string | null) {
      const served = id == null && options.edition ? options.edition : servedIn(service, id, spellError);
      const key = served.edition.id;
      let context = contexts.get(key);
      if (!context) {
        // The edition's shared memo serves every request: lookups are pure functions of the
        // tables. A per-request memo on top of it (six closures and their Maps per request) stays
        // alive through young-generation collections until the next full one (bench/README.md,
        // "One shared lookup memo per edition").
        context = editionContext(service, served, evaluations, request, options.lookups?.(served));
        contexts.set(key, context);
      }
      return context;
    },
  };
  const request = Object.defineProperties(context, LAZY_PROPERTIES) as typeof context & RequestContext;
  return request;
}

/*
 * The signal and the chunk scheduler of a request are made on first use (most requests, every
 * REST answer among them, use neither), by getters defined once here and shared by every context:
 * getters written in the context's object literal are new functions for each request, which give
 * each context a shape of its own — a varied verbose server POST then costs about a quarter more
 * CPU and leaves three times as much to the old generation (bench/README.md, "Shared getters on
 * the request context"). The getters are own
 * properties, so a copy of the context (yoga merges it into its own) reads them.
 */
const LAZY = Symbol("parts made on first use");

interface LazyParts {
  readonly options: RequestOptions;
  signal?: AbortSignal;
  chunks?: ChunkScheduler;
}

interface WithLazyParts {
  readonly [LAZY]: LazyParts;
  readonly service: Service;
}

function signalOf(this: WithLazyParts): AbortSignal {
  const parts = this[LAZY];
  parts.signal ??= parts.options.cancellation?.signal ?? new AbortController().signal;
  return parts.signal;
}

function chunksOf(this: WithLazyParts): ChunkScheduler {
  const parts = this[LAZY];
  if (parts.chunks === undefined) {
    const signal = signalOf.call(this);
    const cancellation = () => {
      const reason = signal.reason;
      return parts.options.spellError(
        new DomainError("CANCELLED", reason instanceof Error ? reason.message : "the request was cancelled"),
      );
    };
    parts.chunks = chunkScheduler(signal, cancellation, this.service.turns);
  }
  return parts.chunks;
}

const LAZY_PROPERTIES: PropertyDescriptorMap = {
  signal: { get: signalOf, enumerable: true },
  chunks: { get: chunksOf, enumerable: true },
};
