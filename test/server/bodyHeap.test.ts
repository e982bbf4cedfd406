/**
 * The heap of the bodies parsed at once (MAX_PARSED_BYTES_IN_FLIGHT, src/http/limits/bodyHeap.ts)
 * through the real server: each transport's body charged its scan's estimate (the gauge shows it
 * exactly), held while its request works; a body that does not fit waits, then is served; past the
 * queue 503 with Retry-After naming the budget; a body estimated past the whole budget 413, on a
 * REST route, `/graphql` and a batch line. Every wait is for an answer or a gauge of /metrics.
 */
import { afterEach, describe, expect, it } from "vitest";
import { bodyJsonBounds, DEFAULT_LIMITS } from "../../src/config/serviceConfig.js";
import { scanWholeJson } from "../../src/support/jsonScan.js";
import { send, unreadAnswer } from "../support/http.js";
import { startTestServer, type TestServer } from "../support/httpServer.js";

const LIMIT = "MAX_PARSED_BYTES_IN_FLIGHT";
const MiB = 1024 * 1024;

const servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function server(overrides: Parameters<typeof startTestServer>[0]): Promise<TestServer> {
  const started = await startTestServer(overrides);
  servers.push(started);
  return started;
}

/** The value of an admission gauge in /metrics. */
async function gauge(port: number, name: string, limit: string): Promise<number> {
  const text = (await send(port, { path: "/metrics" })).text;
  const line = text.split("\n").find((l) => l.startsWith(`${name}{limit="${limit}"}`));
  return line === undefined ? Number.NaN : Number(line.split(" ")[1]);
}

/** Asks /metrics until the gauge shows `value` (each ask is a full request: the loop turns). */
async function untilGauge(port: number, name: string, limit: string, value: number): Promise<void> {
  while ((await gauge(port, name, limit)) !== value) await send(port, { path: "/healthz" });
}

/** What the service charges a body: its scan's estimate, with its transport's bounds. */
const charged = (text: string, holds: "fleets" | "v1") =>
  scanWholeJson(text, bodyJsonBounds(DEFAULT_LIMITS, holds)).heapBytes;

/** 40,000 `{}` in lists of 100 lists of 100, every list within MAX_LIST_LENGTH: all built (about 3 MB estimated). */
const HUNDRED = `[${Array(100).fill("{}").join(",")}]`;
const HEAVY = `[${Array(4)
  .fill(`[${Array(100).fill(HUNDRED).join(",")}]`)
  .join(",")}]`;

const FLEET =
  "query ($inputs: [ServerItemInput!]!) { servers(inputs: $inputs) { count items { verbose { v1 } } } }";
const fleetOf = (count: number) =>
  Array.from({ length: count }, () => ({
    configuration: { cpu: { units: 2, name: "Intel Xeon Gold 6134" } },
  }));

describe("a body estimated past the whole budget", () => {
  it("is 413 naming MAX_PARSED_BYTES_IN_FLIGHT on a REST route, /graphql and a batch line; nothing stays held", async () => {
    const { port } = await server({ MAX_PARSED_BYTES_IN_FLIGHT: MiB });
    const rest = `{"model":{"archetype":"dellR740"},"x":${HEAVY}}`;
    expect(charged(rest, "v1")).toBeGreaterThan(MiB);
    const refused = await send(port, { path: "/v1/server/?verbose=false", body: rest });
    expect(refused.status).toBe(413);
    expect(refused.json.detail).toMatch(
      /^the request body would take about \d+\.\d MB of memory once parsed/,
    );
    expect(refused.json.detail).toContain("1.0 MB (MAX_PARSED_BYTES_IN_FLIGHT)");

    const graphql = await send(port, {
      path: "/graphql",
      body: `{"query":"{ __typename }","variables":{"undeclared":${HEAVY}}}`,
    });
    expect(graphql.status).toBe(413);
    expect(graphql.json.errors[0].extensions).toMatchObject({ code: "LIMIT_EXCEEDED", limit: LIMIT });

    const line = `{"path":"/v1/server/?verbose=false","body":${rest}}`;
    const batch = await send(port, {
      path: "/v1/batch",
      headers: { "content-type": "application/x-ndjson" },
      body: `${line}\n{"path":"/v1/server/?verbose=false","body":{"model":{"archetype":"dellR740"}}}\n`,
    });
    const [first, second] = batch.text
      .trim()
      .split("\n")
      .map((text) => JSON.parse(text));
    expect(first).toMatchObject({ line: 1, status: 413 });
    expect(first.body.detail).toContain("(MAX_PARSED_BYTES_IN_FLIGHT)");
    expect(second).toMatchObject({ line: 2, status: 200 });
    // A body within the budget is served; nothing is held once answered
    const light = await send(port, {
      path: "/v1/server/?verbose=false",
      body: { model: { archetype: "dellR740" } },
    });
    expect(light.status).toBe(200);
    expect(await gauge(port, "admission_in_use", LIMIT)).toBe(0);
  });
});

describe("a body that does not fit now", () => {
  it("waits for room and is served once the bodies ahead have finished; past the queue, 503 + Retry-After", async () => {
    // The bodies: a fleet of 1,000 whose answer is not read (it holds its fleet items and its body),
    // a small fleet that waits for those fleet items (holding its body), two REST bodies after them.
    const big = JSON.stringify({ query: FLEET, variables: { inputs: fleetOf(1_000) } });
    const small = JSON.stringify({
      query: FLEET,
      variables: { inputs: fleetOf(2), pad: "p".repeat(40_000) },
    });
    const rest = `{"model":{"archetype":"dellR740"},"pad":"${"r".repeat(300_000)}"}`;
    const [bigBytes, smallBytes, restBytes] = [
      charged(big, "fleets"),
      charged(small, "fleets"),
      charged(rest, "v1"),
    ];
    // Room for the first two, not for a third beside them; room for one REST body once they end
    const budget = Math.max(MiB, bigBytes + smallBytes + restBytes - 1);
    expect(bigBytes + smallBytes).toBeLessThanOrEqual(budget);
    expect(bigBytes + smallBytes + restBytes).toBeGreaterThan(budget);
    const { port } = await server({
      MAX_PARSED_BYTES_IN_FLIGHT: budget,
      MAX_CONCURRENT_FLEET_ITEMS: 1_000,
      ADMISSION_QUEUE_LENGTH: 1,
    });

    const holder = unreadAnswer(port, big);
    await untilGauge(port, "admission_in_use", "MAX_CONCURRENT_FLEET_ITEMS", 1_000);
    expect(await gauge(port, "admission_in_use", LIMIT)).toBe(bigBytes);
    const queuedFleet = send(port, { path: "/graphql", body: small });
    await untilGauge(port, "admission_waiting", "MAX_CONCURRENT_FLEET_ITEMS", 1);
    expect(await gauge(port, "admission_in_use", LIMIT)).toBe(bigBytes + smallBytes);

    const waiting = send(port, { path: "/v1/server/?verbose=false", body: rest });
    await untilGauge(port, "admission_waiting", LIMIT, 1);
    const refused = await send(port, { path: "/v1/server/?verbose=false", body: rest });
    expect(refused.status).toBe(503);
    expect(refused.headers["retry-after"]).toBe("1");
    expect(refused.json.detail).toContain(`(${LIMIT})`);
    // Light requests, and bodies that fit, are answered meanwhile
    expect((await send(port, { path: "/healthz" })).status).toBe(200);
    expect((await send(port, { path: "/v1/utils/case_type" })).json).toEqual(["blade", "rack"]);

    expect((await holder.read()).status).toBe(200);
    const fleet = await queuedFleet;
    expect(fleet.status).toBe(200);
    expect(fleet.json.data.servers.count).toBe(2);
    expect((await waiting).status).toBe(200);
    await untilGauge(port, "admission_in_use", LIMIT, 0);
    expect(await gauge(port, "admission_waiting", LIMIT)).toBe(0);
  }, 120_000);
});
