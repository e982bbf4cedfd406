import { type LoadedEdition, loadEditions } from "../config/referenceData.js";
import { type Config, limitsOf } from "../config/serviceConfig.js";
import type { CloudRegion } from "../data/types.js";
import { EDITIONS, NEW_WORK_EDITION_ID } from "../editions/index.js";
import type { Logger } from "../support/log.js";
import {
  createRequestContext,
  createService,
  type EditionContext,
  editionService,
  type Service,
} from "./context.js";

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

/** The built-in editions with cloud regions. */
const REGION_EDITIONS = EDITIONS.filter((edition) => edition.features.cloudRegions).map(
  (edition) => edition.id,
);

/**
 * The editions a command loads to serve edition `id` (the default, EDITION, when null): that one
 * (a custom edition with its base), first, and with `regions` an edition with cloud regions when it
 * has none (its countries are read there); every edition when the configuration describes no such
 * edition, so that its refusal names those served.
 */
export function commandEditions(config: Config, id: string | null, regions: boolean): string[] | null {
  const asked = id ?? config.EDITION;
  const description = [...EDITIONS, ...config.customEditions].find((edition) => edition.id === asked);
  if (description === undefined) return null;
  return [asked, ...(regions && !description.features.cloudRegions ? REGION_EDITIONS : [])];
}

/** A command's edition: its context, and the cloud regions of the first edition that has them. */
export interface CommandEdition {
  readonly context: EditionContext;
  readonly knownRegions: readonly CloudRegion[];
}

/**
 * The edition a command (the command line's coefficients, bills, grid rows, portable tables) is
 * served in (`id`, else EDITION if set, else the edition for new work), its service opened with the
 * editions it needs (commandEditions) and the edition resolved and checked as every transport's is
 * (servedEdition, through the request context).
 * @throws DomainError (BAD_USER_INPUT) naming the served editions for one the service does not serve.
 */
export function openEdition(config: Config, id: string | null, regions: boolean): CommandEdition {
  // A bill, its tables and its coefficients are new work: without --edition nor EDITION, the
  // edition for new work (docs/editions.md); an inventory keeps the service's default.
  const asked = id ?? (config.editionSet ? config.EDITION : NEW_WORK_EDITION_ID);
  const service = openService(config, commandEditions(config, asked, regions));
  const context = createRequestContext(service, { spellError: (error) => error }).edition(asked);
  const knownRegions =
    [...service.editions.values()].find((edition) => edition.data.cloudRegions !== null)?.data.cloudRegions ??
    [];
  return { context, knownRegions };
}
