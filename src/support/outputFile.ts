/*
 * A file a command writes, opened so that nothing it is keeps the process from ending when asked.
 * Opening a FIFO for writing waits for a reader — in a thread of libuv's pool that no signal
 * reaches and that the process waits for on its way out (`process.exit` joins the pool's threads),
 * so that Ctrl-C, SIGTERM and even a second signal left the command running, only SIGKILL ending
 * it. Here every output is opened without blocking: a regular file (made or emptied) and a device
 * written as files are, a FIFO or a socket through the event loop (its writes never hold a thread),
 * a FIFO without a reader waited for as a shell's redirect waits, said once, checked every
 * READER_WAIT_MS and given up when the run is interrupted. A regular file written in part when the
 * process ends (a second signal, the run's time after a signal, an error) is removed
 * (removedUnlessKept), never a FIFO or a device.
 */

import {
  closeSync,
  constants,
  createWriteStream,
  fstatSync,
  openSync,
  rmSync,
  type Stats,
  writeFileSync,
} from "node:fs";
import { Socket } from "node:net";
import type { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { setTimeout as delay } from "node:timers/promises";
import { isatty, WriteStream as TtyWriteStream } from "node:tty";

/** How often a FIFO without a reader is tried again. */
export const READER_WAIT_MS = 100;

const OPEN_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NONBLOCK;

/** How an output is waited on and given up. */
export interface OutputOptions {
  /** Aborted when the run is interrupted: a wait for a reader ends (OutputAbandoned), a FIFO's writes too. */
  readonly signal?: AbortSignal;
  /** Told once when the output is a FIFO no process reads yet (the wait begins). */
  readonly waiting?: (path: string) => void;
}

/** An output opened: its stream, and whether it is a regular file (which a partial write may leave). */
export interface OpenedOutput {
  readonly stream: Writable;
  readonly regular: boolean;
}

/** A FIFO whose wait for a reader the run's interruption ended: nothing was written into it. */
export class OutputAbandoned extends Error {}

/**
 * The descriptor of `path` opened for writing without blocking; a FIFO without a reader waited
 * for, until `options.signal` aborts (OutputAbandoned). A regular file is opened whatever the
 * signal: an interrupted run writes what it has.
 */
async function descriptorOf(path: string, options: OutputOptions): Promise<number> {
  let told = false;
  for (;;) {
    try {
      return openSync(path, OPEN_FLAGS, 0o666);
    } catch (error) {
      // ENXIO: a FIFO that no process has open for reading
      if ((error as NodeJS.ErrnoException).code !== "ENXIO") throw error;
    }
    if (!told) options.waiting?.(path);
    told = true;
    try {
      options.signal?.throwIfAborted();
      await delay(READER_WAIT_MS, undefined, { signal: options.signal });
    } catch (error) {
      if (options.signal?.aborted !== true) throw error;
      throw new OutputAbandoned(
        `${path}: interrupted while waiting for a process to read this FIFO; nothing written into it`,
      );
    }
  }
}

/** `path`'s descriptor opened (descriptorOf) and what it is. */
async function opened(path: string, options: OutputOptions): Promise<{ fd: number; stats: Stats }> {
  const fd = await descriptorOf(path, options);
  try {
    return { fd, stats: fstatSync(fd) };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** A stream writing into an opened descriptor: a FIFO or a socket through the event loop, a terminal as one, else as a file. */
function streamOf(path: string, fd: number, stats: Stats): Writable {
  if (stats.isFIFO() || stats.isSocket()) return new Socket({ fd, readable: false, writable: true });
  if (isatty(fd)) return new TtyWriteStream(fd);
  return createWriteStream(path, { fd });
}

/**
 * `path` opened for writing (made, or emptied where a regular file), as a stream whose writes hold
 * no thread a signal cannot end: a FIFO or a socket through the event loop, a terminal as one, a
 * regular file or another device as a file.
 */
export async function openOutput(path: string, options: OutputOptions = {}): Promise<OpenedOutput> {
  const { fd, stats } = await opened(path, options);
  return { stream: streamOf(path, fd, stats), regular: stats.isFile() };
}

/** Writes `content` whole into `path` (openOutput): a regular file at once, a FIFO as its reader reads. */
export async function writeOutput(path: string, content: string, options: OutputOptions = {}): Promise<void> {
  const { fd, stats } = await opened(path, options);
  if (stats.isFile()) {
    try {
      writeFileSync(fd, content);
    } finally {
      closeSync(fd);
    }
    return;
  }
  const stream = streamOf(path, fd, stats);
  const abort = () => stream.destroy(options.signal?.reason as Error);
  options.signal?.addEventListener("abort", abort, { once: true });
  try {
    await new Promise<void>((resolve, reject) => {
      stream.once("error", reject);
      stream.end(content, resolve);
    });
  } finally {
    options.signal?.removeEventListener("abort", abort);
  }
}

/**
 * Writes what `source` makes (once the output is open: nothing is read for an output never opened)
 * into `path` (openOutput): a regular file removed should the writing fail or the process end
 * before it is complete.
 */
export async function pipedOutput(
  path: string,
  source: () => NodeJS.ReadableStream | AsyncIterable<string | Uint8Array>,
  options: OutputOptions = {},
): Promise<void> {
  const { stream, regular } = await openOutput(path, options);
  const kept = regular ? removedUnlessKept(path) : () => {};
  try {
    await pipeline(source(), stream, ...(options.signal === undefined ? [] : [{ signal: options.signal }]));
  } catch (error) {
    if (regular) rmSync(path, { force: true });
    throw error;
  } finally {
    kept();
  }
}

/**
 * `path` removed should the process end before `kept` is called (process.exit after a signal, an
 * error thrown past the run): a regular file the run made and did not finish. Returns `kept`, which
 * stops watching (the file complete, or removed by the run itself).
 */
export function removedUnlessKept(path: string): () => void {
  const remove = () => rmSync(path, { force: true, recursive: true });
  process.once("exit", remove);
  return () => process.off("exit", remove);
}
