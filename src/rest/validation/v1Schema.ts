import { z } from "zod";
import { type InputField, type InputObject, v1NameOf, v1Of } from "../../inputs/field.js";
import { ELECTRICITY_CRITERIA } from "../../service/engineVocabulary.js";
import { builtOncePer } from "../../support/builtOnce.js";
import { fieldTypes, type RequestValidation } from "./fieldTypes.js";

/*
 * The v1 (snake_case) schema of each catalogue object (src/inputs), under the reference's typing
 * rules of the request's edition (`src/editions/requestValidation.ts`: pydantic 1 or 2), unknown keys ignored; built
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

export type Values = Readonly<Record<string, unknown>>;

/**
 * An object's fields by their v1 name, its deferred fields (GraphQL names) and its required ones
 * (v1 names): made once per object.
 */
export const v1FieldsOf = builtOncePer((object: InputObject) => {
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
