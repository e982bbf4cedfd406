/**
 * Admission through the real server (src/http/limits/admission.ts): the process takes at once at most
 * MAX_CONCURRENT_FLEET_ITEMS fleet items and MAX_BODY_BYTES_IN_FLIGHT bytes of bodies; a request
 * that does not fit waits in a short queue or is refused with 503, Retry-After and the limit's
 * name; /healthz keeps answering. Bodies have BODY_TIMEOUT_MS to arrive (408), and a refused body
 * is read and dropped so that a client sending it whole before reading still gets its 413.
 * Every wait is for an answer or a gauge of /metrics, never for a duration.
 */
import { connect } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createAdmission } from "../../src/http/limits/admission.js";
import { graphqlCall, send, unreadAnswer } from "../support/http.js";
import { startTestServer, type TestServer } from "../support/httpServer.js";

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

const FLEET =
  "query ($inputs: [ServerItemInput!]!) { servers(inputs: $inputs) { count items { verbose { v1 } } } }";
const fleetOf = (count: number) =>
  Array.from({ length: count }, () => ({
    configuration: { cpu: { units: 2, name: "Intel Xeon Gold 6134" } },
  }));

describe("the admission budget (pure)", () => {
  it("admits within the budget, queues in order, refuses past the queue, and a cost above the budget runs alone", async () => {
    const admission = createAdmission({ budget: 10, queueLength: 2, limit: "MAX_X", unit: "items" });
    const first = await admission.acquire(6);
    const order: string[] = [];
    const second = admission.acquire(6).then((release) => {
      order.push("second");
      return release;
    });
    const third = admission.acquire(3).then((release) => {
      order.push("third");
      return release;
    });
    await expect(admission.acquire(1)).rejects.toMatchObject({ limit: "MAX_X", retryAfterSeconds: 1 });
    expect(admission.tryAcquire(1)).toBeNull(); // others wait ahead
    expect([admission.inUse(), admission.waiting()]).toEqual([6, 2]);
    first.release();
    first.release(); // twice: given back once
    (await second).release();
    (await third).release();
    expect(order).toEqual(["second", "third"]);
    expect(admission.inUse()).toBe(0);
    const whole = await admission.acquire(50);
    expect(admission.inUse()).toBe(10);
    expect(whole.resize(4)).toBe(true);
    expect(admission.inUse()).toBe(4);
    const other = admission.tryAcquire(5);
    expect(whole.resize(6)).toBe(false); // 4 + 5 + 2 more would pass 10
    expect(whole.resize(5)).toBe(true);
    other?.release();
    whole.release();
    expect(admission.inUse()).toBe(0);
  });

  it("a waiting request whose signal aborts leaves the queue", async () => {
    const admission = createAdmission({ budget: 1, queueLength: 1, limit: "MAX_X", unit: "items" });
    const held = await admission.acquire(1);
    const cancel = new AbortController();
    const waiting = admission.acquire(1, cancel.signal);
    cancel.abort(new Error("gone"));
    await expect(waiting).rejects.toThrow("gone");
    expect(admission.waiting()).toBe(0);
    held.release();
  });
});

describe("MAX_CONCURRENT_FLEET_ITEMS", () => {
  it("a fleet that does not fit waits, one past the queue gets 503 + Retry-After naming the limit; /healthz answers; then all are served", async () => {
    const { port, logs } = await server({ MAX_CONCURRENT_FLEET_ITEMS: 1000, ADMISSION_QUEUE_LENGTH: 1 });
    // 1,000 verbose servers answer about 10 MB: unread, the answer cannot finish, the items stay held.
    const big = unreadAnswer(port, JSON.stringify({ query: FLEET, variables: { inputs: fleetOf(1000) } }));
    await untilGauge(port, "admission_in_use", "MAX_CONCURRENT_FLEET_ITEMS", 1000);
    const queued = send(port, graphqlCall(FLEET, { inputs: fleetOf(2) }));
    await untilGauge(port, "admission_waiting", "MAX_CONCURRENT_FLEET_ITEMS", 1);
    const refused = await send(port, graphqlCall(FLEET, { inputs: fleetOf(1) }));
    expect(refused.status).toBe(503);
    expect(refused.headers["retry-after"]).toBe("1");
    expect(refused.json.errors[0].extensions).toMatchObject({
      code: "LIMIT_EXCEEDED",
      limit: "MAX_CONCURRENT_FLEET_ITEMS",
    });
    expect(refused.json.errors[0].message).toContain(
      "1000 fleet items in progress (MAX_CONCURRENT_FLEET_ITEMS)",
    );
    // A refusal by design: one request line at warn naming the limit, no error line.
    await vi.waitFor(() =>
      expect(logs.some((line) => line.msg === "request" && line.status === 503)).toBe(true),
    );
    expect(logs.filter((line) => line.status === 503)).toEqual([
      expect.objectContaining({ level: 40, route: "/graphql", limit: "MAX_CONCURRENT_FLEET_ITEMS" }),
    ]);
    expect(logs.filter((line) => Number(line.level) >= 50)).toEqual([]);
    expect((await send(port, { path: "/healthz" })).status).toBe(200);
    // Requests without fleets are not held back.
    expect((await send(port, { path: "/v1/utils/case_type" })).json).toEqual(["blade", "rack"]);

    const first = await big.read();
    expect(first.status).toBe(200);
    expect(JSON.parse(first.text).data.servers.count).toBe(1000);
    const second = await queued;
    expect(second.status).toBe(200);
    expect(second.json.data.servers.count).toBe(2);
    await untilGauge(port, "admission_in_use", "MAX_CONCURRENT_FLEET_ITEMS", 0);
  }, 120_000);
});

describe("a client that does not read its answer (BODY_TIMEOUT_MS)", () => {
  it("is disconnected, and the fleet items its answer held are given back", async () => {
    const { port } = await server({ MAX_CONCURRENT_FLEET_ITEMS: 1000, BODY_TIMEOUT_MS: 500 });
    const big = unreadAnswer(port, JSON.stringify({ query: FLEET, variables: { inputs: fleetOf(1000) } }));
    await untilGauge(port, "admission_in_use", "MAX_CONCURRENT_FLEET_ITEMS", 1000);
    expect((await big.arrived).statusCode).toBe(200);
    // Nothing read: the answer stalls, the connection goes, the items come back.
    await untilGauge(port, "admission_in_use", "MAX_CONCURRENT_FLEET_ITEMS", 0);
    await expect(big.read()).rejects.toThrow();
    const next = await send(port, graphqlCall(FLEET, { inputs: fleetOf(2) }));
    expect(next.status).toBe(200);
  }, 120_000);
});

describe("request bodies (MAX_BODY_BYTES_IN_FLIGHT, BODY_TIMEOUT_MS)", () => {
  /** Headers and part of a body, the rest never sent (the connection stays open). */
  function stalledUpload(port: number, declared: number, sent: number) {
    const socket = connect(port, "127.0.0.1");
    let received = "";
    socket.on("data", (chunk) => {
      received += chunk.toString("utf8");
    });
    socket.write(
      `POST /v1/server/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n`,
    );
    socket.write(" ".repeat(sent));
    const closed = new Promise<string>((resolve) => socket.on("close", () => resolve(received)));
    socket.on("error", () => {});
    return { socket, closed };
  }

  it("bodies past the bytes in flight get 503 + Retry-After naming the limit; room comes back when they end", async () => {
    const { port } = await server({ MAX_BODY_BYTES: 4096, MAX_BODY_BYTES_IN_FLIGHT: 8192 });
    // Bodies hold what has arrived of them: all but their last byte, 2 bytes of the budget left
    const a = stalledUpload(port, 4096, 4095);
    const b = stalledUpload(port, 4096, 4095);
    await untilGauge(port, "admission_in_use", "MAX_BODY_BYTES_IN_FLIGHT", 8190);
    const refused = await send(port, { path: "/v1/component/ram?verbose=false", body: { units: 2 } });
    expect(refused.status).toBe(503);
    expect(refused.headers["retry-after"]).toBe("1");
    expect(refused.json.detail).toContain("(MAX_BODY_BYTES_IN_FLIGHT)");
    expect((await send(port, { path: "/healthz" })).status).toBe(200);
    a.socket.destroy();
    b.socket.destroy();
    await untilGauge(port, "admission_in_use", "MAX_BODY_BYTES_IN_FLIGHT", 0);
    const accepted = await send(port, { path: "/v1/component/ram?verbose=false", body: { units: 2 } });
    expect(accepted.status).toBe(200);
  });

  it("a body that stops arriving gets 408 naming BODY_TIMEOUT_MS and its connection closed", async () => {
    const { port } = await server({ BODY_TIMEOUT_MS: 200 });
    const stalled = stalledUpload(port, 4096, 100);
    const answer = await stalled.closed;
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain("BODY_TIMEOUT_MS");
    expect(await gauge(port, "admission_in_use", "MAX_BODY_BYTES_IN_FLIGHT")).toBe(0);
  });

  it("a client that writes its whole oversized body before reading still receives the 413 JSON", async () => {
    const { port } = await server({});
    const body = Buffer.alloc(3 * 8 * 1024 * 1024, 0x20);
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    const errors: string[] = [];
    socket.on("error", (error: NodeJS.ErrnoException) => errors.push(String(error.code)));
    socket.write(
      `POST /v1/server/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    // Not reading until the whole body is written, as Python's urllib and requests do.
    socket.pause();
    await new Promise<void>((resolve) => socket.write(body, () => resolve()));
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.resume();
    socket.end();
    await new Promise((resolve) => socket.on("close", resolve));
    expect(errors).toEqual([]);
    const text = Buffer.concat(chunks).toString("utf8");
    expect(text).toMatch(/^HTTP\/1\.1 413 /);
    expect(JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4))).toEqual({
      detail: `the request body exceeds ${8 * 1024 * 1024} bytes (MAX_BODY_BYTES)`,
    });
  });
});
