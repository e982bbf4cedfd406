import { z } from "zod";
import { SERVER, USAGE } from "../inputs/catalogue.js";
import { type InputField, type InputObject, v1NameOf, v1Of } from "../inputs/field.js";
import { COMPONENT_INPUTS, type ComponentKind, ELECTRICITY_CRITERIA } from "../service/catalogue.js";
import { builtOncePer } from "../support/builtOnce.js";
import { isJsonObject } from "../support/jsonObject.js";
import { sentValue } from "./errorDialect.js";
import type { ServerInput, UsageInput } from "./generated/graphql.js";
import {
  type FieldIssue,
  fieldTypes,
  issueParams,
  type RequestValidation,
  type ValidationDetail,
  validationDetail,
} from "./validation.js";

/*
 * v1 request bodies (snake_case), derived from the input catalogue (src/inputs) and validated with
 * the reference's typing rules of the request's edition (`validation.ts`: pydantic 1 or 2), unknown
 * keys ignored; then mapped to the GraphQL operation's variables (camelCase). The schemas are built
 * once per set of rules and catalogue object.
 */

/**
 * A body's deferred field (`usage` of the device and cloud bodies) as the body's schema holds it:
 * validated in a second step (`v1Variables`, its errors located under the field); the OpenAPI
 * description shows it as the `Usage` schema.
 */
export const deferredUsage = z.unknown().optional();

/** The v1 schemas of one set of rules: each catalogue object's, built once. */
class V1Schemas {
  constructor(readonly rules: RequestValidation) {}

  /** An object's v1 schema, made once: its fields under their v1 names (a field v1 lacks is left out). */
  readonly object = builtOncePer(
    (object: InputObject): z.ZodType =>
      z.object(
        Object.fromEntries(
          Object.entries(object.fields).flatMap(([name, field]) => {
            const v1Name = v1NameOf(name, field);
            return v1Name === null ? [] : [[v1Name, this.#field(field)]];
          }),
        ),
      ),
  );

  #field(field: InputField): z.ZodType {
    if (v1Of(field).deferred) return deferredUsage;
    const types = fieldTypes(this.rules);
    const schema = this.#value(field);
    if (field.required) return schema;
    return v1Of(field).defaulted ? types.defaulted(schema) : types.optional(schema);
  }

  #value(field: InputField): z.ZodType {
    const { integer, float, text, optional } = fieldTypes(this.rules);
    switch (field.type) {
      case "int":
        return integer;
      case "float":
        return field.alternative ? z.union([float, z.array(this.object(field.alternative.of))]) : float;
      case "text":
        return v1Of(field).textOrInteger ? z.union([text, integer]).transform(String) : text;
      case "object":
        return this.object(field.of);
      case "list":
        return z.array(this.object(field.of));
      case "factors":
        return z.object(Object.fromEntries(ELECTRICITY_CRITERIA.map((c) => [c, optional(float)])));
    }
  }
}

const schemasOf = builtOncePer((rules: RequestValidation) => new V1Schemas(rules));

/** The v1 body schema of a catalogue object under `rules`. */
export function v1Schema(rules: RequestValidation, object: InputObject): z.ZodType {
  return schemasOf(rules).object(object);
}

type Values = Readonly<Record<string, unknown>>;

/**
 * An object's fields by their v1 name, its deferred fields (GraphQL names) and its required ones
 * (v1 names): made once per object.
 */
const v1FieldsOf = builtOncePer((object: InputObject) => {
  const byV1Name = new Map<string, { readonly name: string; readonly field: InputField }>();
  const deferred: string[] = [];
  const required: string[] = [];
  for (const [name, field] of Object.entries(object.fields)) {
    const v1Name = v1NameOf(name, field);
    if (v1Name === null) continue;
    byV1Name.set(v1Name, { name, field });
    if (v1Of(field).deferred) deferred.push(name);
    if (field.required) required.push(v1Name);
  }
  return { byV1Name, deferred, required };
});

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
    // A key the object lacks, or given as undefined: left to the GraphQL field's default.
    if (!entry || given === undefined) continue;
    const { name, field } = entry;
    if (v1Of(field).deferred) {
      if (given !== null) {
        out[name] = v1Variables(field.type === "object" ? field.of : USAGE, given, rules, [v1Name]);
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
  // it has something to say about (bench/README.md, issue 15).
  const value = (
    isPlainV1Value(object, root) ? root : parseV1Body(v1Schema(rules, object), root, rules, at)
  ) as Values;
  return graphqlValue(object, value, rules) as T;
}

/**
 * Whether `value` is a v1 value of `object` that every edition's rules take as it is: each key
 * the object has given in its JSON type (a whole number for an integer, a finite number for a
 * float, a text for a text, an object or a list of them), null only where the reference declares
 * `Optional`, every required key present. Its schema would return it unchanged but for the
 * unknown keys it drops. Anything else (a number written as text, a boolean, a fraction for an
 * integer, a null for a defaulted field, factors) is left to the schema: false here only costs
 * the schema's time, never a different answer (test/inputs/plainValues.test.ts).
 */
export function isPlainV1Value(object: InputObject, value: unknown): boolean {
  if (!isJsonObject(value)) return false;
  const { byV1Name, required } = v1FieldsOf(object);
  for (const v1Name of required) if (value[v1Name] == null) return false;
  for (const v1Name in value) {
    const entry = byV1Name.get(v1Name);
    if (entry && !isPlainV1Field(entry.field, value[v1Name])) return false;
  }
  return true;
}

function isPlainV1Field(field: InputField, given: unknown): boolean {
  const spelling = v1Of(field);
  // A deferred field is validated on its own when it is mapped (`graphqlValue`).
  if (spelling.deferred) return true;
  if (given === null) return field.required !== true && spelling.defaulted !== true;
  switch (field.type) {
    case "int":
      return Number.isInteger(given);
    case "float": {
      const alternative = field.alternative;
      return Array.isArray(given) && alternative
        ? given.every((item) => isPlainV1Value(alternative.of, item))
        : typeof given === "number" && Number.isFinite(given);
    }
    case "text":
      return typeof given === "string";
    case "object":
      return isPlainV1Value(field.of, given);
    case "list":
      return Array.isArray(given) && given.every((item) => isPlainV1Value(field.of, item));
    case "factors":
      return false;
  }
}

/** A v1 body that failed validation, in FastAPI's 422 shape (layout of the request's rules). */
export class BodyValidationError extends Error {
  constructor(readonly detail: ValidationDetail[]) {
    super("invalid request body");
  }
}

/** Most refused values listed in one 422 (a body's lists are bounded by MAX_LIST_LENGTH first). */
export const MAX_REPORTED_ISSUES = 50;

/** Validates a v1 body (absent = `{}`) under `rules`, or throws the 422 of FastAPI's shape. */
export function parseV1Body<S extends z.ZodType>(
  schema: S,
  body: unknown,
  rules: RequestValidation,
  at: readonly (string | number)[] = [],
): z.infer<S> {
  const root = body ?? {};
  // `reportInput`: a required key absent is told apart from one given as null.
  const result = schema.safeParse(root, { reportInput: true });
  if (result.success) return result.data;
  throw new BodyValidationError(
    // The first ones only: the answer stays small whatever the body holds.
    firstStage(result.error.issues.flatMap((issue) => refusals(issue, [])))
      .slice(0, MAX_REPORTED_ISSUES)
      .map(({ path, issue, input }) => {
        const loc = ["body", ...at, ...path];
        // A required field absent: pydantic 2 echoes the object that lacks it.
        const echoed = issue.kind === "missing" ? sentValue(root, path.slice(0, -1)) : input;
        return validationDetail(rules, loc, issue, echoed);
      }),
  );
}

/**
 * The framework's refusals (types) come before the service's own completeness check (a key
 * absent, where the reference has no check and fails later): a body with both is answered the
 * former only, as the reference answers it.
 */
function firstStage(all: Refusal[]): Refusal[] {
  const framework = all.filter((refusal) => refusal.issue.kind !== "missing");
  return framework.length > 0 ? framework : all;
}

interface Refusal {
  readonly path: (string | number)[];
  readonly issue: FieldIssue;
  readonly input: unknown;
}

/**
 * The refusals of a zod issue: a field type's own (carried in its params), or one zod raises itself
 * (an object or a list expected); a value fitting no member of a union is refused by each member,
 * as pydantic lists them.
 */
function refusals(issue: z.core.$ZodIssue, prefix: readonly (string | number)[]): Refusal[] {
  const path = [...prefix, ...issue.path.map((p) => (typeof p === "symbol" ? String(p) : p))];
  const params = issueParams(issue);
  if (params) return [{ path, issue: params.pydantic, input: params.input }];
  if (issue.code === "invalid_union" && issue.errors.length > 0) {
    const members = issue.errors.map((member) => member.flatMap((inner) => refusals(inner, path)));
    // A member refused only for absent keys is the one the framework accepts (it has no such
    // check): the service's completeness check answers for it alone.
    const completed = members.find((member) => member.every((refusal) => refusal.issue.kind === "missing"));
    return completed ?? members.flat();
  }
  return [{ path, issue: structuralIssue(issue), input: issue.input }];
}

/** Issues zod raises itself: the kind pydantic gives them. */
function structuralIssue(issue: z.core.$ZodIssue): FieldIssue {
  if (issue.code === "invalid_type" && issue.input === undefined) return { kind: "missing" };
  if (issue.code === "invalid_type" && issue.expected === "array") return { kind: "listType" };
  if (issue.code === "invalid_type" && issue.expected === "object") return { kind: "objectType" };
  return { kind: "invalid", params: { message: issue.message } };
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
export const usageSchema = (rules: RequestValidation): z.ZodType => v1Schema(rules, USAGE);

/** The body parser of a catalogue object, named in the OpenAPI description by its GraphQL type less `Input`. */
export function catalogueBody<T>(object: InputObject, name?: string): BodyParser<T> {
  return describedBody(catalogueDoc(object, name), (body, rules) => v1Variables<T>(object, body, rules));
}

export const serverVariables: BodyParser<ServerInput> = catalogueBody(SERVER);

/** The v1 body of each component kind (its catalogue object, src/engine/components/registry.ts), as its GraphQL input. */
export const componentVariables = Object.fromEntries(
  Object.entries(COMPONENT_INPUTS).map(([kind, object]) => [kind, catalogueBody(object)]),
) as Record<ComponentKind, BodyParser<unknown>>;

/** A body's `usage` object (errors located under `usage`). */
export function usageVariables(value: unknown, rules: RequestValidation): UsageInput | null {
  return value == null ? null : v1Variables<UsageInput>(USAGE, value, rules, ["usage"]);
}
