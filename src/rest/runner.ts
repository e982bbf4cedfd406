import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import type { DocumentNode, ExecutionResult, GraphQLSchema } from "graphql";
import { type CompiledQuery, compileQuery, isCompiledQuery } from "graphql-jit";
import type { EditionDescription } from "../editions/index.js";
import { graphqlErrorOf } from "../schema/errors.js";
import { createRequestContext, type Service } from "../service/context.js";
import { type ErrorReporter, restErrorOf } from "./graphqlErrors.js";

/**
 * Executes one GraphQL operation of the shim against the schema, in a fresh request context, with
 * the request's edition (every operation declares `$edition`; the runner supplies it).
 */
export type Runner = <R, V extends Record<string, unknown>>(
  document: TypedDocumentNode<R, V>,
  variables: V,
) => Promise<R>;

/**
 * The shim's operations are fixed documents, so each is compiled once with graphql-jit (same
 * schema, resolvers and errors as graphql-js; several times faster on the large verbose answers).
 */
export function createRunner(
  schema: GraphQLSchema,
  service: Service,
  reportError: ErrorReporter,
): (
  edition: EditionDescription,
  cancellation?: { readonly signal?: AbortSignal },
  requestId?: string,
  admitFleetItems?: (items: number) => Promise<void>,
) => Runner {
  const compiled = new Map<DocumentNode, CompiledQuery>();
  const compile = (document: DocumentNode): CompiledQuery => {
    let query = compiled.get(document);
    if (!query) {
      const result = compileQuery(schema, document);
      if (!isCompiledQuery(result))
        throw new Error(`shim operation does not compile: ${result.errors?.[0]?.message}`);
      query = result;
      compiled.set(document, query);
    }
    return query;
  };
  return (edition, cancellation, requestId, admitFleetItems) => async (document, variables) => {
    // The cancellation's signal is read only when the execution asks for it (fleets, turns).
    const context = createRequestContext(service, {
      cancellation,
      admitFleetItems,
      spellError: graphqlErrorOf,
    });
    const result = (await compile(document).query(undefined, context, {
      ...variables,
      edition: edition.id,
    })) as ExecutionResult;
    if (result.errors && result.errors.length > 0) throw restErrorOf(result.errors, reportError, requestId);
    return result.data as never;
  };
}
