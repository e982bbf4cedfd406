/**
 * A large fleet's variables coerced in slices (src/schema/plugins/fleetVariables.ts): the answer is
 * the one the executor gives when it coerces them itself (a fleet below the size that is sliced),
 * item for item; an item that does not coerce is refused in the executor's own words; the
 * coercion takes more than one slice of the turns.
 */
import { GraphQLInputObjectType, GraphQLInt, GraphQLNonNull } from "graphql";
import { describe, expect, it } from "vitest";
import { coercedInSlices } from "../../src/schema/plugins/fleetVariables.js";
import { sharedApp } from "../support/app.js";
import { graphqlClient } from "../support/graphql.js";

const graphql = graphqlClient(sharedApp());

const FLEET = `query ($inputs: [ServerItemInput!]!) {
  servers(inputs: $inputs) { items { impacts(criteria: [gwp]) { embedded { ... on Impact { value min max } } use { ... on Impact { value } } } } }
}`;

/** Varied servers: CPU units and RAM by position, a location in turn. */
function servers(count: number) {
  const locations = ["FRA", "DEU", "USA", "CHN"];
  return Array.from({ length: count }, (_, i) => ({
    configuration: { cpu: { units: 1 + (i % 4) }, ram: [{ units: 1 + (i % 8), capacity: 16 }] },
    usage: { usageLocation: locations[i % locations.length] },
  }));
}

describe("a large fleet's variables", () => {
  it("answer as the executor's own coercion does, item for item", async () => {
    const fleet = servers(600);
    const sliced = await graphql(FLEET, { inputs: fleet });
    expect(sliced.errors).toBeUndefined();
    // The same servers in fleets of 200 (below the sliced size): coerced by the executor.
    const parts = await Promise.all(
      [0, 200, 400].map((from) => graphql(FLEET, { inputs: fleet.slice(from, from + 200) })),
    );
    expect(sliced.data.servers.items).toEqual(parts.flatMap((part) => part.data.servers.items));
    expect(sliced.data.servers.items).toHaveLength(600);
  });

  it("refuse an item that does not coerce in the executor's words", async () => {
    const fleet: unknown[] = servers(300);
    fleet[280] = { configuration: { cpu: { units: "two" } } };
    const sliced = await graphql(FLEET, { inputs: fleet });
    const small = await graphql(FLEET, { inputs: [...servers(3), fleet[280]] });
    expect(sliced.status).toBe(small.status);
    expect(sliced.errors?.[0].message).toBe(small.errors?.[0].message.replace("inputs[3]", "inputs[280]"));
    expect(sliced.errors?.[0].message).toContain('at "inputs[280].configuration.cpu.units"');
  });
});

describe("the coercion in slices", () => {
  it("takes slices of the turns (SLICE_MS each), each item coerced by graphql-js", async () => {
    const item = new GraphQLNonNull(
      new GraphQLInputObjectType({ name: "Item", fields: { n: { type: GraphQLInt } } }),
    );
    let slices = 0;
    const turns = {
      nextSlice: async () => {
        slices += 1;
      },
    };
    // 200,000 items take tens of ms on any machine: more than one slice of 8 ms.
    const list = Array.from({ length: 200_000 }, (_, n) => ({ n }));
    const coerced = await coercedInSlices(list, item, turns);
    expect(coerced).toEqual(list);
    expect(slices).toBeGreaterThan(1);
    expect(await coercedInSlices([{ n: 1 }, { n: "x" }], item, turns)).toBeNull();
  });
});
