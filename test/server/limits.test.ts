/**
 * The service's limits through its real HTTP server: each is refused with a clear 4xx naming the
 * limit (and the field), the value at the limit is accepted, and every hostile input
 * is answered without a 5xx: huge bodies, long names, long lists, denormal and overflowing
 * numbers, broken URLs, fleets past the budget. Also: a fleet stops when its client leaves, REST
 * logs unexpected resolver errors, the shared lookup cache keeps no oversized key.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { DEFAULT_LIMITS } from "../../src/config/serviceConfig.js";
import { Server } from "../../src/engine/assets/server.js";
import { directLookups, memoizedLookups } from "../../src/engine/lookups/lookups.js";
import type { EditionService } from "../../src/service/open.js";
import { graphqlCall, send } from "../support/http.js";
import { startTestServer, type TestServer } from "../support/httpServer.js";

const SMALL_BODY = 4096;
let service: TestServer;
let small: TestServer;

beforeAll(async () => {
  service = await startTestServer();
  small = await startTestServer({ MAX_BODY_BYTES: SMALL_BODY });
});
afterAll(async () => {
  await service.close();
  await small.close();
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** A JSON body of exactly `bytes` bytes (an object padded with spaces). */
function paddedBody(object: object, bytes: number): string {
  const text = JSON.stringify(object);
  return text + " ".repeat(bytes - Buffer.byteLength(text));
}

describe("request body (MAX_BODY_BYTES, 413)", () => {
  for (const [surface, path, object] of [
    ["REST", "/v1/component/ram?verbose=false", { units: 2 }],
    ["GraphQL", "/graphql", { query: "{ ramArchetypes: componentArchetypes(kind: ram) }" }],
  ] as const) {
    for (const chunked of [false, true]) {
      const framing = chunked ? "chunked" : "content-length";
      it(`${surface}, ${framing}: one byte past the limit is refused with 413 naming MAX_BODY_BYTES`, async () => {
        const answer = await send(small.port, { path, body: paddedBody(object, SMALL_BODY + 1), chunked });
        expect(answer.status).toBe(413);
        expect(answer.text).toContain(`exceeds ${SMALL_BODY} bytes (MAX_BODY_BYTES)`);
      });
      it(`${surface}, ${framing}: a body of exactly the limit is accepted`, async () => {
        const answer = await send(small.port, { path, body: paddedBody(object, SMALL_BODY), chunked });
        expect(answer.status).toBe(200);
      });
    }
  }

  it("a body of many megabytes is refused without being kept (the server keeps answering)", async () => {
    const answer = await send(service.port, {
      path: "/v1/server/",
      body: Buffer.alloc(DEFAULT_LIMITS.maxBodyBytes * 3, 0x20),
      chunked: true,
    });
    expect(answer.status).toBe(413);
    expect((await send(service.port, { path: "/v1/utils/case_type" })).json).toEqual(["blade", "rack"]);
  });

  it("a 10,000-server fleet in GraphQL variables fits the default limit, even pretty-printed", () => {
    const inputs = Array.from({ length: 10_000 }, (_, i) => ({
      configuration: {
        cpu: { units: 2, name: "Intel Xeon Gold 6134" },
        ram: [{ units: 1 + (i % 24), capacity: 32 }],
        disk: [{ units: 2, type: "ssd", capacity: 960 }],
      },
      usage: { usageLocation: "FRA", timeWorkload: 50 },
    }));
    const body = {
      query: "query ($inputs: [ServerItemInput!]!) { servers(inputs: $inputs) { count } }",
      variables: { inputs },
    };
    const compact = Buffer.byteLength(JSON.stringify(body));
    const pretty = Buffer.byteLength(JSON.stringify(body, null, 2));
    expect(compact).toBeGreaterThan(2_000_000);
    expect(pretty).toBeLessThan(DEFAULT_LIMITS.maxBodyBytes);
  });
});

describe("texts (MAX_STRING_LENGTH)", () => {
  const max = DEFAULT_LIMITS.maxStringLength;
  const longName = "Intel Xeon Gold 6134 ".padEnd(max + 1, "x");

  it("REST: a CPU name one character too long is a 422 at body.name naming the limit; at the limit it is matched", async () => {
    const refused = await send(service.port, {
      path: "/v1/component/cpu?verbose=false",
      body: { name: longName },
    });
    expect(refused.status).toBe(422);
    expect(refused.json.detail[0].loc).toEqual(["body", "name"]);
    expect(refused.json.detail[0].msg).toBe(
      `ensure this value has at most ${max} characters (MAX_STRING_LENGTH)`,
    );
    const accepted = await send(service.port, {
      path: "/v1/component/cpu?verbose=false",
      body: { name: longName.slice(0, max) },
    });
    expect(accepted.status).toBe(200);
  });

  it("REST: server family, RAM manufacturer and usage location are bounded too", async () => {
    const cases = [
      [{ configuration: { cpu: { family: longName } } }, ["body", "configuration", "cpu", "family"]],
      [
        { configuration: { ram: [{ manufacturer: longName }] } },
        ["body", "configuration", "ram", 0, "manufacturer"],
      ],
      [{ usage: { usage_location: longName } }, ["body", "usage", "usage_location"]],
    ] as const;
    for (const [body, loc] of cases) {
      const answer = await send(service.port, { path: "/v1/server/?verbose=false", body });
      expect(answer.status).toBe(422);
      expect(answer.json.detail[0].loc).toEqual(loc);
    }
  });

  it("GraphQL: cpuByName and consumptionProfile names are bounded (BAD_USER_INPUT with the field)", async () => {
    const byName = await send(
      service.port,
      graphqlCall("query ($n: String!) { cpuByName(name: $n) { name } }", { n: longName }),
    );
    expect(byName.json.errors[0].extensions).toMatchObject({ code: "BAD_USER_INPUT", field: ["name"] });
    const profile = await send(
      service.port,
      graphqlCall("query ($n: String) { consumptionProfile(cpu: { name: $n }) { a } }", { n: longName }),
    );
    expect(profile.json.errors[0].extensions).toMatchObject({
      code: "BAD_USER_INPUT",
      field: ["cpu", "name"],
    });
    expect(byName.status).toBeLessThan(500);
  });
});

describe("lists (MAX_LIST_LENGTH)", () => {
  const max = DEFAULT_LIMITS.maxListLength;

  it("RAM entries: one past the limit is a 422 at body.configuration.ram; at the limit accepted", async () => {
    const ram = (n: number) => Array.from({ length: n }, () => ({ units: 1, capacity: 16 }));
    const refused = await send(service.port, {
      path: "/v1/server/?verbose=false",
      body: { configuration: { ram: ram(max + 1) } },
    });
    expect(refused.status).toBe(422);
    expect(refused.json.detail[0].loc).toEqual(["body", "configuration", "ram"]);
    expect(refused.json.detail[0].msg).toContain("MAX_LIST_LENGTH");
    const accepted = await send(service.port, {
      path: "/v1/server/?verbose=false",
      body: { configuration: { ram: ram(max) } },
    });
    expect(accepted.status).toBe(200);
  });

  it("workload points: past the limit a 422 at body.workload; 200,000 points never reach the fit", async () => {
    const points = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ load_percentage: i % 101, power_watt: 50 + (i % 101) }));
    const refused = await send(service.port, {
      path: "/v1/consumption_profile/cpu",
      body: { workload: points(max + 1) },
    });
    expect(refused.status).toBe(422);
    expect(refused.json.detail[0].loc).toEqual(["body", "workload"]);
    const huge = await send(service.port, {
      path: "/v1/consumption_profile/cpu",
      body: { workload: points(200_000) },
    });
    expect([413, 422]).toContain(huge.status);
  });
});

describe("numbers: finite, or a 422 at the field", () => {
  it("REST: denormal and overflowing values are refused where they are", async () => {
    const cases = [
      [
        "/v1/component/power_supply?verbose=false",
        '{"units": 1, "unit_weight": 5e-324}',
        ["body", "unit_weight"],
      ],
      [
        "/v1/server/?verbose=false",
        '{"usage": {"hours_life_time": 1e-320}}',
        ["body", "usage", "hours_life_time"],
      ],
      ["/v1/server/?verbose=false", '{"usage": {"avg_power": 1e309}}', ["body", "usage", "avg_power"]],
      [
        "/v1/server/?verbose=false",
        '{"usage": {"years_use_time": 1e31}}',
        ["body", "usage", "years_use_time"],
      ],
    ] as const;
    for (const [path, body, loc] of cases) {
      const answer = await send(service.port, { path, body });
      expect(answer.status, body).toBe(422);
      expect(answer.json.detail[0].loc).toEqual(loc);
    }
    const duration = await send(service.port, { path: "/v1/server/?verbose=false&duration=1e309" });
    expect(duration.status).toBe(422);
    expect(duration.json.detail[0].loc).toEqual(["query", "duration"]);
    const tiny = await send(service.port, { path: "/v1/server/?verbose=false&duration=1e-320" });
    expect(tiny.status).toBe(422);
    expect(tiny.json.detail[0].loc).toEqual(["query", "duration"]);
  });

  it("GraphQL: a denormal is BAD_USER_INPUT at its field, an overflowing variable an error, never 'Unexpected error'", async () => {
    const denormal = await send(
      service.port,
      graphqlCall("{ powerSupply(input: { unitWeight: 5e-324 }) { __typename } }"),
    );
    const shape = await send(
      service.port,
      graphqlCall("query ($w: Float) { powerSupply(input: { unitWeight: $w }) { __typename } }", {
        w: 5e-324,
      }),
    );
    for (const answer of [denormal, shape]) {
      expect(answer.status).toBeLessThan(500);
      expect(answer.json.errors[0].extensions).toMatchObject({
        code: "BAD_USER_INPUT",
        field: ["input", "unitWeight"],
      });
      expect(answer.text).not.toContain("Unexpected error");
    }
    const overflow = await send(service.port, {
      path: "/graphql",
      body: '{"query": "query ($d: Float) { server { impacts(duration: $d) { criterion } } }", "variables": {"d": 1e309}}',
    });
    expect(overflow.status).toBeLessThan(500);
    expect(overflow.json.errors[0].message).toContain("$d");
  });

  it("the impacts of the largest accepted values are numbers", async () => {
    const answer = await send(service.port, {
      path: "/v1/server/?verbose=false",
      body: {
        configuration: { power_supply: { units: 1, unit_weight: 1e30 } },
        usage: { hours_life_time: 1e-30, avg_power: 1e30 },
      },
    });
    expect(answer.status).toBe(200);
    for (const criterion of Object.values(answer.json.impacts) as { embedded: unknown; use: unknown }[]) {
      for (const phase of [criterion.embedded, criterion.use]) {
        if (typeof phase !== "object" || phase === null) continue;
        const { value, min, max } = phase as { value: number; min: number; max: number };
        for (const n of [value, min, max]) expect(Number.isFinite(n)).toBe(true);
      }
    }
  });
});

describe("request targets", () => {
  for (const [target, status] of [
    ["//", 400],
    ["//example.com/v1/server/", 400],
    ["/v1/cloud/%E0%A4%A", 400],
    ["/v1/cloud/%", 400],
    ["/v1/%E0%A4%A", 404],
  ] as const) {
    it(`GET ${target} → ${status}`, async () => {
      const answer = await send(service.port, { path: target });
      expect(answer.status).toBe(status);
    });
  }
});

it("GET /graphql with a broken query text: a parse error, not a 5xx", async () => {
  const answer = await send(service.port, {
    path: "/graphql?query=%E0%A4%A",
    headers: { accept: "application/json" },
  });
  expect(answer.status).toBeLessThan(500);
  expect(answer.json.errors[0].extensions.code).toBe("GRAPHQL_PARSE_FAILED");
});

describe("fleets (MAX_FLEET_ITEMS, EXECUTION_TIMEOUT_MS)", () => {
  const fleet = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ configuration: { ram: [{ units: 1 + (i % 8), capacity: 32 }] } }));
  const SERVERS =
    "query ($inputs: [ServerItemInput!]!) { servers(inputs: $inputs) { items { impacts(criteria: [gwp]) { embedded { __typename } } } } }";

  it("a fleet past its execution budget is cancelled with a 422 naming EXECUTION_TIMEOUT_MS", async () => {
    const hurried = await startTestServer({ EXECUTION_TIMEOUT_MS: 1 });
    try {
      const answer = await send(hurried.port, graphqlCall(SERVERS, { inputs: fleet(2000) }));
      expect(answer.status).toBe(422);
      expect(answer.json.errors[0].extensions).toEqual({
        code: "LIMIT_EXCEEDED",
        limit: "EXECUTION_TIMEOUT_MS",
      });
    } finally {
      await hurried.close();
    }
  });

  it("a fleet does not stop the world: a request sent while it runs is answered before it ends", async () => {
    const total = 3000;
    const original = Server.prototype.embeddedImpact;
    let evaluated = 0;
    let single: Promise<number> | null = null;
    vi.spyOn(Server.prototype, "embeddedImpact").mockImplementation(function (this: Server, ...args) {
      evaluated++;
      // Once the fleet is under way, another client asks for one server.
      if (evaluated === 100)
        single = send(service.port, {
          path: "/v1/server/?archetype=dellR740&verbose=false&criteria=gwp",
        }).then((answer) => {
          expect(answer.status).toBe(200);
          return evaluated;
        });
      return original.apply(this, args);
    });
    const answer = await send(service.port, graphqlCall(SERVERS, { inputs: fleet(total) }));
    expect(answer.status).toBe(200);
    expect(single).not.toBeNull();
    // When the single request was answered, the fleet had not finished.
    expect(await single).toBeLessThan(total);
  });

  it("a fleet stops being evaluated when its client disconnects", async () => {
    const total = 5000;
    const client = new AbortController();
    const original = Server.prototype.embeddedImpact;
    let evaluated = 0;
    vi.spyOn(Server.prototype, "embeddedImpact").mockImplementation(function (this: Server, ...args) {
      evaluated++;
      if (evaluated === 50) client.abort();
      return original.apply(this, args);
    });
    await expect(
      send(service.port, { ...graphqlCall(SERVERS, { inputs: fleet(total) }), signal: client.signal }),
    ).rejects.toThrow();
    // The server sees the disconnection within a few turns of its event loop; then nothing more runs.
    const seen = evaluated;
    for (let turn = 0; turn < 50; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(evaluated).toBeLessThan(total / 2);
    const afterwards = evaluated;
    for (let turn = 0; turn < 50; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(evaluated).toBe(afterwards);
    expect(seen).toBeGreaterThanOrEqual(50);
  });
});

describe("REST logs what it does not expect", () => {
  it("an unexpected resolver error is logged and answered 500 without details", async () => {
    vi.spyOn(Server.prototype, "embeddedImpact").mockImplementation(() => {
      throw new Error("boom");
    });
    const before = service.logs.length;
    const answer = await send(service.port, { path: "/v1/server/?verbose=false&criteria=gwp" });
    expect(answer.status).toBe(500);
    expect(answer.text).toBe("Internal Server Error");
    const errors = service.logs.slice(before).filter((line) => line.level === 50);
    expect(String(errors[0]?.msg)).toMatch(/^REST: unexpected GraphQL error at server\./);
    // With its cause and stack.
    expect(JSON.stringify(errors[0]?.err)).toContain("boom");
  });
});

describe("shared lookup cache", () => {
  /** 1.2.4's lookups, the CPU family and RAM manufacturer ones recording each computation. */
  function recordedLookups() {
    const inner = directLookups((service.app.service.editions.get("1.2.4") as EditionService).tables);
    const calls: string[] = [];
    const lookups = {
      ...inner,
      cpuFamily: (family: string) => {
        calls.push(family);
        return inner.cpuFamily(family);
      },
      ramManufacturer: (manufacturer: string) => {
        calls.push(`ram ${manufacturer}`);
        return inner.ramManufacturer(manufacturer);
      },
    };
    return { lookups, calls };
  }

  it("keeps no key longer than its bound (such keys are computed every time)", () => {
    const { lookups, calls } = recordedLookups();
    const cache = memoizedLookups(lookups, { capacity: 10, maxKeyLength: 20 });
    cache.cpuFamily("skylake");
    cache.cpuFamily("skylake");
    expect(calls).toHaveLength(1);
    const long = "skylake".repeat(10);
    cache.cpuFamily(long);
    cache.cpuFamily(long);
    expect(calls).toHaveLength(3);
  });

  it("evicts the least recently used key beyond its capacity, per lookup", () => {
    const { lookups, calls } = recordedLookups();
    const cache = memoizedLookups(lookups, { capacity: 2 });
    cache.cpuFamily("skylake");
    cache.cpuFamily("haswell");
    cache.cpuFamily("skylake"); // now the most recently used
    cache.ramManufacturer("samsung"); // another lookup: its own capacity
    cache.cpuFamily("broadwell"); // evicts haswell
    cache.cpuFamily("skylake");
    cache.cpuFamily("haswell");
    expect(calls).toEqual(["skylake", "haswell", "ram samsung", "broadwell", "haswell"]);
    // A null result is kept as any other.
    expect(cache.cpuFamily("no such family at all")).toBeNull();
    cache.cpuFamily("no such family at all");
    expect(calls.filter((call) => call === "no such family at all")).toHaveLength(1);
  });
});
