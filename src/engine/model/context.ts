import type { FactorTree, ReferenceData } from "../../data/types.js";
import type { ReferenceLookups } from "../lookups/lookups.js";
import { NotImplementedError } from "./attribute.js";
import type { EditionRules } from "./edition.js";

/**
 * How embedded impacts relate to the evaluation duration.
 * LINEAR: the reference's rule (docs/methodology.md §6.2), embedded × min(1, duration / lifetime).
 * TOTAL: the whole manufacturing impact whatever the duration (use impacts unchanged).
 */
export type Allocation = "LINEAR" | "TOTAL";

/**
 * What every model of one evaluation reads: the edition's tables, its (memoized) lookups and the
 * rules of the methodology that differ between editions.
 */
export interface EngineContext {
  readonly data: ReferenceData;
  readonly lookups: ReferenceLookups;
  readonly rules: EditionRules;
}

/**
 * Reads a number in factors.yml. `undefined` when the path is absent (the criterion is then
 * "not implemented"); `null` entries are reported as null (callers decide: §4.1 reads a null
 * SERVER impact as 0).
 */
export function factorAt(tree: FactorTree, ...path: string[]): number | null | undefined {
  let node: FactorTree | number | string | null | undefined = tree;
  for (const key of path) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as FactorTree)[key];
    if (node === undefined) return undefined;
  }
  if (node === null) return null;
  return typeof node === "number" ? node : undefined;
}

/** A factor that must exist and be numeric, else the criterion is not implemented. */
export function requiredFactor(tree: FactorTree, ...path: string[]): number {
  const value = factorAt(tree, ...path);
  if (typeof value !== "number") throw new NotImplementedError(`no factor at ${path.join(".")}`);
  return value;
}
