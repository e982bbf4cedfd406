/**
 * The warnings the service attaches to its answers, imported from where `src` defines them: the
 * tests name them, they do not spell them again (one description of each thing). Their texts are
 * the references' own, checked byte for byte by the conformance corpora.
 */
export { IOT_DISTRIBUTION_WARNING, IOT_SERVICES_WARNING } from "../../src/engine/assets/iot.js";
export { END_OF_LIFE_WARNING, GENERIC_DATA_WARNING } from "../../src/engine/model/impact.js";
export { UNCERTAINTY_WARNING } from "../../src/engine/model/rounding.js";
export { LOCATION_NOT_FOUND } from "../../src/engine/model/usage.js";
