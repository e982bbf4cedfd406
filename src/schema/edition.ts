import type { ArgBuilder } from "@pothos/core";
import { GraphQLError, Kind, type ValueNode } from "graphql";
import { EDITION_ID_PATTERN } from "../editions/custom.js";
import { EDITION_IDS, EDITIONS } from "../editions/index.js";
import { builder, type SchemaTypes } from "./builder.js";

/** The built-in editions by their GraphQL names (`V1_2_4` is edition "1.2.4"). */
const BUILT_IN_NAMES: ReadonlyMap<string, string> = new Map(
  EDITIONS.flatMap((edition) => (edition.graphqlName ? [[edition.graphqlName, edition.id] as const] : [])),
);

const EXPECTED =
  `expected ${[...BUILT_IN_NAMES.keys()].join(", ")} or an edition id as a string ` +
  `(lower-case letters, digits, '.', '-': ${JSON.stringify(EDITION_IDS[EDITION_IDS.length - 1])}, a custom edition's "acme")`;

/** An edition named by its GraphQL name or its id; which ids are served is checked per request. */
function editionId(value: unknown): string {
  if (typeof value === "string") {
    const builtIn = BUILT_IN_NAMES.get(value);
    if (builtIn) return builtIn;
    if (EDITION_ID_PATTERN.test(value)) return value;
  }
  throw new GraphQLError(`Edition: ${EXPECTED}`);
}

/**
 * The edition argument's type. A scalar rather than an enum so that it names custom editions
 * (EDITIONS_FILE, read at start-up) while the schema stays the same whatever the configuration:
 * the former enum literals (`edition: V2_4_1`, or `"V2_4_1"` in variables) keep working, and a
 * string names any edition by its id (`edition: "acme"`, `edition: "2.4.1"`). An id the service
 * does not serve is a BAD_USER_INPUT error naming the served ones.
 */
const EditionScalar = builder.scalarType("Edition", {
  description:
    "An edition of the methodology: the numbers and answers of one boaviztapi version, with its own " +
    `reference data and rules. Built-in: ${EDITIONS.map((e) => `${e.graphqlName} (boaviztapi ${e.id})`).join(", ")}, ` +
    `written bare as before or as strings; any edition, custom ones included, by its id as a string (${JSON.stringify(EDITION_IDS[EDITION_IDS.length - 1])}, ` +
    '"acme"; the `editions` field lists them). A service answers every edition; `EDITION` sets its default.',
  serialize: (value) => value,
  parseValue: editionId,
  parseLiteral: (node: ValueNode) => {
    if (node.kind === Kind.ENUM && BUILT_IN_NAMES.has(node.value))
      return BUILT_IN_NAMES.get(node.value) as string;
    if (node.kind === Kind.STRING) return editionId(node.value);
    throw new GraphQLError(`Edition: ${EXPECTED}`);
  },
});

/** The `edition` argument of every root field that evaluates or lists. */
export const editionArg = (arg: ArgBuilder<SchemaTypes>) =>
  arg({
    type: EditionScalar,
    required: false,
    description: "The edition to answer with; defaults to the service's default edition (EDITION).",
  });
