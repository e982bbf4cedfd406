import SchemaBuilder from "@pothos/core";
import { DEFAULT_EDITION_ID } from "../editions/index.js";
import type { RequestContext } from "../service/requestState.js";

interface BuilderTypes {
  Context: RequestContext;
  Scalars: {
    JSON: { Input: unknown; Output: unknown };
    Edition: { Input: string; Output: string };
  };
  DefaultFieldNullability: false;
}

/** The resolved Pothos type set, for helpers that take field or argument builders. */
export type SchemaTypes = PothosSchemaTypes.ExtendDefaultTypes<BuilderTypes>;

export const builder = new SchemaBuilder<BuilderTypes>({
  defaultFieldNullability: false,
});

builder.scalarType("JSON", {
  description: "Any JSON value (attribute values, archetype configurations, listings).",
  serialize: (value) => value,
  parseValue: (value) => value,
});

builder.queryType({
  description: `Environmental impacts of IT equipment (Boavizta methodology v${DEFAULT_EDITION_ID}).`,
});
