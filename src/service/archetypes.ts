import type { Archetype, ArchetypeTable } from "../data/types.js";
import { DomainError } from "./errors.js";
import type { EditionContext, EditionService } from "./open.js";

/** A row of an archetype table of the request's edition (read once per request), or NOT_FOUND. */
export async function loadArchetype(
  context: EditionContext,
  table: ArchetypeTable,
  id: string,
): Promise<Archetype> {
  const row = await context.loaders.archetype(table, id);
  if (!row) {
    const archetypes = context.service.data.archetypes as Readonly<Record<string, ArchetypeTable | null>>;
    const name = Object.keys(archetypes).find((key) => archetypes[key] === table);
    const found = (served: EditionService) => {
      const other = name === undefined ? undefined : (served.data.archetypes as typeof archetypes)[name];
      return other?.byId.has(id) === true || other?.byId.has(id.trim()) === true;
    };
    throw new DomainError("NOT_FOUND", `${id} not found${elsewhere(context, found)}`);
  }
  return row;
}

/**
 * ` (exists in edition 2.4.1)` when another served edition has what this one lacks, else "": a
 * newcomer's inventory written for another edition says why its rows are not found.
 */
export function elsewhere(context: EditionContext, has: (served: EditionService) => boolean): string {
  const ids: string[] = [];
  for (const served of context.editions.values()) {
    if (served !== context.service && has(served)) ids.push(served.edition.id);
  }
  return ids.length === 0 ? "" : ` (exists in edition ${ids.join(", ")})`;
}
