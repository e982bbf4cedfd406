/**
 * Each client's share of the batch slots (MAX_BATCHES_PER_CLIENT, within MAX_CONCURRENT_BATCHES),
 * on the real server and the loopback: one address keeping batches open cannot hold every slot;
 * past its share it is answered 503 with Retry-After naming the share, while another address's
 * batches run; the slots all clients share are still bounded as a whole.
 */

import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/serviceConfig.js";
import { startTestServer, type TestServer } from "../support/httpServer.js";

const LINE = `${JSON.stringify({
  path: "/v1/cloud/instance?verbose=false&criteria=gwp",
  body: { provider: "aws", instance_type: "c5.large" },
})}\n`;

/** A batch's answer: its status, Retry-After and text (a 503's detail, or its NDJSON lines). */
interface BatchAnswer {
  readonly status: number;
  readonly retryAfter: string | undefined;
  readonly text: Promise<string>;
}

/** A batch sent from `localAddress`, its body kept open; resolves once its status and first line (or refusal) have come. */
function openBatch(port: number, localAddress: string): Promise<BatchAnswer & { readonly end: () => void }> {
  const body = new Readable({ read() {} });
  body.push(LINE);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: "127.0.0.1", port, localAddress, method: "POST", path: "/v1/batch" },
      (response) => {
        let text = "";
        const whole = new Promise<string>((done) => {
          response.on("end", () => done(text));
          response.on("error", () => done(text));
        });
        let announced = false;
        response.on("data", (chunk: Buffer) => {
          text += chunk;
          if (!announced && (text.includes("\n") || response.statusCode !== 200)) {
            announced = true;
            resolve({
              status: response.statusCode ?? 0,
              retryAfter: response.headers["retry-after"],
              text: whole,
              end: () => body.push(null),
            });
          }
        });
      },
    );
    // A refused batch's connection is closed while its body may still be open: not an error here.
    request.on("error", (error) => reject(error));
    body.pipe(request);
  });
}

/**
 * A batch sent whole from `localAddress` before a byte of its answer is read (as Python's urllib
 * sends): the answer's status line, or the error that ended the connection first (a reset).
 */
function wholeBatch(port: number, localAddress: string, body: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port, localAddress });
    socket.pause();
    let text = "";
    socket.on("error", (error) =>
      resolve(text === "" ? ((error as NodeJS.ErrnoException).code ?? "error") : text),
    );
    socket.write(
      `POST /v1/batch HTTP/1.1\r\nhost: service\r\ncontent-type: application/x-ndjson\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n`,
    );
    socket.write(body, () => {
      // Sent whole: only now is the answer read
      socket.on("data", (chunk: Buffer) => {
        text += chunk;
        if (text.includes("\r\n\r\n") && text.includes("}")) {
          resolve(text);
          socket.destroy();
        }
      });
      socket.resume();
    });
  });
}

describe("each address's share of the batch slots, at the shipped defaults", () => {
  const shipped = loadConfig({});
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ LOG_LEVEL: "warn" });
  });
  afterAll(() => server.close());

  it("the shipped share leaves slots to other addresses", () => {
    expect(shipped.MAX_BATCHES_PER_CLIENT).toBeGreaterThan(0);
    expect(shipped.MAX_BATCHES_PER_CLIENT).toBeLessThan(shipped.MAX_CONCURRENT_BATCHES);
  });

  it("one address past its share: 503 with Retry-After naming MAX_BATCHES_PER_CLIENT; another's batches run", async () => {
    const share = shipped.MAX_BATCHES_PER_CLIENT;
    const total = shipped.MAX_CONCURRENT_BATCHES;
    const first = await Promise.all(Array.from({ length: share }, () => openBatch(server.port, "127.0.0.1")));
    expect(first.map(({ status }) => status)).toEqual(Array(share).fill(200));

    const over = await openBatch(server.port, "127.0.0.1");
    expect(over.status).toBe(503);
    expect(over.retryAfter).toBe("1");
    expect(JSON.parse(await over.text).detail).toContain("MAX_BATCHES_PER_CLIENT");

    // The others' slots: another address runs the rest of them, answered line by line.
    const others = await Promise.all(
      Array.from({ length: total - share }, (_, n) => openBatch(server.port, `127.0.0.${2 + n}`)),
    );
    expect(others.map(({ status }) => status)).toEqual(Array(total - share).fill(200));

    // Every slot taken: a new address is refused by the whole bound, not its share.
    const full = await openBatch(server.port, "127.0.0.9");
    expect(full.status).toBe(503);
    expect(full.retryAfter).toBe("1");
    expect(JSON.parse(await full.text).detail).toContain("MAX_CONCURRENT_BATCHES");

    // A batch of the first address ended: its share has room again.
    first[0].end();
    const summary = (await first[0].text).trim().split("\n").at(-1) ?? "";
    expect(JSON.parse(summary)).toMatchObject({ summary: { lines: 1, ok: 1 } });
    const again = await openBatch(server.port, "127.0.0.1");
    expect(again.status).toBe(200);

    for (const batch of [...first.slice(1), ...others, again]) batch.end();
    const texts = await Promise.all([...first.slice(1), ...others, again].map(({ text }) => text));
    for (const text of texts) {
      const lines = text.trim().split("\n");
      expect(lines).toHaveLength(2);
      expect(JSON.parse(lines[1])).toMatchObject({ summary: { lines: 1, ok: 1 } });
    }
  });

  it("a client past its share sending a large batch whole before reading reads its 503, the connection not reset", async () => {
    const held = await Promise.all(
      Array.from({ length: shipped.MAX_BATCHES_PER_CLIENT }, () => openBatch(server.port, "127.0.0.20")),
    );
    expect(held.map(({ status }) => status)).toEqual(Array(shipped.MAX_BATCHES_PER_CLIENT).fill(200));
    // 8 MiB of lines: far more than the sockets' buffers hold, so an unread body would reset the connection
    const body = LINE.repeat(Math.ceil((8 * 1024 * 1024) / LINE.length));
    const refused = await wholeBatch(server.port, "127.0.0.20", body);
    expect(refused).toMatch(/^HTTP\/1\.1 503 /);
    expect(refused).toMatch(/\r\nretry-after: 1\r\n/i);
    expect(refused).toContain("MAX_BATCHES_PER_CLIENT");
    for (const batch of held) batch.end();
    await Promise.all(held.map(({ text }) => text));
  });
});
