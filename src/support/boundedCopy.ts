import { Transform } from "node:stream";

/*
 * Temporary copies counted as they are written (a workbook read from a pipe, a series' copy with
 * LF line ends): each stops at its bound, named, rather than when the disk is full. (A run of the
 * /evaluate page is bounded from outside too: its folder and each file it writes,
 * src/evaluationProcess/runWatch.ts.)
 */

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
