/**
 * schema/schema.graphql as tools read it (gql.tada, graphql-inspector, @graphql-eslint, codegen):
 * it declares the directives the service serves, so a streaming document validates against it.
 */
import { readFileSync } from "node:fs";
import { buildSchema, parse, validate } from "graphql";
import { describe, expect, it } from "vitest";

const sdl = buildSchema(readFileSync(new URL("../../schema/schema.graphql", import.meta.url), "utf8"));

describe("schema/schema.graphql", () => {
  it("declares @defer and @stream", () => {
    expect(sdl.getDirective("defer")?.locations).toEqual(["FRAGMENT_SPREAD", "INLINE_FRAGMENT"]);
    expect(sdl.getDirective("stream")?.locations).toEqual(["FIELD"]);
  });

  it("validates a document streaming a fleet's items and deferring a fragment", () => {
    const document = parse(`
      query Fleet($fleet: [CloudInstanceItemInput!]!) {
        cloudInstances(inputs: $fleet) {
          count
          items @stream(initialCount: 0) {
            instanceType
            ... on CloudInstance @defer(label: "impacts") {
              impacts(criteria: [gwp]) { criterion }
            }
          }
        }
      }
    `);
    expect(validate(sdl, document).map((error) => error.message)).toEqual([]);
  });
});
