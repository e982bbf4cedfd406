/**
 * Helpers shared by the engine tests: a context over the production reference data, archetype
 * cells, criterion resolution and assertions on rounded outcomes and verbose attributes.
 * Each test file calls `engineFixture()` (loading the data takes about half a second, once per worker).
 */
import { expect } from "vitest";
import { loadReferenceData } from "../../src/data/load.js";
import type { ReferenceData } from "../../src/data/types.js";
import type { EditionDescription } from "../../src/editions/index.js";
import { EDITION_1_2_4 } from "../../src/editions/v1_2_4.js";
import type {
  AttributeEntry,
  EngineContext,
  PhaseOutcome,
  RequestedCriterion,
  VerboseAttribute,
  VerboseComponent,
  VerboseReport,
} from "../../src/engine/index.js";
import { resolveCriterion } from "../../src/engine/index.js";
import { directLookups, lookupTables } from "../../src/engine/lookups/lookups.js";

export {
  END_OF_LIFE_WARNING as END_OF_LIFE,
  GENERIC_DATA_WARNING as GENERIC_DATA,
  LOCATION_NOT_FOUND,
  UNCERTAINTY_WARNING as UNCERTAINTY,
} from "./warnings.js";

interface EngineFixture {
  readonly data: ReferenceData;
  readonly context: EngineContext;
}

const fixtures = new Map<EditionDescription, EngineFixture>();

/**
 * The engine over one edition's production data (default 1.2.4), loaded once per worker and shared
 * by the files it runs (the engine reads its data, never changes it).
 */
export function engineFixture(edition: EditionDescription = EDITION_1_2_4): EngineFixture {
  let fixture = fixtures.get(edition);
  if (!fixture) {
    const data = loadReferenceData(edition);
    fixture = {
      data,
      context: { data, lookups: directLookups(lookupTables(data, edition.rules)), rules: edition.rules },
    };
    fixtures.set(edition, fixture);
  }
  return fixture;
}

export function criterion(name: string): RequestedCriterion {
  const resolved = resolveCriterion(name);
  if (!resolved) throw new Error(`unknown criterion ${name}`);
  return resolved;
}

interface Triple {
  readonly value: number;
  readonly min: number;
  readonly max: number;
}

/** Asserts a rounded outcome exactly (value, min, max) and, when given, its warnings. */
export function expectRounded(outcome: PhaseOutcome, expected: Triple, warnings?: readonly string[]): void {
  expect(outcome).not.toBe("not implemented");
  if (outcome === "not implemented") return;
  expect({ value: outcome.value, min: outcome.min, max: outcome.max }).toEqual(expected);
  if (warnings) expect(outcome.warnings).toEqual(warnings);
}

/** Asserts an unrounded triple within `digits` decimals (toBeCloseTo semantics). */
export function expectRaw(actual: Triple, expected: Triple, digits: number): void {
  expect(actual.value).toBeCloseTo(expected.value, digits);
  expect(actual.min).toBeCloseTo(expected.min, digits);
  expect(actual.max).toBeCloseTo(expected.max, digits);
}

/** A verbose attribute as one object: its name, then its entry's keys in v1's order. */
export type ShownAttribute = { readonly name: string } & AttributeEntry;

export function shownAttribute(attribute: VerboseAttribute): ShownAttribute {
  return { name: attribute.name, ...attribute.entry };
}

export function attribute(attributes: readonly VerboseAttribute[], name: string): ShownAttribute {
  const found = attributes.find((a) => a.name === name);
  if (!found)
    throw new Error(`attribute ${name} not in verbose (${attributes.map((a) => a.name).join(", ")})`);
  return shownAttribute(found);
}

export function hasAttribute(attributes: readonly VerboseAttribute[], name: string): boolean {
  return attributes.some((a) => a.name === name);
}

export function component(report: VerboseReport, key: string): VerboseComponent {
  const found = report.components.find((c) => c.key === key);
  if (!found) throw new Error(`component ${key} not in verbose`);
  return found;
}

export function componentImpact(block: VerboseComponent, name: string) {
  const found = block.impacts.find((i) => i.criterion.requested === name);
  if (!found) throw new Error(`criterion ${name} not in ${block.key}`);
  return found;
}
