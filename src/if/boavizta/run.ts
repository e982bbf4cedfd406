import type { DocumentNode, GraphQLError } from "graphql";
import { defaultConfig } from "../../config/serviceConfig.js";
import { UnknownEditionError } from "../../editions/index.js";
import { graphqlErrorOf } from "../../schema/errors.js";
import { compiledExecutor, type OperationExecutor, servedSchema } from "../../schema/execution/inProcess.js";
import { type EditionService, openService, type Service, servedEdition } from "../../service/open.js";
import { createRequestContext } from "../../service/requestState.js";
import { createLogger } from "../../support/log.js";
import { PluginInputError } from "./observations.js";

/**
 * The service and its executor, built once per process on first use (reference data loaded and
 * checked): the schema as `/graphql` serves it, operations compiled as the REST shim's are.
 */
export let served: { readonly execute: OperationExecutor; readonly service: Service } | undefined;
export function inProcessApp(): { readonly execute: OperationExecutor; readonly service: Service } {
  served ??= {
    execute: compiledExecutor(servedSchema()),
    service: openService(defaultConfig(), null, { logger: createLogger("warn", process.stderr) }),
  };
  return served;
}

/**
 * The edition a plugin's config names (the service's default when none), as the service serves
 * it: resolved once per plugin instance, at its config, and refused there — one line naming the
 * config's field — never per observation.
 */
export function pluginEdition(id: string | undefined, where: string): EditionService {
  const { service } = inProcessApp();
  try {
    return servedEdition(service, id);
  } catch (error) {
    if (!(error instanceof UnknownEditionError)) throw error;
    throw new PluginInputError(`${where}: edition: ${error.message}`);
  }
}

/**
 * Runs a document against the service's schema in this process, in a request context of its own
 * answering in `edition` (the operations name no edition, as the REST shim's do not).
 */
export async function run(
  document: DocumentNode,
  variableValues: Record<string, unknown>,
  edition: EditionService,
) {
  const { execute, service } = inProcessApp();
  return execute(
    document,
    variableValues,
    createRequestContext(service, { spellError: graphqlErrorOf, edition }),
  );
}

/** The GraphQL errors of an observation as one line: message, code and the field refused. */
export function errorLine(errors: readonly GraphQLError[]): string {
  if (errors.length === 0) return "no answer";
  return errors
    .map((error) => {
      const field = error.extensions?.field;
      const at = Array.isArray(field) ? ` (${field.join(".")})` : "";
      return `${error.message}${at}`;
    })
    .join("; ");
}
