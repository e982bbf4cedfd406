/*
 * The grid's input files (the series, the zones file), opened one way: a regular file of at most
 * its bound, checked on the descriptor that is read (a FIFO or a device has no end to bound, and a
 * path swapped after a check of the path would escape it), before any of it is read.
 */

import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { contentOf, SIGNATURE_BYTES, unreadRefusal } from "../support/fileStart.js";
import { GridInputError } from "./errors.js";

/** An input file: what the error names it (`grid intensity file`) and its bound in bytes. */
export interface GridInput {
  readonly file: string;
  readonly role: string;
  readonly maxBytes: number;
}

/**
 * Refuses a file whose first bytes say it is no text, gzip or Parquet (src/support/fileStart.ts):
 * a ZIP archive, an image, UTF-16 text is named, not read as a series' lines.
 */
function refuseForeign({ file, role }: GridInput, descriptor: number): void {
  const start = Buffer.alloc(SIGNATURE_BYTES);
  const content = contentOf(start.subarray(0, readSync(descriptor, start, 0, SIGNATURE_BYTES, 0)));
  const refusal = unreadRefusal(`${file}: the ${role}`, content);
  if (refusal !== null) throw new GridInputError(refusal);
}

/** The open descriptor of the input and its size, once checked (non-blocking: a FIFO's open does not wait for a writer). */
function openChecked(input: GridInput): { descriptor: number; size: number } {
  const { file, role, maxBytes } = input;
  let descriptor: number;
  try {
    descriptor = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    throw new GridInputError(`${file}: cannot read the ${role}`);
  }
  try {
    const stat = fstatSync(descriptor);
    if (!stat.isFile())
      throw new GridInputError(`${file}: the ${role} is not a regular file (a FIFO, a device or a folder)`);
    if (stat.size > maxBytes)
      throw new GridInputError(`${file}: a ${role} holds at most ${maxBytes} bytes (${stat.size})`);
    refuseForeign(input, descriptor);
    return { descriptor, size: stat.size };
  } catch (error) {
    closeSync(descriptor);
    throw error;
  }
}

/** Checks the input is a regular file within its bound (another reader, DuckDB, then reads it). */
export function checkedInput(input: GridInput): void {
  closeSync(openChecked(input).descriptor);
}

/** The input's text (UTF-8), read from the checked descriptor: never more than its bound. */
export function boundedText(input: GridInput): string {
  const { descriptor } = openChecked(input);
  try {
    // One byte more than the bound: a file grown since its check is refused, not cut.
    const buffer = Buffer.alloc(input.maxBytes + 1);
    let length = 0;
    for (let read = -1; read !== 0 && length < buffer.length; length += read)
      read = readSync(descriptor, buffer, length, buffer.length - length, null);
    if (length > input.maxBytes)
      throw new GridInputError(`${input.file}: a ${input.role} holds at most ${input.maxBytes} bytes`);
    return buffer.toString("utf8", 0, length);
  } finally {
    closeSync(descriptor);
  }
}
