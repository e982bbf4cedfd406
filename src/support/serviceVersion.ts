import packageJson from "../../package.json" with { type: "json" };

/** The service's own version (package.json). */
export const SERVICE_VERSION: string = packageJson.version;
