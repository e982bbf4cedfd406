/**
 * graphql-request 7 against the running service: a document with `@defer` or `@stream`, sent with
 * its default `Accept` (JSON only), is answered 200 with the whole data at once (the
 * incremental-delivery RFC lets a server deliver deferred data in the initial payload), not 406.
 * A client that accepts multipart still gets the incremental answer.
 */
import { GraphQLClient, gql } from "graphql-request";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/httpServer.js";

let server: TestServer;
/** The Accept header of each request graphql-request sent. */
const accepts: (string | null)[] = [];

beforeAll(async () => {
  server = await startTestServer({ LOG_LEVEL: "silent" });
});

afterAll(async () => {
  await server?.close();
});

const client = () =>
  new GraphQLClient(`${server.url}/graphql`, {
    fetch: async (input, init) => {
      accepts.push(new Headers(init?.headers).get("accept"));
      return fetch(input, init);
    },
  });

const DEFERRED = gql`
  query Deferred {
    server(archetype: "dellR740") {
      ... on Server {
        archetype
      }
      ... @defer {
        impacts(criteria: [gwp]) {
          criterion
          embedded {
            ... on Impact {
              value
            }
          }
        }
      }
    }
  }
`;

const STREAMED = gql`
  query Streamed {
    servers(inputs: [{ archetype: "dellR740" }, { archetype: "platform_compute_medium" }]) {
      items @stream(initialCount: 0) {
        ... on Server {
          archetype
        }
      }
    }
  }
`;

describe("graphql-request (Accept: JSON only) and incremental documents", () => {
  it("sends no incremental media type in its Accept header", async () => {
    await client().request(gql`{ version { service } }`);
    expect(accepts.at(-1)).not.toMatch(/multipart|event-stream/);
  });

  it("a @defer document is answered 200 with the deferred fields in the one answer", async () => {
    const data = await client().request<{
      server: { archetype: string; impacts: { criterion: string; embedded: { value: number } }[] };
    }>(DEFERRED);
    expect(data.server.archetype).toBe("dellR740");
    const rest = await fetch(`${server.url}/v1/server/?archetype=dellR740&criteria=gwp&verbose=false`);
    const expected = ((await rest.json()) as { impacts: { gwp: { embedded: { value: number } } } }).impacts
      .gwp.embedded.value;
    expect(data.server.impacts).toEqual([{ criterion: "gwp", embedded: { value: expected } }]);
  });

  it("a @stream document is answered with every item of the list", async () => {
    const data = await client().request<{ servers: { items: { archetype: string }[] } }>(STREAMED);
    expect(data.servers.items.map((item) => item.archetype)).toEqual(["dellR740", "platform_compute_medium"]);
  });

  it("Accept: application/json with a @defer document: 200 and JSON, not 406 with an empty body", async () => {
    const answer = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ query: `{ server { ... @defer { impacts(criteria: [gwp]) { criterion } } } }` }),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await answer.json()).toEqual({ data: { server: { impacts: [{ criterion: "gwp" }] } } });
  });

  it("a client that accepts multipart still gets an incremental answer", async () => {
    const answer = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "multipart/mixed, application/json;q=0.9" },
      body: JSON.stringify({ query: `{ server { ... @defer { impacts(criteria: [gwp]) { criterion } } } }` }),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toMatch(/^multipart\/mixed/);
    expect(await answer.text()).toContain('"hasNext":false');
  });
});
