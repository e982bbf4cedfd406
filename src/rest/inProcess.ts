import type { GraphQLSchema } from "graphql";
import { servedSchema } from "../schema/execution/inProcess.js";
import type { Service } from "../service/open.js";
import type { Logger } from "../support/log.js";
import { createRestHandler } from "./index.js";

/** The v1 REST shim's dispatch over the service; its unexpected errors logged with the request's id. */
export function restHandlerOf(schema: GraphQLSchema, service: Service, logger: Logger) {
  return createRestHandler(schema, service, (message, error, requestId) =>
    logger.error({ err: error, requestId }, message),
  );
}

/**
 * The v1 REST shim's dispatch over an opened service, without a server: how the command line asks
 * the service in its process (the server's composition root, src/app, is not needed for it).
 */
export function inProcessRest(service: Service, logger: Logger) {
  return restHandlerOf(servedSchema(), service, logger);
}
