import { EVERY_EDITION_CRITERION } from "../editions/index.js";
import { type AssetRules, type RequestedCriterion, resolveCriterion } from "../engine/index.js";
import { DomainError } from "./errors.js";

/*
 * The criteria as the transports read them: one list of spellings, one parser, one check against
 * an edition. REST refuses an unknown spelling, GraphQL's Criterion enum is this list, and both
 * check a request's criteria against its edition with `requestedCriteria`.
 */

export type { CriterionInfo, EditionRules, RequestedCriterion } from "../engine/index.js";
export { DEFAULT_CRITERIA } from "../engine/index.js";

/** Every spelling the v1 API accepts, in any served edition: keys (`CTUh_c`) and computation names (`ctuh_c`). */
export const CRITERION_SPELLINGS: readonly string[] = [
  ...new Set(EVERY_EDITION_CRITERION.flatMap((c) => [c.key, c.name])),
];

const SPELLINGS: ReadonlySet<string> = new Set(CRITERION_SPELLINGS);

/** The criterion a v1 spelling names (null for a spelling no edition has). */
export function parseCriterion(spelling: string): RequestedCriterion | null {
  return SPELLINGS.has(spelling) ? resolveCriterion(spelling) : null;
}

/**
 * The Criterion value of a v1 spelling. Enum values are spelled as the v1 API spells them (`gwp`,
 * `LINEAR`, `laptop`): one spelling for a criterion or a kind in the REST shim, the CLI, the CSV
 * columns and the answers' `criterion` field. A key listed but never computed (`CTUh_c`, the
 * reference's quirk) would differ from its computed name (`ctuh_c`) only by case: it is
 * `CTUh_c_listed` in GraphQL, and the REST shim maps `CTUh_c` to it.
 */
export function criterionEnumName(spelling: string): string {
  return parseCriterion(spelling)?.computed === false ? `${spelling}_listed` : spelling;
}

/**
 * Each criterion once, in the order first named: an answer has one entry a criterion (boaviztapi
 * builds a dict of them), so `gwp` named 100 times costs what it costs once.
 */
export function distinctCriteria(criteria: readonly string[]): string[] {
  return [...new Set(criteria)];
}

/** The requested criteria (default: the edition's `default_criteria` setting), each once, each one the edition computes. */
export function requestedCriteria(
  criteria: readonly string[] | null | undefined,
  rules: AssetRules,
): RequestedCriterion[] {
  return distinctCriteria(criteria ?? rules.defaultCriteria).map((name) => {
    // Resolved in the edition's own table: its units and keys may differ (2.5.0's `fe` in kWh).
    const parsed = SPELLINGS.has(name) ? resolveCriterion(name, rules.criteria) : null;
    if (!parsed) {
      throw new DomainError("BAD_USER_INPUT", `unknown criterion ${name} in edition ${rules.version}`, [
        "criteria",
      ]);
    }
    return parsed;
  });
}
