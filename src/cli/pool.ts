import { Piscina } from "piscina";
import type { Chunk, ChunkEvaluator, RowOutcome } from "./inventoryChunk.js";

/**
 * Chunks evaluated on `threads` worker threads (piscina: a kept pool with its task queue, each
 * worker loading the engine once). The threads run the same per-line code as the service.
 */
export function pooledEvaluator(threads: number): { evaluate: ChunkEvaluator; close: () => Promise<void> } {
  const pool = new Piscina<Chunk, RowOutcome[]>({
    filename: new URL("./worker.mjs", import.meta.url).href,
    minThreads: threads,
    maxThreads: threads,
    // A worker's start (reference data of every edition) costs more than any wait between chunks.
    idleTimeout: Number.POSITIVE_INFINITY,
  });
  return { evaluate: (chunk) => pool.run(chunk), close: () => pool.destroy() };
}
