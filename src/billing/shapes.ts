/*
 * Instance types by shape (docs/billing.md, "Instance types by shape"): a billed type read by its
 * provider's size grammar into a family and a vCPU count, so that a type the edition lacks is
 * estimated as the edition's type of the same family and vCPUs (method `instance-by-shape`), and an
 * approximate name match never crosses a family (`c7i.metal-24xl` is no `r7i.metal-24xl`: another
 * family, four times its memory per vCPU).
 *
 * Grammars: AWS `<family><generation>[attributes].<size>` (Amazon EC2 User Guide, "Instance type
 * naming conventions": `large` 2 vCPUs, `xlarge` 4, `<n>xlarge` 4n, `metal-<n>xl` as `<n>xlarge`);
 * Azure `Standard_<family><vCPUs>[-<active vCPUs>][attributes]_v<version>` (Microsoft Learn, "Azure
 * virtual machine sizes naming conventions": the number is the vCPUs; `DS2_v2` is `D2s_v2`); Google
 * Cloud `<series>-<type>-<vCPUs>` (Compute Engine, "Machine families resource and comparison
 * guide"). Sizes without a vCPU count of their own (`nano` to `medium`, `metal`) are not read.
 */

import type { Archetype } from "../data/types.js";

/** A billed type read by its provider's grammar. */
export interface Shape {
  /** Its family: AWS `c7i`, Azure `d` (the letters before the size), Google Cloud `n2-standard`. */
  readonly family: string;
  /** What the family's attributes add (Azure `s`, `ads`), '' for none. */
  readonly attributes: string;
  /** The generation or version (AWS none: the family holds it; Azure `2` of `_v2`), 0 for none. */
  readonly version: number;
  readonly vcpus: number;
}

const AWS_SIZE = /^(?:(?:db|cache|ml|kafka)\.)?([a-z][a-z0-9-]*)\.(?:(\d*)xlarge|large|metal-(\d+)xl)$/;
const AZURE_SIZE = /^(?:standard_)?([a-z]+?)(s?)(\d+)(?:-\d+)?([a-z]*)(?:_v(\d+))?(?:_promo)?$/;
const GCP_SIZE = /^([a-z][a-z0-9]*-[a-z]+)-(\d+)$/;

/** A type's shape by its provider's grammar, or null when the name says no vCPU count. */
export function shapeOf(provider: string, name: string): Shape | null {
  const text = name.trim().toLowerCase();
  if (provider === "aws") {
    const match = AWS_SIZE.exec(text);
    if (match === null) return null;
    const [, family, times, metal] = match;
    const vcpus =
      metal !== undefined ? 4 * Number(metal) : text.endsWith("xlarge") ? 4 * Number(times || "1") : 2;
    return { family, attributes: "", version: 0, vcpus };
  }
  if (provider === "azure") {
    const match = AZURE_SIZE.exec(text.replace(/ /g, "_"));
    if (match === null) return null;
    const [, letters, premium, vcpus, attributes, version] = match;
    // `DS2_v2` is `D2s_v2` (the premium-storage `s` written after the family)
    return {
      family: letters,
      attributes: `${attributes}${premium}`.split("").sort().join(""),
      version: Number(version ?? "1"),
      vcpus: Number(vcpus),
    };
  }
  if (provider === "gcp") {
    const match = GCP_SIZE.exec(text);
    return match === null ? null : { family: match[1], attributes: "", version: 0, vcpus: Number(match[2]) };
  }
  return null;
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
  if (shape !== null) return shape.family;
  const aws = /^(?:(?:db|cache|ml|kafka)\.)?([a-z][a-z0-9-]*)\.[a-z0-9-]+$/.exec(name.trim().toLowerCase());
  return provider === "aws" && aws !== null ? aws[1] : null;
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
 * family is renewed (AWS the class, processor and attributes, `m` Intel of `m5`, `m6i`, `m7i`;
 * Azure the family and attributes, `D` `s` of `D4s_v3`; Google Cloud the series' letters and
 * suffix and the type, `n` `standard` of `n1-standard-4`), the generation, and the size.
 */
interface Lineage {
  readonly line: string;
  readonly generation: number;
  readonly size: string;
}

const AWS_LINEAGE = /^((?:db|cache|ml|kafka)\.)?([a-z]+)(\d+)([a-z-]*)\.([a-z0-9-]+)$/;
const GCP_LINEAGE = /^([a-z]+)(\d+)([a-z]*)-([a-z]+)-(\d+)$/;

function lineageOf(provider: string, name: string): Lineage | null {
  const text = name.trim().toLowerCase();
  if (provider === "aws") {
    const match = AWS_LINEAGE.exec(text);
    if (match === null) return null;
    const [, prefix = "", letters, generation, attributes, size] = match;
    // The processor: Graviton `g`, AMD `a`, else Intel (`i`, written from the sixth generation)
    const processor = /^[agi]/.test(attributes) ? attributes[0] : "i";
    const rest = /^[agi]/.test(attributes) ? attributes.slice(1) : attributes;
    return { line: `${prefix}${letters} ${processor} ${rest}`, generation: Number(generation), size };
  }
  if (provider === "azure") {
    const shape = shapeOf(provider, text);
    return shape === null
      ? null
      : { line: `${shape.family} ${shape.attributes}`, generation: shape.version, size: String(shape.vcpus) };
  }
  if (provider === "gcp") {
    const match = GCP_LINEAGE.exec(text);
    if (match === null) return null;
    const [, letters, generation, suffix, type, vcpus] = match;
    return { line: `${letters} ${suffix} ${type}`, generation: Number(generation), size: vcpus };
  }
  return null;
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
 * attributes and version (shapeOf), the largest of fewer vCPUs (the first of the edition's order
 * when several are); null where none is or the size says no vCPU count. AWS `m5.2xlarge` →
 * `m5.xlarge`, Azure `D4s_v3` → `D2s_v3`, Google Cloud `n2-standard-8` → `n2-standard-4`.
 */
export function sizeDownType(provider: string, name: string, ids: Iterable<string>): string | null {
  const own = shapeOf(provider, name);
  if (own === null) return null;
  const prefixOf = (type: string) => /^((?:db|cache|ml|kafka)\.)/.exec(type.trim().toLowerCase())?.[1] ?? "";
  const prefix = prefixOf(name);
  let best: { id: string; vcpus: number } | null = null;
  for (const id of ids) {
    const other = shapeOf(provider, id);
    if (
      other === null ||
      prefixOf(id) !== prefix ||
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
