/**
 * A refusal by design is logged as what it is (src/http/handler.ts): a 503 with Retry-After (no
 * room now: batches, admission budgets) and /readyz's 503 while stopping at warn, a limit's 4xx
 * at info, each line naming the limit; a 5xx that is the service's fault stays an error. Through
 * the real HTTP server, its log lines captured; every wait is for an answer or a logged line.
 */
import { request as httpRequest, type IncomingMessage } from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Server } from "../../src/engine/assets/server.js";
import { send } from "../support/http.js";
import { startTestServer, type TestServer } from "../support/httpServer.js";

const WARN = 40;
const INFO = 30;
const ERROR = 50;

let service: TestServer;
beforeAll(async () => {
  service = await startTestServer({ MAX_CONCURRENT_BATCHES: 1, MAX_BODY_BYTES: 4096 });
});
afterAll(async () => {
  await service.close();
});

/** The request line logged for the request of this id, once it is written. */
async function requestLine(requestId: string): Promise<Record<string, unknown>> {
  return vi.waitFor(() => {
    const line = service.logs.find((record) => record.msg === "request" && record.requestId === requestId);
    if (line === undefined) throw new Error(`no line for ${requestId} yet`);
    return line;
  });
}

/** A batch whose body stays open until `end()`: it holds its batch slot meanwhile. */
function openBatch(port: number) {
  const call = httpRequest({
    host: "127.0.0.1",
    port,
    method: "POST",
    path: "/v1/batch",
    headers: { "content-type": "application/x-ndjson", "x-request-id": "holding" },
  });
  const answered = new Promise<IncomingMessage>((resolve, reject) => {
    call.on("response", resolve);
    call.on("error", reject);
  });
  call.write('{"method": "GET", "path": "/v1/utils/version"}\n');
  return {
    answered,
    async end(): Promise<string> {
      call.end();
      const answer = await answered;
      const chunks: Buffer[] = [];
      for await (const chunk of answer) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString("utf8");
    },
  };
}

describe("designed refusals in the log", () => {
  it("a batch past MAX_CONCURRENT_BATCHES: 503 with Retry-After, one line at warn naming the limit", async () => {
    const holding = openBatch(service.port);
    expect((await holding.answered).statusCode).toBe(200);
    const refused = await send(service.port, {
      path: "/v1/batch",
      headers: { "content-type": "application/x-ndjson", "x-request-id": "refused-batch" },
      body: '{"method": "GET", "path": "/v1/utils/version"}\n',
    });
    expect(refused.status).toBe(503);
    expect(refused.headers["retry-after"]).toBe("1");
    expect(await requestLine("refused-batch")).toMatchObject({
      level: WARN,
      status: 503,
      route: "/v1/batch",
      limit: "MAX_CONCURRENT_BATCHES",
    });
    expect(await holding.end()).toContain('"summary"');
    expect(await requestLine("holding")).toMatchObject({ level: INFO, status: 200 });
    expect(service.logs.filter((record) => record.level === ERROR)).toEqual([]);
  });

  it("a body past MAX_BODY_BYTES: 413 at info naming the limit", async () => {
    const answer = await send(service.port, {
      path: "/v1/server/",
      headers: { "x-request-id": "too-large" },
      body: `{"x": "${"a".repeat(5000)}"}`,
    });
    expect(answer.status).toBe(413);
    expect(await requestLine("too-large")).toMatchObject({
      level: INFO,
      status: 413,
      limit: "MAX_BODY_BYTES",
    });
  });

  it("a REST answer that fails inside the service: 500, at error", async () => {
    const spy = vi.spyOn(Server.prototype, "embeddedImpact").mockImplementation(() => {
      throw new Error("boom inside the engine");
    });
    try {
      const answer = await send(service.port, {
        path: "/v1/server/?verbose=false",
        headers: { "x-request-id": "fault" },
        body: { configuration: { cpu: { units: 2 } } },
      });
      expect(answer.status).toBe(500);
    } finally {
      spy.mockRestore();
    }
    const line = await requestLine("fault");
    expect(line).toMatchObject({ level: ERROR, status: 500 });
    expect(line.limit).toBeUndefined();
  });

  it("/readyz while stopping: 503 at warn (the load balancer is told, nothing failed)", async () => {
    const stopping = await startTestServer();
    try {
      stopping.app.markStopping();
      const answer = await send(stopping.port, { path: "/readyz", headers: { "x-request-id": "stopping" } });
      expect(answer.status).toBe(503);
      const line = await vi.waitFor(() => {
        const found = stopping.logs.find((record) => record.requestId === "stopping");
        if (found === undefined) throw new Error("not logged yet");
        return found;
      });
      expect(line).toMatchObject({ level: WARN, status: 503, route: "/readyz" });
    } finally {
      await stopping.close();
    }
  });
});
