/**
 * Reading a request body (src/http/limits/requestBody.ts): a request that HTTP/1.1 frames without a body (no
 * Content-Length nor Transfer-Encoding, or a length of 0) has an empty one, without waiting.
 */
import type { IncomingMessage } from "node:http";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { readBody } from "../../src/http/limits/requestBody.js";

/** A request whose stream must not be read (reading it fails the test). */
function unreadRequest(headers: Record<string, string | undefined>): IncomingMessage {
  const fail = () => {
    throw new Error("the body was read");
  };
  return { headers, on: fail, once: fail, resume: fail } as unknown as IncomingMessage;
}

const bounds = {
  maxBytes: 1024,
  timeoutMs: 1000,
  pace: { minBytes: 1, windowMs: 1000 },
  account: {
    take: () => {
      throw new Error("bytes taken for a request without a body");
    },
    release: () => {},
  },
};

/** An account with room for every byte. */
const roomy = { take: () => null, release: () => {} };

describe("readBody", () => {
  it("answers an empty body at once for a request framed without one", async () => {
    for (const headers of [{}, { "content-length": "0" }, { accept: "application/json" }]) {
      const body = await readBody(unreadRequest(headers), bounds);
      expect(Buffer.isBuffer(body) && body.length, JSON.stringify(headers)).toBe(0);
    }
  });

  it("reads a request with a length or a transfer coding", async () => {
    const framed: Record<string, string>[] = [{ "content-length": "3" }, { "transfer-encoding": "chunked" }];
    for (const headers of framed) {
      const request = Object.assign(new PassThrough(), { headers }) as unknown as IncomingMessage;
      const reading = readBody(request, { ...bounds, account: roomy });
      (request as unknown as PassThrough).end("abc");
      const body = await reading;
      expect(Buffer.isBuffer(body) && body.toString(), JSON.stringify(headers)).toBe("abc");
    }
  });
});
