import type { ArgBuilder } from "@pothos/core";
import { EDITIONS } from "../editions/index.js";
import { builder, type SchemaTypes } from "./builder.js";

/** The editions as a GraphQL enum: `V1_2_4` is edition "1.2.4" (enum names cannot hold dots). */
export const EditionEnum = builder.enumType("Edition", {
  description:
    "An edition of the methodology: the numbers and answers of one boaviztapi version, with its own " +
    "reference data and rules. A service answers every edition; `EDITION` sets its default.",
  values: Object.fromEntries(
    EDITIONS.map((edition) => [edition.graphqlName, { value: edition.id, description: edition.summary }]),
  ),
});

/** The `edition` argument of every root field that evaluates or lists. */
export const editionArg = (arg: ArgBuilder<SchemaTypes>) =>
  arg({
    type: EditionEnum,
    required: false,
    description: "The edition to answer with; defaults to the service's default edition (EDITION).",
  });
