/**
 * `WORKERS=N` runs N worker processes sharing the port (node:cluster). The primary replaces a
 * worker that dies (with back-off), gives up with a clear message when they keep dying, and on
 * SIGTERM forwards the signal and waits for its workers, which finish their requests in flight.
 * Every wait is for a line the processes print or for an exit, never for a duration.
 */
import { readFileSync } from "node:fs";
import { request } from "node:http";
import { describe, expect, it } from "vitest";
import { embeddedGwpOf, portOf, requestInFlight, serviceStarter } from "../support/process.js";

const service = serviceStarter();

function killQuietly(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
}

const WORKER_LISTENING = /^listening on http:\/\/.* \(worker (\d+)\)/;

function workerPids(lines: readonly string[]): number[] {
  return lines.flatMap((line) => {
    const match = WORKER_LISTENING.exec(line);
    return match ? [Number(match[1])] : [];
  });
}

function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name (in parentheses): state, ppid, …
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
}

/**
 * One GET on a new connection: its status, or the error that ended it. A connection neither
 * answered nor closed is reported as `hung` after a long while (a hang detector, not a timing).
 */
function newConnectionGet(port: number): Promise<string> {
  return new Promise((resolve) => {
    const call = request({ host: "127.0.0.1", port, path: "/healthz", agent: false }, (response) => {
      response.resume();
      response.on("end", () => resolve(String(response.statusCode)));
      response.on("error", (error: NodeJS.ErrnoException) => resolve(String(error.code)));
    });
    call.setTimeout(30_000, () => call.destroy(Object.assign(new Error("hung"), { code: "hung" })));
    call.on("error", (error: NodeJS.ErrnoException) => resolve(String(error.code ?? error.message)));
    call.end();
  });
}

/*
 * One cluster for what a running one shows, in the order it lives it: its workers on one port, each
 * killed under load and replaced (a child of the primary), then SIGTERM with a request in flight.
 * Each cluster's start is three of the service's (the primary's data, then each worker's).
 */
describe("WORKERS: a cluster's life", () => {
  it("runs N workers on one port; each worker killed under load is replaced and no new connection is left hanging by the dead worker; on SIGTERM in-flight requests finish", async () => {
    const primary = service({ WORKERS: "2" });
    const lines = await primary.waitFor(WORKER_LISTENING, 2);
    const pids = workerPids(lines);
    expect(new Set(pids).size).toBe(2);
    for (const pid of pids) expect(parentOf(pid)).toBe(primary.child.pid);
    const port = portOf(lines[0]);
    expect(portOf(lines[1])).toBe(port);
    const response = await fetch(`http://127.0.0.1:${port}/v1/utils/case_type`);
    expect(await response.json()).toEqual(["blade", "rack"]);

    // Workers killed under load: every new connection is answered or closed.
    const outcomes: string[] = [];
    let running = true;
    const clients = Array.from({ length: 4 }, async () => {
      while (running) outcomes.push(await newConnectionGet(port));
    });
    const killed = new Set<number>();
    try {
      for (let kill = 0; kill < 3; kill++) {
        const listening = workerPids(await primary.waitFor(WORKER_LISTENING, 2 + kill));
        // A worker that dies is replaced, by a child of the primary.
        if (kill > 0) expect(parentOf(listening[1 + kill])).toBe(primary.child.pid);
        const alive = listening.filter((pid) => !killed.has(pid));
        const before = outcomes.length;
        // Under load: requests are being answered when the worker dies.
        while (outcomes.length < before + 20) await newConnectionGet(port);
        const victim = alive[kill % alive.length];
        killed.add(victim);
        process.kill(victim, "SIGKILL");
        await primary.waitFor(
          new RegExp(`^worker ${victim} exited \\(SIGKILL\\); starting another in \\d+ ms`),
        );
        await primary.waitFor(/^worker \d+ exited \(SIGKILL\)/, kill + 1);
      }
      const replaced = workerPids(await primary.waitFor(WORKER_LISTENING, 5));
      expect(parentOf(replaced[4])).toBe(primary.child.pid);
      const before = outcomes.length;
      while (outcomes.length < before + 20) await newConnectionGet(port);
    } finally {
      running = false;
      await Promise.all(clients);
    }
    expect(outcomes).not.toContain("hung");
    expect(outcomes.filter((outcome) => outcome === "200").length).toBeGreaterThan(60);

    // A request in flight (headers received, body pending) when the primary gets SIGTERM.
    const body = JSON.stringify({ units: 2, capacity: 32 });
    const client = await requestInFlight(port, "/v1/component/ram?verbose=false", body.length);
    primary.child.kill("SIGTERM");
    await primary.waitFor(/^SIGTERM received: stopping 2 worker\(s\)/);
    await primary.waitFor(/^SIGTERM received: finishing 1 request\(s\) in flight/);
    client.send(body);
    const answer = await client.answer;
    expect(answer).toMatch(/HTTP\/1\.1 200 OK\r\n/);
    expect(embeddedGwpOf(answer)).toBeGreaterThan(0);
    expect(await primary.exited).toEqual({ code: 0, signal: null });
  }, 300_000);
});

describe("WORKERS: workers that keep dying", () => {
  it("gives up with a clear message when workers keep dying", async () => {
    const primary = service({ WORKERS: "2" });
    // Kill the newest worker each time one is started: the sixth death within a minute ends it.
    const STARTED = /^worker (\d+) started$/;
    for (let count = 2; ; count++) {
      const lines = await primary.waitFor(STARTED, count).catch(() => []);
      if (lines.length < count) break;
      killQuietly(Number(STARTED.exec(lines[count - 1])?.[1]));
      if (count > 10) throw new Error("the primary never gave up");
    }
    const { code } = await primary.exited;
    expect(code).toBe(1);
    expect(
      primary.errors.some((l) =>
        /^workers keep dying \(6 within 60 s, the last one: SIGKILL\); giving up$/.test(l),
      ),
    ).toBe(true);
  }, 180_000);
});
