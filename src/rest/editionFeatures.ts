import { FEATURE_LABELS } from "../editions/features.js";
import type { EditionDescription } from "../editions/index.js";

/** Something only some editions have, as their description states it (`EditionDescription.features`). */
export interface EditionFeature {
  /** For the route's documentation: "GPUs", "cloud regions". */
  readonly name: string;
  readonly offeredBy: (edition: EditionDescription) => boolean;
}

/** GPU components, name lookups and server GPUs. */
export const GPUS: EditionFeature = {
  name: FEATURE_LABELS.gpus,
  offeredBy: (edition) => edition.features.gpus,
};

/** Cloud regions (`usage.region`). */
export const CLOUD_REGIONS: EditionFeature = {
  name: FEATURE_LABELS.cloudRegions,
  offeredBy: (edition) => edition.features.cloudRegions,
};
