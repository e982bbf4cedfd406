import {
  type BatchDefaults,
  evaluateLine,
  type LineOutcome,
  locationCheck,
  type RouteEvaluator,
} from "../batch/index.js";
import { type PowerPer, useEnergyKwh, type V1Verbose } from "../service/energy.js";

/*
 * What the command line hands to an evaluator — in this thread or a worker thread — at once:
 * a chunk of batch lines, evaluated in order with the batch's per-line code (src/batch). A line's
 * energy is read from its answer's verbose where it has one, in the thread that evaluated it, so
 * a verbose asked only for the energy never crosses to the writing thread.
 */

export interface Chunk {
  readonly lines: readonly string[];
  readonly defaults: BatchDefaults;
  /** The lines ask the verbose only for the energy (an inventory's rows): dropped once read. */
  readonly verboseForEnergy?: boolean;
}

/** A line's outcome with the energy behind its use impacts, kWh for one unit, when it has one. */
export interface RowOutcome extends LineOutcome {
  readonly energyKwh?: number;
}

/** Evaluates chunks of lines; one line's outcome per line, in order. */
export type ChunkEvaluator = (chunk: Chunk) => Promise<RowOutcome[]>;

/** A modelled CPU's or RAM's power counts all its units already (src/service/energy.ts). */
const ALL_UNITS_ROUTE = /^\/v1\/component\/(cpu|ram)(\?|\/|$)/;

/** How the line's route counts the power's units, from the line's path. */
function powerPerOf(line: string): PowerPer {
  const path = (JSON.parse(line) as { path?: unknown }).path;
  return typeof path === "string" && ALL_UNITS_ROUTE.test(path) ? "all units" : "unit";
}

/** The outcome with its energy, read from its answer's verbose (and the verbose dropped when asked only for it). */
function withEnergy(outcome: LineOutcome, line: string, dropVerbose: boolean): RowOutcome {
  const body = outcome.body as { verbose?: unknown } | null;
  if (outcome.status !== 200 || typeof body?.verbose !== "object" || body.verbose === null) return outcome;
  const energyKwh = useEnergyKwh(body.verbose as V1Verbose, powerPerOf(line));
  const { verbose: _read, ...rest } = body;
  return {
    ...outcome,
    ...(dropVerbose ? { body: rest } : {}),
    ...(energyKwh !== undefined ? { energyKwh } : {}),
  };
}

export function chunkEvaluator(evaluate: RouteEvaluator): ChunkEvaluator {
  // Each edition's locations are asked once per evaluator (a process or a worker thread).
  const locations = locationCheck(evaluate);
  return async ({ lines, defaults, verboseForEnergy = false }) => {
    const outcomes: RowOutcome[] = [];
    for (const line of lines) {
      const outcome = await evaluateLine(evaluate, line, defaults, undefined, locations);
      outcomes.push(withEnergy(outcome, line, verboseForEnergy));
    }
    return outcomes;
  };
}
