import {
  type BatchDefaults,
  evaluateParsedLine,
  type LineOutcome,
  type LocationCheck,
  locationCheck,
  type ParsedLine,
  parseLine,
  type RouteEvaluator,
} from "../batch/index.js";
import { loadConfig } from "../config/serviceConfig.js";
import { queryEdition, restEditions } from "../rest/editionChoice.js";
import type { RestCall, RestResponse } from "../rest/index.js";
import { inProcessRest } from "../rest/inProcess.js";
import {
  type GwpFactor,
  gwpFactorOf,
  type PowerPer,
  useEnergyKwh,
  type V1Verbose,
} from "../service/energy.js";
import {
  commandEditions,
  type EditionService,
  openService,
  type Service,
  servedEdition,
} from "../service/open.js";
import { createLogger, type Logger } from "../support/log.js";

/*
 * What the command line hands to an evaluator — in this thread or a worker thread — at once:
 * a chunk of batch lines, evaluated in order with the batch's per-line code (src/batch). A line's
 * energy (and the climate-change factor applied to it) is read from its answer's verbose where it
 * has one, in the thread that evaluated it, so a verbose asked only for them never crosses to the
 * writing thread.
 */

export interface Chunk {
  readonly lines: readonly string[];
  /** The id of the edition the lines are served in, resolved once by the command (linesEdition). */
  readonly edition: string;
  readonly defaults: BatchDefaults;
  /** The lines ask the verbose only for the energy (an inventory's rows): dropped once read. */
  readonly verboseForEnergy?: boolean;
}

/** A line's outcome with the energy behind its use impacts, kWh for one unit, when it has one. */
export interface RowOutcome extends LineOutcome {
  readonly energyKwh?: number;
  /** The edition's climate-change factor of that energy (what a grid series replaces). */
  readonly gwpFactor?: GwpFactor;
  /** The grid intensity applied to the energy, gCO2eq/kWh (with --grid-intensity: src/grid/inventoryRows.ts). */
  readonly gridGco2PerKwh?: number;
}

/** Evaluates chunks of lines; one line's outcome per line, in order. */
export type ChunkEvaluator = (chunk: Chunk) => Promise<RowOutcome[]>;

/** A modelled CPU's or RAM's power counts all its units already (src/service/energy.ts). */
const ALL_UNITS_ROUTE = /^\/v1\/component\/(cpu|ram)(\?|\/|$)/;

/** How the line's route counts the power's units, from the line's path. */
function powerPerOf(parsed: ParsedLine): PowerPer {
  return ALL_UNITS_ROUTE.test(parsed.call.url) ? "all units" : "unit";
}

/** The outcome with its energy and factor, read from its answer's verbose (and the verbose dropped when asked only for them). */
function withEnergy(outcome: LineOutcome, parsed: ParsedLine, dropVerbose: boolean): RowOutcome {
  const body = outcome.body as { verbose?: unknown } | null;
  if (outcome.status !== 200 || typeof body?.verbose !== "object" || body.verbose === null) return outcome;
  const verbose = body.verbose as V1Verbose;
  const energyKwh = useEnergyKwh(verbose, powerPerOf(parsed));
  const gwpFactor = energyKwh === undefined ? undefined : gwpFactorOf(verbose);
  const { verbose: _read, ...rest } = body;
  return {
    ...outcome,
    ...(dropVerbose ? { body: rest } : {}),
    ...(energyKwh !== undefined ? { energyKwh } : {}),
    ...(gwpFactor !== undefined ? { gwpFactor } : {}),
  };
}

/**
 * Chunks evaluated by the REST shim's dispatch over `service`: each line's call carries the chunk's
 * edition as served (servedEdition), as a batch's lines do, never as text in its path.
 */
export function chunkEvaluator(
  service: Service,
  dispatch: (call: RestCall) => Promise<RestResponse>,
): ChunkEvaluator {
  // Each edition's evaluator and locations, made once per evaluator (a process or a worker thread).
  const byEdition = new Map<string, { evaluate: RouteEvaluator; locations: LocationCheck }>();
  const servedIn = (id: string) => {
    let found = byEdition.get(id);
    if (found === undefined) {
      const edition = servedEdition(service, id);
      const evaluate: RouteEvaluator = (call) => dispatch({ ...call, edition });
      found = { evaluate, locations: locationCheck(evaluate, id) };
      byEdition.set(id, found);
    }
    return found;
  };
  return async ({ lines, edition, defaults, verboseForEnergy = false }) => {
    const { evaluate, locations } = servedIn(edition);
    const outcomes: RowOutcome[] = [];
    for (const line of lines) {
      // The line is read once: its route then says how its power counts units.
      const parsed = parseLine(line, defaults);
      if (!("call" in parsed)) {
        outcomes.push(parsed);
        continue;
      }
      const outcome = await evaluateParsedLine(evaluate, parsed, undefined, locations);
      outcomes.push(withEnergy(outcome, parsed, verboseForEnergy));
    }
    return outcomes;
  };
}

/** The service opened in this process for a command, and where its log lines go. */
interface CommandService {
  readonly service: Service;
  readonly logger: Logger;
}

/**
 * The service in this process, without a server: opened as the server opens it (`openService`:
 * same configuration variables, editions and limits), every edition, or with `only` those serving
 * that one (commandEditions). Log lines, if any, go to stderr (stdout carries the answer).
 */
export function inProcessService(only?: { readonly edition: string | null }): CommandService {
  const config = loadConfig(process.env);
  const logger = createLogger(config.LOG_LEVEL, process.stderr);
  const wanted = only === undefined ? null : commandEditions(config, only.edition, false);
  return { service: openService(config, wanted, { logger }), logger };
}

/** The service's engine in this process, asked through the REST shim's dispatch. */
export function inProcessEvaluator({ service, logger }: CommandService = inProcessService()): ChunkEvaluator {
  return chunkEvaluator(service, inProcessRest(service, logger));
}

/**
 * The edition a command's lines are served in (`--edition`; null: the service's default), resolved
 * once as a batch's `edition` is (src/rest/routes/batch.ts): the served edition, or the 422 every
 * route answers for it.
 */
export function linesEdition(
  service: Service,
  id: string | null,
): { readonly served: EditionService } | { readonly refused: RestResponse } {
  const resolved = queryEdition(
    new URLSearchParams(id === null ? {} : { edition: id }),
    restEditions(service),
  );
  return "refused" in resolved ? resolved : { served: resolved.served ?? servedEdition(service, null) };
}
