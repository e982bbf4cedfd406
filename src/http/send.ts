import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { setImmediate as nextMacrotask } from "node:timers/promises";
import { chooseEncoding, compressor, isCompressible } from "./compression.js";
import type { Reply } from "./reply.js";
import type { TurnBatch } from "./turnBatching.js";

/*
 * Writes a reply, compressed (br or gzip) when the client accepts it, the content is text and
 * it is not small. Bodies that are streams (GraphQL answers) are compressed as they stream.
 */

function appendVary(headers: Record<string, string>, value: string): void {
  const current = headers.vary;
  headers.vary = current ? `${current}, ${value}` : value;
}

function byteLength(body: string | Uint8Array): number {
  return typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
}

export async function send(
  request: IncomingMessage,
  response: ServerResponse,
  reply: Reply,
  compressionMinBytes: number,
  turnBatch: TurnBatch,
): Promise<void> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(reply.headers)) headers[name.toLowerCase()] = value;
  const body = reply.body;
  const noBody = request.method === "HEAD" || body === null || reply.status === 204 || reply.status === 304;
  const known = typeof body === "string" || body instanceof Uint8Array ? byteLength(body) : null;
  const declared = headers["content-length"] === undefined ? null : Number(headers["content-length"]);
  const size = known ?? declared;
  const compressible = headers["content-encoding"] === undefined && isCompressible(headers["content-type"]);
  if (compressible) appendVary(headers, "Accept-Encoding");
  const encoding =
    compressible && !noBody && (size === null || size >= compressionMinBytes)
      ? chooseEncoding(request.headers["accept-encoding"])
      : null;

  if (noBody || body === null) {
    if (known !== null) headers["content-length"] = String(known);
    response.writeHead(reply.status, headers);
    response.end();
    return;
  }
  if (encoding === null && (typeof body === "string" || body instanceof Uint8Array)) {
    // A body already in memory is written whole, with the other answers of its turn
    // (turnBatching.ts): a stream pipeline (with its own AbortController, aborted when it
    // finishes) cost more than the write of a REST answer.
    headers["content-length"] = String(known);
    const write = () => {
      response.writeHead(reply.status, headers);
      response.end(body);
    };
    await turnBatch.queue(write);
    return;
  }
  // One chunk read ahead, not Readable.from's 16: a reader that stops reading leaves its answer
  // holding its socket's buffers and one chunk, not sixteen.
  const source = Readable.from(
    typeof body === "string" ? [Buffer.from(body)] : body instanceof Uint8Array ? [body] : coalesced(body),
    { highWaterMark: 1 },
  );
  if (encoding === null) {
    if (known !== null) headers["content-length"] = String(known);
    response.writeHead(reply.status, headers);
    await pipeline(source, response).catch(ignoreClosedByClient);
    return;
  }
  delete headers["content-length"];
  headers["content-encoding"] = encoding;
  response.writeHead(reply.status, headers);
  await pipeline(source, compressor(encoding), response).catch(ignoreClosedByClient);
}

/** A client that goes away mid-answer ends the pipeline; nothing else to do. */
function ignoreClosedByClient(error: NodeJS.ErrnoException): void {
  if (error.code === "ERR_STREAM_PREMATURE_CLOSE" || error.code === "EPIPE" || error.code === "ECONNRESET")
    return;
  throw error;
}

/** Bytes gathered at most into one write of a streamed answer. */
const LARGEST_WRITE = 64 * 1024;

/** Marks the end of a turn of the event loop, in a race with the next chunk. */
const TURN_ENDED: unique symbol = Symbol("turn ended");

/**
 * The chunks of a streamed answer, those ready within one turn of the event loop gathered into
 * one: an incremental GraphQL answer comes in small pieces (a part's boundary, headers and body,
 * for each few items of a `@stream`), and one socket write each cost more than the items.
 */
async function* coalesced(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const iterator = chunks[Symbol.asyncIterator]();
  let next = iterator.next();
  let finished = false;
  try {
    yield* gatheredChunks();
  } finally {
    // The reader left early (client gone): the source stops too (not awaited: a read may be pending).
    if (!finished) iterator.return?.().catch(() => {});
  }
  async function* gatheredChunks(): AsyncGenerator<Uint8Array> {
    for (;;) {
      const first = await next;
      if (first.done) {
        finished = true;
        return;
      }
      const gathered = [first.value];
      let size = first.value.byteLength;
      let ended = false;
      const turn = nextMacrotask().then((): typeof TURN_ENDED => TURN_ENDED);
      while (size < LARGEST_WRITE) {
        next = iterator.next();
        const ready = await Promise.race([next, turn]);
        if (ready === TURN_ENDED) break;
        if (ready.done) {
          ended = finished = true;
          break;
        }
        gathered.push(ready.value);
        size += ready.value.byteLength;
      }
      if (size >= LARGEST_WRITE) next = iterator.next();
      yield gathered.length === 1 ? gathered[0] : Buffer.concat(gathered, size);
      if (ended) return;
    }
  }
}
