import { z } from "zod";
import { describedInput } from "../../editions/inputNotes.js";
import { type InputObject, v1NameOf } from "../../inputs/field.js";
import { USAGE_INPUT } from "../../inputs/inputFields.js";
import type { Handler, Route } from "../restRoute.js";
import { fieldTypes, type RequestValidation } from "../validation/fieldTypes.js";
import { usageSchema } from "../validation/v1Body.js";
import { deferredUsage } from "../validation/v1Schema.js";
import { type JsonObject, ref } from "./jsonSchema.js";

/*
 * The request bodies of the OpenAPI description: the zod schemas the routes validate with, as
 * JSON Schemas, each property described by its catalogue field.
 */

/**
 * JSON Schemas of the request bodies, one component per named zod schema, as validated under
 * `rules` (the default edition's typing rules).
 */
export function bodySchemas(routes: readonly Route[], rules: RequestValidation): Record<string, JsonObject> {
  // The field types convert in code (pydantic's coercions): they are documented by the value they give.
  const types = fieldTypes(rules);
  const fields = new Map<unknown, JsonObject>([
    [types.integer, { type: "integer" }],
    [types.float, { type: "number" }],
    [types.text, { type: "string" }],
  ]);
  const registry = z.registry<{ id: string }>();
  registry.add(usageSchema(rules), { id: "Usage" });
  const named = new Map<string, InputObject>([["Usage", USAGE_INPUT]]);
  for (const handler of routes.flatMap((route) => Object.values(route.methods) as Handler[])) {
    const body = handler.doc?.body;
    if (!body || named.has(body.name)) continue;
    named.set(body.name, body.object);
    registry.add(body.schema(rules), { id: body.name });
  }
  const { schemas } = z.toJSONSchema(registry, {
    io: "input",
    target: "draft-2020-12",
    // The lenient preprocessing (numeric text accepted) is not representable: the value type is shown.
    unrepresentable: "any",
    uri: (id) => `#/components/schemas/${id}`,
    override: (context) => {
      const replacement = context.zodSchema === deferredUsage ? ref("Usage") : fields.get(context.zodSchema);
      if (!replacement) return;
      for (const key of Object.keys(context.jsonSchema)) delete (context.jsonSchema as JsonObject)[key];
      Object.assign(context.jsonSchema, replacement);
    },
  });
  return Object.fromEntries(
    Object.entries(schemas).map(([name, schema]) => {
      const { $schema: _dialect, $id: _id, ...rest } = schema as JsonObject;
      const object = named.get(name);
      if (object) describeProperties(rest, object);
      return [name, rest];
    }),
  );
}

/** The JSON Schemas of objects within `schema`: itself, a nullable's branches, a list's items. */
function objectSchemasIn(schema: unknown): JsonObject[] {
  if (schema === null || typeof schema !== "object") return [];
  const node = schema as JsonObject;
  const inner = [...(Array.isArray(node.anyOf) ? node.anyOf : []), node.items].flatMap(objectSchemasIn);
  return node.properties ? [node, ...inner] : inner;
}

/**
 * Each property of a body's JSON Schema takes its field's description from the catalogue (the
 * same text as the GraphQL field's), inline objects too; a referenced component is described in
 * its own entry.
 */
function describeProperties(schema: JsonObject, object: InputObject): void {
  for (const node of objectSchemasIn(schema)) {
    const properties = node.properties as Record<string, JsonObject>;
    for (const [name, field] of Object.entries(object.fields)) {
      const v1Name = v1NameOf(name, field);
      const property = v1Name === null ? undefined : properties[v1Name];
      if (!property) continue;
      property.description = describedInput(field.description);
      if (field.type === "object" || field.type === "list") describeProperties(property, field.of);
      if ((field.type === "int" || field.type === "float") && field.alternative) {
        describeProperties(property, field.alternative.of);
      }
    }
  }
}
