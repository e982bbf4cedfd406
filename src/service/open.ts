import { type LoadedEdition, loadEditions } from "../config/referenceData.js";
import { type Config, limitsOf } from "../config/serviceConfig.js";
import type { Logger } from "../support/log.js";
import { createService, editionService, type Service } from "./context.js";

/** How a caller opens the service besides its configuration. */
export interface OpenOptions {
  /** Where the data's notices (debug) and warnings (warn) go; not logged without one. */
  readonly logger?: Pick<Logger, "debug" | "warn">;
  /** The editions' data, already loaded and checked (the server's primary did it); loaded here otherwise. */
  readonly loaded?: readonly LoadedEdition[];
}

/**
 * The service as a configuration describes it (EDITION, EDITIONS_FILE, settings overrides, limits):
 * the one way the server, the command line and the Impact Framework plugins open it. `wanted`
 * names the editions a command serves, the first its default (each custom edition is loaded with
 * its base); null serves them all, EDITION the default.
 * @throws StartupDataError (one line naming file, row and column) for data that cannot be served.
 */
export function openService(
  config: Config,
  wanted: readonly string[] | null = null,
  {
    logger,
    loaded = loadEditions(config.customEditions, config.settingsOverrides, setOf(wanted)),
  }: OpenOptions = {},
): Service {
  if (logger) {
    for (const notice of loaded.flatMap((edition) => edition.notices)) logger.debug(notice);
    for (const warning of loaded.flatMap((edition) => edition.warnings)) logger.warn(warning);
  }
  const limits = limitsOf(config);
  return createService(
    loaded.map(({ edition, data }) => editionService(edition, data, limits)),
    wanted?.[0] ?? config.EDITION,
    limits,
  );
}

const setOf = (wanted: readonly string[] | null) => (wanted === null ? null : new Set(wanted));
