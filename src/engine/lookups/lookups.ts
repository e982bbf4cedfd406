import { LRUCache } from "lru-cache";
import type { CpuProfileRow, CpuSpec, GpuSpec, ReferenceData } from "../../data/types.js";
import { fitProfile, type ProfileParams, tdpWorkloads } from "../components/consumptionProfile.js";
import { type CoreCount, type DieSizeEstimate, estimateDieSize } from "../components/dieSize.js";
import type { EditionRules } from "../model/edition.js";
import {
  extractOne,
  prepareTokens,
  type TokenProfile,
  tokenSetRatioPrepared,
  tokenSortRatio,
} from "./fuzzy.js";
import { type InstanceNameIndex, instanceNameIndex } from "./instanceName.js";

/**
 * Reference-table lookups the engine needs, as a synchronous interface so the engine stays pure
 * and request-agnostic. The service supplies one bounded memo per edition, shared by every request
 * (`memoizedLookups`); `directLookups` computes every lookup from the tables.
 */
export interface ReferenceLookups {
  /** §11.1: best `cpu_specs.csv` row for a free-text CPU name, or null under the threshold. */
  cpuByName(name: string): CpuSpec | null;
  /**
   * docs/methodology.md §19.5.6: best `gpu_specs.csv` row for a free-text GPU name (the edition's
   * GPU threshold), or null; always null in an edition without GPUs.
   */
  gpuByName(name: string): GpuSpec | null;
  /** §4.2.3 step 1: the file's spelling of a CPU family (WRatio > 79), or null. */
  cpuFamily(family: string): string | null;
  /** §4.3 step 2: the file's spelling of a RAM manufacturer, or null. */
  ramManufacturer(manufacturer: string): string | null;
  /** §4.4: the file's spelling of an SSD manufacturer, or null. */
  ssdManufacturer(manufacturer: string): string | null;
  /** §10.2 step 1: the unique base profile for a manufacturer / model range, or null. */
  cpuProfile(manufacturer: string | null, modelRange: string | null): CpuProfileRow | null;
  /** §4.2.3 step 1 check: whether a family (file spelling) has rows with a die size. */
  hasDieSizes(family: string): boolean;
  /** §4.2.3 steps 2–5 for a kept family (or all families when null) and a core count, if known. */
  dieSize(family: string | null, cores: CoreCount | null): DieSizeEstimate;
  /** §10.2 step 3: the profile fitted to the four TDP points from a base profile (a pure function, costly). */
  tdpProfile(tdp: number, base: ProfileParams): ProfileParams;
}

/** WRatio acceptance threshold of the family / manufacturer matchers (§11.2: strictly above 79). */
const EXTRACT_CUTOFF = 79.0;
/** Token-sort threshold of the consumption-profile lookup (§11.3: at or above 90). */
const PROFILE_THRESHOLD = 90;

function distinct(values: Iterable<string | null>): string[] {
  const seen = new Set<string>();
  for (const v of values) if (v !== null) seen.add(v);
  return [...seen];
}

/** Candidate lists computed once per data set. */
export interface LookupTables {
  readonly data: ReferenceData;
  /** The edition's rules for the lookups that differ (rule of three, profile tie-break). */
  readonly rules: EditionRules;
  /** Distinct CPU families, model ranges and names in first-appearance order (§16 listings). */
  readonly cpuFamilies: readonly string[];
  readonly cpuModelRanges: readonly string[];
  readonly cpuNames: readonly string[];
  readonly ramManufacturers: readonly string[];
  readonly ssdManufacturers: readonly string[];
  /** Rows with a total die size, all families and per family (code name). */
  readonly dieSizeRows: readonly CpuSpec[];
  readonly dieSizeRowsByFamily: ReadonlyMap<string, readonly CpuSpec[]>;
  /** Token profiles of the lower-cased CPU names, in file order (prepared once). */
  readonly cpuNameTokens: readonly TokenProfile[];
  /** Instance ids of each cloud provider prepared for name matching (docs/methodology.md §19.7.4). */
  readonly instanceNames: ReadonlyMap<string, InstanceNameIndex>;
  /** Token profiles of the lower-cased GPU names, in file order. */
  readonly gpuNameTokens: readonly TokenProfile[];
}

export function lookupTables(data: ReferenceData, rules: EditionRules): LookupTables {
  const dieSizeRows = data.cpuSpecs.filter((row) => row.totalDieSize !== null);
  const dieSizeRowsByFamily = new Map<string, CpuSpec[]>();
  for (const row of dieSizeRows) {
    if (row.codeName === null) continue;
    const list = dieSizeRowsByFamily.get(row.codeName) ?? [];
    list.push(row);
    dieSizeRowsByFamily.set(row.codeName, list);
  }
  return {
    dieSizeRows,
    dieSizeRowsByFamily,
    data,
    rules,
    cpuFamilies: distinct(data.cpuSpecs.map((row) => row.codeName)),
    cpuModelRanges: distinct(data.cpuSpecs.map((row) => row.modelRange)),
    cpuNames: distinct(data.cpuSpecs.map((row) => row.name)),
    ramManufacturers: distinct(data.ramManufacture.map((row) => row.manufacturer)),
    ssdManufacturers: distinct(data.ssdManufacture.map((row) => row.manufacturer)),
    cpuNameTokens: data.cpuSpecs.map((row) => prepareTokens(row.nameLower)),
    instanceNames: new Map(
      [...data.cloudInstances].map(([provider, table]) => [provider, instanceNameIndex(table.ids)]),
    ),
    gpuNameTokens: data.gpuSpecs.map((row) => prepareTokens(row.nameLower)),
  };
}

/** §11 subset rule: one token set contains the other (and they share a token) ⇒ score 100. */
function nestedTokenSets(a: TokenProfile, b: TokenProfile): boolean {
  const [small, large] = a.unique.length <= b.unique.length ? [a, b] : [b, a];
  if (small.unique.length === 0) return false;
  for (const token of small.unique) if (!large.set.has(token)) return false;
  return true;
}

/**
 * §11.1 name matcher (CPU and GPU names alike): the first row with the best token-set ratio,
 * or null when the best score does not exceed the threshold.
 */
function bestTokenSetMatch<R>(
  rows: readonly R[],
  tokens: readonly TokenProfile[],
  name: string,
  threshold: number,
): R | null {
  const query = prepareTokens(name.toLowerCase());
  // Nothing beats 100 and the first row in file order wins ties, so the first row scoring 100
  // by the subset rule is the answer; only otherwise are all rows scored.
  for (let i = 0; i < rows.length; i++) {
    if (nestedTokenSets(tokens[i], query)) return rows[i];
  }
  let best = -1;
  let bestScore = -1;
  for (let i = 0; i < rows.length; i++) {
    const score = tokenSetRatioPrepared(tokens[i], query);
    if (score > bestScore) {
      bestScore = score;
      best = i;
    }
  }
  return bestScore > threshold ? rows[best] : null;
}

function matchCpuName(tables: LookupTables, name: string): CpuSpec | null {
  return bestTokenSetMatch(
    tables.data.cpuSpecs,
    tables.cpuNameTokens,
    name,
    tables.data.config.cpuNameFuzzyThreshold,
  );
}

/** docs/methodology.md §19.5.6: the CPU name matcher on `gpu_specs.csv` with the GPU threshold. */
export function matchGpuName(tables: LookupTables, name: string, threshold: number): GpuSpec | null {
  return bestTokenSetMatch(tables.data.gpuSpecs, tables.gpuNameTokens, name, threshold);
}

function profileRowsMatching(
  rows: readonly CpuProfileRow[],
  query: string | null,
  field: (row: CpuProfileRow) => string,
): readonly CpuProfileRow[] {
  if (query === null) return rows;
  const lowered = query.toLowerCase();
  const kept = rows.filter((row) => tokenSortRatio(field(row).toLowerCase(), lowered) >= PROFILE_THRESHOLD);
  return kept.length > 0 ? kept : rows;
}

/**
 * §10.2 step 1. Quirk kept in 1.2.4 (Appendix D.28): `xeon e` scores 92.3 against both `xeon e5`
 * and `xeon e3`, so the Xeon E5 / E3 / E rows never resolve to a single base profile. 2.4.1
 * (docs/methodology.md §19.4.4) then takes the first row whose model range equals the requested one,
 * ignoring case (not blanks).
 */
function matchCpuProfile(
  tables: LookupTables,
  manufacturer: string | null,
  modelRange: string | null,
): CpuProfileRow | null {
  const byManufacturer = profileRowsMatching(
    tables.data.cpuProfiles,
    manufacturer,
    (row) => row.manufacturer,
  );
  const byRange = profileRowsMatching(byManufacturer, modelRange, (row) => row.modelRange);
  if (byRange.length === 1) return byRange[0];
  if (byRange.length > 1 && modelRange !== null && tables.rules.profileTieBreak === "exactModelRange") {
    const wanted = modelRange.toLowerCase();
    return byRange.find((row) => row.modelRange.toLowerCase() === wanted) ?? null;
  }
  return null;
}

export function directLookups(tables: LookupTables): ReferenceLookups {
  return {
    cpuByName: (name) => matchCpuName(tables, name),
    gpuByName: (name) => {
      const threshold = tables.data.config.gpuNameFuzzyThreshold;
      return threshold === null ? null : matchGpuName(tables, name, threshold);
    },
    cpuFamily: (family) => extractOne(family, tables.cpuFamilies, EXTRACT_CUTOFF)?.match ?? null,
    ramManufacturer: (m) => extractOne(m, tables.ramManufacturers, EXTRACT_CUTOFF)?.match ?? null,
    ssdManufacturer: (m) => extractOne(m, tables.ssdManufacturers, EXTRACT_CUTOFF)?.match ?? null,
    cpuProfile: (manufacturer, modelRange) => matchCpuProfile(tables, manufacturer, modelRange),
    hasDieSizes: (family) => tables.dieSizeRowsByFamily.has(family),
    dieSize: (family, cores) =>
      family === null
        ? estimateDieSize(tables.dieSizeRows, "all families", cores, tables.rules.ruleOfThree)
        : estimateDieSize(
            tables.dieSizeRowsByFamily.get(family) ?? [],
            family,
            cores,
            tables.rules.ruleOfThree,
          ),
    tdpProfile: (tdp, base) => fitProfile(tdpWorkloads(tdp), base),
  };
}

/** A cache-key part telling null apart from any text. */
function keyPart(value: string | null): string {
  return value === null ? "\u0001" : value;
}

/** Bounds of a lookup cache: how many keys it keeps, and the longest key it keeps. */
interface CacheBounds {
  readonly capacity?: number;
  readonly maxKeyLength?: number;
}

/**
 * Wraps lookups with per-key memoization (one computation per distinct key). With a capacity,
 * the least recently used keys are evicted beyond it (lru-cache; for a cache shared by all
 * requests: the lookups are pure functions of the immutable tables, so sharing their results is
 * safe); keys longer than `maxKeyLength` are computed every time, never kept.
 */
export function memoizedLookups(
  inner: ReferenceLookups,
  { capacity = Number.MAX_SAFE_INTEGER, maxKeyLength = Number.POSITIVE_INFINITY }: CacheBounds = {},
): ReferenceLookups {
  const memo = <A extends unknown[], R extends object | string | null>(
    fn: (...args: A) => R,
    keyOf: (...args: A) => string = (...args) => String(args[0]),
  ): ((...args: A) => R) => {
    // Every key weighs 1, so the size is their count: bounded by `maxSize`, not `max`, which
    // allocates its capacity up front (4,096 slots × 7 lookups × every edition, kept for none).
    // An answer is kept boxed: lru-cache keeps no null, which is a lookup's "none".
    const cache = new LRUCache<string, { readonly answer: R }>({
      maxSize: capacity,
      sizeCalculation: () => 1,
    });
    return (...args: A) => {
      const key = keyOf(...args);
      if (key.length > maxKeyLength) return fn(...args);
      const known = cache.get(key);
      if (known !== undefined) return known.answer;
      const answer = fn(...args);
      cache.set(key, { answer });
      return answer;
    };
  };
  return {
    cpuByName: memo(inner.cpuByName),
    gpuByName: memo(inner.gpuByName),
    cpuFamily: memo(inner.cpuFamily),
    ramManufacturer: memo(inner.ramManufacturer),
    ssdManufacturer: memo(inner.ssdManufacturer),
    cpuProfile: memo(
      inner.cpuProfile,
      (manufacturer, modelRange) => `${keyPart(manufacturer)}\u0000${keyPart(modelRange)}`,
    ),
    hasDieSizes: inner.hasDieSizes,
    dieSize: memo(inner.dieSize, (family, cores) =>
      cores === null
        ? keyPart(family)
        : `${keyPart(family)}\u0000${cores.value}\u0000${cores.min}\u0000${cores.max}`,
    ),
    tdpProfile: memo(
      inner.tdpProfile,
      (tdp, { a, b, c, d }) => `${tdp}\u0000${a}\u0000${b}\u0000${c}\u0000${d}`,
    ),
  };
}
