import { GraphQLDeferDirective, GraphQLStreamDirective } from "@graphql-tools/utils";
import { GraphQLSchema, lexicographicSortSchema } from "graphql";
import { builder } from "./builder.js";
import "./impact.js";
import "./server.js";
import "./component.js";
import "./gpu.js";
import "./listings.js";
import "./cloud.js";
import "./profile.js";
import "./batch.js";
import "./terminal.js";
import "./iot.js";
import "./version.js";
import "./editions.js";
import "./coefficients.js";
import "./generativeAi/aiUsage.js";

/**
 * The GraphQL schema, built once (code first), sorted so the emitted SDL is stable. It declares
 * the `@defer` and `@stream` the service serves (yoga's plugin), so that tools reading the SDL
 * file (codegen, gql.tada, graphql-inspector, @graphql-eslint) accept streaming documents.
 */
export function buildSchema(): GraphQLSchema {
  const built = builder.toSchema();
  const withIncremental = new GraphQLSchema({
    ...built.toConfig(),
    directives: [...built.getDirectives(), GraphQLDeferDirective, GraphQLStreamDirective],
  });
  return lexicographicSortSchema(withIncremental);
}
