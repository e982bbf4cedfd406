import type { IncomingMessage } from "node:http";

/**
 * A request body read in full, or why it was not: past MAX_BODY_BYTES, not uploaded within
 * BODY_TIMEOUT_MS, or no room left in the budget of bodies in flight (MAX_BODY_BYTES_IN_FLIGHT).
 */
export type BodyOutcome = Buffer | "too large" | "timed out" | "no room";

interface BodyBounds {
  /** Largest body (MAX_BODY_BYTES). */
  readonly maxBytes: number;
  /** Time to upload the whole body, from the request's headers on (BODY_TIMEOUT_MS). */
  readonly timeoutMs: number;
  /**
   * Reserves bytes of the budget shared by the bodies of all requests; false when there is no
   * room. What it reserves is given back by its owner when the request ends.
   */
  readonly reserve: (bytes: number) => boolean;
}

/**
 * Bytes of a refused body read and dropped after its refusal, so that a client that sends its
 * whole body before reading (Python's urllib and requests do) still gets the answer: closing
 * the connection while it writes would reset it before it reads. Past this (or the upload time),
 * the connection is closed.
 */
const DISCARDED_BYTES_AFTER_REFUSAL = 64 * 1024 * 1024;

/** The body of a request that has none. */
const NO_BODY: Buffer = Buffer.alloc(0);

/**
 * Reads a request body within its bounds. A refused body is not kept: the rest is read and
 * dropped (within DISCARDED_BYTES_AFTER_REFUSAL and the upload time), so memory stays bounded
 * whatever the client sends and the refusal reaches clients that read only once they have sent.
 */
export function readBody(request: IncomingMessage, bounds: BodyBounds): Promise<BodyOutcome> {
  if (!hasBody(request)) return Promise.resolve(NO_BODY);
  return new Promise((resolve, reject) => receiveBody(request, bounds, resolve, reject));
}

/**
 * HTTP/1.1 frames a request body by Content-Length or Transfer-Encoding (RFC 9112 §6.3): without
 * either (a GET), or with a length of 0, there is none to wait for. node:http discards the empty
 * stream when the answer ends.
 */
function hasBody(request: IncomingMessage): boolean {
  const length = request.headers["content-length"];
  return !(request.headers["transfer-encoding"] === undefined && (length === undefined || length === "0"));
}

/** The body's bytes as they arrive, each refusal settled the moment it is known. */
function receiveBody(
  request: IncomingMessage,
  { maxBytes, timeoutMs, reserve }: BodyBounds,
  resolve: (outcome: BodyOutcome) => void,
  reject: (error: unknown) => void,
): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let outcome: BodyOutcome | null = null;
  let discarded = 0;
  const timer = setTimeout(() => {
    if (outcome === null) settle("timed out");
    // A refused body still arriving past the upload time: the connection goes.
    else request.socket.destroy();
  }, timeoutMs);
  const finish = () => clearTimeout(timer);

  /** The outcome is known: a refusal keeps reading (and dropping) the rest, within bounds. */
  function settle(result: BodyOutcome) {
    outcome = result;
    chunks.length = 0;
    if (!Buffer.isBuffer(result) && result !== "timed out") request.resume();
    resolve(result);
  }

  const declared = Number(request.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) settle("too large");
  else if (Number.isFinite(declared) && declared > 0 && !reserve(declared)) settle("no room");
  const reservedUpFront = Number.isFinite(declared);

  request.on("data", (chunk: Buffer) => {
    if (outcome !== null) {
      discarded += chunk.length;
      if (discarded > DISCARDED_BYTES_AFTER_REFUSAL) request.socket.destroy();
      return;
    }
    size += chunk.length;
    if (size > maxBytes) return settle("too large");
    // A body without content-length (chunked) reserves its bytes as they come.
    if (!reservedUpFront && !reserve(chunk.length)) return settle("no room");
    chunks.push(chunk);
  });
  request.once("end", () => {
    finish();
    if (outcome === null) {
      outcome = Buffer.concat(chunks);
      resolve(outcome);
    }
  });
  request.once("close", finish);
  request.once("error", (error) => {
    finish();
    reject(error);
  });
  request.once("aborted", () => {
    finish();
    reject(new Error("the client disconnected"));
  });
}
