import DataLoader from "dataloader";
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
}

/** Distinct lookup keys kept across requests (CPU names, families, manufacturers, profiles). */
const SHARED_LOOKUP_CAPACITY = 4096;

export function createService(data: ReferenceData): Service {
  const tables = lookupTables(data);
  return { data, tables, sharedLookups: memoizedLookups(directLookups(tables), SHARED_LOOKUP_CAPACITY) };
}

/** Per-request state: memoized reference lookups and the evaluations of this request's assets. */
export interface RequestContext {
  readonly service: Service;
  readonly lookups: ReferenceLookups;
  /** Archetype rows by id, once per distinct (table, id) per request. */
  readonly archetypes: ArchetypeLoaders;
  /** Evaluations keyed by asset and by (duration, allocation, requested criteria). */
  readonly evaluations: WeakMap<object, Map<string, Evaluation>>;
}

export function createRequestContext(service: Service): RequestContext {
  return {
    service,
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
