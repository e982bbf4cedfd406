/*
 * Where a CSV text's records end, as a CSV parser cuts them: at a line end outside quotes, so that a
 * header cell holding a line break (`"Cost\n(USD)"`) is one cell of one record, not two lines. A
 * quote opens a quoted cell at the start of a cell only (after a line end or a separator, as
 * csv-parse's relax_quotes reads `24" screen` as text); in a quoted cell `""` is a quote. The
 * separators are the ones a header is tried with, all at once: their records are cut alike.
 *
 * An inventory's body is cut by a second scanner, src/cli/csvRecords.ts, which stays apart: it
 * knows its one separator and reads LF line ends only, and it decides what this one must not
 * (a file's start is read as the parser will cut it): a quote closed amid a cell after a line
 * break is a broken record, its first line dropped and the lines after it read again; it also
 * bounds each record, checks its UTF-8 and reads ordinary bytes on a fast path.
 */

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
const SEPARATORS: ReadonlySet<number> = new Set([0x2c, 0x3b, 0x09]);

/** A scanner of a text's record ends, fed the text in pieces (bytes: the marks are ASCII). */
export class RecordEnds {
  private quoted = false;
  /** The previous byte ended a quoted cell's quote, unless the next one is a quote too. */
  private quoteSeen = false;
  private cellStart = true;
  /** Line ends seen inside the record being read. */
  private breaks = 0;

  /**
   * @param lineEnd what ends a line: LF (a CR before it is the line's), CR alone, or either (`any`:
   * a CRLF record ends at its CR).
   */
  constructor(private readonly lineEnd: "\n" | "\r" | "any" = "\n") {}

  /**
   * The offset in `bytes` of the first line end that ends a record (-1: none in this piece), and
   * the line ends inside that record before it; the scanner then stands after it.
   */
  next(bytes: Uint8Array, from = 0): { readonly end: number; readonly lines: number } {
    const ends = (byte: number) =>
      this.lineEnd === "any" ? byte === LF || byte === CR : byte === (this.lineEnd === "\n" ? LF : CR);
    for (let at = from; at < bytes.length; at += 1) {
      const byte = bytes[at];
      if (this.quoted) {
        if (this.quoteSeen) {
          this.quoteSeen = false;
          if (byte === QUOTE) continue;
          this.quoted = false;
        } else {
          if (byte === QUOTE) this.quoteSeen = true;
          else if (ends(byte)) this.breaks += 1;
          continue;
        }
      }
      if (ends(byte)) {
        const lines = this.breaks + 1;
        this.breaks = 0;
        this.cellStart = true;
        return { end: at, lines };
      }
      if (byte === QUOTE && this.cellStart) this.quoted = true;
      this.cellStart = SEPARATORS.has(byte) || (byte === CR && this.lineEnd === "\n");
    }
    return { end: -1, lines: 0 };
  }
}

/** A record of a text: its text (without its line end) and the lines it spans. */
export interface TextRecord {
  readonly text: string;
  readonly lines: number;
}

/**
 * The whole records of a text, `most` at most (the last, cut by a bound or without a line end,
 * left out).
 */
export function wholeRecords(text: string, lineEnd: "\n" | "\r", most: number): TextRecord[] {
  const bytes = Buffer.from(text);
  const scanner = new RecordEnds(lineEnd);
  const records: TextRecord[] = [];
  for (let start = 0; records.length < most; ) {
    const { end, lines } = scanner.next(bytes, start);
    if (end < 0) break;
    records.push({ text: bytes.subarray(start, end).toString("utf8"), lines });
    start = end + 1;
  }
  return records;
}
