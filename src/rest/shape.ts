import type { CriterionImpactFieldsFragment, VerboseFieldsFragment } from "./generated/graphql.js";

/*
 * The v1 answer of an impact route: `{impacts: {<criterion>: …}, verbose?: …}` from the
 * operation's v1 layouts (`CriterionImpact.v1`, `Verbose.v1`).
 */

/** Made whole from its entries: every criterion's, one key at a time, made a dictionary (v1Layout.ts). */
function impactsObject(impacts: readonly CriterionImpactFieldsFragment[]): Record<string, unknown> {
  return Object.fromEntries(impacts.map((impact) => [impact.criterion, impact.v1]));
}

export function impactResponse(asset: {
  impacts: readonly CriterionImpactFieldsFragment[];
  verbose?: VerboseFieldsFragment | null;
}): Record<string, unknown> {
  // Built in place: a spread of a conditional object is a generic copy per answer.
  const answer: Record<string, unknown> = { impacts: impactsObject(asset.impacts) };
  if (asset.verbose) answer.verbose = asset.verbose.v1;
  return answer;
}
