/**
 * What a client can make the process hold, through a spawned service (issue 37, points 1–4): the
 * parsed-document cache is bounded by what its documents cost in heap (DOCUMENT_CACHE_BYTES), a
 * criterion repeated in a query costs what it costs once, a coefficient table too large to answer
 * whole is refused before its first row (MAX_ANSWER_BYTES), an unknown stream format is a 422
 * (never a lookup reaching an object's prototype), and streams whose readers never read are
 * bounded in number (MAX_CONCURRENT_STREAMS, 503 with Retry-After past it). Every wait is for a
 * line the process prints or an answer; the memory figures are the bench's (bench/heldMemory.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { graphqlCall, send } from "../support/http.js";
import { portOf, rawClient, serviceStarter, startService } from "../support/process.js";

const service = serviceStarter();
const LISTENING = /^listening on http:\/\//;

async function started(env: Readonly<Record<string, string>>) {
  const process = service(env);
  const port = portOf((await process.waitFor(LISTENING))[0]);
  return { process, port };
}

/**
 * One process of the default settings, started once for the file and read by the tests that ask
 * nothing else of it (each of them started one before): none reads its log lines, none leaves it
 * holding anything, and the small document's test, which reads its empty cache, is the first to
 * send it a document.
 */
let unconfigured: ReturnType<typeof startService> | undefined;
let unconfiguredPort: number;
beforeAll(async () => {
  unconfigured = startService({});
  unconfiguredPort = portOf((await unconfigured.waitFor(LISTENING))[0]);
});
afterAll(() => unconfigured?.killAll());

/** A gauge of /metrics. */
async function gauge(port: number, name: string): Promise<number> {
  const text = (await send(port, { path: "/metrics" })).text;
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  return Number(line?.split(" ")[1]);
}

/** A distinct document of 20,000 tokens in 40 kB (under every per-document bound): ~5 MB parsed. */
const denseDocument = (n: number) => `{ d${n}: __typename(x: [${"1 ".repeat(19_980)}]) }`;

describe("1. parsed documents are kept by what they cost (DOCUMENT_CACHE_BYTES)", () => {
  it("60 distinct dense documents in a 256 MB heap: answered, the cache within its budget, the process alive", async () => {
    const budget = 8 * 1024 * 1024;
    // Kept by their text (8 Mi characters), 60 such documents took ~300 MB of heap.
    const { process, port } = await started({
      NODE_OPTIONS: "--max-old-space-size=256",
      DOCUMENT_CACHE_BYTES: String(budget),
    });
    for (let n = 0; n < 60; n++) {
      const answer = await send(port, graphqlCall(denseDocument(n)));
      expect(answer.json.errors[0].message).toMatch(/Unknown argument "x"/);
    }
    const kept = await gauge(port, "graphql_document_cache_bytes");
    // One dense document is weighed at 2 × 40 kB + 320 bytes × its 19,993 tokens: one fits, two do not.
    expect(kept).toBeGreaterThan(6_000_000);
    expect(kept).toBeLessThanOrEqual(budget);
    expect((await send(port, { path: "/healthz" })).status).toBe(200);
    expect(process.errors).toEqual([]);
  }, 120_000);

  it("a small document is kept (weighed by its text and tokens), a syntax error too", async () => {
    const port = unconfiguredPort;
    expect(await gauge(port, "graphql_document_cache_bytes")).toBe(0);
    const query = "{ a: __typename }";
    expect((await send(port, graphqlCall(query))).json).toEqual({ data: { a: "Query" } });
    // Its text twice, and 320 bytes for each of its 7 tokens (<SOF> { a : __typename } <EOF>).
    expect(await gauge(port, "graphql_document_cache_bytes")).toBe(2 * query.length + 320 * 7);
    const broken = "{ a: ";
    expect((await send(port, graphqlCall(broken))).json.errors[0].message).toMatch(/Syntax Error/);
    expect(await gauge(port, "graphql_document_cache_bytes")).toBe(
      2 * query.length + 320 * 7 + 2 * broken.length + 4096,
    );
  }, 60_000);
});

describe("2. a repeated criterion costs what it costs once; a table too large to answer whole is refused first", () => {
  const ONE = "edition=2.4.1&provider=aws&instance_type=a1.4xlarge";
  const gwpTimes = (n: number) => Array.from({ length: n }, () => "criteria=gwp").join("&");

  it("REST, the stream and GraphQL answer gwp × 100 as gwp once", async () => {
    const port = unconfiguredPort;
    const once = await send(port, { path: `/v1/cloud/coefficients?${ONE}&criteria=gwp` });
    expect(once.status).toBe(200);
    expect(once.json.columns).toHaveLength(6 + 6);
    const repeated = await send(port, { path: `/v1/cloud/coefficients?${ONE}&${gwpTimes(100)}` });
    expect(repeated.status).toBe(200);
    expect(repeated.json).toEqual(once.json);

    const streamedOnce = await send(port, {
      path: `/v1/cloud/coefficients/stream?edition=2.4.1&provider=gcp&criteria=gwp`,
    });
    const streamed = await send(port, {
      path: `/v1/cloud/coefficients/stream?edition=2.4.1&provider=gcp&${gwpTimes(600)}`,
    });
    expect(streamed.status).toBe(200);
    expect(streamed.text).toBe(streamedOnce.text);
    expect(streamed.text.split("\n")[0].split(",")).toEqual(once.json.columns);

    const gwps = Array.from({ length: 100 }, () => "gwp").join(", ");
    const graphql = await send(
      port,
      graphqlCall(
        `{ cloudCoefficients(provider: "aws", instanceType: "a1.4xlarge", edition: "2.4.1", criteria: [${gwps}]) { columns rows } }`,
      ),
    );
    expect(graphql.json.data.cloudCoefficients).toEqual({ columns: once.json.columns, rows: once.json.rows });

    // The impact fields too: one entry for gwp.
    const server = await send(
      port,
      graphqlCall(
        `{ server(input: {}, edition: "2.4.1") { impacts(criteria: [gwp, gwp, pe, gwp]) { criterion } } }`,
      ),
    );
    expect(server.json.data.server.impacts.map((i: { criterion: string }) => i.criterion)).toEqual([
      "gwp",
      "pe",
    ]);
    const rest = await send(port, {
      path: "/v1/server/?verbose=false&criteria=gwp&criteria=gwp&criteria=pe",
    });
    expect(Object.keys(rest.json.impacts)).toEqual(["gwp", "pe"]);
  }, 120_000);

  it("1.2.4's aws table with every criterion (~330 MB whole) is a 422 naming MAX_ANSWER_BYTES, before any row", async () => {
    const port = unconfiguredPort;
    const every = [
      ...["gwp", "adp", "pe", "gwppb", "gwppf", "gwpplu", "ir", "lu", "odp", "pm", "pocp", "wu"],
      ...["mips", "adpe", "adpf", "ap", "ctue", "ctuh_c", "ctuh_nc", "epf", "epm", "ept", "fw"],
    ];
    const rest = await send(port, {
      path: `/v1/cloud/coefficients?edition=1.2.4&provider=aws&${every.map((c) => `criteria=${c}`).join("&")}`,
    });
    expect(rest.status).toBe(422);
    expect(rest.json.detail[0].loc).toEqual(["query", "criteria"]);
    expect(rest.json.detail[0].msg).toMatch(/135240 rows × 144 columns.*MAX_ANSWER_BYTES.*stream/);
    const graphql = await send(
      port,
      graphqlCall(
        `{ cloudCoefficients(provider: "aws", edition: "1.2.4", criteria: [${every.join(", ")}]) { columns } }`,
      ),
    );
    expect(graphql.json.errors[0].extensions).toMatchObject({
      code: "LIMIT_EXCEEDED",
      limit: "MAX_ANSWER_BYTES",
    });
    // The same table streamed is answered (its first piece is enough here).
    const client = await rawClient(port);
    client.send(
      `GET /v1/cloud/coefficients/stream?edition=1.2.4&provider=aws&${every.map((c) => `criteria=${c}`).join("&")} HTTP/1.1\r\nhost: test\r\n\r\n`,
    );
    await client.received(/^HTTP\/1\.1 200 [\s\S]*gwp_embedded_kgco2eq_per_hour/);
    client.socket.destroy();
  }, 60_000);
});

describe("2. whole tables answered at once share the process's budget (MAX_CONCURRENT_FLEET_ITEMS)", () => {
  it("a table whose reader stops holds its room: another (a batch line too) is a 503 until the reader leaves", async () => {
    // 2.4.1 aws: 28,470 rows × 24 columns, estimated 13.7 MB, i.e. 1,018 of 10,000 items at 128 MiB.
    const { process, port } = await started({
      MAX_CONCURRENT_FLEET_ITEMS: "1500",
      ADMISSION_QUEUE_LENGTH: "0",
    });
    const path = "/v1/cloud/coefficients?edition=2.4.1&provider=aws";
    const reader = await rawClient(port);
    reader.send(`GET ${path} HTTP/1.1\r\nhost: test\r\n\r\n`);
    await reader.received(/^HTTP\/1\.1 200 /);
    reader.socket.pause();
    const refused = await send(port, { path });
    expect(refused.status).toBe(503);
    expect(refused.headers["retry-after"]).toBe("1");
    expect(refused.json.detail).toMatch(/MAX_CONCURRENT_FLEET_ITEMS/);
    // A batch line asking for it waits for the same room: its line is the 503.
    const batch = await send(port, {
      path: "/v1/batch",
      headers: { "content-type": "application/x-ndjson" },
      body: `${JSON.stringify({ method: "GET", path })}\n`,
    });
    const [line] = batch.text
      .trimEnd()
      .split("\n")
      .map((text) => JSON.parse(text));
    expect(line).toMatchObject({ line: 1, status: 503 });
    expect(line.body.detail).toMatch(/MAX_CONCURRENT_FLEET_ITEMS/);
    reader.socket.destroy();
    await process.waitFor(/^request$/, 3);
    expect(process.records.filter((record) => record.msg === "request").map((r) => r.status)).toEqual([
      503, 200, 499,
    ]);
    const answered = await send(port, { path });
    expect(answered.status).toBe(200);
    expect(answered.json.rows).toHaveLength(28_470);
  }, 60_000);
});

describe("3. a stream's format is one of its own (no lookup reaching an object's prototype)", () => {
  it("toString, constructor, __proto__, valueOf and hasOwnProperty are 422s naming csv and ndjson", async () => {
    const port = unconfiguredPort;
    for (const format of ["toString", "constructor", "__proto__", "valueOf", "hasOwnProperty", "CSV", ""]) {
      const answer = await send(port, { path: `/v1/cloud/coefficients/stream?format=${format}` });
      expect(answer.status, format).toBe(422);
      expect(answer.headers["content-type"], format).toBe("application/json");
      expect(answer.json.detail[0], format).toMatchObject({
        loc: ["query", "format"],
        msg: "Input should be csv or ndjson",
        input: format,
      });
    }
  }, 60_000);
});

describe("4. streams whose readers never read are bounded in number (MAX_CONCURRENT_STREAMS)", () => {
  /** A client that asks for the 1.2.4 aws table (135,240 rows) and reads its status line only. */
  async function idleReader(port: number) {
    const client = await rawClient(port);
    client.send(
      "GET /v1/cloud/coefficients/stream?edition=1.2.4&provider=aws HTTP/1.1\r\nhost: test\r\n\r\n",
    );
    await client.received(/^HTTP\/1\.1 \d{3} /);
    client.socket.pause();
    return client;
  }

  it("past the cap a 503 with Retry-After; a stream read to its end gives its room back; /healthz answers", async () => {
    const { process, port } = await started({ MAX_CONCURRENT_STREAMS: "4" });
    const readers = await Promise.all(Array.from({ length: 3 }, () => idleReader(port)));
    // The fourth stream is read whole (a small table): its room is free once its answer has ended.
    const whole = await send(port, { path: "/v1/cloud/coefficients/stream?edition=2.4.1&provider=gcp" });
    expect(whole.status).toBe(200);
    readers.push(await idleReader(port));
    const refused = await Promise.all(Array.from({ length: 200 }, () => idleReader(port)));
    for (const client of readers) await client.received(/^HTTP\/1\.1 200 /);
    for (const client of refused) {
      await client.received(/^HTTP\/1\.1 503 [\s\S]*\r\n\r\n\{[\s\S]*\}$/);
      const answer = await client.answer;
      expect(answer).toMatch(/\r\nretry-after: 1\r\n/i);
      expect(answer).toMatch(/\r\nconnection: close\r\n/i);
      expect(answer).toContain(
        "4 coefficient tables are being streamed, the most at once (MAX_CONCURRENT_STREAMS)",
      );
    }
    expect((await send(port, { path: "/healthz" })).status).toBe(200);
    // A reader that leaves gives its room back: the next stream is served.
    const left = readers.pop();
    left?.socket.destroy();
    await process.waitFor(/^request$/, 203);
    expect(process.records.some((record) => record.status === 499)).toBe(true);
    const next = await idleReader(port);
    await next.received(/^HTTP\/1\.1 200 /);
    for (const client of [...readers, next]) client.socket.destroy();
    // A refusal by design is a warning naming its limit (the handler's rule), never an error.
    expect(process.errors).toEqual([]);
    const refusals = process.records.filter((record) => record.status === 503);
    expect(refusals).toHaveLength(200);
    expect(refusals.every((record) => record.level === 40 && record.limit === "MAX_CONCURRENT_STREAMS")).toBe(
      true,
    );
  }, 120_000);
});
