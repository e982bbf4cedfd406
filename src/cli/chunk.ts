import {
  type BatchDefaults,
  evaluateLine,
  type LineOutcome,
  locationCheck,
  type RouteEvaluator,
} from "../batch/index.js";

/*
 * What the command line hands to an evaluator — in this thread or a worker thread — at once:
 * a chunk of batch lines, evaluated in order with the batch's per-line code (src/batch).
 */

export interface Chunk {
  readonly lines: readonly string[];
  readonly defaults: BatchDefaults;
}

/** Evaluates chunks of lines; one line's outcome per line, in order. */
export type ChunkEvaluator = (chunk: Chunk) => Promise<LineOutcome[]>;

export function chunkEvaluator(evaluate: RouteEvaluator): ChunkEvaluator {
  // Each edition's locations are asked once per evaluator (a process or a worker thread).
  const locations = locationCheck(evaluate);
  return async ({ lines, defaults }) => {
    const outcomes: LineOutcome[] = [];
    for (const line of lines)
      outcomes.push(await evaluateLine(evaluate, line, defaults, undefined, locations));
    return outcomes;
  };
}
