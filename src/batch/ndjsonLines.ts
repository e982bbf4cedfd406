/*
 * NDJSON lines read from a stream of bytes, each at most `maxBytes` long: a longer line is
 * skipped as it arrives (nothing of it kept past the limit) and reported, so memory stays
 * bounded whatever the input. Blank lines (an ending newline, CRLF's empty rest) are not
 * requests and are dropped.
 */

/**
 * A line (its number counts every input line, blank ones included), and whether another line
 * is already at hand (`more`: reading the next one will not wait for input).
 */
export type InputLine = (
  | { readonly text: string; readonly number: number }
  | { readonly tooLarge: true; readonly number: number }
) & { readonly more: boolean };

const NEWLINE = 0x0a;

export async function* ndjsonLines(
  chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  maxBytes: number,
): AsyncGenerator<InputLine> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let skipping = false;
  let number = 0;
  function* finish(piece: Buffer, more: boolean): Generator<InputLine> {
    number += 1;
    if (skipping || pendingBytes + piece.length > maxBytes) {
      skipping = false;
      pending = [];
      pendingBytes = 0;
      yield { tooLarge: true, number, more };
      return;
    }
    const whole = pending.length === 0 ? piece : Buffer.concat([...pending, piece]);
    pending = [];
    pendingBytes = 0;
    const text = whole.toString("utf8");
    if (text.trim() !== "") yield { text, number, more };
  }
  for await (const chunk of chunks) {
    const bytes =
      typeof chunk === "string"
        ? Buffer.from(chunk)
        : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    for (let end = bytes.indexOf(NEWLINE, start); end !== -1; end = bytes.indexOf(NEWLINE, start)) {
      const line = bytes.subarray(start, end);
      start = end + 1;
      yield* finish(line, bytes.indexOf(NEWLINE, start) !== -1);
    }
    const rest = bytes.subarray(start);
    if (rest.length === 0) continue;
    if (skipping || pendingBytes + rest.length > maxBytes) {
      // Past the limit: drop what was kept and the rest of the line as it comes.
      skipping = true;
      pending = [];
      pendingBytes = 0;
    } else {
      // A copy: the chunk's buffer may be reused by the stream once this generator moves on.
      pending.push(Buffer.from(rest));
      pendingBytes += rest.length;
    }
  }
  if (skipping || pendingBytes > 0) yield* finish(Buffer.alloc(0), false);
}
