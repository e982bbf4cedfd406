/**
 * The bytes of request bodies as they arrive (src/http/limits/bodyBytes.ts, requestBody.ts): a
 * body holds what it has sent, not what it declares; one client holds at most its share; a body
 * sent slower than its pace is cut; every byte is given back when the body ends, and a client
 * holding nothing is no longer tracked.
 */
import type { IncomingMessage } from "node:http";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { clientOfAddress } from "../../src/http/clientAddress.js";
import {
  BODIES_LIMIT,
  CLIENT_SHARE_LIMIT,
  createBodyBytes,
  MAX_TRACKED_CLIENTS,
} from "../../src/http/limits/bodyBytes.js";
import { readBody } from "../../src/http/limits/requestBody.js";

/** A request whose body the test writes. */
function arriving(headers: Record<string, string>): { request: IncomingMessage; stream: PassThrough } {
  const stream = new PassThrough();
  return { request: Object.assign(stream, { headers }) as unknown as IncomingMessage, stream };
}

const MiB = 1024 * 1024;

describe("bytes of bodies held, counted as they arrive", () => {
  it("a body declaring 8 MiB holds only what it has sent", async () => {
    const bodies = createBodyBytes({ budget: 16 * MiB, perClient: 16 * MiB });
    const { request, stream } = arriving({ "content-length": String(8 * MiB) });
    const account = bodies.open("127.0.0.1");
    const reading = readBody(request, {
      maxBytes: 8 * MiB,
      timeoutMs: 60_000,
      pace: { minBytes: 1, windowMs: 60_000 },
      account,
    });
    expect(bodies.admission.inUse()).toBe(0);
    await new Promise<void>((sent) => stream.write("abc", () => sent()));
    expect(bodies.admission.inUse()).toBe(3);
    expect(bodies.clients()).toBe(1);
    stream.end("def");
    const body = await reading;
    expect(Buffer.isBuffer(body) && body.toString()).toBe("abcdef");
    // Held by its request until it answers, then given back
    expect(bodies.admission.inUse()).toBe(6);
    account.release();
    expect(bodies.admission.inUse()).toBe(0);
    expect(bodies.clients()).toBe(0);
  });

  it("a body sent slower than its pace is cut, its bytes given back at once", async () => {
    const bodies = createBodyBytes({ budget: MiB, perClient: MiB });
    const { request, stream } = arriving({ "content-length": "1000" });
    const reading = readBody(request, {
      maxBytes: MiB,
      timeoutMs: 60_000,
      pace: { minBytes: 100, windowMs: 20 },
      account: bodies.open("127.0.0.1"),
    });
    stream.write("a");
    expect(await reading).toBe("too slow");
    expect(bodies.admission.inUse()).toBe(0);
    expect(bodies.clients()).toBe(0);
  });

  it("a body whole within its first window is never judged by the pace", async () => {
    const bodies = createBodyBytes({ budget: MiB, perClient: MiB });
    const { request, stream } = arriving({ "content-length": "1" });
    const reading = readBody(request, {
      maxBytes: MiB,
      timeoutMs: 60_000,
      pace: { minBytes: 1_000_000, windowMs: 10 },
      account: bodies.open("127.0.0.1"),
    });
    stream.end("a");
    const body = await reading;
    expect(Buffer.isBuffer(body) && body.toString()).toBe("a");
  });

  it("one client holds at most its share; another still finds room; past the budget, none", () => {
    const bodies = createBodyBytes({ budget: 100, perClient: 40 });
    const first = bodies.open("10.0.0.1");
    const second = bodies.open("10.0.0.1");
    expect(first.take(30)).toBeNull();
    expect(second.take(10)).toBeNull();
    expect(second.take(1)).toBe(CLIENT_SHARE_LIMIT);
    const others = ["10.0.0.2", "10.0.0.3"].map((client) => bodies.open(client));
    expect(others[0].take(40)).toBeNull();
    expect(others[1].take(20)).toBeNull();
    expect(others[1].take(1)).toBe(BODIES_LIMIT);
    expect(bodies.admission.inUse()).toBe(100);
    first.release();
    expect(second.take(30)).toBeNull();
    for (const account of [second, ...others]) account.release();
    expect(bodies.admission.inUse()).toBe(0);
    expect(bodies.clients()).toBe(0);
  });

  it(`tracks ${MAX_TRACKED_CLIENTS} clients at most, and none once their bodies end`, () => {
    const bodies = createBodyBytes({ budget: 2 * MAX_TRACKED_CLIENTS, perClient: 2 });
    const accounts = Array.from({ length: MAX_TRACKED_CLIENTS }, (_, n) => bodies.open(`client ${n}`));
    for (const account of accounts) expect(account.take(1)).toBeNull();
    expect(bodies.clients()).toBe(MAX_TRACKED_CLIENTS);
    // A tracked client takes more; a new one finds no room
    expect(accounts[0].take(1)).toBeNull();
    expect(bodies.open("one more").take(1)).toBe(BODIES_LIMIT);
    for (const account of accounts) account.release();
    expect(bodies.clients()).toBe(0);
    expect(bodies.admission.inUse()).toBe(0);
  });
});

describe("the client of an address", () => {
  it("is an IPv4 address itself, mapped or not, and an IPv6 address's /64", () => {
    expect(clientOfAddress("127.0.0.2")).toBe("127.0.0.2");
    expect(clientOfAddress("::ffff:10.1.2.3")).toBe("10.1.2.3");
    expect(clientOfAddress("2001:db8:0:1:a:b:c:d")).toBe("2001:db8:0:1::/64");
    expect(clientOfAddress("2001:db8:0:1::9")).toBe("2001:db8:0:1::/64");
    expect(clientOfAddress("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(clientOfAddress("::1")).toBe("0:0:0:0::/64");
    expect(clientOfAddress("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(clientOfAddress(undefined)).toBe("unknown");
  });
});
