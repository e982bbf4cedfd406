/*
 * Instance types by shape (docs/billing.md, "Instance types by shape"): a billed type read by its
 * provider's size grammar into a family and a vCPU count, so that a type the edition lacks is
 * estimated as the edition's type of the same family and vCPUs (method `instance-by-shape`), and an
 * approximate name match never crosses a family (`c7i.metal-24xl` is no `r7i.metal-24xl`: another
 * family, four times its memory per vCPU).
 *
 * Each provider's grammar is its own module's (src/billing/providers/: AWS
 * `<family><generation>[attributes].<size>`, Azure `Standard_<family><vCPUs>…_v<version>`, Google
 * Cloud `<series>-<type>-<vCPUs>`). Sizes without a vCPU count of their own (`nano` to `medium`,
 * `metal`) are not read.
 */

import type { Archetype } from "../data/types.js";
import { providerOf } from "./providers/index.js";
import type { Lineage, Shape } from "./providers/provider.js";

export type { Shape } from "./providers/provider.js";

/** A type's shape by its provider's grammar (src/billing/providers/), or null when the name says no vCPU count. */
export function shapeOf(provider: string, name: string): Shape | null {
  return providerOf(provider)?.names.shape(name.trim().toLowerCase()) ?? null;
}

/** Whether two names are of one family (unreadable names are not). */
export function sameFamily(provider: string, a: string, b: string): boolean {
  const first = familyOf(provider, a);
  return first !== null && first === familyOf(provider, b);
}

/**
 * The edition's type standing for a billed one by shape: of the same family and vCPUs, the same
 * attributes first, then the nearest version (the later of two as near); null when the family has
 * no type of those vCPUs (no type is scaled from another size: the summary names it unknown).
 */
export function typeByShape(provider: string, billed: string, ids: Iterable<string>): string | null {
  const shape = shapeOf(provider, billed);
  if (shape === null) return null;
  let best: { id: string; rank: readonly number[] } | null = null;
  for (const id of ids) {
    const other = shapeOf(provider, id);
    if (other === null || other.family !== shape.family || other.vcpus !== shape.vcpus) continue;
    const rank = [
      other.attributes === shape.attributes ? 0 : 1,
      Math.abs(other.version - shape.version),
      -other.version,
      id.length,
    ];
    if (
      best === null ||
      compareRanks(rank, best.rank) < 0 ||
      (compareRanks(rank, best.rank) === 0 && id < best.id)
    )
      best = { id, rank };
  }
  return best?.id ?? null;
}

function compareRanks(a: readonly number[], b: readonly number[]): number {
  for (const [index, value] of a.entries()) if (value !== b[index]) return value - b[index];
  return 0;
}

/** An instance's shape as a bill's own columns give it (CUR product/vcpu, product/memory). */
export interface BilledShape {
  readonly vcpus: number;
  /** GiB, null where the bill does not say. */
  readonly memoryGib: number | null;
}

/** A type's family by its provider's grammar, whatever its size says (`c7i.metal`: c7i), or null. */
export function familyOf(provider: string, name: string): string | null {
  const shape = shapeOf(provider, name);
  return shape !== null
    ? shape.family
    : (providerOf(provider)?.names.family(name.trim().toLowerCase()) ?? null);
}

/** A number cell of an edition's type (`vcpu`, `memory`), or null. */
function cellNumber(type: Archetype, column: string): number | null {
  const value = Number(type.cells[column]?.default);
  return Number.isFinite(value) && type.cells[column]?.default !== undefined ? value : null;
}

/**
 * The edition's type standing for a billed one by the shape the bill gives (its own columns come
 * before the size grammar): of the same family, the vCPUs the bill says and, where it says it,
 * the same memory (the edition's `vcpu` and `memory` columns, GiB); the first of the edition's
 * order when several are. Null when none is: no type is scaled from another.
 */
export function typeByBilledShape(
  provider: string,
  billed: string,
  given: BilledShape,
  types: Iterable<Archetype>,
): string | null {
  const family = familyOf(provider, billed);
  if (family === null) return null;
  for (const type of types) {
    if (familyOf(provider, type.id) !== family || cellNumber(type, "vcpu") !== given.vcpus) continue;
    if (given.memoryGib === null || cellNumber(type, "memory") === given.memoryGib) return type.id;
  }
  return null;
}

/**
 * A type's line of families and its place in it, by its provider's grammar: what stays when a
 * family is renewed, the generation, and the size (src/billing/providers/).
 */
function lineageOf(provider: string, name: string): Lineage | null {
  return providerOf(provider)?.names.lineage(name.trim().toLowerCase()) ?? null;
}

/**
 * The current family's type of the same size: among the edition's types (`ids`), of the same line
 * (lineageOf) and size, the latest generation after the type's own (the first of the edition's
 * order when several are); null where the type is of its line's latest or its name is not read.
 * AWS `m5.xlarge` → `m8i.xlarge` (Intel, no attribute), `c6gd.2xlarge` → `c8gd.2xlarge`; Azure
 * `D4s_v3` → `D4s_v6`; Google Cloud `n1-standard-4` → `n4-standard-4`.
 */
export function currentFamilyType(provider: string, name: string, ids: Iterable<string>): string | null {
  const own = lineageOf(provider, name);
  if (own === null) return null;
  let best: { id: string; generation: number } | null = null;
  for (const id of ids) {
    const other = lineageOf(provider, id);
    if (other === null || other.line !== own.line || other.size !== own.size) continue;
    if (other.generation <= own.generation || (best !== null && other.generation <= best.generation))
      continue;
    best = { id, generation: other.generation };
  }
  return best?.id ?? null;
}

/**
 * The same family's type one size down: among the edition's types (`ids`) of the type's family,
 * attributes, version (shapeOf) and managed service's node, the largest of fewer vCPUs (the first of the edition's order
 * when several are); null where none is or the size says no vCPU count. AWS `m5.2xlarge` →
 * `m5.xlarge`, Azure `D4s_v3` → `D2s_v3`, Google Cloud `n2-standard-8` → `n2-standard-4`.
 */
export function sizeDownType(provider: string, name: string, ids: Iterable<string>): string | null {
  const own = shapeOf(provider, name);
  if (own === null) return null;
  const nodeOf = (type: string) => providerOf(provider)?.names.node(type.trim().toLowerCase()) ?? "";
  const node = nodeOf(name);
  let best: { id: string; vcpus: number } | null = null;
  for (const id of ids) {
    const other = shapeOf(provider, id);
    if (
      other === null ||
      nodeOf(id) !== node ||
      other.family !== own.family ||
      other.attributes !== own.attributes ||
      other.version !== own.version ||
      other.vcpus >= own.vcpus ||
      (best !== null && other.vcpus <= best.vcpus)
    )
      continue;
    best = { id, vcpus: other.vcpus };
  }
  return best?.id ?? null;
}
