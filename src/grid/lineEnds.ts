/*
 * Two exports concatenated may end their lines differently (Windows' CRLF, then LF): DuckDB's
 * strict CSV reader, which settles on one line end, cannot read such a file. The series is then
 * read from a copy with every CRLF made LF: the same lines, numbered as in the file.
 */

import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Transform, type TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import { byteBound } from "../support/boundedCopy.js";
import { trailingBytesRefusal, trailingOffset } from "../support/gzipEnd.js";
import { GridInputError } from "./errors.js";

const CR = 13;
const LF = 10;

/** A stream dropping each CR that ends a line (a CR before LF), counting those it dropped. */
class CrlfToLf extends Transform {
  dropped = 0;
  private pendingCr = false;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    const parts: Buffer[] = [];
    // A CR that ended the last chunk is written now, unless this chunk starts the line's LF.
    if (this.pendingCr && chunk[0] !== LF) parts.push(Buffer.of(CR));
    if (this.pendingCr && chunk[0] === LF) this.dropped += 1;
    this.pendingCr = false;
    let from = 0;
    for (let cr = chunk.indexOf(CR); cr >= 0; cr = chunk.indexOf(CR, cr + 1)) {
      if (cr === chunk.length - 1) {
        parts.push(chunk.subarray(from, cr));
        this.pendingCr = true;
        from = chunk.length;
      } else if (chunk[cr + 1] === LF) {
        parts.push(chunk.subarray(from, cr));
        this.dropped += 1;
        from = cr + 1;
      }
    }
    parts.push(chunk.subarray(from));
    done(null, Buffer.concat(parts));
  }

  override _flush(done: TransformCallback): void {
    done(null, this.pendingCr ? Buffer.of(CR) : Buffer.alloc(0));
  }
}

/** A copy of a CSV series (gzipped or not) with LF line ends, and how to remove it. */
export interface LfCopy {
  readonly file: string;
  remove(): void;
}

/**
 * The copy, or null when the file ends no line with CRLF (its failure is something else). The copy
 * (a gzip's inflated text) is bounded as it is written by `maxBytes`, the series' own bound; past
 * it, a GridInputError naming it.
 */
export async function lfCopy(file: string, maxBytes: number): Promise<LfCopy | null> {
  const folder = mkdtempSync(join(tmpdir(), "impact-grid-series-"));
  const copy = join(folder, "series.csv");
  const remove = () => rmSync(folder, { recursive: true, force: true });
  const lines = new CrlfToLf();
  const tooLarge = new GridInputError(
    `${file}: its copy with LF line ends passed ${maxBytes} bytes, a grid series' bound (the file's text inflated)`,
  );
  const inflate = file.toLowerCase().endsWith(".gz") ? createGunzip() : null;
  try {
    await pipeline([
      createReadStream(file),
      ...(inflate === null ? [] : [inflate]),
      lines,
      byteBound(maxBytes, () => tooLarge),
      createWriteStream(copy),
    ]);
  } catch (error) {
    remove();
    if (error === tooLarge) throw error;
    return null;
  }
  // A gzip whose bytes go on past its last member: refused, as DuckDB reading it refuses it
  const trailing = inflate === null ? null : trailingOffset(inflate, statSync(file).size);
  if (trailing !== null) {
    remove();
    throw new GridInputError(`${file}: ${trailingBytesRefusal(trailing)}`);
  }
  if (lines.dropped > 0) return { file: copy, remove };
  remove();
  return null;
}
