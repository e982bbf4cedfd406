import type { IncomingMessage } from "node:http";

/** A request body read in full, or the news that it is past the limit. */
export type BodyOutcome = Buffer | "too large";

/**
 * Reads a request body of at most `maxBytes`. Past the limit (declared by content-length or
 * counted while reading) nothing more is kept: the rest is read and discarded, so the socket
 * stays usable to answer 413 and memory stays bounded whatever the client sends.
 */
export function readBody(request: IncomingMessage, maxBytes: number): Promise<BodyOutcome> {
  return new Promise((resolve, reject) => {
    const declared = Number(request.headers["content-length"]);
    if (Number.isFinite(declared) && declared > maxBytes) {
      request.resume();
      resolve("too large");
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    request.on("data", (chunk: Buffer) => {
      if (tooLarge) return;
      size += chunk.length;
      if (size > maxBytes) {
        tooLarge = true;
        chunks.length = 0;
        resolve("too large");
        return;
      }
      chunks.push(chunk);
    });
    request.once("end", () => {
      if (!tooLarge) resolve(Buffer.concat(chunks));
    });
    request.once("error", reject);
    request.once("aborted", () => reject(new Error("the client disconnected")));
  });
}
