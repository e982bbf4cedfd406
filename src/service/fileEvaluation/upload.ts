import { createWriteStream } from "node:fs";
import { createGunzip } from "node:zlib";
import { contentOf, MARK_BYTES, SIGNATURE_BYTES } from "../../support/fileStart.js";
import { EMPTY_FILE } from "../../support/namedFiles.js";
import { FileRefusal, ZIP_REFUSAL } from "./request.js";

/*
 * A file received as it arrives, to the run's folder: its bytes and lines counted against the
 * page's bounds (a gzip's lines inflated), and its pace — a client that sends less than the
 * minimum in a window is refused, so that slow clients cannot hold the page's slots.
 */

/** The bounds of a file's upload (FileEvaluationBounds, src/service/fileEvaluation.ts). */
export interface UploadBounds {
  readonly maxBytes: number;
  readonly maxLines: number;
  readonly minUploadBytes: number;
  readonly uploadWindowMs: number;
}

/** Counts the lines of the text received (a gzip's inflated text), refusing past the bound. */
function lineCounter(maxLines: number, gzip: boolean) {
  let lines = 0;
  const count = (chunk: Uint8Array) => {
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines += 1;
    if (lines > maxLines) {
      throw new FileRefusal(
        413,
        `the file has more than ${maxLines.toLocaleString("en")} lines (the page's bound)`,
      );
    }
  };
  if (!gzip) return { feed: count, end: async () => lines, fail: () => {} };
  const inflate = createGunzip();
  let failure: unknown = null;
  inflate.on("data", (chunk: Buffer) => {
    try {
      count(chunk);
    } catch (error) {
      failure = error;
      inflate.destroy();
    }
  });
  inflate.on("error", (error) => {
    failure ??= new FileRefusal(422, `the gzip file is damaged or cut short: ${error.message}`);
  });
  const ended = new Promise<void>((resolve) => {
    inflate.once("end", resolve);
    inflate.once("close", resolve);
  });
  return {
    feed: (chunk: Uint8Array) => {
      if (failure !== null) throw failure;
      inflate.write(chunk);
    },
    end: async () => {
      inflate.end();
      await ended;
      if (failure !== null) throw failure;
      return lines;
    },
    fail: () => inflate.destroy(),
  };
}

type LineCounter = ReturnType<typeof lineCounter>;

/** A file whose lines are not counted: a Parquet file, a workbook's ZIP, what the command refuses. */
const NOT_COUNTED: LineCounter = { feed: () => {}, end: async () => 0, fail: () => {} };

/**
 * Counts the lines of what is received as its first bytes tell (as the command tells it,
 * src/support/fileStart.ts), not its name: text as it is, gzip inflated (a gzip named .csv is
 * bounded by its inflated lines too), a Parquet file, a workbook or another binary not at all. The
 * first bytes are held until they tell, whatever the chunks they arrive in. A ZIP archive that is
 * no workbook is refused (ZIP_REFUSAL).
 */
function receivedLineCounter(maxLines: number, workbook: boolean): LineCounter {
  let head = Buffer.alloc(0);
  let counter: LineCounter | null = null;
  const told = (): LineCounter => {
    const content = contentOf(head.subarray(0, SIGNATURE_BYTES));
    if (content === "zip" && !workbook) throw new FileRefusal(415, ZIP_REFUSAL);
    const chosen =
      content === "text" || content === "gzip" ? lineCounter(maxLines, content === "gzip") : NOT_COUNTED;
    counter = chosen;
    chosen.feed(head);
    return chosen;
  };
  return {
    feed: (chunk: Uint8Array) => {
      if (counter !== null) return counter.feed(chunk);
      head = Buffer.concat([head, chunk]);
      if (head.length >= MARK_BYTES) told();
    },
    end: () => (counter ?? told()).end(),
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

/**
 * Writes the body to `path` within the bounds; a FileRefusal past one (413 bytes or lines, 408 a
 * pace below the minimum, 415 a ZIP archive, 422 an empty file). The bytes written.
 */
export async function receive(
  body: AsyncIterable<Uint8Array>,
  path: string,
  bounds: UploadBounds,
): Promise<number> {
  const out = createWriteStream(path, { flags: "wx", mode: 0o600 });
  const lines = receivedLineCounter(bounds.maxLines, path.toLowerCase().endsWith(".xlsx"));
  const pace = uploadPace(bounds);
  const chunks = body[Symbol.asyncIterator]();
  let bytes = 0;
  let failed: Error | null = null;
  out.on("error", (error) => {
    failed = error;
    out.emit("drain");
  });
  try {
    for (;;) {
      const next = await Promise.race([chunks.next(), pace.stalled]);
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
      lines.feed(chunk);
      if (!out.write(chunk)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
    }
    if (bytes === 0) throw new FileRefusal(422, EMPTY_FILE);
    await lines.end();
    return bytes;
  } catch (error) {
    lines.fail();
    // A stalled upload's next chunk is still awaited (its connection is closed with the refusal);
    // any other refusal stops reading here, its rest dropped by the route.
    const stalled = error instanceof FileRefusal && error.status === 408;
    if (!stalled) await chunks.return?.();
    throw error;
  } finally {
    pace.stop();
    await new Promise<void>((resolve) => out.end(() => resolve()));
  }
}
