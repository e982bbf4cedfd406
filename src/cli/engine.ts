import { createApp } from "../app/main.js";
import { loadConfig } from "../config/serviceConfig.js";
import { createLogger } from "../support/log.js";
import { type ChunkEvaluator, chunkEvaluator } from "./chunk.js";

/**
 * The service's engine in this process, without a server: the app as the service builds it
 * (same configuration variables, editions and limits), asked through the REST shim's dispatch.
 * Log lines, if any, go to stderr (stdout carries the answer).
 */
export function inProcessEvaluator(): ChunkEvaluator {
  const config = loadConfig(process.env);
  const app = createApp(config, { logger: createLogger(config.LOG_LEVEL, process.stderr) });
  return chunkEvaluator(app.rest);
}
