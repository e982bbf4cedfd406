/*
 * The UTF-8 bytes of an answer's text: what `Buffer.from(text)` gives, made faster for the texts
 * our answers are.
 *
 * Node 20's V8 (11.3) writes a string as UTF-8 quickly only when every character is ASCII. One
 * character between U+0080 and U+00FF sends the whole text down a character-by-character path:
 * most verbose answers hold one, the "®" of the electricity factors' source ("ADEME Base IMPACTS
 * ®"), and for an 11 KB answer the path costs ~4 µs where the ASCII one costs ~0.6 (bench/README.md,
 * "tenth round"). Such a text (every character below U+0100) is written instead as Latin-1, one
 * byte per character and fast, at the end of a buffer the size of its UTF-8; the bytes are then
 * moved to the front, each non-ASCII byte c becoming its two UTF-8 bytes (0xC0 | c >> 6, 0x80 |
 * c & 0x3F). The non-ASCII bytes are few: they are found four at a time.
 */

/** Below this many bytes, `Buffer.from` cuts the bytes from Node's shared pool: kept as it is. */
const SMALL_TEXT_BYTES = 4096;

/** A character beyond Latin-1 (two-byte text, surrogates): left to `Buffer.from`. */
const BEYOND_LATIN1 = /[\u0100-\uffff]/;

/** A 32-bit word holding a non-ASCII byte. */
const HIGH_BITS = 0x80808080 | 0;

export function utf8Bytes(text: string): Buffer {
  const length = Buffer.byteLength(text);
  // Every non-ASCII character adds at least one byte: none added, the text is ASCII.
  const nonAscii = length - text.length;
  if (nonAscii === 0 || length < SMALL_TEXT_BYTES || BEYOND_LATIN1.test(text)) return Buffer.from(text);
  // Below U+0100, each non-ASCII character is exactly one byte more: `nonAscii` of them.
  // A whole number of 32-bit words, from offset 0 (an ArrayBuffer of its own), for the word view.
  const bytes = Buffer.allocUnsafeSlow((length + 3) & ~3);
  bytes.write(text, nonAscii, "latin1");
  const words = new Int32Array(bytes.buffer, 0, bytes.length >>> 2);
  let written = 0;
  let read = nonAscii;
  for (let left = nonAscii; left > 0; left--) {
    // The next non-ASCII byte: bytes up to a word's start one by one, then whole words. There is
    // one at or after `read` (`left` of them), so neither scan passes the text's end.
    let at = read;
    while ((at & 3) !== 0 && bytes[at] < 0x80) at++;
    if (bytes[at] < 0x80) {
      let word = at >>> 2;
      while ((words[word] & HIGH_BITS) === 0) word++;
      at = word << 2;
      while (bytes[at] < 0x80) at++;
    }
    // The ASCII run before it moves left by the bytes added so far; writing never overtakes
    // reading: after the run, `written` + 2 ≤ `at` + 1 while a non-ASCII byte is left to expand.
    bytes.copyWithin(written, read, at);
    written += at - read;
    const code = bytes[at];
    bytes[written++] = 0xc0 | (code >> 6);
    bytes[written++] = 0x80 | (code & 0x3f);
    read = at + 1;
  }
  // The ASCII after the last non-ASCII byte is already in place: `read` = `written` there.
  return bytes.subarray(0, length);
}
