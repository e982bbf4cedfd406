/**
 * urql 6 with graphcache 9 (its normalised cache) against the running service, set up as
 * docs/clients.md says: `keys` returning null for every type without an id
 * (schema/unidentified-types.json: embedded in its parent, no "no id" warning) and the schema's
 * introspection (with only `possibleTypes`, graphcache writes every fragment of a union's member
 * and warns of the other members' missing fields).
 */
import { readFileSync } from "node:fs";
import { Client, fetchExchange, gql } from "@urql/core";
import { cacheExchange } from "@urql/exchange-graphcache";
import { getIntrospectionQuery, type IntrospectionQuery } from "graphql";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { startTestServer, type TestServer } from "../support/httpServer.js";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ LOG_LEVEL: "silent" });
});

afterAll(async () => {
  await server?.close();
});

afterEach(() => {
  vi.restoreAllMocks();
});

const UNIDENTIFIED = JSON.parse(
  readFileSync(new URL("../../schema/unidentified-types.json", import.meta.url), "utf8"),
) as string[];

/** The client docs/clients.md sets up. */
async function recipeClient(keyed: boolean): Promise<Client> {
  const introspection = await fetch(`${server.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: getIntrospectionQuery() }),
  });
  const { data: schema } = (await introspection.json()) as { data: IntrospectionQuery };
  return new Client({
    url: `${server.url}/graphql`,
    exchanges: [
      cacheExchange({
        schema,
        keys: keyed ? Object.fromEntries(UNIDENTIFIED.map((type) => [type, () => null])) : {},
      }),
      fetchExchange,
    ],
  });
}

const FLEET = gql`
  query Fleet($inputs: [CloudInstanceItemInput!]!) {
    cloudInstances(inputs: $inputs) {
      count
      items {
        ...AssetFields
      }
      total(criteria: [gwp]) {
        criterion
      }
    }
    server {
      ...AssetFields
    }
    version {
      service
    }
  }
  fragment AssetFields on Asset {
    impacts(criteria: [gwp]) {
      criterion
      unit
      embedded {
        ... on Impact {
          value
          unrounded {
            value
          }
        }
        ... on NotImplemented {
          reason
        }
      }
    }
  }
`;

interface FleetData {
  cloudInstances: { count: number; items: { impacts: { embedded: { value: number } }[] }[] };
  server: { impacts: { embedded: { value: number } }[] };
}

/** Runs the fleet query once; the data and what graphcache warned meanwhile. */
async function fleetQuery(keyed: boolean) {
  const warnings: string[] = [];
  vi.spyOn(console, "warn").mockImplementation((...args: unknown[]) => {
    warnings.push(args.map(String).join(" "));
  });
  const client = await recipeClient(keyed);
  const result = await client
    .query<FleetData>(FLEET, { inputs: [{ provider: "aws", instanceType: "m5.xlarge" }] })
    .toPromise();
  return { result, warnings };
}

describe("urql + graphcache", () => {
  it("with the recipe's keys: the answer whole and no warning", async () => {
    const { result, warnings } = await fleetQuery(true);
    expect(result.error).toBeUndefined();
    expect(result.data?.cloudInstances.count).toBe(1);
    const rest = await fetch(`${server.url}/v1/cloud/instance?verbose=false&criteria=gwp`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ provider: "aws", instance_type: "m5.xlarge" }),
    });
    const expected = ((await rest.json()) as { impacts: { gwp: { embedded: { value: number } } } }).impacts
      .gwp.embedded.value;
    expect(result.data?.cloudInstances.items[0].impacts[0].embedded.value).toBe(expected);
    expect(result.data?.server.impacts[0].embedded.value).toBeGreaterThan(0);
    expect(warnings.join("\n")).toBe("");
  });

  it("without them graphcache warns of every type it cannot key (what the keys are for)", async () => {
    const { warnings } = await fleetQuery(false);
    expect(warnings.length).toBeGreaterThan(0);
    expect(warnings.join("\n")).toMatch(/CloudInstanceBatch/);
  });
});
