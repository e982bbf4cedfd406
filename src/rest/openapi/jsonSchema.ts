/** A JSON Schema (or any JSON object) of the OpenAPI description. */
export type JsonObject = Record<string, unknown>;

/** A reference to a schema of the OpenAPI description's `components.schemas`. */
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
