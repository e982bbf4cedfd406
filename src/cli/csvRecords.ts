/*
 * An inventory's CSV bytes cut into records before the parser (csv-parse) reads them: so that an
 * over-long record, a broken quote or a record that is no UTF-8 costs one row, never the rows
 * after it.
 *
 * Its quote state is not src/support/recordEnds.ts's, which finds a file's first records for any
 * separator and line end before they are known, cut as the parser cuts them: this one knows the
 * separator, and drops a broken quote's first line to read the lines after it again (a recovery
 * the header's reading must not make), on a fast path for the bytes that change nothing.
 */

import { isUtf8 } from "node:buffer";
import { FileMisuse } from "../support/namedFiles.js";

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const QUOTE = 0x22;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * Where a record's reading is: RFC 4180, a quote amid an unquoted cell being text (as
 * csv-parse's relax_quotes reads it).
 */
const Cell = {
  Start: 0,
  Unquoted: 1,
  Quoted: 2,
  /** A quote in a quoted cell: its end, or the first of a doubled quote. */
  AfterQuote: 3,
} as const;
type CellState = (typeof Cell)[keyof typeof Cell];

/** A record the parser is not handed: its first line and why; `text`: that line, for a broken quote. */
export interface RecordProblem {
  readonly line: number;
  readonly problem: string;
  readonly text?: string;
}

/**
 * A quoted cell's line break continues its record; a quote that is never closed, or closed amid
 * a cell on a later line, would take the lines after it into one record: that record's first line
 * alone is the broken one, and the lines after it are read again as records of their own — when
 * found within MAX_BODY_BYTES of its start (past it, the record is an over-long one).
 */
const BROKEN_QUOTE = "a quote opened on this line is not closed where a cell ends; the line is not read";

/**
 * A record whose bytes are no UTF-8 (a Latin-1 or Windows-1252 file, as an older Excel saves "CSV"):
 * the parser would read `réseau` as `r�seau` without a word, so the record is not read.
 */
const NOT_UTF8 = "not UTF-8 (save the file as CSV UTF-8); the line is not read";

/**
 * Splits CSV bytes into records for the parser: each handed on whole, except a record longer
 * than `maxBytes` — replaced by its line breaks, so the parser's line numbers stay the input's,
 * and reported by its first line — and a broken quote's line (above), replaced by a line break.
 */
class RecordSplitter {
  /** The current record from `start` on (earlier records were handed on). */
  private buffer: Buffer = Buffer.alloc(0);
  private start = 0;
  /** The next byte to read. */
  private index = 0;
  private cell: CellState = Cell.Start;
  /** The current record's first line. */
  private line = 1;
  /** Line breaks in the record's quoted cells so far. */
  private breaks = 0;
  /** The record's first line break, from its start (-1: none yet). */
  private firstBreak = -1;
  private skipping = false;
  private out: Uint8Array[] = [];

  constructor(
    private readonly maxBytes: number,
    private readonly report: (problem: RecordProblem) => void,
    /** The input as messages name it (`stdin`, the file). */
    private readonly name: string,
    /** The byte between cells: a comma, a semicolon or a tab (src/cli/inventoryRecords.ts, separatorOf). */
    private readonly separator: number,
  ) {}

  /** The records ready once `chunk` is read. */
  push(chunk: Uint8Array): Uint8Array[] {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const first = this.line === 1 && this.buffer.length === 0 && this.index === 0;
    this.buffer =
      this.start < this.buffer.length ? Buffer.concat([this.buffer.subarray(this.start), bytes]) : bytes;
    this.index -= this.start;
    this.start = 0;
    if (first && this.buffer.subarray(0, 3).equals(BOM)) this.index = 3;
    this.scan();
    if (this.start < this.buffer.length) {
      // A copy of the record's start: the chunk's buffer may be reused once the parser moves on.
      const kept = this.skipping ? this.buffer.length : this.start;
      this.buffer = Buffer.from(this.buffer.subarray(kept));
      this.index -= kept;
      this.start = 0;
    }
    return this.taken();
  }

  /** The last records, at the input's end. */
  end(): Uint8Array[] {
    while (this.start < this.buffer.length && !this.skipping) {
      if (this.cell !== Cell.Quoted) {
        this.handOn(this.buffer.subarray(this.start), this.breaks);
        break;
      }
      // A quote still open at the input's end.
      this.brokenFirstLine(this.breaks > 0 ? this.start + this.firstBreak + 1 : this.buffer.length);
      this.scan();
    }
    return this.taken();
  }

  private taken(): Uint8Array[] {
    const pieces = this.out;
    this.out = [];
    return pieces;
  }

  private scan(): void {
    const { buffer, maxBytes } = this;
    while (this.index < buffer.length) {
      if (!this.skipping && this.index + 1 - this.start > maxBytes) {
        // Past the bound: what was kept of the record is dropped, and the rest of it as it comes
        // (a quoted cell's line breaks too, as an over-long cell's: one error).
        this.skipping = true;
        this.report({ line: this.line, problem: `the row exceeds ${maxBytes} bytes (MAX_BODY_BYTES)` });
      }
      const byte = buffer[this.index];
      // Most bytes change nothing but an unquoted cell's start: read without the step's tests.
      if (byte > QUOTE && byte !== this.separator && this.cell !== Cell.AfterQuote) {
        if (this.cell === Cell.Start) this.cell = Cell.Unquoted;
        this.index += 1;
      } else this.step(byte);
    }
  }

  private step(byte: number): void {
    switch (this.cell) {
      case Cell.Start:
        if (byte === QUOTE) this.cell = Cell.Quoted;
        else if (byte === NEWLINE) this.endRecord();
        else if (byte !== this.separator && byte !== CARRIAGE_RETURN) this.cell = Cell.Unquoted;
        break;
      case Cell.Unquoted:
        if (byte === this.separator) this.cell = Cell.Start;
        else if (byte === NEWLINE) this.endRecord();
        break;
      case Cell.Quoted:
        if (byte === QUOTE) this.cell = Cell.AfterQuote;
        else if (byte === NEWLINE) {
          if (this.firstBreak < 0) this.firstBreak = this.index - this.start;
          this.breaks += 1;
        }
        break;
      case Cell.AfterQuote:
        if (byte === QUOTE) this.cell = Cell.Quoted;
        else if (byte === this.separator) this.cell = Cell.Start;
        else if (byte === NEWLINE) this.endRecord();
        else if (byte !== CARRIAGE_RETURN) {
          // Closed amid a cell: on its own line, text (relax_quotes); after line breaks, broken.
          if (this.breaks > 0) {
            this.brokenFirstLine(this.start + this.firstBreak + 1);
            return;
          }
          this.cell = Cell.Unquoted;
        }
        break;
    }
    this.index += 1;
  }

  /** The record ends at the line break at `index`. */
  private endRecord(): void {
    const end = this.index + 1;
    if (this.skipping) this.out.push(Buffer.alloc(this.breaks + 1, NEWLINE));
    else this.handOn(this.buffer.subarray(this.start, end), this.breaks + 1);
    this.nextRecord(end, this.breaks + 1);
  }

  /** A whole record of `lines` line breaks handed on; one that is no UTF-8 reported, its line breaks alone handed on. */
  private handOn(record: Buffer, lines: number): void {
    if (isUtf8(record)) {
      this.out.push(withLineFeeds(record));
      return;
    }
    // Without its header, the next line would be read as one: the file is refused.
    if (this.line === 1) {
      throw new FileMisuse(`${this.name}: line 1, the header, is not UTF-8: save the file as CSV UTF-8`);
    }
    this.report({ line: this.line, problem: NOT_UTF8 });
    this.out.push(Buffer.alloc(lines, NEWLINE));
  }

  /** The record's first line (up to `end`) is broken: reported, and the bytes after it read again. */
  private brokenFirstLine(end: number): void {
    const text = this.buffer
      .subarray(this.start, end)
      .toString("utf8")
      .replace(/\r?\n$/, "");
    this.report({ line: this.line, problem: BROKEN_QUOTE, text });
    this.out.push(Buffer.from([NEWLINE]));
    this.nextRecord(end, 1);
    this.index = end;
  }

  private nextRecord(start: number, lines: number): void {
    this.line += lines;
    this.breaks = 0;
    this.firstBreak = -1;
    this.cell = Cell.Start;
    this.skipping = false;
    this.start = start;
  }
}

const CRLF = Buffer.from([CARRIAGE_RETURN, NEWLINE]);

/**
 * A record with each CR LF as LF. The parser takes the line end of a file's first line for all of
 * them: after an LF header, rows ending in CR LF kept the CR in their last cell and had their line
 * numbers counted twice, as had the lines after a quoted cell's CR LF in any file. A CR alone is
 * kept (text, as the parser reads it).
 */
function withLineFeeds(record: Buffer): Buffer {
  let at = record.indexOf(CRLF);
  if (at < 0) return record;
  const pieces: Buffer[] = [];
  let from = 0;
  for (; at >= 0; at = record.indexOf(CRLF, at + 2)) {
    pieces.push(record.subarray(from, at));
    from = at + 1;
  }
  pieces.push(record.subarray(from));
  return Buffer.concat(pieces);
}

/** The CSV's records (RecordSplitter), a chunk's at a time. */
export async function* csvRecords(
  chunks: AsyncIterable<Uint8Array | string>,
  maxBytes: number,
  report: (problem: RecordProblem) => void,
  name: string,
  separator: string,
): AsyncGenerator<Uint8Array> {
  const splitter = new RecordSplitter(maxBytes, report, name, separator.charCodeAt(0));
  for await (const chunk of chunks) {
    for (const piece of splitter.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk)) {
      if (piece.length > 0) yield piece;
    }
  }
  for (const piece of splitter.end()) if (piece.length > 0) yield piece;
}
