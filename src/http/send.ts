import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { chooseEncoding, compressor, isCompressible } from "./compression.js";
import type { Reply } from "./reply.js";
import type { TurnWrites } from "./turnBatching.js";

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
  turnWrites: TurnWrites,
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
    await turnWrites.queue(write);
    return;
  }
  const source = Readable.from(
    typeof body === "string" ? [Buffer.from(body)] : body instanceof Uint8Array ? [body] : body,
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
