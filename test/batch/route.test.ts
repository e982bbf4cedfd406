/**
 * POST /v1/batch on the real server: a body generated lazily (a Readable) and answered as it
 * arrives, each line answering what its single route answers, the totals the sum of the lines.
 */

import { once } from "node:events";
import { request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { connect, type Socket } from "node:net";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { send } from "../support/http.js";
import { startTestServer, type TestServer } from "../support/httpServer.js";

const CLOUD = "/v1/cloud/instance?verbose=false";

/** The lines of the big batch: cloud instances, and every few hundred lines a bad one. */
const INSTANCES = ["m5.xlarge", "c5.large", "r5.2xlarge", "t3.micro", "m6g.4xlarge"];
const LOCATIONS = ["FRA", "DEU", "USA", "BEL"];
function lineOf(index: number): string {
  if (index % 997 === 13) return "{not json";
  if (index % 991 === 7)
    return JSON.stringify({ path: CLOUD, body: { provider: "aws", instance_type: "x9.none" } });
  return JSON.stringify({
    path: CLOUD,
    body: {
      provider: "aws",
      instance_type: INSTANCES[index % INSTANCES.length],
      usage: { usage_location: LOCATIONS[index % LOCATIONS.length] },
    },
  });
}

interface Streamed {
  readonly status: number;
  readonly headers: IncomingMessage["headers"];
  readonly lines: string[];
  /** Whether the request body had ended when the first answer line arrived. */
  readonly bodyEndedAtFirstLine: boolean | null;
}

/** Sends `body` (a stream, chunked) and reads the answer line by line as it comes. */
function streamBatch(
  port: number,
  path: string,
  body: Readable,
  onFirstLine?: () => void,
): Promise<Streamed> {
  let bodyEnded = false;
  body.once("end", () => {
    bodyEnded = true;
  });
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: "127.0.0.1", port, method: "POST", path, headers: { "content-type": "application/x-ndjson" } },
      (response) => {
        const lines: string[] = [];
        let bodyEndedAtFirstLine: boolean | null = null;
        let rest = "";
        response.setEncoding("utf8");
        response.on("data", (text: string) => {
          const parts = (rest + text).split("\n");
          rest = parts.pop() ?? "";
          if (parts.length > 0 && bodyEndedAtFirstLine === null) {
            bodyEndedAtFirstLine = bodyEnded;
            onFirstLine?.();
          }
          lines.push(...parts);
        });
        response.on("end", () => {
          if (rest !== "") lines.push(rest);
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            lines,
            bodyEndedAtFirstLine,
          });
        });
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    body.pipe(request);
  });
}

/**
 * A body of `count` lines made one by one as the connection asks for them. With `holdBack`, its
 * last lines wait until `holdBack.released` settles: socket buffers could take a whole body
 * before the server answers anything, so the body is kept open until an answer line has come.
 */
function generated(
  count: number,
  line: (index: number) => string,
  holdBack?: { readonly from: number; readonly released: Promise<void> },
): Readable {
  let index = 0;
  let held = holdBack !== undefined;
  holdBack?.released.then(() => {
    held = false;
    fill();
  });
  const fill = () => {
    while (index < count) {
      if (held && holdBack && index >= holdBack.from) return;
      const more = body.push(`${line(index)}\n`);
      index += 1;
      if (!more) return;
    }
    body.push(null);
  };
  const body: Readable = new Readable({ read: fill });
  return body;
}

type Totals = Record<string, Record<string, number>>;

/** The per-criterion, per-phase sum of the answer lines' values, in their order. */
function sumOf(lines: readonly string[]): Totals {
  const totals: Totals = {};
  for (const text of lines) {
    const { status, body } = JSON.parse(text);
    if (status !== 200) continue;
    for (const [criterion, phases] of Object.entries(
      body.impacts as Record<string, Record<string, unknown>>,
    )) {
      for (const phase of ["embedded", "use"]) {
        const value = (phases[phase] as { value?: unknown })?.value;
        if (typeof value !== "number") continue;
        totals[criterion] ??= {};
        totals[criterion][phase] = (totals[criterion][phase] ?? 0) + value;
      }
    }
  }
  return totals;
}

describe("POST /v1/batch", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ LOG_LEVEL: "warn", MAX_BODY_BYTES: 4096 });
  });
  afterAll(() => server.close());

  it("streams 20,000 lines: answers before the body ends, each the single route's, totals their sum", async () => {
    const count = 20_000;
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const body = generated(count, lineOf, { from: count - 100, released });
    const answer = await streamBatch(server.port, "/v1/batch", body, release);
    expect(answer.status).toBe(200);
    expect(answer.headers["content-type"]).toBe("application/x-ndjson");
    expect(answer.bodyEndedAtFirstLine).toBe(false);
    expect(answer.lines).toHaveLength(count + 1);

    // Every distinct request, asked of its single route: the batch's line is its status and body, byte for byte.
    const singles = new Map<string, string>();
    for (let index = 0; index < count; index += 1) {
      const line = lineOf(index);
      if (singles.has(line)) continue;
      if (line.startsWith("{not")) {
        singles.set(
          line,
          '{"status":422,"body":{"detail":[{"loc":["line"],"msg":"line is not valid JSON","type":"value_error.jsondecode"}]}}',
        );
        continue;
      }
      const { path, body } = JSON.parse(line);
      const single = await send(server.port, { path, body });
      singles.set(line, `{"status":${single.status},"body":${single.text}}`);
    }
    // Each answer line names its input line, then carries the single route's status and body.
    for (let index = 0; index < count; index += 1) {
      const expected = `{"line":${index + 1},${singles.get(lineOf(index))?.slice(1)}`;
      if (answer.lines[index] !== expected) {
        expect.fail(`line ${index + 1}: ${answer.lines[index]} is not ${expected}`);
      }
    }

    const { summary } = JSON.parse(answer.lines[count]);
    const bad = Array.from({ length: count }, (_, index) => lineOf(index)).filter(
      (line) => line.startsWith("{not") || line.includes("x9.none"),
    ).length;
    expect(bad).toBeGreaterThan(30);
    expect(summary).toMatchObject({ lines: count, ok: count - bad, errors: bad });
    expect(summary.total).toEqual(sumOf(answer.lines.slice(0, count)));
    expect(Object.keys(summary.total)).toEqual(["gwp", "adp", "pe"]);
  }, 300_000);

  it("answers every line, bad ones with their 4xx, and applies the batch's edition to lines naming none", async () => {
    const lines = [
      JSON.stringify({ path: CLOUD, body: { provider: "azure", instance_type: "Standard_D4ads_v5" } }),
      JSON.stringify({
        path: `${CLOUD}&edition=1.2.4`,
        body: { provider: "aws", instance_type: "m5.xlarge" },
      }),
      JSON.stringify({ method: "GET", path: "/v1/server/?verbose=false&criteria=gwp&archetype=dellR740" }),
      JSON.stringify({ path: "/graphql", body: {} }),
      JSON.stringify({ path: "/v1/batch", body: {} }),
      JSON.stringify({ method: "DELETE", path: CLOUD }),
      JSON.stringify({ path: CLOUD, body: { provider: "aws", instance_type: "m5.xlarge" }, quantity: 0 }),
      JSON.stringify({
        path: CLOUD,
        body: { provider: "aws", instance_type: "m5.xlarge", pad: "x".repeat(5000) },
      }),
      "[1, 2]",
      "",
      JSON.stringify({ path: "/v1/component/ram?verbose=false&criteria=gwp", body: { units: "many" } }),
    ];
    const answer = await streamBatch(
      server.port,
      "/v1/batch?edition=2.4.1",
      Readable.from([`${lines.join("\r\n")}\n`]),
    );
    const answers = answer.lines.map((line) => JSON.parse(line));
    expect(answers.map((line) => line.status ?? "summary")).toEqual([
      200,
      200,
      200,
      422,
      422,
      405,
      422,
      413,
      422,
      422,
      "summary",
    ]);
    // The azure instance exists in edition 2.4.1 only: the batch's edition was given to the line.
    expect(answers[0].body.impacts.gwp.embedded.value).toBeGreaterThan(0);
    const single = await send(server.port, {
      path: `${CLOUD}&edition=2.4.1`,
      body: { provider: "azure", instance_type: "Standard_D4ads_v5" },
    });
    expect(answer.lines[0]).toBe(`{"line":1,"status":200,"body":${single.text}}`);
    // A line naming its edition keeps it.
    const v124 = await send(server.port, {
      path: CLOUD,
      body: { provider: "aws", instance_type: "m5.xlarge" },
    });
    expect(answer.lines[1]).toBe(`{"line":2,"status":200,"body":${v124.text}}`);
    expect(answers[3].body.detail[0].loc).toEqual(["line", "path"]);
    expect(answers[6].body.detail[0].loc).toEqual(["line", "quantity"]);
    expect(answers[7].body.detail).toBe("the line exceeds 4096 bytes (MAX_BODY_BYTES)");
    expect(answers[9].body.detail[0].loc).toEqual(["body", "units"]);
    expect(answers[10].summary).toMatchObject({ lines: 10, ok: 3, errors: 7 });
  });

  it("is described in /openapi.json, with its edition parameter and streamed NDJSON", async () => {
    const { json } = await send(server.port, { path: "/openapi.json" });
    const operation = json.paths["/v1/batch"].post;
    expect(operation.parameters.map((parameter: { name: string }) => parameter.name)).toEqual(["edition"]);
    expect(Object.keys(operation.requestBody.content)).toEqual(["application/x-ndjson"]);
    expect(Object.keys(operation.responses)).toEqual(["200", "422", "503"]);
  });

  it("refuses an unknown edition and other methods", async () => {
    const unknown = await send(server.port, { path: "/v1/batch?edition=9.9", body: "" });
    expect(unknown.status).toBe(422);
    expect(unknown.json.detail[0].loc).toEqual(["query", "edition"]);
    const get = await send(server.port, { path: "/v1/batch" });
    expect(get.status).toBe(405);
  });

  it("weights a line's impacts by its quantity in the total", async () => {
    const line = { path: `${CLOUD}&criteria=gwp`, body: { provider: "aws", instance_type: "m5.xlarge" } };
    const answer = await streamBatch(
      server.port,
      "/v1/batch",
      Readable.from([`${JSON.stringify({ ...line, quantity: 3 })}\n${JSON.stringify(line)}\n`]),
    );
    const [first, second, last] = answer.lines.map((text) => JSON.parse(text));
    expect([first.line, second.line]).toEqual([1, 2]);
    expect(first.body).toEqual(second.body);
    expect(last.summary.total.gwp.embedded).toBe(first.body.impacts.gwp.embedded.value * 4);
  });
});

describe("POST /v1/batch, concurrency", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ LOG_LEVEL: "warn", MAX_CONCURRENT_BATCHES: 1 });
  });
  afterAll(() => server.close());

  const line = `${JSON.stringify({ path: `${CLOUD}&criteria=gwp`, body: { provider: "aws", instance_type: "c5.large" } })}\n`;

  /** A batch whose body stays open: resolves once its first answer line has come. */
  function openBatch(): Promise<{
    body: Readable;
    request: ReturnType<typeof httpRequest>;
    answer: Promise<string>;
  }> {
    const body = new Readable({ read() {} });
    body.push(line);
    return new Promise((resolve, reject) => {
      const request = httpRequest(
        { host: "127.0.0.1", port: server.port, method: "POST", path: "/v1/batch" },
        (response) => {
          let text = "";
          let announced = false;
          const answer = new Promise<string>((done) => response.on("end", () => done(text)));
          response.on("data", (chunk: Buffer) => {
            text += chunk;
            if (!announced && text.includes("\n")) {
              announced = true;
              resolve({ body, request, answer });
            }
          });
          response.on("error", () => {});
        },
      );
      request.on("error", reject);
      body.pipe(request);
    });
  }

  it("answers 503 with Retry-After past MAX_CONCURRENT_BATCHES, while single requests keep answering", async () => {
    const running = await openBatch();
    const refused = await send(server.port, { path: "/v1/batch", body: line });
    expect(refused.status).toBe(503);
    expect(refused.headers["retry-after"]).toBe("1");
    expect(refused.json.detail).toContain("MAX_CONCURRENT_BATCHES");
    const single = await send(server.port, {
      path: `${CLOUD}&criteria=gwp`,
      body: { provider: "aws", instance_type: "c5.large" },
    });
    expect(single.status).toBe(200);
    running.body.push(line);
    running.body.push(null);
    const text = await running.answer;
    expect(text.trim().split("\n")).toHaveLength(3);
    // The slot is free again once the batch has ended.
    const next = await send(server.port, { path: "/v1/batch", body: line });
    expect(next.status).toBe(200);
  });

  it("outlives node's request timeout once its answer streams; a request not answered yet gets 408", async () => {
    // node raises this client error on a request not received whole within requestTimeout (300 s).
    const timeout = () => Object.assign(new Error("request timeout"), { code: "ERR_HTTP_REQUEST_TIMEOUT" });
    const batchSocket = new Promise<Socket>((resolve) =>
      server.server.once("request", (request: IncomingMessage) => resolve(request.socket)),
    );
    const running = await openBatch();
    server.server.emit("clientError", timeout(), await batchSocket);
    running.body.push(line);
    running.body.push(null);
    expect((await running.answer).trim().split("\n")).toHaveLength(3);

    const slow = connect(server.port, "127.0.0.1");
    const [accepted] = (await once(server.server, "connection")) as [Socket];
    let text = "";
    slow.on("data", (chunk) => {
      text += chunk;
    });
    slow.write("POST /v1/batch HTTP/1.1\r\nhost: x\r\n");
    server.server.emit("clientError", timeout(), accepted);
    await once(slow, "close");
    expect(text).toMatch(/^HTTP\/1.1 408 Request Timeout\r\n/);
  });

  it("stops when the client leaves and frees its slot", async () => {
    // Readiness: the server closes the batch's answer once it has seen the client go. Its own
    // listener on that close, registered first (src/http/handler.ts, `tracked`), cancels the
    // request, and the cancellation frees the slot (src/rest/routes/batch.ts): no wait, no retry.
    const answerClosed = new Promise<void>((resolve) =>
      server.server.once("request", (_request, response: ServerResponse) => response.once("close", resolve)),
    );
    const running = await openBatch();
    running.request.destroy();
    running.body.destroy();
    await answerClosed;
    expect((await send(server.port, { path: "/v1/batch", body: line })).status).toBe(200);
    // A client leaving is no failure of the service.
    expect(server.logs.filter((line) => Number(line.level) >= 50)).toEqual([]);
  });
});

describe("POST /v1/batch, bounds", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ LOG_LEVEL: "warn", MAX_CONCURRENT_BATCHES: 1, BODY_TIMEOUT_MS: 2000 });
  });
  afterAll(() => server.close());

  it("a line nested 1,000,000 deep is refused by its nesting (422 naming MAX_NESTING_DEPTH), the next line answered", async () => {
    const deep = `{"path": "${CLOUD}", "body": ${"[".repeat(1_000_000)}${"]".repeat(1_000_000)}}`;
    const good = JSON.stringify({
      path: `${CLOUD}&criteria=gwp`,
      body: { provider: "aws", instance_type: "c5.large" },
    });
    const answer = await streamBatch(server.port, "/v1/batch", Readable.from([`${deep}\n${good}\n`]));
    const [refused, answered, last] = answer.lines.map((line) => JSON.parse(line));
    expect(refused.status).toBe(422);
    expect(refused.body.detail[0].loc).toEqual(["line", "body"]);
    expect(refused.body.detail[0].msg).toContain("MAX_NESTING_DEPTH");
    expect(answered.status).toBe(200);
    expect(last.summary).toMatchObject({ lines: 2, ok: 1, errors: 1 });
  });

  it("a '#' in a line's path does not hide the batch's edition (a fragment is not a path)", async () => {
    const line = JSON.stringify({ method: "GET", path: "/v1/utils/version#x" });
    const answer = await streamBatch(server.port, "/v1/batch?edition=2.4.1", Readable.from([`${line}\n`]));
    const single = await send(server.port, { path: "/v1/utils/version?edition=2.4.1" });
    expect(single.json).toBe("2.4.1");
    expect(answer.lines[0]).toBe(`{"line":1,"status":200,"body":${single.text}}`);
  });

  it("a client trickling one line byte by byte cannot hold its slot: interrupted BODY_TIMEOUT_MS after it began waiting for the line", async () => {
    const good = JSON.stringify({
      path: `${CLOUD}&criteria=gwp`,
      body: { provider: "aws", instance_type: "c5.large" },
    });
    // One whole line, then `{"path":` and a byte every 100 ms: the connection is never silent
    // for BODY_TIMEOUT_MS (2 s), the line never ends.
    const body = new Readable({ read() {} });
    body.push(`${good}\n{"path":`);
    const trickle = setInterval(() => body.push(" "), 100);
    try {
      const answer = await streamBatch(server.port, "/v1/batch", body);
      expect(answer.status).toBe(200);
      const [first, last] = answer.lines.map((line) => JSON.parse(line));
      expect(first.status).toBe(200);
      expect(last.summary).toMatchObject({
        lines: 1,
        ok: 1,
        interrupted: "no whole line was received within 2000 ms (BODY_TIMEOUT_MS)",
      });
    } finally {
      clearInterval(trickle);
      body.destroy();
    }
    // The slot (MAX_CONCURRENT_BATCHES=1) is free: the next batch is answered.
    const next = await send(server.port, { path: "/v1/batch", body: `${good}\n` });
    expect(next.status).toBe(200);
  });
});
