import { DEFAULT_LIMITS, type Limits } from "../config/serviceConfig.js";
import type { ReferenceData } from "../data/types.js";
import type { EditionDescription } from "../editions/index.js";
import { UnknownEditionError } from "../editions/index.js";
import { rulesWithSettings } from "../editions/servedRules.js";
import type { EditionRules, EngineContext, Evaluation } from "../engine/index.js";
import {
  directLookups,
  type LookupTables,
  lookupTables,
  memoizedLookups,
  type ReferenceLookups,
} from "../engine/index.js";
import { type AnswerCache, answerCache } from "./answerCache.js";
import { type ChunkScheduler, chunkScheduler, type TurnShare, turnShare } from "./chunks.js";
import { DomainError, type DomainErrorSpelling } from "./errors.js";
import { ReferenceLoaders } from "./loaders.js";

/** One edition as served: its description, its tables (loaded once) and shared lookup results. */
export interface EditionService {
  readonly edition: EditionDescription;
  readonly data: ReferenceData;
  /** The edition's rules with its settings (rounding, default criteria): what the engine reads. */
  readonly rules: EditionRules;
  readonly tables: LookupTables;
  /** Lookup results shared by all requests (bounded; the lookups are pure functions of the tables). */
  readonly sharedLookups: ReferenceLookups;
}

/** Everything built once at start-up and shared (read-only) by every request. */
export interface Service {
  /** Every served edition, by id. */
  readonly editions: ReadonlyMap<string, EditionService>;
  /** The edition of a request that names none (`EDITION`, default 1.2.4). */
  readonly defaultEdition: string;
  /** What one request may ask for (input bounds, fleet items, execution budget). */
  readonly limits: Limits;
  /**
   * Serialized answers that are pure functions of their request (the shim's GET answers, keyed
   * by edition, path and query): this service's own, bounded (answerCache.ts).
   */
  readonly answers: AnswerCache;
  /** The turns of the event loop its requests' background work shares (chunks.ts). */
  readonly turns: TurnShare;
}

/** Distinct lookup keys kept across requests (CPU names, families, manufacturers, profiles). */
const SHARED_LOOKUP_CAPACITY = 4096;

export function editionService(
  edition: EditionDescription,
  data: ReferenceData,
  limits: Limits = DEFAULT_LIMITS,
): EditionService {
  const rules = rulesWithSettings(edition.rules, data.config);
  const tables = lookupTables(data, rules);
  return {
    edition,
    data,
    rules,
    tables,
    // Keys longer than any accepted text are not kept (they cannot come from a validated input).
    sharedLookups: memoizedLookups(directLookups(tables), {
      capacity: SHARED_LOOKUP_CAPACITY,
      maxKeyLength: 2 * limits.maxStringLength + 2,
    }),
  };
}

/** The service over already loaded editions; the default must be one of them. */
export function createService(
  editions: readonly EditionService[],
  defaultEdition: string,
  limits: Limits = DEFAULT_LIMITS,
): Service {
  const byId = new Map(editions.map((served) => [served.edition.id, served]));
  if (!byId.has(defaultEdition)) throw new Error(`default edition ${defaultEdition} is not loaded`);
  // Made on first use: a server's requests use both, a command's run (a bill's) neither.
  let answers: AnswerCache | undefined;
  let turns: TurnShare | undefined;
  return {
    editions: byId,
    defaultEdition,
    limits,
    get answers() {
      answers ??= answerCache();
      return answers;
    },
    get turns() {
      turns ??= turnShare();
      return turns;
    },
  };
}

/**
 * The edition a request is served in, the one road of every transport (the REST shim's `edition`
 * query and a batch's, a GraphQL field's argument, an Impact Framework plugin's config, the command
 * line's `--edition`): the served edition `id` names, or the service's default where it names none
 * (null). The one place the default applies and an id is checked; each transport words the
 * refusal in its own dialect.
 * @throws UnknownEditionError naming the served editions.
 */
export function servedEdition(service: Service, id: string | null | undefined): EditionService {
  const asked = id ?? service.defaultEdition;
  const served = service.editions.get(asked);
  if (!served) throw new UnknownEditionError(asked, [...service.editions.keys()]);
  return served;
}

/**
 * Per-request state of one edition: its lookups (the edition's shared memo), its loaders and the
 * engine context the models of this edition are built with.
 */
export interface EditionContext {
  readonly service: EditionService;
  /** Every served edition (to say where something this edition lacks exists). */
  readonly editions: ReadonlyMap<string, EditionService>;
  readonly lookups: ReferenceLookups;
  /**
   * Archetype rows, cloud instance rows and CPU rows by name through DataLoader: a fleet's distinct
   * keys resolved once per turn of the event loop, each once per request (loaders.ts).
   */
  readonly loaders: ReferenceLoaders;
  /** Evaluations keyed by asset and by (duration, allocation, requested criteria), shared by the request's editions. */
  readonly evaluations: WeakMap<object, Map<string, Evaluation>>;
  /** What the engine reads: this edition's data, lookups and rules. */
  readonly engine: EngineContext;
  /** What one request may ask for (the service's limits). */
  readonly limits: Limits;
}

/** Per-request state: the edition contexts used by this request (created on first use). */
export interface RequestContext {
  readonly service: Service;
  /** Evaluations keyed by asset and by (duration, allocation, requested criteria). */
  readonly evaluations: WeakMap<object, Map<string, Evaluation>>;
  /** Aborted when the request is cancelled (client gone, execution budget spent, shutdown). */
  readonly signal: AbortSignal;
  /** The request's item-by-item work, in slices of the event loop (see chunks.ts). */
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
        const lookups = options.lookups ? options.lookups(served) : served.sharedLookups;
        context = {
          service: served,
          editions: service.editions,
          lookups,
          loaders: new ReferenceLoaders(served, lookups, request),
          evaluations,
          engine: { data: served.data, lookups, rules: served.rules },
          limits: service.limits,
        };
        contexts.set(key, context);
      }
      return context;
    },
  };
  const request = Object.defineProperties(context, LAZY_PROPERTIES) as typeof context & RequestContext;
  return request;
}

/** A GraphQL argument's edition, refused in the transport's words (BAD_USER_INPUT at `edition`). */
function servedIn(
  service: Service,
  id: string | null | undefined,
  spellError: DomainErrorSpelling,
): EditionService {
  try {
    return servedEdition(service, id);
  } catch (error) {
    if (!(error instanceof UnknownEditionError)) throw error;
    throw spellError(new DomainError("BAD_USER_INPUT", error.message, ["edition"]));
  }
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
