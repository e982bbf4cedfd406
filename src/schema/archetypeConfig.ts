import { nestedArchetype } from "../data/cells.js";
import type { ArchetypeTable } from "../data/types.js";
import { loadArchetype } from "../service/archetypes.js";
import type { EditionContext } from "../service/open.js";
import type { SchemaTypes } from "./builder.js";
import { editionArg } from "./edition.js";
import { rethrowSpelled } from "./errors.js";

/*
 * The `*ArchetypeConfig` root fields (docs/methodology.md §16): one row of an archetype table,
 * its `value;min;max` cells nested as objects, or NOT_FOUND.
 */

/** The row `id` of `table`, nested; NOT_FOUND when the table has no such row. */
export async function archetypeConfig(context: EditionContext, table: ArchetypeTable, id: string) {
  return nestedArchetype((await loadArchetype(context, table, id).catch(rethrowSpelled)).cells);
}

/** What the schema says of one table's field and of its `archetype` argument. */
interface ArchetypeConfigDescriptions {
  readonly field: string;
  readonly archetype: string;
}

/**
 * The root field answering a row of the table `tableOf` picks in the requested edition: arguments
 * `archetype` (required) and `edition`.
 */
export function archetypeConfigField(
  t: PothosSchemaTypes.QueryFieldBuilder<SchemaTypes, SchemaTypes["Root"]>,
  descriptions: ArchetypeConfigDescriptions,
  tableOf: (context: EditionContext) => ArchetypeTable,
) {
  return t.field({
    type: "JSON",
    description: descriptions.field,
    args: {
      archetype: t.arg.string({ required: true, description: descriptions.archetype }),
      edition: editionArg(t.arg),
    },
    resolve: async (_r, { archetype, edition }, context) => {
      const served = context.edition(edition);
      return archetypeConfig(served, tableOf(served), archetype);
    },
  });
}
