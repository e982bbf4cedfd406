import DataLoader from "dataloader";
import { DEFAULT_LIMITS, type Limits } from "../config.js";
import type { Archetype, ArchetypeTable, ReferenceData } from "../data/types.js";
import type { Evaluation } from "../engine/index.js";
import {
  directLookups,
  type LookupTables,
  lookupTables,
  memoizedLookups,
  type ReferenceLookups,
} from "../engine/lookups.js";

/** Everything built once at start-up and shared (read-only) by every request. */
export interface Service {
  readonly data: ReferenceData;
  readonly tables: LookupTables;
  /** Lookup results shared by all requests (bounded; the lookups are pure functions of the tables). */
  readonly sharedLookups: ReferenceLookups;
  /** What one request may ask for (input bounds, fleet items, execution budget). */
  readonly limits: Limits;
}

/** Distinct lookup keys kept across requests (CPU names, families, manufacturers, profiles). */
const SHARED_LOOKUP_CAPACITY = 4096;

export function createService(data: ReferenceData, limits: Limits = DEFAULT_LIMITS): Service {
  const tables = lookupTables(data);
  // Keys longer than any accepted text are not kept (they cannot come from a validated input).
  const sharedLookups = memoizedLookups(directLookups(tables), {
    capacity: SHARED_LOOKUP_CAPACITY,
    maxKeyLength: 2 * limits.maxStringLength + 2,
  });
  return { data, tables, sharedLookups, limits };
}

/** Per-request state: memoized reference lookups and the evaluations of this request's assets. */
export interface RequestContext {
  readonly service: Service;
  readonly lookups: ReferenceLookups;
  /** Archetype rows by id, once per distinct (table, id) per request. */
  readonly archetypes: ArchetypeLoaders;
  /** Evaluations keyed by asset and by (duration, allocation). */
  readonly evaluations: WeakMap<object, Map<string, Evaluation>>;
  /** Aborted when the request is cancelled (client gone, execution budget spent, shutdown). */
  readonly signal: AbortSignal;
  /** Fleet items asked for by this request so far, across fleet fields and aliases. */
  readonly fleetItems: { reserved: number };
}

export function createRequestContext(
  service: Service,
  signal: AbortSignal = new AbortController().signal,
): RequestContext {
  return {
    service,
    signal,
    fleetItems: { reserved: 0 },
    lookups: memoizedLookups(service.sharedLookups),
    archetypes: archetypeLoaders(),
    evaluations: new WeakMap(),
  };
}

/** One dataloader per archetype table (server, components, terminals, IoT, cloud instances). */
export interface ArchetypeLoaders {
  load(key: { readonly table: ArchetypeTable; readonly id: string }): Promise<Archetype | null>;
}

function archetypeLoaders(): ArchetypeLoaders {
  const loaders = new Map<ArchetypeTable, DataLoader<string, Archetype | null>>();
  return {
    load: ({ table, id }) => {
      let loader = loaders.get(table);
      if (!loader) {
        loader = new DataLoader(async (ids) => ids.map((key) => table.byId.get(key) ?? null));
        loaders.set(table, loader);
      }
      return loader.load(id);
    },
  };
}
