import type { ArgBuilder, ArgumentRef, InputFieldBuilder, InputFieldRef, InputObjectRef } from "@pothos/core";
import { describedInput as described } from "../editions/inputNotes.js";
import { graphqlFieldsOf, type InputField, type InputObject } from "../inputs/field.js";
import { SERVER } from "../inputs/inputFields.js";
import type { GraphQLValueOf } from "../inputs/types.js";
import {
  COMPONENT_INPUTS,
  type ComponentKind,
  ELECTRICITY_CRITERIA,
  FACTOR_UNITS,
} from "../service/engineVocabulary.js";
import { builtOncePer } from "../support/builtOnce.js";
import { builder, type SchemaTypes } from "./builder.js";

/*
 * The GraphQL input types (camelCase), derived from the input catalogue (src/inputs): one Pothos
 * input type per catalogue object, its fields in the catalogue's order. The limits a value must
 * respect are checked by the service (src/service/inputs.ts, derived from the same catalogue), so
 * GraphQL and REST clients get the same errors.
 */

const ElecFactorsInput = builder.inputType("ElecFactorsInput", {
  description: "Electricity impact factors per kWh overriding the location's, per criterion.",
  fields: (t) =>
    Object.fromEntries(
      ELECTRICITY_CRITERIA.map((c) => [
        c,
        t.float({
          required: false,
          description: `${c} impact of 1 kWh (${FACTOR_UNITS[c]}); default: the usage location's factor.`,
        }),
      ]),
    ),
});

type InputBuilder = InputFieldBuilder<SchemaTypes, "InputObject">;
type FieldRef = InputFieldRef<SchemaTypes, unknown>;

/** The GraphQL input type of a catalogue object, made once (objects held by several share it). */
const inputTypeOf = builtOncePer(
  (object: InputObject): InputObjectRef<SchemaTypes, unknown> =>
    builder.inputType(object.name, {
      description: described(object.description),
      fields: (t) => inputFieldsOf(t, object),
    }) as InputObjectRef<SchemaTypes, unknown>,
);

/** The GraphQL input type of a catalogue object, typed by the value it carries. */
export function inputRef<O extends InputObject>(object: O): InputObjectRef<SchemaTypes, GraphQLValueOf<O>> {
  return inputTypeOf(object) as InputObjectRef<SchemaTypes, GraphQLValueOf<O>>;
}

/** The GraphQL fields of a catalogue object (an alternative is a field of its own after its field's). */
export function inputFieldsOf(t: InputBuilder, object: InputObject): Record<string, FieldRef> {
  const fields: Record<string, FieldRef> = {};
  for (const [name, field] of graphqlFieldsOf(object)) {
    fields[name] = inputField(t, field);
    if ((field.type === "int" || field.type === "float") && field.alternative) {
      const { name: altName, of, description } = field.alternative;
      fields[altName] = t.field({
        type: [inputTypeOf(of)],
        required: false,
        description: described(description),
      }) as FieldRef;
    }
  }
  return fields;
}

/** The GraphQL type of a catalogue field. */
function graphqlTypeOf(field: InputField) {
  switch (field.type) {
    case "int":
      return "Int" as const;
    case "float":
      return "Float" as const;
    case "text":
      return "String" as const;
    case "object":
      return inputTypeOf(field.of);
    case "list":
      return [inputTypeOf(field.of)];
    case "factors":
      return ElecFactorsInput;
  }
}

function fieldOptions(field: InputField) {
  return {
    type: graphqlTypeOf(field),
    required: field.required === true,
    description: described(field.description),
  };
}

function inputField(t: InputBuilder, field: InputField): FieldRef {
  return t.field(fieldOptions(field) as Parameters<InputBuilder["field"]>[0]) as FieldRef;
}

/** The arguments made from a catalogue object, typed by the values they carry. */
type ArgsOf<O extends InputObject> = {
  [K in keyof O["fields"] & keyof GraphQLValueOf<O>]: ArgumentRef<SchemaTypes, GraphQLValueOf<O>[K]>;
};

/** A query field's arguments from a catalogue object (its fields as arguments, same names and types). */
export function inputArgsOf<O extends InputObject>(arg: ArgBuilder<SchemaTypes>, object: O): ArgsOf<O> {
  return Object.fromEntries(
    graphqlFieldsOf(object).map(([name, field]) => [
      name,
      arg(fieldOptions(field) as Parameters<ArgBuilder<SchemaTypes>>[0]),
    ]),
  ) as unknown as ArgsOf<O>;
}

export const ServerInputRef = inputRef(SERVER);

/** The fields of a server's description: `ServerInput`'s, and a fleet's `ServerItemInput` besides its archetype. */
export function serverInputFields(t: InputBuilder) {
  return inputFieldsOf(t, SERVER);
}

/** The GraphQL input type of each component kind (its query field's `input`, its fleet item field). */
export const COMPONENT_INPUT_TYPES = Object.fromEntries(
  Object.entries(COMPONENT_INPUTS).map(([kind, object]) => [kind, inputTypeOf(object)]),
) as Record<ComponentKind, InputObjectRef<SchemaTypes, unknown>>;
