import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";

/*
 * A small file a run reads whole (a zones file, a table of overrides), read within bounds whatever
 * it is: a regular file only — a FIFO or a device could be fed without end, or never, and block the
 * run — of at most `maxBytes` (counted as read, not trusted from its size: it may grow) and
 * `maxLines` lines. The file is opened without blocking and checked on the open descriptor, so
 * that a FIFO named here neither waits for a writer nor is read.
 */

/** A file that is not within its bounds, or not a regular file: the message names it and the bound. */
export class BoundedFileError extends Error {}

export interface FileBounds {
  /** What the file is to the user, for the message (`the grid zones file`). */
  readonly role: string;
  readonly maxBytes: number;
  readonly maxLines: number;
}

const CHUNK_BYTES = 64 * 1024;

/** Lines of a text: its line ends, and one more when the last line has none. */
function lineCount(text: string): number {
  let lines = 0;
  for (let index = text.indexOf("\n"); index >= 0; index = text.indexOf("\n", index + 1)) lines += 1;
  return text.length > 0 && !text.endsWith("\n") ? lines + 1 : lines;
}

/** Reads at most maxBytes + 1 bytes of an open regular file. */
function readAtMost(descriptor: number, maxBytes: number): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  while (total <= maxBytes) {
    const chunk = Buffer.alloc(Math.min(CHUNK_BYTES, maxBytes + 1 - total));
    const read = readSync(descriptor, chunk, 0, chunk.length, null);
    if (read === 0) break;
    chunks.push(chunk.subarray(0, read));
    total += read;
  }
  return Buffer.concat(chunks);
}

/** The whole text (UTF-8) of a small file, within its bounds. */
export function readBoundedFile(path: string, bounds: FileBounds): string {
  const named = `${bounds.role} ${path}`;
  let descriptor: number;
  try {
    // O_NONBLOCK: opening a FIFO without a writer returns at once (it is refused below).
    descriptor = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw new BoundedFileError(`${named}: ${(error as NodeJS.ErrnoException).code ?? "cannot be read"}`);
  }
  try {
    if (!fstatSync(descriptor).isFile()) throw new BoundedFileError(`${named}: not a regular file`);
    const bytes = readAtMost(descriptor, bounds.maxBytes);
    if (bytes.length > bounds.maxBytes) {
      throw new BoundedFileError(`${named}: more than ${bounds.maxBytes} bytes`);
    }
    const text = bytes.toString("utf8");
    if (lineCount(text) > bounds.maxLines) {
      throw new BoundedFileError(`${named}: more than ${bounds.maxLines} lines`);
    }
    return text;
  } finally {
    closeSync(descriptor);
  }
}
