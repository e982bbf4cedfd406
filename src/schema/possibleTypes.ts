import { type GraphQLSchema, isAbstractType } from "graphql";

/**
 * Apollo Client's `possibleTypes` (and urql graphcache's, from the same introspection): the
 * object types of every interface and union, so that a fragment on `Asset` or `PhaseImpact`
 * matches the objects the cache holds. Without them Apollo's InMemoryCache drops the fields of
 * such fragments. Derived from the schema: `npm run schema` writes them to
 * schema/possible-types.json and the service serves them at POSSIBLE_TYPES_PATH.
 */
export function possibleTypesOf(schema: GraphQLSchema): Record<string, string[]> {
  const possible: Record<string, string[]> = {};
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isAbstractType(type) || type.name.startsWith("__")) continue;
    possible[type.name] = schema
      .getPossibleTypes(type)
      .map((object) => object.name)
      .sort();
  }
  return possible;
}

export const POSSIBLE_TYPES_PATH = "/graphql/possible-types.json";
