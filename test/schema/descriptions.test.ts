/**
 * Every element of the GraphQL schema is described: types, fields, arguments, input fields and
 * enum values (criteria with their unit, units of every input field, what each default is). The
 * walk covers the schema as built, so elements added later without a description fail here too.
 */
import {
  buildSchema as buildSchemaFromSdl,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLNamedType,
  type GraphQLSchema,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isIntrospectionType,
  isObjectType,
  isSpecifiedScalarType,
} from "graphql";
import { describe, expect, it } from "vitest";
import { buildSchema } from "../../src/schema/index.js";

/** A description worth the name: not empty, not only blanks or punctuation. */
const isDescribed = (description: string | null | undefined) => /[A-Za-z0-9]{2}/.test(description ?? "");

/** Schema coordinates (`Type`, `Type.field`, `Type.field(arg:)`, `Enum.VALUE`) with no description. */
function undescribedElements(schema: GraphQLSchema): string[] {
  const missing: string[] = [];
  const check = (coordinate: string, description: string | null | undefined) => {
    if (!isDescribed(description)) missing.push(coordinate);
  };
  const checkArgs = (owner: string, args: readonly GraphQLArgument[]) => {
    for (const arg of args) check(`${owner}(${arg.name}:)`, arg.description);
  };
  const types: GraphQLNamedType[] = Object.values(schema.getTypeMap()).filter(
    (type) => !isIntrospectionType(type) && !isSpecifiedScalarType(type),
  );
  for (const type of types) {
    check(type.name, type.description);
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const field of Object.values(type.getFields()) as GraphQLField<unknown, unknown>[]) {
        check(`${type.name}.${field.name}`, field.description);
        checkArgs(`${type.name}.${field.name}`, field.args);
      }
    } else if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields()) as GraphQLInputField[])
        check(`${type.name}.${field.name}`, field.description);
    } else if (isEnumType(type)) {
      for (const value of type.getValues()) check(`${type.name}.${value.name}`, value.description);
    }
  }
  for (const directive of schema.getDirectives()) {
    if (["include", "skip", "deprecated", "specifiedBy", "oneOf"].includes(directive.name)) continue;
    check(`@${directive.name}`, directive.description);
    checkArgs(`@${directive.name}`, directive.args);
  }
  return missing;
}

describe("schema descriptions", () => {
  it("every type, field, argument, input field and enum value has a description", () => {
    expect(undescribedElements(buildSchema())).toEqual([]);
  });

  it("the walk names every kind of undescribed element by its schema coordinate", () => {
    const sdl = `
      "Described."
      type Query {
        "Described."
        asset("Described." kind: Kind, input: Input): String
        bare: Int
      }
      enum Kind { "Described." A B }
      input Input { "Described." units: Int capacity: Int }
      "—"
      scalar Grams
      directive @unit(name: String) on FIELD_DEFINITION
    `;
    expect(undescribedElements(buildSchemaFromSdl(sdl))).toEqual([
      "Query.asset(input:)",
      "Query.bare",
      "Kind",
      "Kind.B",
      "Input",
      "Input.capacity",
      "Grams",
      "@unit",
      "@unit(name:)",
    ]);
  });
});
