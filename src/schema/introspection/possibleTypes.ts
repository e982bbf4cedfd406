import { type GraphQLSchema, isAbstractType, isObjectType } from "graphql";

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

/**
 * The object types without an identity (every evaluated and listed type: an evaluation's only key
 * would be its whole input, docs/clients.md), which clients' normalised caches must store inside
 * their parent: Apollo's `typePolicies` give each `merge: true` (two selections of one fleet then
 * merge instead of replacing each other), urql graphcache's `keys` give each `() => null` (embedded,
 * without its "no id" warning). Derived from the schema: `npm run schema` writes them to
 * schema/unidentified-types.json.
 */
export function unidentifiedTypesOf(schema: GraphQLSchema): string[] {
  const roots = new Set([schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]);
  return Object.values(schema.getTypeMap())
    .filter(
      (type) =>
        isObjectType(type) && !type.name.startsWith("__") && !roots.has(type) && !("id" in type.getFields()),
    )
    .map((type) => type.name)
    .sort();
}
