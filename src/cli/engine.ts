import { loadConfig } from "../config/serviceConfig.js";
import { inProcessRest } from "../rest/inProcess.js";
import { openService } from "../service/open.js";
import { createLogger } from "../support/log.js";
import { type ChunkEvaluator, chunkEvaluator } from "./chunk.js";

/**
 * The service's engine in this process, without a server: the service opened as the server opens
 * it (`openService`: same configuration variables, editions and limits), asked through the REST
 * shim's dispatch.
 * Log lines, if any, go to stderr (stdout carries the answer).
 */
export function inProcessEvaluator(): ChunkEvaluator {
  const config = loadConfig(process.env);
  const logger = createLogger(config.LOG_LEVEL, process.stderr);
  return chunkEvaluator(inProcessRest(openService(config, null, { logger }), logger));
}
