/**
 * What one request may make the service hold or do through its answer, through the real server:
 * totals in many aliases share the event loop with other requests.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { Evaluation } from "../../src/engine/model/evaluation.js";
import { graphqlCall, send } from "../support/http.js";
import { startTestServer, type TestServer } from "../support/httpServer.js";

let service: TestServer;
beforeAll(async () => {
  service = await startTestServer();
});
afterAll(async () => {
  await service.close();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const CRITERIA_2_4_1 =
  "adp adpe adpf ap ctue ctuh_c ctuh_nc epf epm ept fe fw gwp gwppb gwppf gwpplu ir lu mips odp pe pm pocp wu".split(
    " ",
  );
const fleetOf = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    configuration: {
      cpu: { units: 2, name: "Intel Xeon Gold 6134" },
      ram: [{ units: 1 + (i % 8), capacity: 32 }],
    },
  }));

describe("fleet totals in aliases", () => {
  it("30 aliased totals of 24 criteria take turns with other requests: /healthz is answered before they end", async () => {
    const servers = 40;
    const aliases = Array.from(
      { length: 30 },
      (_, i) =>
        `t${i}: total(criteria: [${CRITERIA_2_4_1.join(", ")}], duration: ${1000 + i}) { embedded { value } use { value } }`,
    );
    const query = `query ($inputs: [ServerItemInput!]!) { servers(inputs: $inputs, edition: V2_4_1) { count ${aliases.join(" ")} } }`;
    const original = Evaluation.prototype.raw;
    let summed = 0;
    let health: Promise<number> | null = null;
    vi.spyOn(Evaluation.prototype, "raw").mockImplementation(function (this: Evaluation, ...args) {
      summed++;
      // Once the totals are under way, another client asks whether the service is alive.
      if (summed === 1000)
        health = send(service.port, { path: "/healthz" }).then((answer) => {
          expect(answer.status).toBe(200);
          return summed;
        });
      return original.apply(this, args);
    });
    const answer = await send(service.port, graphqlCall(query, { inputs: fleetOf(servers) }));
    expect(answer.status).toBe(200);
    expect(answer.json.data.servers.count).toBe(servers);
    const expected = servers * aliases.length * CRITERIA_2_4_1.length * 2;
    expect(summed).toBe(expected);
    expect(health).not.toBeNull();
    // When /healthz was answered, the totals had not all been summed.
    expect(await health).toBeLessThan(expected / 2);
  }, 120_000);
});

describe("parsed documents kept", () => {
  /** The gauge of the document cache in /metrics: estimated heap bytes kept. */
  async function documentCacheBytes(port: number): Promise<number> {
    const text = (await send(port, { path: "/metrics" })).text;
    const line = text.split("\n").find((l) => l.startsWith("graphql_document_cache_bytes "));
    return Number(line?.split(" ")[1]);
  }
  /** A distinct document of `chars` characters (a query padded with spaces and a numbered alias). */
  const padded = (n: number, chars: number) => {
    const query = `{ d${n}: __typename }`;
    return query + " ".repeat(chars - query.length);
  };
  /** Its 7 tokens (<SOF> { dN : __typename } <EOF>) at 320 bytes, and its text twice. */
  const weight = (chars: number) => 2 * chars + 7 * 320;
  const BUDGET = 32 * 1024 * 1024;

  it("are bounded by what they cost, not their count; a large document is answered but not kept", async () => {
    const fresh = await startTestServer();
    try {
      expect(await documentCacheBytes(fresh.port)).toBe(0);
      const large = await send(fresh.port, graphqlCall(padded(0, 200_000)));
      expect(large.json).toEqual({ data: { d0: "Query" } });
      expect(await documentCacheBytes(fresh.port)).toBe(0);
      const small = padded(1, 1000);
      await send(fresh.port, graphqlCall(small));
      expect(await documentCacheBytes(fresh.port)).toBe(weight(1000));
      // 300 distinct documents of 60,000 characters: 36 MB estimated, more than the budget.
      for (let n = 2; n < 302; n++) {
        const answer = await send(fresh.port, graphqlCall(padded(n, 60_000)));
        expect(answer.json).toEqual({ data: { [`d${n}`]: "Query" } });
      }
      const kept = await documentCacheBytes(fresh.port);
      expect(kept).toBeLessThanOrEqual(BUDGET);
      expect(kept).toBeGreaterThan(BUDGET - weight(60_000));
      expect((await send(fresh.port, { path: "/healthz" })).status).toBe(200);
    } finally {
      await fresh.close();
    }
  }, 120_000);
});

describe("answer amplification (MAX_ANSWER_BYTES)", () => {
  const fleetQuery = (selection: string) =>
    `query ($inputs: [ServerItemInput!]!) { servers(inputs: $inputs) { count items { ${selection} } } }`;

  it("10,000 items × 3,000 aliases of __typename are refused before any item is evaluated", async () => {
    const evaluated = vi.spyOn(Evaluation.prototype, "raw");
    const aliases = Array.from({ length: 3000 }, (_, i) => `a${i}: __typename`).join(" ");
    const answer = await send(service.port, graphqlCall(fleetQuery(aliases), { inputs: fleetOf(10_000) }));
    // application/json: 200 with the code (GraphQL over HTTP; 422 for application/graphql-response+json).
    expect(answer.status).toBe(200);
    expect(answer.json.errors[0].extensions).toMatchObject({
      code: "LIMIT_EXCEEDED",
      limit: "MAX_ANSWER_BYTES",
    });
    // 10,000 × (24 bytes the item + 3,000 × 24 bytes), and `count`.
    expect(answer.json.errors[0].message).toContain("about 720.2 MB");
    expect(evaluated).not.toHaveBeenCalled();
    expect((await send(service.port, { path: "/healthz" })).status).toBe(200);
  }, 120_000);

  it("2,000 items × 30 aliases of a verbose report are refused (an answer of about 540 MB)", async () => {
    const evaluated = vi.spyOn(Evaluation.prototype, "raw");
    const aliases = Array.from({ length: 30 }, (_, i) => `v${i}: verbose(duration: ${100 + i}) { v1 }`).join(
      " ",
    );
    const answer = await send(service.port, graphqlCall(fleetQuery(aliases), { inputs: fleetOf(2000) }));
    expect(answer.status).toBe(200);
    expect(answer.json.errors[0].extensions).toMatchObject({
      code: "LIMIT_EXCEEDED",
      limit: "MAX_ANSWER_BYTES",
    });
    // 2,000 × (24 bytes the item + 30 × (24 + 3 criteria × 3,000 bytes)), and `count`.
    expect(answer.json.errors[0].message).toContain("about 541.5 MB");
    expect(evaluated).not.toHaveBeenCalled();
  }, 120_000);

  it("the shim's verbose selection for 10,000 servers (an answer of about 100 MB) is within the limit", async () => {
    // A tiny execution budget: once past the size check, the fleet is cancelled (422 naming the budget).
    const quick = await startTestServer({ EXECUTION_TIMEOUT_MS: 1 });
    try {
      const answer = await send(
        quick.port,
        graphqlCall(fleetQuery("verbose { v1 } impacts { criterion v1 }"), { inputs: fleetOf(10_000) }),
      );
      expect(answer.json.errors[0].extensions.limit).toBe("EXECUTION_TIMEOUT_MS");
    } finally {
      await quick.close();
    }
  }, 120_000);
});

describe("large answers are streamed", () => {
  const verboseFleet =
    "query ($inputs: [ServerItemInput!]!) { servers(inputs: $inputs) { count items { verbose { v1 } impacts { criterion v1 } } } }";

  it("a fleet of more than 64 items is sent as it is serialised, the same JSON as a small fleet's", async () => {
    const small = await send(service.port, graphqlCall(verboseFleet, { inputs: fleetOf(64) }));
    expect(small.headers["content-length"]).toBe(String(Buffer.byteLength(small.text)));
    const large = await send(service.port, graphqlCall(verboseFleet, { inputs: fleetOf(200) }));
    expect(large.status).toBe(200);
    expect(large.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(large.headers["content-length"]).toBeUndefined();
    expect(large.headers["transfer-encoding"]).toBe("chunked");
    // The same text JSON.stringify would write, and the same items.
    expect(JSON.stringify(large.json)).toBe(large.text);
    expect(large.json.data.servers.count).toBe(200);
    expect(large.json.data.servers.items.slice(0, 64)).toEqual(small.json.data.servers.items);
    expect(large.json.data.servers.items[64]).toEqual(large.json.data.servers.items[0]);
  }, 120_000);

  it("the client gets the first bytes of a large answer while the rest is still being serialised, and other requests are answered meanwhile", async () => {
    const body = JSON.stringify({ query: verboseFleet, variables: { inputs: fleetOf(2000) } });
    const { request } = await import("node:http");
    const first = await new Promise<{ resume: () => Promise<string> }>((resolve, reject) => {
      const call = request(
        {
          host: "127.0.0.1",
          port: service.port,
          method: "POST",
          path: "/graphql",
          headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.once("data", (chunk: Buffer) => {
            chunks.push(chunk);
            response.pause();
            resolve({
              resume: () =>
                new Promise((done) => {
                  response.on("data", (more: Buffer) => chunks.push(more));
                  response.on("end", () => done(Buffer.concat(chunks).toString("utf8")));
                  response.resume();
                }),
            });
          });
        },
      );
      call.on("error", reject);
      call.end(body);
    });
    // About 20 MB answer, its client not reading: the service still answers others.
    expect((await send(service.port, { path: "/healthz" })).status).toBe(200);
    const text = await first.resume();
    expect(JSON.parse(text).data.servers.count).toBe(2000);
  }, 120_000);
});
