import type { JsonObject } from "./jsonSchema.js";

/*
 * Pieces every operation of the shim's OpenAPI document writes alike: the `edition` query
 * parameter, a small JSON refusal and the 503 of a budget with room for no more.
 */

/** The editions a document describes: the service's default, every served one, and the one it is of. */
export interface DescribedEditions {
  readonly methodology: string;
  readonly editions: readonly string[];
  /** The edition whose document this is (its routes and bodies); default: `methodology`. */
  readonly edition?: string;
}

/**
 * The `edition` query parameter: any served edition, the service's default when absent; the
 * document's own edition is what "Try it out" fills in.
 */
export function editionParameter(editions: DescribedEditions, description: string): JsonObject {
  return {
    name: "edition",
    in: "query",
    required: false,
    description,
    schema: { type: "string", enum: [...editions.editions], default: editions.methodology },
    example: editions.edition ?? editions.methodology,
  };
}

/** A refusal answered as `{detail}` in JSON. */
export function detailAnswer(description: string): JsonObject {
  return {
    description,
    content: { "application/json": { schema: { type: "object", properties: { detail: {} } } } },
  };
}

/** The 503 of a budget with no room now: `{detail}` and the seconds to wait (Retry-After). */
export function busyAnswer(description: string): JsonObject {
  return {
    description,
    headers: {
      "Retry-After": { description: "Seconds to wait before asking again.", schema: { type: "integer" } },
    },
    content: {
      "application/json": { schema: { type: "object", properties: { detail: { type: "string" } } } },
    },
  };
}
