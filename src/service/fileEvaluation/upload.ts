import { createWriteStream } from "node:fs";
import { createGunzip } from "node:zlib";
import { contentOf, MARK_BYTES, SIGNATURE_BYTES } from "../../support/fileStart.js";
import { trailingBytesRefusal, trailingOffset } from "../../support/gzipEnd.js";
import { EMPTY_FILE } from "../../support/namedFiles.js";
import { FileRefusal, ZIP_REFUSAL } from "./request.js";

/*
 * A file received as it arrives, to the run's folder: its bytes and lines counted against the
 * page's bounds (a gzip's lines inflated), and its pace — a client that sends less than the
 * minimum in a window is refused, so that slow clients cannot hold the page's slots. A gzip is
 * inflated a chunk at a time, within its bounds in bytes and in time, and stopped when the client
 * leaves: a 5 MB gzip of one 5 GiB line, its client gone after 0.5 s, held a slot 27–40 s and
 * 25–32 s of CPU, its 5 MB written to the inflater at once and inflated whole whoever waited. A
 * gzip file whose bytes go on past its last member is refused (src/support/gzipEnd.ts).
 */

/** The bounds of a file's upload (FileEvaluationBounds, src/service/fileEvaluation.ts). */
export interface UploadBounds {
  readonly maxBytes: number;
  readonly maxLines: number;
  readonly minUploadBytes: number;
  readonly uploadWindowMs: number;
  /** Bytes a gzip's text may inflate to. */
  readonly maxInflatedBytes: number;
  /** Time the upload may wait on a gzip's inflation, in all. */
  readonly inflateMs: number;
}

/** What counts the lines of what is received: fed each chunk in turn, then ended (the lines). */
interface LineCounter {
  /** Settles once the chunk is counted (a gzip's: inflated); rejects with a refusal past a bound. */
  readonly feed: (chunk: Uint8Array) => Promise<void>;
  readonly end: () => Promise<number>;
  /** Stops the counting (the upload failed or its client left). */
  readonly fail: () => void;
}

/** Counts the lines of a text, refusing past the bound. */
function lineCount(maxLines: number) {
  let lines = 0;
  return {
    count: (chunk: Uint8Array) => {
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines += 1;
      if (lines > maxLines) {
        throw new FileRefusal(
          413,
          `the file has more than ${maxLines.toLocaleString("en")} lines (the page's bound)`,
        );
      }
    },
    lines: () => lines,
  };
}

/** A text's lines, counted as it arrives. */
function textLineCounter(maxLines: number): LineCounter {
  const { count, lines } = lineCount(maxLines);
  return { feed: async (chunk) => count(chunk), end: async () => lines(), fail: () => {} };
}

/** The refusals of an inflation past its bounds. */
const inflatedPast = ({ maxInflatedBytes }: UploadBounds) =>
  new FileRefusal(
    413,
    `the file's text inflates to more than ${maxInflatedBytes / 1024 / 1024 / 1024} GiB (the page's bound)`,
  );
const inflatedTooLong = ({ inflateMs }: UploadBounds) =>
  new FileRefusal(413, `the file took more than ${inflateMs / 1000} s to inflate (the page's bound)`);

/**
 * A gzip's lines, counted in its inflated text as it is received. The body is read as it comes
 * (so that a client leaving is seen at once: a socket left unread until the inflation caught up
 * would hide its end behind the bytes before it), each chunk queued (the file's own bytes, within
 * the page's bound) and written to the inflater only once it has taken the one before, its output
 * counted as it comes: the inflater never holds more than a chunk, and stops as soon as a bound is
 * passed or the upload fails. Its bytes and the time spent inflating are bounded; bytes after its
 * last member are refused.
 */
function gzipLineCounter(bounds: UploadBounds): LineCounter {
  const { count, lines } = lineCount(bounds.maxLines);
  const { inflate, state, fail, taken } = countedInflater(bounds, count);
  const queued: Uint8Array[] = [];
  let given = 0;
  let inflatingMs = 0;
  let pumping: Promise<void> = Promise.resolve();
  const timed = async (work: Promise<void>) => {
    const started = performance.now();
    await work;
    inflatingMs += performance.now() - started;
    if (state.failure === null && inflatingMs > bounds.inflateMs) fail(inflatedTooLong(bounds));
  };
  // Ended before its input did: the bytes given after its last member are no member
  const trailing = () =>
    new FileRefusal(422, trailingBytesRefusal(trailingOffset(inflate, given) ?? inflate.bytesWritten));
  const pump = async () => {
    for (let chunk = queued.shift(); chunk !== undefined && state.failure === null; chunk = queued.shift()) {
      given += chunk.length;
      if (state.ended) return fail(trailing());
      if (!inflate.write(chunk)) await timed(taken("drain"));
    }
  };
  return {
    feed: async (chunk) => {
      if (state.failure !== null) throw state.failure;
      queued.push(chunk);
      if (queued.length === 1) pumping = pumping.then(pump);
    },
    end: async () => {
      await pumping;
      if (!state.ended && state.failure === null) {
        const finished = taken("end");
        inflate.end();
        await timed(finished);
      }
      if (state.failure !== null) throw state.failure;
      if (trailingOffset(inflate, given) !== null) throw trailing();
      return lines();
    },
    fail: () => fail(new FileRefusal(499, "the upload stopped")),
  };
}

/**
 * A gzip inflater whose output is counted (`count`, which throws past the lines' bound) and
 * bounded in bytes, its first failure kept and ending it; `taken` settles once it has taken what it
 * was written, or has stopped (ended, failed).
 */
function countedInflater(bounds: UploadBounds, count: (chunk: Uint8Array) => void) {
  const inflate = createGunzip();
  const state: { failure: unknown; ended: boolean } = { failure: null, ended: false };
  let inflated = 0;
  const fail = (error: unknown) => {
    state.failure ??= error;
    inflate.destroy();
  };
  inflate.on("data", (chunk: Buffer) => {
    inflated += chunk.length;
    if (inflated > bounds.maxInflatedBytes) return fail(inflatedPast(bounds));
    try {
      count(chunk);
    } catch (error) {
      fail(error);
    }
  });
  inflate.on("error", (error) => {
    state.failure ??= new FileRefusal(422, `the gzip file is damaged or cut short: ${error.message}`);
  });
  inflate.once("end", () => {
    state.ended = true;
  });
  const taken = (event: "drain" | "end") =>
    new Promise<void>((resolve) => {
      const done = () => {
        for (const name of [event, "end", "close"]) inflate.off(name, done);
        resolve();
      };
      for (const name of [event, "end", "close"]) inflate.once(name, done);
    });
  return { inflate, state, fail, taken };
}

/** A file whose lines are not counted: a Parquet file, a workbook's ZIP, what the command refuses. */
const NOT_COUNTED: LineCounter = { feed: async () => {}, end: async () => 0, fail: () => {} };

/**
 * Counts the lines of what is received as its first bytes tell (as the command tells it,
 * src/support/fileStart.ts), not its name: text as it is, gzip inflated (a gzip named .csv is
 * bounded by its inflated lines too), a Parquet file, a workbook or another binary not at all. The
 * first bytes are held until they tell, whatever the chunks they arrive in. A ZIP archive that is
 * no workbook is refused (ZIP_REFUSAL).
 */
function receivedLineCounter(bounds: UploadBounds, workbook: boolean): LineCounter {
  let head = Buffer.alloc(0);
  let counter: LineCounter | null = null;
  const told = (): LineCounter => {
    const content = contentOf(head.subarray(0, SIGNATURE_BYTES));
    if (content === "zip" && !workbook) throw new FileRefusal(415, ZIP_REFUSAL);
    counter =
      content === "gzip"
        ? gzipLineCounter(bounds)
        : content === "text"
          ? textLineCounter(bounds.maxLines)
          : NOT_COUNTED;
    return counter;
  };
  return {
    feed: async (chunk: Uint8Array) => {
      if (counter !== null) return counter.feed(chunk);
      head = Buffer.concat([head, chunk]);
      if (head.length >= MARK_BYTES) await told().feed(head);
    },
    end: async () => {
      if (counter !== null) return counter.end();
      const chosen = told();
      await chosen.feed(head);
      return chosen.end();
    },
    fail: () => counter?.fail(),
  };
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
 * gzip's inflation, 408 a pace below the minimum, 415 a ZIP archive, 422 an empty file or a gzip
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
  const lines = receivedLineCounter(bounds, path.toLowerCase().endsWith(".xlsx"));
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
