import type { IncomingMessage } from "node:http";
import type { BodyAccount, BodyRoomRefusal } from "./bodyBytes.js";

/**
 * A request body read in full, or why it was not: past MAX_BODY_BYTES, not uploaded within
 * BODY_TIMEOUT_MS, sent slower than its pace (BODY_MIN_BYTES_PER_WINDOW in every
 * BODY_RATE_WINDOW_MS), or no room for its bytes as they arrive (the bound that had none:
 * MAX_BODY_BYTES_IN_FLIGHT, or the client's share MAX_BODY_BYTES_PER_CLIENT).
 */
export type BodyOutcome =
  | Buffer
  | "too large"
  | "timed out"
  | "too slow"
  | { readonly noRoom: BodyRoomRefusal };

/** The least a body must send while it arrives: `minBytes` in every `windowMs` from its headers on. */
export interface BodyPace {
  readonly minBytes: number;
  readonly windowMs: number;
}

interface BodyBounds {
  /** Largest body (MAX_BODY_BYTES). */
  readonly maxBytes: number;
  /** Time to upload the whole body, from the request's headers on (BODY_TIMEOUT_MS). */
  readonly timeoutMs: number;
  readonly pace: BodyPace;
  /**
   * The room its bytes take as they arrive, shared with the other bodies; what it holds is given
   * back by its owner when the request ends, or here at once when the body is refused.
   */
  readonly account: BodyAccount;
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

/**
 * Calls `tooSlow` at the end of the first window in which fewer than the pace's bytes arrived
 * (`arrived` counts them); stops with the returned function. A body whole before a window ends
 * is never judged: a small body is sent in one stretch.
 */
function watchPace({ minBytes, windowMs }: BodyPace, arrived: () => number, tooSlow: () => void) {
  let atWindowStart = 0;
  let judging: NodeJS.Immediate | undefined;
  // Judged after the loop's next poll: bytes that came while the loop was busy are counted first.
  const judge = () => {
    const now = arrived();
    if (now - atWindowStart < minBytes) tooSlow();
    atWindowStart = now;
  };
  const watch = setInterval(() => {
    judging = setImmediate(judge);
  }, windowMs);
  return () => {
    clearInterval(watch);
    clearImmediate(judging);
  };
}

/** Watches an upload's time and pace until the returned function is called. */
function watchUpload(
  { timeoutMs, pace }: Pick<BodyBounds, "timeoutMs" | "pace">,
  arrived: () => number,
  on: { timedOut: () => void; tooSlow: () => void },
): () => void {
  const timer = setTimeout(on.timedOut, timeoutMs);
  const stopWatching = watchPace(pace, arrived, on.tooSlow);
  return () => {
    clearTimeout(timer);
    stopWatching();
  };
}

/** The body's bytes as they arrive, each refusal settled the moment it is known. */
function receiveBody(
  request: IncomingMessage,
  { maxBytes, timeoutMs, pace, account }: BodyBounds,
  resolve: (outcome: BodyOutcome) => void,
  reject: (error: unknown) => void,
): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let outcome: BodyOutcome | null = null;
  let discarded = 0;
  const finish = watchUpload({ timeoutMs, pace }, () => size, {
    // A refused body still arriving past the upload time: the connection goes (where it has not
    // gone already: a request whose server or answer closed has no socket left).
    timedOut: () => (outcome === null ? settle("timed out") : request.socket?.destroy()),
    tooSlow: () => outcome === null && settle("too slow"),
  });

  /** The outcome is known: a refusal gives its bytes back and keeps reading (and dropping) the rest, within bounds. */
  function settle(result: BodyOutcome) {
    outcome = result;
    chunks.length = 0;
    if (!Buffer.isBuffer(result)) account.release();
    // A body too slow or past its time is not read on: its answer closes the connection.
    if (!Buffer.isBuffer(result) && result !== "timed out" && result !== "too slow") request.resume();
    resolve(result);
  }

  const declared = Number(request.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) settle("too large");

  request.on("data", (chunk: Buffer) => {
    if (outcome !== null) {
      discarded += chunk.length;
      if (discarded > DISCARDED_BYTES_AFTER_REFUSAL) request.socket?.destroy();
      return;
    }
    size += chunk.length;
    if (size > maxBytes) return settle("too large");
    // Its bytes take room as they come, not as the headers declare them.
    const noRoom = account.take(chunk.length);
    if (noRoom !== null) return settle({ noRoom });
    chunks.push(chunk);
  });
  onStreamEnd(request, finish, {
    whole: () => {
      if (outcome !== null) return;
      outcome = Buffer.concat(chunks);
      resolve(outcome);
    },
    failed: reject,
  });
}

/** The body's stream ended: `finish` always, then whole, or failed (an error, the client gone). */
function onStreamEnd(
  request: IncomingMessage,
  finish: () => void,
  { whole, failed }: { whole: () => void; failed: (error: unknown) => void },
): void {
  request.once("end", () => {
    finish();
    whole();
  });
  request.once("close", finish);
  request.once("error", (error) => {
    finish();
    failed(error);
  });
  request.once("aborted", () => {
    finish();
    failed(new Error("the client disconnected"));
  });
}
