import type { Archetype, ArchetypeTable } from "../data/types.js";
import type { EditionContext } from "./context.js";
import { DomainError } from "./errors.js";

/** A row of an archetype table of the request's edition (read once per request), or NOT_FOUND. */
export async function loadArchetype(
  context: EditionContext,
  table: ArchetypeTable,
  id: string,
): Promise<Archetype> {
  const row = await context.archetypes.load({ table, id });
  if (!row) throw new DomainError("NOT_FOUND", `${id} not found`);
  return row;
}
