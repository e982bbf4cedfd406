import { createWriteStream } from "node:fs";
import { FileRefusal } from "../../service/fileEvaluation.js";
import { EMPTY_FILE } from "../../support/namedFiles.js";
import { type LineBounds, receivedLineCounter } from "./uploadLines.js";

/*
 * A file received as it arrives, to the run's place: its bytes counted against the page's bound,
 * its lines counted as they arrive (uploadLines.ts: a gzip's in its inflated text), and its pace —
 * a client that sends less than the minimum in a window is refused, so that slow clients cannot
 * hold the page's slots. The receiving stops as soon as its client leaves.
 */

/** The bounds of a file's upload (FileEvaluationBounds, src/service/fileEvaluation.ts). */
export interface UploadBounds extends LineBounds {
  readonly maxBytes: number;
  readonly minUploadBytes: number;
  readonly uploadWindowMs: number;
}

/** The refusal of an upload slower than the page's pace. */
export function slowUploadRefusal({ minUploadBytes, uploadWindowMs }: UploadBounds): FileRefusal {
  return new FileRefusal(
    408,
    `the upload sent less than ${minUploadBytes / 1024} KiB in ${uploadWindowMs / 1000} s (the page's bound): send the file again from a faster connection`,
  );
}

/**
 * The upload's pace: `stalled` rejects once a window (the first from the request's start) has
 * received fewer than the minimum bytes; `received` counts them.
 */
function uploadPace(bounds: UploadBounds) {
  let inWindow = 0;
  let refuse: (error: FileRefusal) => void = () => {};
  const stalled = new Promise<never>((_, reject) => {
    refuse = reject;
  });
  // Only raced against the next chunk: never unhandled once the upload is over.
  stalled.catch(() => {});
  const timer = setInterval(() => {
    if (inWindow < bounds.minUploadBytes) refuse(slowUploadRefusal(bounds));
    inWindow = 0;
  }, bounds.uploadWindowMs);
  return {
    stalled,
    received: (bytes: number) => {
      inWindow += bytes;
    },
    stop: () => clearInterval(timer),
  };
}

/** Rejects with the signal's reason once it aborts (the client gone); never settles otherwise. */
function abortion(signal: AbortSignal): Promise<never> {
  const aborted = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
  aborted.catch(() => {});
  return aborted;
}

/**
 * Writes the body to `path` within the bounds; a FileRefusal past one (413 bytes, lines or a
 * gzip's inflation, 408 a pace below the minimum, 415 a ZIP archive named as another file, 422 an empty file or a gzip
 * damaged or with bytes after its end). Stops as soon as `signal` aborts (its client gone),
 * rejecting with its reason. The bytes written.
 */
export async function receive(
  body: AsyncIterable<Uint8Array>,
  path: string,
  bounds: UploadBounds,
  signal: AbortSignal = new AbortController().signal,
): Promise<number> {
  const out = createWriteStream(path, { flags: "wx", mode: 0o600 });
  const lines = receivedLineCounter(bounds, /\.(xlsx|zip)$/i.test(path));
  const pace = uploadPace(bounds);
  const gone = abortion(signal);
  const chunks = body[Symbol.asyncIterator]();
  let bytes = 0;
  let failed: Error | null = null;
  out.on("error", (error) => {
    failed = error;
    out.emit("drain");
  });
  try {
    for (;;) {
      const next = await Promise.race([chunks.next(), pace.stalled, gone]);
      if (next.done === true) break;
      const chunk = next.value;
      if (failed !== null) throw failed;
      bytes += chunk.byteLength;
      pace.received(chunk.byteLength);
      if (bytes > bounds.maxBytes) {
        throw new FileRefusal(
          413,
          `the file exceeds ${bounds.maxBytes / 1024 / 1024} MiB (the page's bound)`,
        );
      }
      await Promise.race([lines.feed(chunk), gone]);
      if (!out.write(chunk)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
    }
    if (bytes === 0) throw new FileRefusal(422, EMPTY_FILE);
    await Promise.race([lines.end(), gone]);
    return bytes;
  } catch (error) {
    lines.fail();
    // A stalled upload's next chunk is still awaited (its connection is closed with the refusal);
    // any other refusal stops reading here, its rest dropped by the route.
    const stalled = error instanceof FileRefusal && error.status === 408;
    if (!stalled && !signal.aborted) await chunks.return?.();
    throw error;
  } finally {
    pace.stop();
    await new Promise<void>((resolve) => out.end(() => resolve()));
  }
}
