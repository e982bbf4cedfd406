import packageJson from "../package.json" with { type: "json" };

/** The service's own version (package.json). */
export const SERVICE_VERSION: string = packageJson.version;

/**
 * Versions of the Boavizta methodology (boaviztapi releases) the service implements, the
 * default first. One edition today; the edition registry will list them when editions exist.
 */
export const METHODOLOGY_VERSIONS: readonly string[] = ["1.2.4"];
