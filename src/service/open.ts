import { type LoadedEdition, loadEditions, loadedGenerativeAi } from "../config/referenceData.js";
import { type Config, DEFAULT_LIMITS, type Limits } from "../config/serviceConfig.js";
import type { CloudRegion, ReferenceData } from "../data/types.js";
import {
  EDITIONS,
  type EditionDescription,
  GENERATIVE_AI_EDITION,
  type GenerativeAiEditionDescription,
  newWorkEdition,
  UnknownEditionError,
} from "../editions/index.js";
import { rulesWithSettings } from "../editions/servedRules.js";
import type { EditionRules, EngineContext, Evaluation, GenerativeAiContext } from "../engine/index.js";
import {
  directLookups,
  type LookupTables,
  lookupTables,
  memoizedLookups,
  type ReferenceLookups,
} from "../engine/index.js";
import type { Logger } from "../support/log.js";
import { type AnswerCache, answerCache } from "./answerCache.js";
import { DomainError, type DomainErrorSpelling } from "./errors.js";
import { type TurnShare, turnShare } from "./eventLoopSlices.js";
import { ReferenceLoaders, type SlicedRequest } from "./loaders.js";

/*
 * The service opened: its editions built once at start-up from their loaded data (openService,
 * the one way the server, the command line and the Impact Framework plugins open it), the edition
 * a request or a command is served in (servedEdition, the one road of every transport), and an
 * edition's context, which a request builds per edition it uses (src/service/requestState.ts) and a
 * command's run builds without a request (openEdition).
 */

/** One edition as served: its description, its tables (loaded once) and shared lookup results. */
export interface EditionService {
  readonly edition: EditionDescription;
  readonly data: ReferenceData;
  /** The edition's rules with its settings (rounding, default criteria): what the engine reads. */
  readonly rules: EditionRules;
  readonly tables: LookupTables;
  /** Lookup results shared by all requests (bounded; the lookups are pure functions of the tables). */
  readonly sharedLookups: ReferenceLookups;
}

/** The generative-AI edition as served: its description and what the engine reads (its tables, its rules). */
export interface GenerativeAiService {
  readonly edition: GenerativeAiEditionDescription;
  readonly engine: GenerativeAiContext;
}

/**
 * The generative-AI edition, its tables read and checked (once per process, src/config/referenceData.ts).
 * @throws StartupDataError (one line naming file, row and column) for tables that cannot be served.
 */
export function generativeAiService(
  edition: GenerativeAiEditionDescription = GENERATIVE_AI_EDITION,
): GenerativeAiService {
  return { edition, engine: { data: loadedGenerativeAi(edition), rules: edition.rules } };
}

/** Everything built once at start-up and shared (read-only) by every request. */
export interface Service {
  /** Every served edition, by id. */
  readonly editions: ReadonlyMap<string, EditionService>;
  /** The edition of a request that names none (`EDITION`, default 1.2.4). */
  readonly defaultEdition: string;
  /** What one request may ask for (input bounds, fleet items, execution budget). */
  readonly limits: Limits;
  /**
   * Serialized answers that are pure functions of their request (the shim's GET answers, keyed
   * by edition, path and query): this service's own, bounded (answerCache.ts).
   */
  readonly answers: AnswerCache;
  /** The turns of the event loop its requests' background work shares (eventLoopSlices.ts). */
  readonly turns: TurnShare;
  /** The edition generative-AI usage is evaluated in (docs/methodology.md, "Generative AI"). */
  readonly generativeAi: GenerativeAiService;
}

/** Distinct lookup keys kept across requests (CPU names, families, manufacturers, profiles). */
const SHARED_LOOKUP_CAPACITY = 4096;

export function editionService(
  edition: EditionDescription,
  data: ReferenceData,
  limits: Limits = DEFAULT_LIMITS,
): EditionService {
  const rules = rulesWithSettings(edition.rules, data.config);
  const tables = lookupTables(data, rules);
  return {
    edition,
    data,
    rules,
    tables,
    // Keys longer than any accepted text are not kept (they cannot come from a validated input).
    sharedLookups: memoizedLookups(directLookups(tables), {
      capacity: SHARED_LOOKUP_CAPACITY,
      maxKeyLength: 2 * limits.maxStringLength + 2,
    }),
  };
}

/** The service over already loaded editions; the default must be one of them. */
export function createService(
  editions: readonly EditionService[],
  defaultEdition: string,
  limits: Limits = DEFAULT_LIMITS,
  generativeAi: GenerativeAiService = generativeAiService(),
): Service {
  const byId = new Map(editions.map((served) => [served.edition.id, served]));
  if (!byId.has(defaultEdition)) throw new Error(`default edition ${defaultEdition} is not loaded`);
  // Made on first use: a server's requests use both, a command's run (a bill's) neither.
  let answers: AnswerCache | undefined;
  let turns: TurnShare | undefined;
  return {
    editions: byId,
    defaultEdition,
    limits,
    generativeAi,
    get answers() {
      answers ??= answerCache();
      return answers;
    },
    get turns() {
      turns ??= turnShare();
      return turns;
    },
  };
}

/**
 * The edition a request is served in, the one road of every transport (the REST shim's `edition`
 * query and a batch's, a GraphQL field's argument, an Impact Framework plugin's config, the command
 * line's `--edition`): the served edition `id` names, or the service's default where it names none
 * (null). The one place the default applies and an id is checked; each transport words the
 * refusal in its own dialect.
 * @throws UnknownEditionError naming the served editions.
 */
export function servedEdition(service: Service, id: string | null | undefined): EditionService {
  const asked = id ?? service.defaultEdition;
  const served = service.editions.get(asked);
  if (!served) throw new UnknownEditionError(asked, [...service.editions.keys()]);
  return served;
}

/**
 * What the use cases read of one edition, for one request or for a command's run: its lookups (the
 * edition's shared memo), its loaders and the engine context the models of this edition are built
 * with.
 */
export interface EditionContext {
  readonly service: EditionService;
  /** Every served edition (to say where something this edition lacks exists). */
  readonly editions: ReadonlyMap<string, EditionService>;
  readonly lookups: ReferenceLookups;
  /**
   * Archetype rows, cloud instance rows and CPU rows by name through DataLoader: a fleet's distinct
   * keys resolved once per turn of the event loop, each once per request (loaders.ts).
   */
  readonly loaders: ReferenceLoaders;
  /** Evaluations keyed by asset and by (duration, allocation, requested criteria), shared by the request's editions. */
  readonly evaluations: WeakMap<object, Map<string, Evaluation>>;
  /** What the engine reads: this edition's data, lookups and rules. */
  readonly engine: EngineContext;
  /** What one request may ask for (the service's limits). */
  readonly limits: Limits;
  /** The generative-AI edition, beside this one (a bill's generative-AI lines read it). */
  readonly generativeAi: GenerativeAiService;
}

/**
 * An edition's context: for a request (src/service/requestState.ts: its evaluations, the slices of the
 * event loop its fleets' keys are resolved in) or for a command's run (openEdition: no request, so
 * no fleet; each key is read at once). Every context has one shape, its fields set in one order.
 */
export function editionContext(
  service: Service,
  served: EditionService,
  evaluations: WeakMap<object, Map<string, Evaluation>>,
  request: SlicedRequest | null,
  lookups: ReferenceLookups = served.sharedLookups,
): EditionContext {
  return {
    service: served,
    editions: service.editions,
    lookups,
    loaders: new ReferenceLoaders(served, lookups, request),
    evaluations,
    engine: { data: served.data, lookups, rules: served.rules },
    limits: service.limits,
    generativeAi: service.generativeAi,
  };
}

/** An edition asked for, refused in the transport's words (BAD_USER_INPUT at `edition`). */
export function servedIn(
  service: Service,
  id: string | null | undefined,
  spellError: DomainErrorSpelling,
): EditionService {
  try {
    return servedEdition(service, id);
  } catch (error) {
    if (!(error instanceof UnknownEditionError)) throw error;
    throw spellError(new DomainError("BAD_USER_INPUT", error.message, ["edition"]));
  }
}

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
  return createService(
    loaded.map(({ edition, data }) => editionService(edition, data, config.limits)),
    wanted?.[0] ?? config.EDITION,
    config.limits,
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
 * served in (`id`, else newWorkEdition's), its service opened with the
 * editions it needs (commandEditions) and the edition resolved and checked as every transport's is
 * (servedEdition).
 * @throws DomainError (BAD_USER_INPUT) naming the served editions for one the service does not serve.
 */
export function openEdition(config: Config, id: string | null, regions: boolean): CommandEdition {
  const asked = id ?? newWorkEdition(config);
  const service = openService(config, commandEditions(config, asked, regions));
  // A command has no request: its context is the edition's own, refused as a request's would be.
  const served = servedIn(service, asked, (error) => error);
  const context = editionContext(service, served, new WeakMap(), null);
  const knownRegions =
    [...service.editions.values()].find((edition) => edition.data.cloudRegions !== null)?.data.cloudRegions ??
    [];
  return { context, knownRegions };
}
