import type { Gunzip } from "node:zlib";

/*
 * Where a gzip file's members end. Node's gunzip reads member after member, and stops without a
 * word at bytes after a member that are no member's start (a NUL byte, padding, another file's
 * bytes): two members with a NUL between them were read as the first alone, 1 row of 300,001,
 * exit 0, on the page and in the command. What it read of its input tells where it stopped: a
 * gzip file read to its end is read whole; one whose bytes go on past where it stopped is refused
 * in words naming that offset, never taken for the whole file.
 */

/** The offset where `inflate`'s members ended, when bytes it was given follow it unread; else null. */
export function trailingOffset(inflate: Gunzip, given: number): number | null {
  return given > inflate.bytesWritten ? inflate.bytesWritten : null;
}

/** The refusal of a gzip file with bytes after its members, as the command and the page say it. */
export function trailingBytesRefusal(offset: number): string {
  return `the gzip file has bytes after its end (from byte offset ${offset}) that are no gzip member, so it cannot be read whole`;
}
