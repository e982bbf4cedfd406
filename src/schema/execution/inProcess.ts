import type { DocumentNode, ExecutionResult, GraphQLSchema } from "graphql";
import { type CompiledQuery, compileQuery, isCompiledQuery } from "graphql-jit";
import type { RequestContext } from "../../service/requestState.js";
import { buildSchema } from "../index.js";
import { rootFieldsTakingTurns } from "./turns.js";

/*
 * GraphQL run in this process, without HTTP: the REST shim's operations, the command line's (through
 * the shim) and the Impact Framework plugins'. They run on the schema as `/graphql` serves it and
 * compiled, so each asks the same fields with the same guarantees as a client of `/graphql`.
 */

/** The GraphQL schema as served: root fields (aliases) take turns on the event loop (turns.ts). */
export const servedSchema = (): GraphQLSchema => rootFieldsTakingTurns(buildSchema());

/** Runs one fixed operation in a request context: its data, or its errors as graphql-js gives them. */
export type OperationExecutor = (
  document: DocumentNode,
  variables: Readonly<Record<string, unknown>>,
  context: RequestContext,
) => Promise<ExecutionResult>;

/**
 * In-process operations are fixed documents, so each is compiled once with graphql-jit (same
 * schema, resolvers and errors as graphql-js; several times faster on the large verbose answers)
 * and kept, by document, for the life of the executor.
 */
export function compiledExecutor(schema: GraphQLSchema): OperationExecutor {
  const compiled = new WeakMap<DocumentNode, CompiledQuery>();
  const compile = (document: DocumentNode): CompiledQuery => {
    let query = compiled.get(document);
    if (!query) {
      const result = compileQuery(schema, document);
      if (!isCompiledQuery(result))
        throw new Error(`in-process operation does not compile: ${result.errors?.[0]?.message}`);
      query = result;
      compiled.set(document, query);
    }
    return query;
  };
  return async (document, variables, context) =>
    (await compile(document).query(undefined, context, variables)) as ExecutionResult;
}
