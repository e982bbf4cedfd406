import type { InputField, InputObject } from "../../inputs/field.js";
import { v1Of } from "../../inputs/field.js";
import { isJsonObject } from "../../support/jsonObject.js";
import { v1FieldsOf } from "./v1Schema.js";

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
