/**
 * `@stream` on a fleet's items (yoga's defer/stream plugin): the items come in incremental
 * payloads of a multipart answer, the same items as without the directive.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { send } from "../support/http.js";
import { startTestServer, type TestServer } from "../support/httpServer.js";

const QUERY = `query Fleet($fleet: [CloudInstanceItemInput!]!) {
  cloudInstances(inputs: $fleet) {
    count
    items @stream(initialCount: 1) { instanceType impacts(criteria: [gwp]) { embedded { ... on Impact { value } } } }
    total(criteria: [gwp]) { embedded { value items } }
  }
}`;
const FLEET = Array.from({ length: 40 }, (_, index) => ({
  provider: "aws",
  instanceType: ["m5.xlarge", "c5.large", "r5.2xlarge", "no-such-type"][index % 4],
}));

/** The JSON parts of a multipart/mixed answer. */
function parts(text: string, contentType: string): Record<string, unknown>[] {
  const boundary = /boundary="?([^";]+)"?/.exec(contentType)?.[1] ?? "-";
  return text
    .split(`--${boundary}`)
    .map((part) => part.split("\r\n\r\n").slice(1).join("\r\n\r\n").trim())
    .filter((body) => body.startsWith("{"))
    .map((body) => JSON.parse(body));
}

describe("fleet items with @stream", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ LOG_LEVEL: "warn" });
  });
  afterAll(() => server.close());

  it("streams the items after the first in incremental payloads, equal to the items answered at once", async () => {
    const whole = await send(server.port, {
      path: "/graphql",
      body: { query: QUERY.replace(" @stream(initialCount: 1)", ""), variables: { fleet: FLEET } },
    });
    const expected = whole.json.data.cloudInstances.items;
    expect(expected).toHaveLength(40);
    expect(expected[3]).toBeNull();

    const streamed = await send(server.port, {
      path: "/graphql",
      headers: { accept: "multipart/mixed" },
      body: { query: QUERY, variables: { fleet: FLEET } },
    });
    expect(streamed.status).toBe(200);
    const contentType = String(streamed.headers["content-type"]);
    expect(contentType).toMatch(/^multipart\/mixed/);
    const [first, ...rest] = parts(streamed.text, contentType);
    const initial = (first as { data: { cloudInstances: { items: unknown[]; count: number } } }).data
      .cloudInstances;
    expect(initial.count).toBe(40);
    expect(initial.items).toEqual([expected[0]]);
    const items = [...initial.items];
    const incremental = rest.flatMap(
      (part) => (part.incremental as { items?: unknown[]; path: unknown[] }[]) ?? [],
    );
    for (const payload of incremental) {
      if (!payload.items) continue;
      expect(payload.path).toEqual(["cloudInstances", "items", items.length]);
      items.push(...payload.items);
    }
    expect(incremental.filter((payload) => payload.items).length).toBeGreaterThan(1);
    expect(items).toEqual(expected);
    expect(rest[rest.length - 1].hasNext).toBe(false);
  });
});
