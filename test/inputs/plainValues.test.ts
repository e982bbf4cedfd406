/**
 * The fast paths in front of the two zod validations of a request's input: a v1 body written the
 * plain way (`isPlainV1Value`, src/rest/validation/plainValues.ts) and a GraphQL value within every bound
 * (`isWithinBounds`, src/service/inputs.ts) skip their schema. They must never accept what the
 * schema would refuse or change: for generated values of every catalogue object — every kind of
 * JSON value in every field, keys the object lacks, missing required keys —, whatever a fast path
 * accepts, its schema accepts and returns unchanged (less the unknown keys a v1 schema drops).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_LIMITS, type Limits } from "../../src/config/serviceConfig.js";
import { PYDANTIC_1, PYDANTIC_2 } from "../../src/editions/requestValidation.js";
import { type InputField, type InputObject, v1NameOf, v1Of } from "../../src/inputs/field.js";
import {
  CLOUD_INSTANCE,
  CLOUD_INSTANCE_ITEM,
  INPUT_OBJECTS,
  SERVER,
  USAGE_INPUT,
} from "../../src/inputs/inputFields.js";
import { isPlainV1Value } from "../../src/rest/validation/plainValues.js";
import { v1Schema } from "../../src/rest/validation/v1Schema.js";
import { isWithinBounds, valueSchema } from "../../src/service/inputs.js";

/** How a generated value names its keys: v1 (snake_case, one key per field) or GraphQL. */
type Naming = "v1" | "graphql";

const NUMBERS = fc.oneof(
  fc.integer({ min: -3, max: 300 }),
  fc.double({ min: -1e3, max: 1e3 }),
  fc.double(),
  fc.constantFrom(0, -0, 0.5, 100, 100.5, 1e-31, 1e-30, 1e30, 1e31, 2 ** 31, 2 ** 53, -1e40),
);
/** Values of the wrong kind for any field. */
const JUNK = fc.oneof(
  fc.constantFrom("12", " 3 ", "1.5", "1e3", "", "abc", true, false, null),
  fc.string({ maxLength: 3 }),
  fc.constant([]),
  fc.constant({}),
);
/** Numbers of 0–100 with two decimals: within every float bound but zero for `nonZero` (no denormal, no −0). */
const HUNDREDTHS = fc.integer({ min: 0, max: 10000 }).map((n) => n / 100);
const TEXTS = fc.oneof(fc.string({ maxLength: 6 }), fc.string({ minLength: 7, maxLength: 12 }));

/** A value of the field's own kind (at the edges of its bounds too), some of another kind. */
function fieldValue(field: InputField, naming: Naming, depth: number, noisy: boolean): fc.Arbitrary<unknown> {
  if (!noisy) return ownKind(field, naming, depth, noisy);
  return fc.oneof(
    { arbitrary: ownKind(field, naming, depth, noisy), weight: 8 },
    { arbitrary: NUMBERS, weight: 1 },
    { arbitrary: JUNK, weight: 1 },
  );
}

function ownKind(field: InputField, naming: Naming, depth: number, noisy: boolean): fc.Arbitrary<unknown> {
  switch (field.type) {
    case "int":
      return noisy
        ? fc.oneof(fc.integer({ min: -3, max: 300 }), fc.constantFrom(2 ** 31, 2 ** 53, 2 ** 60))
        : fc.integer({ min: 0, max: 300 });
    case "float": {
      const numbers = noisy
        ? fc.oneof(
            fc.double({ min: -1e3, max: 1e3, noNaN: true }),
            fc.constantFrom(-0, 100.5, 1e-31, 1e-30, 1e30, 1e31),
          )
        : HUNDREDTHS;
      const alternative = field.alternative;
      // v1 takes the alternative's list in the field itself; GraphQL has a field of its own.
      return alternative && naming === "v1" && depth > 0
        ? fc.oneof(numbers, fc.array(objectValue(alternative.of, naming, depth - 1, noisy), { maxLength: 3 }))
        : numbers;
    }
    case "text":
      // Within the test's MAX_STRING_LENGTH of 6 unless noisy.
      return noisy ? TEXTS : fc.string({ maxLength: 6 });
    case "object":
      return depth > 0 ? objectValue(field.of, naming, depth - 1, noisy) : fc.constant(null);
    case "list":
      return depth > 0
        ? fc.array(objectValue(field.of, naming, depth - 1, noisy), { maxLength: 4 })
        : fc.constant([]);
    case "factors":
      return noisy
        ? fc.dictionary(fc.constantFrom("gwp", "adp", "pe", "other"), fc.oneof(NUMBERS, fc.constant(null)))
        : fc.dictionary(fc.constantFrom("gwp", "adp", "pe"), fc.option(HUNDREDTHS));
  }
}

/**
 * Values of an object: any subset of its keys. Noisy: each of any kind, sometimes a key the object
 * lacks; otherwise each of its own kind, mostly within its bound (else the fast path is seldom
 * reached by objects of many fields).
 */
function objectValue(
  object: InputObject,
  naming: Naming,
  depth: number,
  noisy: boolean,
): fc.Arbitrary<Record<string, unknown>> {
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  const required: string[] = [];
  for (const [name, field] of Object.entries(object.fields)) {
    const key = naming === "v1" ? v1NameOf(name, field) : name;
    // A v1-only field is no GraphQL field: a GraphQL value never holds it.
    if (key === null || (naming === "graphql" && field.graphql === false)) continue;
    if (field.required && !noisy) required.push(key);
    // A deferred v1 field (a body's `usage`) is validated on its own: generated as a usage.
    model[key] =
      naming === "v1" && v1Of(field).deferred
        ? depth > 0
          ? objectValue(USAGE_INPUT, naming, depth - 1, noisy)
          : fc.constant(null)
        : fieldValue(field, naming, depth, noisy);
    if (naming === "graphql" && (field.type === "int" || field.type === "float") && field.alternative) {
      model[field.alternative.name] =
        depth > 0
          ? fc.array(objectValue(field.alternative.of, naming, depth - 1, noisy), { maxLength: 4 })
          : fc.constant([]);
    }
  }
  return fc
    .tuple(fc.record(model, { requiredKeys: required }), fc.integer({ min: 0, max: 4 }))
    .map(([value, extra]) => (noisy && extra === 0 ? { ...value, not_a_field: 1 } : value));
}

/** A v1 value as its schema returns a valid one: the keys the object lacks dropped, at every depth. */
function knownKeys(object: InputObject, value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(object.fields)) {
    const key = v1NameOf(name, field);
    if (key === null || !(key in value)) continue;
    const given = value[key];
    if (given === null || v1Of(field).deferred) out[key] = given;
    else if (field.type === "object") out[key] = knownKeys(field.of, given as Record<string, unknown>);
    else if (field.type === "list") out[key] = knownItems(field.of, given);
    else if (field.type === "float" && field.alternative && Array.isArray(given))
      out[key] = knownItems(field.alternative.of, given);
    else out[key] = given;
  }
  return out;
}

function knownItems(of: InputObject, items: unknown): Record<string, unknown>[] {
  return (items as Record<string, unknown>[]).map((item) => knownKeys(of, item));
}

const RUNS = { numRuns: 300, seed: 20261123 };

describe("v1 bodies written the plain way skip their schema", () => {
  for (const rules of [PYDANTIC_1, PYDANTIC_2]) {
    for (const object of INPUT_OBJECTS) {
      it(`${object.name} under ${rules === PYDANTIC_1 ? "pydantic 1" : "pydantic 2"}: accepted only as the schema returns it`, () => {
        let plain = 0;
        fc.assert(
          fc.property(
            fc.oneof(objectValue(object, "v1", 3, true), objectValue(object, "v1", 3, false)),
            (value) => {
              if (!isPlainV1Value(object, value)) return;
              plain += 1;
              const parsed = v1Schema(rules, object).safeParse(value);
              expect(parsed.success).toBe(true);
              expect(parsed.data).toEqual(knownKeys(object, value));
            },
          ),
          RUNS,
        );
        // The generator reaches the fast path, or the test would prove nothing.
        expect(plain).toBeGreaterThan(0);
      });
    }
  }

  it("leaves to the schema what it converts or refuses", () => {
    const cpu = (value: unknown) => ({ configuration: { cpu: { core_units: value } } });
    expect(isPlainV1Value(SERVER, cpu(24))).toBe(true);
    for (const converted of ["24", true, 24.5, [24]]) {
      expect(isPlainV1Value(SERVER, cpu(converted))).toBe(false);
    }
    // A required key absent (a fleet's cloud instance needs its type).
    expect(isPlainV1Value(CLOUD_INSTANCE_ITEM, { instance_type: "a1.medium" })).toBe(true);
    expect(isPlainV1Value(CLOUD_INSTANCE_ITEM, { provider: "aws" })).toBe(false);
    const shares = [{ time_percentage: 50, load_percentage: 20 }];
    expect(isPlainV1Value(SERVER, { usage: { time_workload: shares } })).toBe(true);
    expect(isPlainV1Value(SERVER, { usage: { time_workload: [{ time_percentage: 50 }] } })).toBe(false);
    // Factors are left to the schema (it drops the criteria it lacks); a deferred usage is checked later.
    expect(isPlainV1Value(USAGE_INPUT, { elec_factors: { gwp: 0.1 } })).toBe(false);
    expect(isPlainV1Value(CLOUD_INSTANCE, { usage: { elec_factors: { gwp: 0.1 } } })).toBe(true);
  });
});

describe("GraphQL values within every bound skip the service's schema", () => {
  const limits: Limits = { ...DEFAULT_LIMITS, maxListLength: 3, maxStringLength: 6 };
  for (const object of INPUT_OBJECTS) {
    it(`${object.name}: accepted only as the schema returns it`, () => {
      let within = 0;
      fc.assert(
        fc.property(
          fc.oneof(objectValue(object, "graphql", 3, true), objectValue(object, "graphql", 3, false)),
          (value) => {
            if (!isWithinBounds(limits, object, value)) return;
            within += 1;
            const parsed = valueSchema(limits, object).safeParse(value);
            expect(parsed.success).toBe(true);
            expect(parsed.data).toEqual(value);
          },
        ),
        RUNS,
      );
      expect(within).toBeGreaterThan(0);
    });
  }

  it("leaves to the schema what it refuses, at the bounds", () => {
    const cpu = (value: unknown) => ({ configuration: { cpu: { coreUnits: value } } });
    expect(isWithinBounds(limits, SERVER, cpu(24))).toBe(true);
    for (const refused of [-1, 2.5, "24", 2 ** 53])
      expect(isWithinBounds(limits, SERVER, cpu(refused))).toBe(false);
    const workload = (value: unknown) => ({ usage: { timeWorkload: value } });
    expect(isWithinBounds(limits, SERVER, workload(100))).toBe(true);
    expect(isWithinBounds(limits, SERVER, workload(100.5))).toBe(false);
    expect(isWithinBounds(limits, SERVER, { usage: { usageLocation: "FRANCE!" } })).toBe(false);
    expect(isWithinBounds(limits, SERVER, { usage: { hoursLifeTime: 1e31 } })).toBe(false);
    expect(isWithinBounds(limits, SERVER, { usage: { notAField: 1 } })).toBe(false);
  });
});
