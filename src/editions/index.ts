import type { CriterionInfo } from "../engine/index.js";
import { EDITION_ECOLOGITS_0_11_3 } from "./ecologits_0_11_3.js";
import type { EditionDescription, GenerativeAiEditionDescription } from "./types.js";
import { EDITION_1_2_4 } from "./v1_2_4.js";
import { EDITION_2_4_1 } from "./v2_4_1.js";
import { EDITION_2_5_0 } from "./v2_5_0.js";

export type { EditionDescription, GenerativeAiEditionDescription } from "./types.js";

/** Every edition the service serves, oldest first. */
export const EDITIONS: readonly EditionDescription[] = [EDITION_1_2_4, EDITION_2_4_1, EDITION_2_5_0];

/** The edition of a service started without `EDITION` (today's `/v1` behaviour). */
export const DEFAULT_EDITION_ID = EDITION_1_2_4.id;

/**
 * The edition for new work (docs/editions.md, "Which edition?"): Boavizta's current release. The
 * default of every surface a person uses without choosing (newWorkEdition); the service's own
 * default for requests stays DEFAULT_EDITION_ID, for clients written against the specification.
 */
export const NEW_WORK_EDITION_ID = EDITION_2_5_0.id;

/**
 * The edition of generative-AI usage (docs/methodology.md, "Generative AI"): EcoLogits' release,
 * apart from Boavizta's editions, which evaluate no AI usage.
 */
export const GENERATIVE_AI_EDITION: GenerativeAiEditionDescription = EDITION_ECOLOGITS_0_11_3;
/** The default of new work in words, as `--help`, the pages and the docs say it. */
export const NEW_WORK_DEFAULT = `EDITION if set, else ${NEW_WORK_EDITION_ID}, Boavizta's current release`;

/**
 * The edition of work a person starts without naming one — the command line for every kind of file
 * (an inventory, a batch, a bill, the coefficient table, the portable scripts) and the /evaluate
 * page, which runs that command — the one place this is decided: an operator's EDITION when the
 * environment sets it (the page and its command then agree with the service's routes), else the
 * edition for new work. REST and GraphQL requests keep the service's EDITION (DEFAULT_EDITION_ID
 * unless set): their clients were written against it.
 */
export function newWorkEdition(config: { readonly EDITION: string; readonly editionSet: boolean }): string {
  return config.editionSet ? config.EDITION : NEW_WORK_EDITION_ID;
}

export const EDITION_IDS: readonly string[] = EDITIONS.map((edition) => edition.id);

/**
 * Every criterion of some edition, each once, in table order (what a request may spell: the GraphQL
 * `Criterion` enum, the v1 `criteria` query value). A custom edition has its base's criteria.
 */
export const EVERY_EDITION_CRITERION: readonly CriterionInfo[] = [
  ...new Map(
    [...EDITIONS, GENERATIVE_AI_EDITION]
      .flatMap((edition) => edition.rules.criteria)
      .map((info) => [info.key, info]),
  ).values(),
];

/** An `edition` value that names no edition (REST 422, GraphQL BAD_USER_INPUT, start-up failure). */
export class UnknownEditionError extends Error {
  constructor(
    readonly requested: string,
    allowed: readonly string[] = EDITION_IDS,
  ) {
    super(`unknown edition ${JSON.stringify(requested)}; allowed values: ${allowed.join(", ")}`);
    this.name = "UnknownEditionError";
  }
}

export function editionById(id: string): EditionDescription {
  const edition = EDITIONS.find((candidate) => candidate.id === id);
  if (!edition) throw new UnknownEditionError(id);
  return edition;
}

/**
 * The `EDITION` environment variable, validated against the built-in editions and the custom ones
 * (EDITIONS_FILE); an unknown value stops the start-up.
 */
export function defaultEditionFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  custom: readonly EditionDescription[] = [],
): string {
  const value = env.EDITION?.trim();
  if (!value) return DEFAULT_EDITION_ID;
  const all = [...EDITIONS, ...custom];
  const edition = all.find((candidate) => candidate.id === value);
  if (!edition)
    throw new UnknownEditionError(
      value,
      all.map((candidate) => candidate.id),
    );
  return edition.id;
}
