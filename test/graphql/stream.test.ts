/**
 * `@stream` on a fleet's items (yoga's defer/stream plugin): the items come in incremental
 * payloads of a multipart answer, the same items as without the directive; a 10,000-item stream
 * is served by a process at the shipped heap (768 MB) which stays alive and answers /healthz;
 * `@stream`'s arguments and `@defer` inside items are bounded before any item is evaluated.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SERVER_BUNDLE } from "../support/bundle.js";
import { send } from "../support/http.js";
import { startTestServer, type TestServer } from "../support/httpServer.js";
import { portOf, serviceStarter } from "../support/process.js";

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

/** The items of a streamed answer (multipart or event stream), in order, and its last payload. */
function streamedItems(payloads: Record<string, unknown>[]): {
  items: unknown[];
  last: Record<string, unknown>;
} {
  const [first, ...rest] = payloads;
  const items = [...(first as { data: { cloudInstances: { items: unknown[] } } }).data.cloudInstances.items];
  for (const payload of rest) {
    for (const increment of (payload.incremental as { items?: unknown[]; path: unknown[] }[]) ?? []) {
      if (!increment.items) continue;
      expect(increment.path).toEqual(["cloudInstances", "items", items.length]);
      items.push(...increment.items);
    }
  }
  return { items, last: payloads[payloads.length - 1] };
}

/** The JSON payloads of a text/event-stream answer (`event: next` data lines). */
function events(text: string): Record<string, unknown>[] {
  return text
    .split("\n")
    .filter((line) => line.startsWith("data: {"))
    .map((line) => JSON.parse(line.slice(6)));
}

const README_QUERY = `query Fleet($fleet: [CloudInstanceItemInput!]!) {
  cloudInstances(inputs: $fleet) {
    items @stream(initialCount: 0) { instanceType impacts(criteria: [gwp]) { use { ... on Impact { value } } } }
  }
}`;

describe("a 10,000-item @stream at the shipped heap (768 MB)", () => {
  const service = serviceStarter();
  const fleet = Array.from({ length: 10_000 }, (_, index) => ({
    provider: "aws",
    instanceType: ["m5.xlarge", "c5.large", "r5.2xlarge"][index % 3],
  }));

  it("streams every item, multipart and event stream, and the process keeps serving", async () => {
    const process = service({ LOG_LEVEL: "info" }, [
      globalThis.process.execPath,
      "--max-old-space-size=768",
      SERVER_BUNDLE,
    ]);
    const port = portOf((await process.waitFor(/^listening on http:\/\//))[0]);
    const whole = await send(port, {
      path: "/graphql",
      body: { query: README_QUERY.replace(" @stream(initialCount: 0)", ""), variables: { fleet } },
    });
    const expected = whole.json.data.cloudInstances.items;
    expect(expected).toHaveLength(10_000);

    const multipart = await send(port, {
      path: "/graphql",
      headers: { accept: "multipart/mixed" },
      body: { query: README_QUERY, variables: { fleet } },
    });
    expect(multipart.status).toBe(200);
    const fromMultipart = streamedItems(parts(multipart.text, String(multipart.headers["content-type"])));
    expect(fromMultipart.items).toEqual(expected);
    expect(fromMultipart.last.hasNext).toBe(false);

    const sse = await send(port, {
      path: "/graphql",
      headers: { accept: "text/event-stream" },
      body: { query: README_QUERY, variables: { fleet } },
    });
    expect(sse.status).toBe(200);
    const fromEvents = streamedItems(events(sse.text));
    expect(fromEvents.items).toEqual(expected);

    expect((await send(port, { path: "/healthz" })).json).toEqual({ status: "ok" });
    expect(process.errors, process.errors.join("\n").slice(0, 3000)).toEqual([]);
    expect(process.child.exitCode).toBeNull();
  }, 300_000);
});

describe("bounds of @stream and @defer", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ LOG_LEVEL: "warn" });
  });
  afterAll(() => server.close());

  const streamed = (initialCount: string) => {
    const query = QUERY.replace("@stream(initialCount: 1)", `@stream(initialCount: ${initialCount})`);
    return initialCount.startsWith("$")
      ? query.replace(
          "($fleet: [CloudInstanceItemInput!]!)",
          "($fleet: [CloudInstanceItemInput!]!, $count: Int)",
        )
      : query;
  };

  for (const [written, variables] of [
    ["-1", {}],
    ["null", {}],
    ["$count", { count: -5 }],
    ["$count", { count: null }],
  ] as const) {
    it(`initialCount ${written} ${JSON.stringify(variables)}: 422 BAD_USER_INPUT naming initialCount, nothing logged as an error`, async () => {
      const answer = await send(server.port, {
        path: "/graphql",
        headers: { accept: "multipart/mixed, application/json" },
        body: { query: streamed(written), variables: { fleet: FLEET, ...variables } },
      });
      expect(answer.status).toBe(422);
      const error = answer.json.errors[0];
      expect(error.extensions.code).toBe("BAD_USER_INPUT");
      expect(error.message).toMatch(/initialCount must be a whole number from 0 on/);
      expect(server.logs.filter((line) => Number(line.level) >= 50)).toEqual([]);
    });
  }

  it("a @defer inside a fleet's items counts as one more item per item (MAX_FLEET_ITEMS), refused before evaluation", async () => {
    const fleet = Array.from({ length: 2_500 }, () => ({ provider: "aws", instanceType: "m5.xlarge" }));
    const defers = Array.from(
      { length: 4 },
      (_, index) =>
        `... @defer(label: "d${index}") { impacts(criteria: [gwp]) { use { ... on Impact { value } } } }`,
    ).join(" ");
    const query = `query Fleet($fleet: [CloudInstanceItemInput!]!) { cloudInstances(inputs: $fleet) { items { instanceType ${defers} } } }`;
    const refused = await send(server.port, {
      path: "/graphql",
      headers: { accept: "multipart/mixed" },
      body: { query, variables: { fleet } },
    });
    expect(refused.text).toContain("MAX_FLEET_ITEMS");
    expect(refused.text).toContain("12500 fleet items");
    const accepted = await send(server.port, {
      path: "/graphql",
      headers: { accept: "multipart/mixed" },
      body: { query, variables: { fleet: fleet.slice(0, 2_000) } },
    });
    expect(accepted.status).toBe(200);
    expect(accepted.text).not.toContain("MAX_FLEET_ITEMS");
  });
});
