import type {
  AttributeFieldsFragment,
  CriterionImpactFieldsFragment,
  VerboseFieldsFragment,
} from "./generated/graphql.js";

/*
 * Reshaping of GraphQL results into the JSON of boaviztapi v1.2.4.
 */

type Json = unknown;

export function impactsObject(impacts: readonly CriterionImpactFieldsFragment[]): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const impact of impacts) out[impact.criterion] = impact.v1;
  return out;
}

function attributesInto(out: Record<string, Json>, attributes: readonly AttributeFieldsFragment[]): void {
  for (const attribute of attributes) out[attribute.name] = attribute.v1;
}

function durationObject(hours: number | null): Json {
  return { value: hours, unit: "hours" };
}

/** §7.3 layout: duration, component blocks (`CPU-1`…), then the asset's own attributes. */
export function verboseObject(verbose: VerboseFieldsFragment): Record<string, Json> {
  const out: Record<string, Json> = {};
  if (verbose.impacts) out.impacts = impactsObject(verbose.impacts);
  if (verbose.components.length > 0 || !verbose.impacts) out.duration = durationObject(verbose.duration);
  for (const component of verbose.components) {
    const block: Record<string, Json> = { impacts: impactsObject(component.impacts) };
    attributesInto(block, component.attributes);
    block.duration = durationObject(component.duration);
    out[component.key] = block;
  }
  attributesInto(out, verbose.attributes);
  if (verbose.impacts) out.duration = durationObject(verbose.duration);
  return out;
}

export function impactResponse(asset: {
  impacts: readonly CriterionImpactFieldsFragment[];
  verbose?: VerboseFieldsFragment | null;
}): Record<string, Json> {
  return {
    impacts: impactsObject(asset.impacts),
    ...(asset.verbose ? { verbose: verboseObject(asset.verbose) } : {}),
  };
}
