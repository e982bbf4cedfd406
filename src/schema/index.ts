import { type GraphQLSchema, lexicographicSortSchema } from "graphql";
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

/** The GraphQL schema, built once (code first), sorted so the emitted SDL is stable. */
export function buildSchema(): GraphQLSchema {
  return lexicographicSortSchema(builder.toSchema());
}
