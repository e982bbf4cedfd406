import { type Chunk, inProcessEvaluator, type RowOutcome } from "./inventoryChunk.js";

/** A worker thread of the command line's pool: the engine loaded once, then chunk after chunk. */
const evaluate = inProcessEvaluator();

export default function evaluateChunk(chunk: Chunk): Promise<RowOutcome[]> {
  return evaluate(chunk);
}
