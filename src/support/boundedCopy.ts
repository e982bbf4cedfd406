import { statfsSync } from "node:fs";
import { Transform } from "node:stream";

/*
 * Temporary copies counted as they are written (a workbook read from a pipe, a series' copy with
 * LF line ends): each stops at its bound, named, rather than when the disk is full; and the room a
 * copy whose size is known first leaves on its disk (an archive's file, a bill's written lines'
 * copy). (A run of the /evaluate page is bounded from outside too: its folder and each file it
 * writes, src/evaluationProcess/runWatch.ts.)
 */

/** Room left on a temporary folder's disk once a copy is there: the run's outputs need some. */
export const SPARE_BYTES = 256 * 1024 * 1024;

/** Bytes a folder's disk has free for an unprivileged writer. */
export function freeBytes(folder: string): number {
  const disk = statfsSync(folder);
  return disk.bavail * disk.bsize;
}

/** Whether a folder's disk holds `bytes` more and SPARE_BYTES still (`free`: its free bytes). */
export function hasSpaceFor(
  folder: string,
  bytes: number,
  free: (folder: string) => number = freeBytes,
): boolean {
  return bytes <= free(folder) - SPARE_BYTES;
}

/** The bytes passed through, the stream failing with `refusal()` at the first byte past `maxBytes`. */
export function byteBound(maxBytes: number, refusal: () => Error): Transform {
  let bytes = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes > maxBytes) done(refusal());
      else done(null, chunk);
    },
  });
}
