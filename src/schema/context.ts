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
  /** Archetype by `table:id`, once per distinct key per request. */
  readonly archetypes: DataLoader<{ table: ArchetypeTable; id: string }, Archetype | null, string>;
  /** Evaluations keyed by asset and by (duration, allocation). */
  readonly evaluations: WeakMap<object, Map<string, Evaluation>>;
}

export function createRequestContext(service: Service): RequestContext {
  return {
    service,
    lookups: memoizedLookups(service.sharedLookups),
    archetypes: new DataLoader(async (keys) => keys.map(({ table, id }) => table.byId.get(id) ?? null), {
      cacheKeyFn: ({ table, id }) => `${archetypeTableName(service.data, table)}:${id}`,
    }),
    evaluations: new WeakMap(),
  };
}

function archetypeTableName(data: ReferenceData, table: ArchetypeTable): string {
  for (const [name, candidate] of Object.entries(data.archetypes)) if (candidate === table) return name;
  for (const [name, candidate] of data.cloudInstances) if (candidate === table) return `cloud/${name}`;
  return "unknown";
}
