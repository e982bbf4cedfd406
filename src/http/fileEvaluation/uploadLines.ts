import { createGunzip } from "node:zlib";
import { FileRefusal, ZIP_REFUSAL } from "../../service/fileEvaluation.js";
import { contentOf, MARK_BYTES, SIGNATURE_BYTES } from "../../support/fileStart.js";
import { trailingBytesRefusal, trailingOffset } from "../../support/gzipEnd.js";

/*
 * The lines of an uploaded file, counted as its chunks arrive against the page's bound, the file
 * read as its first bytes tell: text as it is, a gzip in its inflated text. A gzip is inflated a
 * chunk at a time, as the body is read, within its bounds in bytes and in time, and stopped as
 * soon as the upload fails or its client leaves: its inflation never runs ahead of the body, nor
 * on for a client gone, so a small gzip of a huge line holds its slot and the CPU only while its
 * client sends and within those bounds. A gzip file whose bytes go on past its last member is
 * refused (src/support/gzipEnd.ts).
 */

/** The bounds of the lines' counting (UploadBounds, upload.ts). */
export interface LineBounds {
  readonly maxLines: number;
  /** Bytes a gzip's text may inflate to. */
  readonly maxInflatedBytes: number;
  /** Time the upload may wait on a gzip's inflation, in all. */
  readonly inflateMs: number;
}

/** What counts the lines of what is received: fed each chunk in turn, then ended (the lines). */
export interface LineCounter {
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
const inflatedPast = ({ maxInflatedBytes }: LineBounds) =>
  new FileRefusal(
    413,
    `the file's text inflates to more than ${maxInflatedBytes / 1024 / 1024 / 1024} GiB (the page's bound)`,
  );
const inflatedTooLong = ({ inflateMs }: LineBounds) =>
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
function gzipLineCounter(bounds: LineBounds): LineCounter {
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
function countedInflater(bounds: LineBounds, count: (chunk: Uint8Array) => void) {
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

/**
 * A file whose lines are not counted as it arrives: a Parquet file, a workbook, a ZIP archive of a
 * bill's parts (counted once received: src/service/fileEvaluation/archiveBounds.ts), what the
 * command refuses.
 */
const NOT_COUNTED: LineCounter = { feed: async () => {}, end: async () => 0, fail: () => {} };

/**
 * Counts the lines of what is received as its first bytes tell (as the command tells it,
 * src/support/fileStart.ts), not its name: text as it is, gzip inflated (a gzip named .csv is
 * bounded by its inflated lines too), a Parquet file, a workbook or another binary not at all. The
 * first bytes are held until they tell, whatever the chunks they arrive in. A ZIP archive named
 * neither `.xlsx` nor `.zip` (`packed`) is refused (ZIP_REFUSAL).
 */
export function receivedLineCounter(bounds: LineBounds, packed: boolean): LineCounter {
  let head = Buffer.alloc(0);
  let counter: LineCounter | null = null;
  const told = (): LineCounter => {
    const content = contentOf(head.subarray(0, SIGNATURE_BYTES));
    if (content === "zip" && !packed) throw new FileRefusal(415, ZIP_REFUSAL);
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
