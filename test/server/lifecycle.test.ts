/**
 * The process's life through a real process: a wrong configuration or a port in use give one
 * clear line and a non-zero exit; SIGTERM stops accepting, lets the requests already received
 * finish and exits, within SHUTDOWN_TIMEOUT_MS whatever the clients do. Every wait is for a line
 * the process prints or for its exit.
 */
import { createServer, type Server } from "node:net";
import { describe, expect, it } from "vitest";
import { embeddedGwpOf, portOf, rawClient, requestInFlight, serviceStarter } from "../support/process.js";

const service = serviceStarter();

const LISTENING = /^listening on http:\/\//;
const BODY = JSON.stringify({ configuration: { cpu: { units: 2, name: "Intel Xeon Gold 6134" } } });

function occupiedPort(): Promise<Server> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
}

describe("configuration errors", () => {
  // The configuration's checks and words are loadConfig's (test/server/config.test.ts, several
  // variables on one line among them); the process adds its exit code and the one line on stderr.
  it("PORT=abc: one line naming PORT, exit code 2", async () => {
    const process = service({ PORT: "abc" });
    expect(await process.exited).toEqual({ code: 2, signal: null });
    expect(process.stderrLines.filter((l) => l.trim() !== "")).toEqual([
      'invalid configuration: PORT="abc" must be a whole number',
    ]);
  }, 60_000);

  it("port in use (WORKERS=1): one line, exit code 1, no restart loop", async () => {
    const occupied = await occupiedPort();
    try {
      const port = (occupied.address() as { port: number }).port;
      const process = service({ PORT: String(port), WORKERS: "1" });
      expect((await process.exited).code).toBe(1);
      expect(process.errors).toEqual([
        `cannot listen on 127.0.0.1:${port}: the port is already in use (PORT=${port})`,
      ]);
    } finally {
      occupied.close();
    }
  }, 60_000);

  // One start of a cluster for both (three of the service's: the primary's data, then each
  // worker's): the failures are logged at error and above, so LOG_LEVEL=error leaves them all.
  it("port in use (WORKERS=2): one line, exit code 1, no restart loop; the process's lines are JSON log lines at LOG_LEVEL (at error, the primary's info lines are left out)", async () => {
    const occupied = await occupiedPort();
    try {
      const port = (occupied.address() as { port: number }).port;
      const process = service({ PORT: String(port), WORKERS: "2", LOG_LEVEL: "error" });
      expect((await process.exited).code).toBe(1);
      expect(process.errors).toEqual([
        `cannot listen on 127.0.0.1:${port}: the port is already in use (PORT=${port})`,
      ]);
      expect(process.records.map(({ level, msg }) => ({ level, msg }))).toEqual([
        { level: 60, msg: `cannot listen on 127.0.0.1:${port}: the port is already in use (PORT=${port})` },
      ]);
      expect(process.lines).toHaveLength(1);
    } finally {
      occupied.close();
    }
  }, 60_000);
});

describe("SIGTERM", () => {
  it("reaches the service through `npm start` (which execs node)", async () => {
    const process = service({}, ["npm", "start", "--silent"]);
    await process.waitFor(LISTENING);
    process.child.kill("SIGTERM");
    await process.waitFor(/^SIGTERM received: finishing 0 request\(s\) in flight/);
    expect((await process.exited).code).toBe(0);
  }, 120_000);

  // Its listening line is the one of a process given HOST (startService sets 127.0.0.1).
  it("says HOST when it is set; finishes a request already received, refuses new connections, then exits 0", async () => {
    const process = service({});
    const [line] = await process.waitFor(LISTENING);
    expect(line).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+;/);
    const port = portOf(line);
    // The start-up line is a JSON log line: its text in `msg`, the bound port also as a field.
    expect(process.records.find((record) => LISTENING.test(record.msg))).toMatchObject({ level: 30, port });
    // Headers and part of the body.
    const client = await requestInFlight(port, "/v1/server/?verbose=false", BODY.length);
    client.send(BODY.slice(0, 10));
    // An idle connection, closed by the shutdown.
    const idle = await rawClient(port);
    process.child.kill("SIGTERM");
    await process.waitFor(/^SIGTERM received: finishing 1 request\(s\) in flight/);
    await expect(idle.answer).resolves.toBe("");
    await expect(rawClient(port)).rejects.toThrow(/ECONNREFUSED/);
    client.send(BODY.slice(10));
    const answer = await client.answer;
    expect(answer).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 OK\r\n/);
    expect(answer.toLowerCase()).toContain("connection: close");
    expect(embeddedGwpOf(answer)).toBeGreaterThan(0);
    expect(await process.exited).toEqual({ code: 0, signal: null });
  }, 60_000);

  it("exits at the SHUTDOWN_TIMEOUT_MS deadline when a client never finishes its request", async () => {
    const process = service({ SHUTDOWN_TIMEOUT_MS: "200" });
    const port = portOf((await process.waitFor(LISTENING))[0]);
    const client = await requestInFlight(port, "/v1/server/", 1000);
    client.send("{");
    process.child.kill("SIGTERM");
    await process.waitFor(/^SIGTERM received: finishing 1 request\(s\) in flight, exiting within 200 ms/);
    expect(await process.exited).toEqual({ code: 1, signal: null });
    expect(
      process.lines.some((l) => /shutdown deadline of 200 ms reached \(SHUTDOWN_TIMEOUT_MS\)/.test(l)),
    ).toBe(true);
    expect(await client.answer).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\n$/);
  }, 60_000);
});

describe("SIGTERM drain window (SHUTDOWN_DRAIN_MS)", () => {
  it("keeps accepting while /readyz answers 503 stopping; a second signal ends the window and the process exits 0", async () => {
    const process = service({ SHUTDOWN_DRAIN_MS: "600000" });
    const port = portOf((await process.waitFor(LISTENING))[0]);
    process.child.kill("SIGTERM");
    await process.waitFor(
      /^SIGTERM received: not ready any more; still accepting requests for 600000 ms \(SHUTDOWN_DRAIN_MS\)/,
    );
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: "stopping" });
    // New requests are still served, each closing its connection.
    const answer = await fetch(`http://127.0.0.1:${port}/v1/server/?verbose=false`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: BODY,
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("connection")).toBe("close");
    expect((await answer.json()).impacts.gwp.embedded.value).toBeGreaterThan(0);
    process.child.kill("SIGTERM");
    await process.waitFor(/^SIGTERM received: finishing 0 request\(s\) in flight/);
    expect(await process.exited).toEqual({ code: 0, signal: null });
  }, 60_000);
});

describe("the listening line without HOST; log lines (written in blocks, src/support/log.ts)", () => {
  it("says the address actually bound: every interface without HOST, not loopback; a request's line reaches stdout while the service keeps running, and the last lines at exit", async () => {
    const process = service({ HOST: "", SHUTDOWN_DRAIN_MS: "0" });
    const [line] = await process.waitFor(LISTENING);
    expect(line).toMatch(/^listening on http:\/\/(\[::\]|0\.0\.0\.0):\d+;/);
    // Every interface includes the loopback the requests below are sent to.
    const port = portOf(line);
    // One request: far less than a block, so only the periodic flush writes its line.
    const first = await fetch(`http://127.0.0.1:${port}/healthz`, {
      headers: { "x-request-id": "flushed-1" },
    });
    expect(first.status).toBe(200);
    await process.waitFor(/^request$/);
    expect(process.records.find((record) => record.requestId === "flushed-1")).toMatchObject({
      msg: "request",
      path: "/healthz",
      status: 200,
    });
    // A line logged just before the signal: written when the process exits, not lost.
    await (await fetch(`http://127.0.0.1:${port}/healthz`, { headers: { "x-request-id": "last-2" } })).text();
    process.child.kill("SIGTERM");
    expect(await process.exited).toEqual({ code: 0, signal: null });
    expect(process.records.some((record) => record.requestId === "last-2")).toBe(true);
  }, 60_000);
});
