/**
 * What one request may make the service hold or do through its answer, through the real server:
 * totals in many aliases share the event loop with other requests.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { Evaluation } from "../../src/engine/evaluation.js";
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

describe("fleet totals in aliases (issue 13, finding 7)", () => {
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

describe("parsed documents kept (issue 13, finding 8)", () => {
  /** The gauge of the document cache in /metrics. */
  async function documentCacheChars(port: number): Promise<number> {
    const text = (await send(port, { path: "/metrics" })).text;
    const line = text.split("\n").find((l) => l.startsWith("graphql_document_cache_chars "));
    return Number(line?.split(" ")[1]);
  }
  /** A distinct document of `chars` characters (a query padded with spaces and a numbered alias). */
  const padded = (n: number, chars: number) => {
    const query = `{ d${n}: __typename }`;
    return query + " ".repeat(chars - query.length);
  };

  it("are bounded by the size of their text, not their count; a large document is answered but not kept", async () => {
    const fresh = await startTestServer();
    try {
      expect(await documentCacheChars(fresh.port)).toBe(0);
      const large = await send(fresh.port, graphqlCall(padded(0, 200_000)));
      expect(large.json).toEqual({ data: { d0: "Query" } });
      expect(await documentCacheChars(fresh.port)).toBe(0);
      const small = padded(1, 1000);
      await send(fresh.port, graphqlCall(small));
      expect(await documentCacheChars(fresh.port)).toBe(1000);
      // 200 distinct documents of 60,000 characters: 12 million characters, more than the budget.
      for (let n = 2; n < 202; n++) {
        const answer = await send(fresh.port, graphqlCall(padded(n, 60_000)));
        expect(answer.json).toEqual({ data: { [`d${n}`]: "Query" } });
      }
      const kept = await documentCacheChars(fresh.port);
      expect(kept).toBeLessThanOrEqual(8 * 1024 * 1024);
      expect(kept).toBeGreaterThan(8 * 1024 * 1024 - 60_000);
      expect((await send(fresh.port, { path: "/healthz" })).status).toBe(200);
    } finally {
      await fresh.close();
    }
  }, 120_000);
});
