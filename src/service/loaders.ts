/**
 * The reference lookups of one request in one edition, through DataLoader: archetype rows by
 * (table, id), cloud instance rows by (provider, instance type) and CPU rows by free-text name.
 * Every item of a fleet started in the same turn of the event loop asks in the same batch, so a
 * fleet's distinct keys are resolved once per turn, and each key once per request (DataLoader's
 * cache). The engine's synchronous lookups (`ReferenceLookups`, the edition's shared memo) stay
 * what the engine reads: these loaders resolve through them before the engine runs.
 *
 * A request without fleet items (a single asset, its root fields) has nothing to batch: its keys
 * are resolved at once, without a DataLoader or its dispatch after the microtask queue, which cost
 * a single varied verbose POST 4–5 % (bench/README.md, "Reference lookups through DataLoader").
 *
 * Bounded: a request's keys come from its items — its fleets' items, all fleet fields and aliases
 * together, at most MAX_FLEET_ITEMS, counted before any item is resolved (src/schema/execution/scheduling.ts),
 * and its other root fields, as many as its body (MAX_BODY_BYTES) spells — at most three keys per
 * item (an archetype or instance type, a platform, a CPU name), each text at most
 * MAX_STRING_LENGTH; the loaders die with the request.
 */

import DataLoader from "dataloader";
import type { Archetype, ArchetypeTable, CpuSpec, ReferenceData } from "../data/types.js";
import type { LookupTables, ReferenceLookups } from "../engine/index.js";
import { fuzzyInstanceWarning, matchInstanceName } from "../engine/index.js";
import type { ChunkScheduler } from "./eventLoopSlices.js";

/** A cloud instance row found for a requested instance type. */
export interface FoundInstanceRow {
  readonly row: Archetype;
  /** Set when the name was matched approximately. */
  readonly warning: string | null;
}

/** A requested cloud instance: the provider's table and the instance type as spelled. */
interface InstanceKey {
  readonly provider: string;
  readonly instanceType: string;
}

/** What the loaders read of an edition: its tables and its rules. */
interface LoadedEdition {
  readonly data: ReferenceData;
  readonly tables: LookupTables;
  readonly rules: { readonly trimsArchetypeIds: boolean };
}

/**
 * The part of a request the loaders use: its slices of the event loop (made on first use) and its
 * fleet items, reserved before any item is resolved (src/schema/execution/scheduling.ts).
 */
export interface SlicedRequest {
  readonly chunks: ChunkScheduler;
  readonly fleetItems: { readonly reserved: number };
}

/**
 * A batch's keys resolved by a synchronous lookup. Name matching scores a name against every row
 * of a table, so the keys of a batch are resolved in the request's slices (eventLoopSlices.ts), never all
 * in one turn of the event loop; a batch of one key (a single item, a root field) is resolved at
 * once: it is one item's own work, and a request that evaluates one item makes no scheduler.
 */
function resolvedInSlices<K, V>(
  request: SlicedRequest,
  keys: readonly K[],
  resolve: (key: K) => V,
): Promise<V[]> {
  // Ahead of the request's other jobs: the items waiting for these keys continue in its next slice.
  return keys.length === 1 ? Promise.resolve([resolve(keys[0])]) : request.chunks.map(keys, resolve, "ahead");
}

/** An archetype id as the edition's rule reads it (docs/methodology.md §3.1). */
function archetypeKey(edition: LoadedEdition, id: string): string {
  return edition.rules.trimsArchetypeIds ? id.trim() : id;
}

/**
 * docs/methodology.md §19.7.2: the provider's table, then the exact id, then (where the data set
 * has a threshold) the closest id; null when none is found. Edition 1.2.4 matches ids exactly.
 */
export function matchedInstance(
  edition: LoadedEdition,
  { provider, instanceType }: InstanceKey,
): FoundInstanceRow | null {
  const table = edition.data.cloudInstances.get(provider);
  if (!table) return null;
  const threshold = edition.data.config.cloudInstanceNameFuzzyThreshold;
  const names = edition.tables.instanceNames.get(provider);
  if (threshold !== null && names) {
    const match = matchInstanceName(names, instanceType, threshold);
    const row = match && table.byId.get(archetypeKey(edition, match.id));
    if (!match || !row) return null;
    return { row, warning: match.fuzzy ? fuzzyInstanceWarning(instanceType, match.id) : null };
  }
  const row = table.byId.get(archetypeKey(edition, instanceType));
  return row ? { row, warning: null } : null;
}

const NO_ROW: Promise<null> = Promise.resolve(null);

/** Provider and instance type apart whatever they contain (both are bounded texts). */
const instanceCacheKey = ({ provider, instanceType }: InstanceKey) => `${provider}\u0000${instanceType}`;

/**
 * The loaders of one request in one edition, each made on first use: a request that loads nothing
 * makes no DataLoader.
 */
export class ReferenceLoaders {
  private readonly edition: LoadedEdition;
  /** The engine's lookups for this request (the edition's shared memo). */
  private readonly lookups: ReferenceLookups;
  /** Null for a command's run: no request, so no fleet; every key is read at once. */
  private readonly request: SlicedRequest | null;
  /** One loader per archetype table the request reads (its rows keyed by id). */
  private archetypes: Map<ArchetypeTable, DataLoader<string, Archetype | null>> | undefined;
  private instances: DataLoader<InstanceKey, FoundInstanceRow | null, string> | undefined;
  private cpuNames: DataLoader<string, CpuSpec | null> | undefined;

  constructor(edition: LoadedEdition, lookups: ReferenceLookups, request: SlicedRequest | null) {
    this.edition = edition;
    this.lookups = lookups;
    this.request = request;
    // Every field set here, so every request's loaders have one shape.
    this.archetypes = undefined;
    this.instances = undefined;
    this.cpuNames = undefined;
  }

  /** The request when it has fleet items, whose keys are gathered in batches; else null. */
  private batches(): SlicedRequest | null {
    return this.request !== null && this.request.fleetItems.reserved > 0 ? this.request : null;
  }

  /** A row of an archetype table of this edition, or null. */
  archetype(table: ArchetypeTable, id: string): Promise<Archetype | null> {
    if (this.batches() === null)
      return Promise.resolve(table.byId.get(archetypeKey(this.edition, id)) ?? null);
    this.archetypes ??= new Map();
    let loader = this.archetypes.get(table);
    if (!loader) {
      // The rows are in memory: a batch is read at once, however large.
      loader = new DataLoader((ids) => Promise.resolve(ids.map((key) => table.byId.get(key) ?? null)));
      this.archetypes.set(table, loader);
    }
    return loader.load(archetypeKey(this.edition, id));
  }

  /** The row of a provider's instance type (matched by the edition's rule), or null. */
  instance(provider: string, instanceType: string): Promise<FoundInstanceRow | null> {
    const request = this.batches();
    if (request === null) return Promise.resolve(matchedInstance(this.edition, { provider, instanceType }));
    this.instances ??= new DataLoader(
      (keys) => resolvedInSlices(request, keys, (key) => matchedInstance(this.edition, key)),
      { cacheKeyFn: instanceCacheKey },
    );
    return this.instances.load({ provider, instanceType });
  }

  /**
   * §11.1: the CPU row a free-text name matches, or null (through the edition's lookups, so the
   * engine's own synchronous match of the name is then a hit of the edition's memo); null without
   * a name.
   */
  cpuName(name: string | null | undefined): Promise<CpuSpec | null> {
    if (name == null) return NO_ROW;
    const request = this.batches();
    if (request === null) return Promise.resolve(this.lookups.cpuByName(name));
    this.cpuNames ??= new DataLoader((names) =>
      resolvedInSlices(request, names, (key) => this.lookups.cpuByName(key)),
    );
    return this.cpuNames.load(name);
  }
}
