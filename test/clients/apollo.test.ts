/**
 * Apollo Client 4 (InMemoryCache, automatic persisted queries) and Apollo Client 3 against the
 * running service, set up as docs/clients.md says: possibleTypes from
 * /graphql/possible-types.json, `merge: true` for the evaluated types, PersistedQueryLink.
 */
import { createHash } from "node:crypto";
import { ApolloClient, CombinedGraphQLErrors, gql, HttpLink, InMemoryCache } from "@apollo/client";
import { BatchHttpLink } from "@apollo/client/link/batch-http";
import { PersistedQueryLink } from "@apollo/client/link/persisted-queries";
import * as Apollo3 from "apollo-client-3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/httpServer.js";

let server: TestServer;
/** The bodies Apollo posted to /graphql, in order. */
const posted: Record<string, unknown>[] = [];

beforeAll(async () => {
  server = await startTestServer({ LOG_LEVEL: "silent" });
});

afterAll(async () => {
  await server?.close();
});

/** fetch, each JSON body sent to /graphql recorded. */
const recordingFetch: typeof fetch = async (input, init) => {
  if (typeof init?.body === "string") posted.push(JSON.parse(init.body));
  return fetch(input, init);
};

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

async function possibleTypes(): Promise<Record<string, string[]>> {
  const answer = await fetch(`${server.url}/graphql/possible-types.json`);
  expect(answer.status).toBe(200);
  return (await answer.json()) as Record<string, string[]>;
}

/** The cache docs/clients.md sets up: possibleTypes, evaluated objects merged. */
async function readmeCache(): Promise<InMemoryCache> {
  const possible = await possibleTypes();
  return new InMemoryCache({
    possibleTypes: possible,
    typePolicies: Object.fromEntries(possible.Asset.map((type) => [type, { merge: true }])),
  });
}

/** The REST shim's embedded gwp of the default server archetype, the reference for the numbers. */
async function restServerGwp(): Promise<number> {
  const answer = await fetch(`${server.url}/v1/server/?verbose=false&criteria=gwp`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}",
  });
  const body = (await answer.json()) as { impacts: { gwp: { embedded: { value: number } } } };
  return body.impacts.gwp.embedded.value;
}

const ASSET_IMPACTS = gql`
  query AssetImpacts($criteria: [Criterion!]) {
    server {
      ...AssetFields
    }
  }
  fragment AssetFields on Asset {
    impacts(criteria: $criteria) {
      criterion
      embedded {
        ...PhaseFields
      }
    }
  }
  fragment PhaseFields on PhaseImpact {
    ... on Impact {
      value
    }
    ... on NotImplemented {
      reason
    }
  }
`;

interface AssetImpactsData {
  server: { impacts: { criterion: string; embedded: { value?: number; reason?: string } }[] };
}

describe("Apollo Client 4", () => {
  it("automatic persisted queries: the hash alone once the document is known; numbers equal the REST shim's", async () => {
    const link = new PersistedQueryLink({ sha256 }).concat(
      new HttpLink({ uri: `${server.url}/graphql`, fetch: recordingFetch }),
    );
    const first = new ApolloClient({ link, cache: await readmeCache() });
    posted.length = 0;
    const { data } = await first.query<AssetImpactsData>({
      query: ASSET_IMPACTS,
      variables: { criteria: ["gwp"] },
    });
    expect(data?.server.impacts[0].embedded.value).toBe(await restServerGwp());
    // The hash alone (PERSISTED_QUERY_NOT_FOUND), then the document with its hash.
    expect(posted.map((body) => typeof body.query)).toEqual(["undefined", "string"]);
    // Another client (another cache) sends the hash alone and is answered.
    const second = new ApolloClient({ link, cache: await readmeCache() });
    posted.length = 0;
    const again = await second.query<AssetImpactsData>({
      query: ASSET_IMPACTS,
      variables: { criteria: ["gwp"] },
    });
    expect(again.data).toEqual(data);
    expect(posted).toHaveLength(1);
    expect(posted[0].query).toBeUndefined();
  });

  it("a document sent with a hash that is not its own is refused (PERSISTED_QUERY_MISMATCH)", async () => {
    const answer = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        query: "{ version { service } }",
        extensions: { persistedQuery: { version: 1, sha256Hash: sha256("{ version { methodology } }") } },
      }),
    });
    const body = (await answer.json()) as { data?: unknown; errors: { extensions: { code: string } }[] };
    expect(body.data).toBeUndefined();
    expect(body.errors[0].extensions.code).toBe("PERSISTED_QUERY_MISMATCH");
  });

  it("fragments on Asset and PhaseImpact keep their fields with the published possibleTypes", async () => {
    const client = new ApolloClient({
      link: new HttpLink({ uri: `${server.url}/graphql` }),
      cache: await readmeCache(),
    });
    const { data } = await client.query<AssetImpactsData>({
      query: ASSET_IMPACTS,
      variables: { criteria: ["gwp", "CTUh_c_listed"] },
    });
    expect(data?.server.impacts.map((impact) => impact.criterion)).toEqual(["gwp", "CTUh_c"]);
    expect(data?.server.impacts[0].embedded.value).toBeGreaterThan(0);
    expect(data?.server.impacts[1].embedded.reason).toBe("not implemented");
  });

  it("two criteria sets of one server stay in the cache (merge: true), a cache-only read answers both", async () => {
    const client = new ApolloClient({
      link: new HttpLink({ uri: `${server.url}/graphql` }),
      cache: await readmeCache(),
    });
    const gwp = await client.query<AssetImpactsData>({
      query: ASSET_IMPACTS,
      variables: { criteria: ["gwp"] },
    });
    const pe = await client.query<AssetImpactsData>({
      query: ASSET_IMPACTS,
      variables: { criteria: ["pe"] },
    });
    expect(pe.data?.server.impacts[0].criterion).toBe("pe");
    const cached = client.readQuery<AssetImpactsData>({
      query: ASSET_IMPACTS,
      variables: { criteria: ["gwp"] },
    });
    expect(cached).toEqual(gwp.data);
  });

  it("a variable that does not coerce is a GraphQL error with BAD_USER_INPUT, not a network error", async () => {
    const client = new ApolloClient({
      link: new HttpLink({ uri: `${server.url}/graphql` }),
      cache: await readmeCache(),
    });
    const failure = await client.query({ query: ASSET_IMPACTS, variables: { criteria: ["co2"] } }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(CombinedGraphQLErrors.is(failure)).toBe(true);
    if (!CombinedGraphQLErrors.is(failure)) return;
    expect(failure.errors[0].extensions?.code).toBe("BAD_USER_INPUT");
    expect(failure.errors[0].message).toContain('"co2"');
  });

  it("BatchHttpLink: an array of operations is refused with a message saying why", async () => {
    const answer = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify([{ query: "{ version { service } }" }, { query: "{ version { methodology } }" }]),
    });
    expect(answer.status).toBe(400);
    const body = (await answer.json()) as { errors: { message: string }[] };
    expect(body.errors[0].message).toContain(
      "Batching (an array of operations in one request) is not supported",
    );
    // Apollo's BatchHttpLink shows the refusal as the operation's GraphQL error.
    const client = new ApolloClient({
      link: new BatchHttpLink({ uri: `${server.url}/graphql` }),
      cache: new InMemoryCache(),
    });
    const failure = await client.query({ query: gql("query Service { version { service } }") }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(CombinedGraphQLErrors.is(failure)).toBe(true);
    expect((failure as Error).message).toContain("send one operation per request");
  });
});

describe("Apollo Client 3 (Accept: */*)", () => {
  function apollo3() {
    return new Apollo3.ApolloClient({
      link: new Apollo3.HttpLink({ uri: `${server.url}/graphql` }),
      cache: new Apollo3.InMemoryCache(),
    });
  }

  /** The error Apollo 3 rejects a query with. */
  async function failureOf(query: string, variables: Record<string, unknown>): Promise<Apollo3.ApolloError> {
    const failure = await apollo3()
      .query({ query: Apollo3.gql(query), variables })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(Apollo3.ApolloError);
    return failure as Apollo3.ApolloError;
  }

  it("reads a variable coercion error as a GraphQL error (BAD_USER_INPUT), not 'Received status code 400'", async () => {
    const failure = await failureOf(
      "query ($c: [Criterion!]) { server { impacts(criteria: $c) { criterion } } }",
      { c: ["co2"] },
    );
    expect(failure.networkError).toBeNull();
    expect(failure.graphQLErrors[0].extensions?.code).toBe("BAD_USER_INPUT");
  });

  it("reads a request past MAX_FLEET_ITEMS as LIMIT_EXCEEDED naming the limit, not 'Received status code 422'", async () => {
    const inputs = Array.from({ length: 10_001 }, () => ({}));
    const failure = await failureOf(
      "query ($inputs: [ServerItemInput!]!) { servers(inputs: $inputs) { count } }",
      {
        inputs,
      },
    );
    expect(failure.networkError).toBeNull();
    expect(failure.graphQLErrors[0].extensions?.code).toBe("LIMIT_EXCEEDED");
    expect(failure.graphQLErrors[0].extensions?.limit).toBe("MAX_FLEET_ITEMS");
  });

  it("reads the alias limit without 'Syntax Error'", async () => {
    const aliases = Array.from({ length: 31 }, (_, i) => `a${i}: version { service }`).join(" ");
    const failure = await failureOf(`{ ${aliases} }`, {});
    expect(failure.networkError).toBeNull();
    expect(failure.graphQLErrors[0].message).toBe("Aliases limit of 30 exceeded, found 31.");
    expect(failure.graphQLErrors[0].extensions?.limit).toBe("maxAliases");
  });
});

describe("a GraphQL-over-HTTP client (Accept: application/graphql-response+json)", () => {
  it("gets the specification's statuses: 400 for a variable that does not coerce, 422 past a limit", async () => {
    const post = (query: string, variables: unknown) =>
      fetch(`${server.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/graphql-response+json" },
        body: JSON.stringify({ query, variables }),
      });
    const coercion = await post(
      "query ($c: [Criterion!]) { server { impacts(criteria: $c) { criterion } } }",
      {
        c: ["co2"],
      },
    );
    expect(coercion.status).toBe(400);
    expect(coercion.headers.get("content-type")).toContain("application/graphql-response+json");
    const limit = await post("query ($inputs: [ServerItemInput!]!) { servers(inputs: $inputs) { count } }", {
      inputs: Array.from({ length: 10_001 }, () => ({})),
    });
    expect(limit.status).toBe(422);
  });
});
