import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import type { GraphQLSchema } from "graphql";
import { graphqlErrorOf } from "../schema/errors.js";
import { compiledExecutor } from "../schema/execution/inProcess.js";
import type { EditionService, Service } from "../service/open.js";
import { createRequestContext } from "../service/requestState.js";
import { type ErrorReporter, restErrorOf } from "./graphqlErrors.js";

/**
 * Executes one GraphQL operation of the shim against the schema, in a fresh request context that
 * carries the request's edition as resolved at the edge (src/rest/editionChoice.ts): the
 * operations name no edition, so their fields answer in the request's edition.
 */
export type Runner = <R, V extends Record<string, unknown>>(
  document: TypedDocumentNode<R, V>,
  variables: V,
) => Promise<R>;

/** The shim's operations, run by the in-process executor (compiled, on the served schema). */
export function createRunner(
  schema: GraphQLSchema,
  service: Service,
  reportError: ErrorReporter,
): (
  edition: EditionService,
  cancellation?: { readonly signal?: AbortSignal },
  requestId?: string,
  admitFleetItems?: (items: number) => Promise<void>,
) => Runner {
  const execute = compiledExecutor(schema);
  return (edition, cancellation, requestId, admitFleetItems) => async (document, variables) => {
    // The cancellation's signal is read only when the execution asks for it (fleets, turns).
    const context = createRequestContext(service, {
      cancellation,
      admitFleetItems,
      spellError: graphqlErrorOf,
      edition,
    });
    const result = await execute(document, variables, context);
    if (result.errors && result.errors.length > 0) throw restErrorOf(result.errors, reportError, requestId);
    return result.data as never;
  };
}
