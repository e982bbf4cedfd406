import type { z } from "zod";
import type { InputObject } from "../../inputs/field.js";
import { v1Of } from "../../inputs/field.js";
import { HDD_BODY, SERVER, USAGE_INPUT } from "../../inputs/inputFields.js";
import { COMPONENT_INPUTS, type ComponentKind } from "../../service/engineVocabulary.js";
import type { ServerInput } from "../generated/graphql.js";
import { parseV1Body } from "./bodyValidation.js";
import type { RequestValidation } from "./fieldTypes.js";
import { isPlainV1Value } from "./plainValues.js";
import { type Values, v1FieldsOf, v1Schema } from "./v1Schema.js";

/*
 * v1 request bodies (snake_case), validated by their catalogue object's v1 schema (`v1Schema.ts`)
 * and mapped to the GraphQL operation's variables (camelCase); each route's body parser, described
 * for the OpenAPI document.
 */

/**
 * The GraphQL variables of a validated v1 value: names in camelCase, an alternative's list under
 * its own name (`time_workload` as a list: `timeWorkloadShares`), a deferred field validated now
 * (null when absent). Only the keys the value has are visited (a body gives a few of its fields).
 */
function graphqlValue(object: InputObject, value: Values, rules: RequestValidation): Values {
  const { byV1Name, deferred } = v1FieldsOf(object);
  const out: Record<string, unknown> = {};
  for (const v1Name in value) {
    const entry = byV1Name.get(v1Name);
    const given = value[v1Name];
    // A key the object lacks, or given as undefined: left to the GraphQL field's default; a
    // v1-only field, validated, goes no further.
    if (!entry || given === undefined || entry.field.graphql === false) continue;
    const { name, field } = entry;
    if (v1Of(field).deferred) {
      if (given !== null) {
        out[name] = v1Variables(field.type === "object" ? field.of : USAGE_INPUT, given, rules, [v1Name]);
      }
    } else if (given === null) {
      out[name] = null;
    } else if (field.type === "object") {
      out[name] = graphqlValue(field.of, given as Values, rules);
    } else if (field.type === "list") {
      out[name] = (given as Values[]).map((item) => graphqlValue(field.of, item, rules));
    } else if (field.type === "float" && field.alternative && Array.isArray(given)) {
      const { name: altName, of } = field.alternative;
      out[altName] = (given as Values[]).map((item) => graphqlValue(of, item, rules));
    } else {
      out[name] = given;
    }
  }
  for (const name of deferred) out[name] ??= null;
  return out;
}

/**
 * A v1 value of a catalogue object (absent: `{}`) validated under `rules` (errors located under
 * `at`), as GraphQL variables.
 */
export function v1Variables<T = Values>(
  object: InputObject,
  body: unknown,
  rules: RequestValidation,
  at: readonly (string | number)[] = [],
): T {
  const root = body ?? {};
  // A body written the plain way is what its schema would return (less the keys the object
  // lacks, which graphqlValue skips): zod, 6–10 % of a verbose POST's CPU, is left to the bodies
  // it has something to say about (bench/README.md).
  const value = (
    isPlainV1Value(object, root) ? root : parseV1Body(v1Schema(rules, object), root, rules, at)
  ) as Values;
  return graphqlValue(object, value, rules) as T;
}

/**
 * A named v1 body schema (the name becomes its OpenAPI component), under given validation rules,
 * and the catalogue object it is derived from (its fields' descriptions).
 */
export interface BodyDoc {
  readonly name: string;
  readonly schema: (rules: RequestValidation) => z.ZodType;
  readonly object: InputObject;
}

/** The body description of a catalogue object, named by its GraphQL type less `Input` by default. */
export function catalogueDoc(object: InputObject, name = object.name.replace(/Input$/, "")): BodyDoc {
  return { name, object, schema: (rules) => v1Schema(rules, object) };
}

/**
 * A parser of one route's body into its GraphQL input, under the request's validation rules;
 * described ones carry the schema they validate with (for the OpenAPI description).
 */
export type BodyParser<T> = ((body: unknown, rules: RequestValidation) => T) & { readonly doc?: BodyDoc };

/** A body parser with its description in the OpenAPI document. */
export function describedBody<T>(
  doc: BodyDoc,
  parse: (body: unknown, rules: RequestValidation) => T,
): BodyParser<T> {
  return Object.assign(parse, { doc });
}

/** The v1 usage object under `rules`, for the OpenAPI description. */
export const usageSchema = (rules: RequestValidation): z.ZodType => v1Schema(rules, USAGE_INPUT);

/** The body parser of a catalogue object, named in the OpenAPI description by its GraphQL type less `Input`. */
export function catalogueBody<T>(object: InputObject, name?: string): BodyParser<T> {
  return describedBody(catalogueDoc(object, name), (body, rules) => v1Variables<T>(object, body, rules));
}

export const serverVariables: BodyParser<ServerInput> = catalogueBody(SERVER);

/**
 * The v1 bodies whose catalogue object is not their kind's GraphQL input's: the reference's HDD
 * body is its disk body, whose fields beside the count and capacity are accepted and not used.
 */
const V1_BODIES: Partial<Record<ComponentKind, InputObject>> = { hdd: HDD_BODY };

/** The v1 body of each component kind (its catalogue object, src/engine/components/registry.ts), as its GraphQL input. */
export const componentVariables = Object.fromEntries(
  Object.entries(COMPONENT_INPUTS).map(([kind, object]) => [
    kind,
    catalogueBody(V1_BODIES[kind as ComponentKind] ?? object),
  ]),
) as Record<ComponentKind, BodyParser<unknown>>;
