import type { ReferenceData } from "../data/types.js";
import type { EditionRules } from "../engine/index.js";
import { componentFactorProblems } from "../engine/index.js";
import { EDITIONS } from "./index.js";
import type { EditionDescription, EditionFeatures } from "./types.js";

/*
 * An edition's features (`EditionDescription.features`) are stated once as data; this module checks
 * them against the edition's data and rules at start-up, and words them for the schema's
 * descriptions. Nothing else infers a feature from a missing table or a null setting.
 */

export type FeatureName = keyof EditionFeatures;

/** How documentation names each feature ("Only in editions with GPUs …"). */
export const FEATURE_LABELS: Readonly<Record<FeatureName, string>> = {
  gpus: "GPUs",
  cloudRegions: "cloud regions",
  assemblyComponent: "the assembly component",
  vrDevices: "VR devices",
  finalEnergy: "criterion fe",
};

/** The built-in editions with a feature, by id. */
function editionsWith(feature: FeatureName, editions = EDITIONS): string[] {
  return editions.filter((edition) => edition.features[feature]).map((edition) => edition.id);
}

/**
 * A schema description's sentence on where something exists, from the editions' feature data:
 * "Only in editions with GPUs (2.4.1 and custom editions based on it)."
 */
export function availability(feature: FeatureName, editions = EDITIONS): string {
  const ids = editionsWith(feature, editions);
  const based = ids.length === 1 ? "it" : "them";
  return `Only in editions with ${FEATURE_LABELS[feature]} (${ids.join(", ")} and custom editions based on ${based}).`;
}

const VR_KINDS: ReadonlySet<string> = new Set(["vr_headset", "vr_controller"]);

/** What each feature requires of an edition's data and rules; true when they bear it out. */
const EVIDENCE: Readonly<Record<FeatureName, (data: ReferenceData, rules: EditionRules) => boolean>> = {
  gpus: (data) =>
    data.archetypes.gpu !== null && data.gpuSpecs.length > 0 && data.config.gpuNameFuzzyThreshold !== null,
  cloudRegions: (data) => data.cloudRegions !== null,
  assemblyComponent: (_data, rules) => rules.assemblyComponent === "served",
  vrDevices: (_data, rules) =>
    [...rules.userDevices.terminalKinds, ...rules.userDevices.peripheralKinds].some((kind) =>
      VR_KINDS.has(kind),
    ),
  finalEnergy: (_data, rules) => rules.criteria.some((criterion) => criterion.name === "fe"),
};

/** What the data or rules of each feature are: for the start-up message. */
const EVIDENCE_TEXT: Readonly<Record<FeatureName, string>> = {
  gpus: "a GPU archetype table (archetypes/components/gpu.csv), GPU models (crowdsourcing/gpu_specs.csv) and a GPU name threshold",
  cloudRegions: "a cloud regions table (archetypes/cloud/regions.csv)",
  assemblyComponent: "the rule assemblyComponent: served",
  vrDevices: "VR kinds among its terminal and peripheral kinds",
  finalEnergy: "criterion fe among its criteria",
};

/**
 * The features an edition declares that its data or rules do not bear out, and those it does not
 * declare that they hold (either would answer differently from its description), then the component
 * kinds it serves without their factors; empty when they agree.
 */
export function featureProblems(edition: EditionDescription, data: ReferenceData): string[] {
  const kindsWithoutFactors = componentFactorProblems(data, edition.rules).map(
    (problem) => `edition ${edition.id}: ${problem}`,
  );
  return [...declaredFeatureProblems(edition, data), ...kindsWithoutFactors];
}

function declaredFeatureProblems(edition: EditionDescription, data: ReferenceData): string[] {
  return (Object.keys(EVIDENCE) as FeatureName[]).flatMap((feature) => {
    const declared = edition.features[feature];
    if (EVIDENCE[feature](data, edition.rules) === declared) return [];
    const label = FEATURE_LABELS[feature];
    return [
      declared
        ? `edition ${edition.id} declares ${label} but lacks ${EVIDENCE_TEXT[feature]}`
        : `edition ${edition.id} does not declare ${label} but has ${EVIDENCE_TEXT[feature]}`,
    ];
  });
}

/**
 * The built-in editions a description says something of, by a test of their description ("1.2.4",
 * "1.2.4 and 2.4.1"): schema texts name editions from the editions' data, never spelled by hand.
 */
export function editionsWhere(test: (edition: EditionDescription) => boolean, editions = EDITIONS): string {
  const ids = editions.filter(test).map((edition) => edition.id);
  return ids.length < 2 ? ids.join("") : `${ids.slice(0, -1).join(", ")} and ${ids.at(-1)}`;
}
