/** A JSON object (not null, not a list): what a parsed body or a GraphQL input object value is. */
export function isJsonObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
