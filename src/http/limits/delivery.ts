import type { IncomingMessage, ServerResponse } from "node:http";
import type { Reply } from "../reply.js";

/*
 * How an answer leaves while its client is slow: a reader that stops reading is disconnected
 * after BODY_TIMEOUT_MS (`timeoutMs`), an answer sent before the end of its request's body is
 * ended only once that body is read.
 */

/**
 * A client that reads nothing of its answer for BODY_TIMEOUT_MS is disconnected: the answer
 * (a streamed fleet's result, a batch) and the budgets it holds are given back, instead of being
 * held as long as the client keeps its connection open. A silent connection ends at the socket's
 * timeout; an answer whose writes wait (the client's buffers full) ends once it has waited
 * BODY_TIMEOUT_MS, checked every quarter of it, even when the client keeps sending its body
 * (its arriving bytes keep the socket from ever being idle, so the socket's timeout alone would
 * never fire for a batch's client).
 */
export function disconnectIfNotRead(response: ServerResponse, streamed: boolean, timeoutMs: number): void {
  const socket = response.socket;
  if (!socket) return;
  const stalled = () => {
    if (!response.writableFinished) response.destroy();
  };
  socket.setTimeout(timeoutMs, stalled);
  // An answer in memory is written at once: only streamed ones wait on their reader.
  const check = streamed ? waitingWrites(response, stalled, timeoutMs) : undefined;
  // One listener (a streamed answer's pipeline adds several: node warns past ten).
  response.once("close", () => {
    socket.removeListener("timeout", stalled);
    clearInterval(check);
  });
}

/** Calls `stalled` once the answer's writes have waited `timeoutMs` (checked every quarter of it). */
function waitingWrites(response: ServerResponse, stalled: () => void, timeoutMs: number): NodeJS.Timeout {
  let waitingSince: number | null = null;
  const check = setInterval(
    () => {
      if (!response.writableNeedDrain) {
        waitingSince = null;
        return;
      }
      const now = performance.now();
      waitingSince ??= now;
      if (now - waitingSince >= timeoutMs) stalled();
    },
    Math.max(1, Math.floor(timeoutMs / 4)),
  );
  check.unref();
  return check;
}

/**
 * Bytes of a refused body read and dropped while its answer waits (a refusal of the batch route,
 * whose body no readBody bounds), the body's upload time bounding it as well: past either, the
 * connection goes.
 */
const DROPPED_BYTES_WHILE_ANSWERING = 64 * 1024 * 1024;

/**
 * An answer sent while the request's body is still arriving (a refusal: 413, 503): written at
 * once, but ended only once the rest of the body is read and dropped, at most
 * DROPPED_BYTES_WHILE_ANSWERING within `timeoutMs` (a REST or GraphQL body also within the bounds
 * of readBody). Ending it sooner lets node close the connection with the body unread — always so
 * when the client sent `Connection: close` —, and the kernel then resets it, dropping the
 * answer before a client that reads only once it has sent (Python's urllib) reads it.
 */
export async function sendWhileBodyArrives(
  request: IncomingMessage,
  response: ServerResponse,
  reply: Reply,
  timeoutMs: number,
) {
  const body = reply.body as string | Uint8Array;
  response.writeHead(reply.status, {
    ...reply.headers,
    "content-length": String(typeof body === "string" ? Buffer.byteLength(body) : body.byteLength),
  });
  response.write(body);
  if (!request.complete && !request.destroyed) {
    let dropped = 0;
    const timer = setTimeout(() => request.socket?.destroy(), timeoutMs);
    timer.unref();
    request.on("data", (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > DROPPED_BYTES_WHILE_ANSWERING) request.socket?.destroy();
    });
    request.resume();
    await new Promise<void>((resolve) => {
      request.once("end", resolve);
      request.once("close", resolve);
    });
    clearTimeout(timer);
  }
  response.end();
}

/**
 * A streamed answer (a batch interrupted) ended before its body: node reads and drops the rest;
 * a client still sending after BODY_TIMEOUT_MS is disconnected.
 */
export function closeOnceBodyIsRead(request: IncomingMessage, timeoutMs: number): void {
  const timer = setTimeout(() => request.socket?.destroy(), timeoutMs);
  timer.unref();
  const done = () => clearTimeout(timer);
  request.once("end", done);
  request.once("close", done);
}
