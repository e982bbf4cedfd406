import { closeSync, openSync, readSync, statSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { parse } from "csv-parse/sync";
import { RecordEnds, wholeRecords } from "./recordEnds.js";

/*
 * A file's start, read before any reader takes the file. What it is by its first bytes: a
 * container or a binary format that no reader here reads is named, with what to do, rather than
 * read as lines of a CSV (a PNG read so gave a "bad row" per line); text (UTF-8, or another 8-bit
 * encoding that the readers name by its line), gzip, Parquet and a ZIP archive's one file are what
 * the readers take. Then its start as text (gunzipped when it is gzip) and a CSV's header in it:
 * what recognises a bill's layout and format and names its columns to DuckDB, which then reads
 * the file without guessing its dialect (a guess over a sample fails without a line number on a
 * file cut short). One module reads a file's start, whatever is asked of it.
 */

/** Bytes read to tell a file's kind: its signature, and NUL bytes in its start. */
export const SIGNATURE_BYTES = 4096;

/** Bytes enough to tell the marks a reader decides by: gzip's (2), Parquet's (4). */
export const MARK_BYTES = 4;

/** A file no reader here reads: what it is, and what to do with it. */
export interface ForeignContent {
  readonly name: string;
  readonly advice: string;
}

/**
 * What a file's start says: a kind the readers take, a ZIP archive (a file's is unpacked,
 * src/support/zipArchive.ts; a workbook is one too), or one they do not.
 */
export type FileContent = "text" | "gzip" | "parquet" | "zip" | ForeignContent;

interface Signature {
  /** The first bytes, as text where each character is one byte (latin1). */
  readonly starts: string;
  readonly content: FileContent;
}

const UNZIP = "unzip it and give the file it holds (CSV, CSV.gz or Parquet)";
const DOWNLOAD_AGAIN =
  "it holds no data; download the file again (a link that expired, or that needs a sign-in, answers with a page)";
const UTF16: ForeignContent = { name: "UTF-16 text", advice: "save it as UTF-8 (Excel: CSV UTF-8)" };
const BINARY: ForeignContent = { name: "a binary file (it holds NUL bytes)", advice: "give the data as CSV" };

/** Signatures of the formats a user may hand over, the first one that matches wins. */
const SIGNATURES: readonly Signature[] = [
  { starts: "\x1f\x8b", content: "gzip" },
  { starts: "PAR1", content: "parquet" },
  { starts: "PK\x03\x04", content: "zip" },
  { starts: "PK\x05\x06", content: { name: "an empty ZIP archive", advice: UNZIP } },
  {
    starts: "\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1",
    content: { name: "an Excel 97–2003 workbook (.xls)", advice: "save it as .xlsx or as CSV UTF-8" },
  },
  { starts: "\xff\xfe", content: UTF16 },
  { starts: "\xfe\xff", content: UTF16 },
  { starts: "BZh", content: { name: "a bzip2 file", advice: "decompress it, or compress it with gzip" } },
  {
    starts: "\xfd7zXZ\x00",
    content: { name: "an xz file", advice: "decompress it, or compress it with gzip" },
  },
  {
    starts: "\x28\xb5\x2f\xfd",
    content: { name: "a zstd file", advice: "decompress it, or compress it with gzip" },
  },
  { starts: "7z\xbc\xaf\x27\x1c", content: { name: "a 7-Zip archive", advice: UNZIP } },
  { starts: "Rar!\x1a\x07", content: { name: "a RAR archive", advice: UNZIP } },
  { starts: "%PDF-", content: { name: "a PDF document", advice: "export the data as CSV" } },
  { starts: "\x89PNG", content: { name: "a PNG image", advice: "give the data as CSV" } },
  { starts: "\xff\xd8\xff", content: { name: "a JPEG image", advice: "give the data as CSV" } },
  {
    starts: "SQLite format 3\x00",
    content: { name: "an SQLite database", advice: "export the table as CSV" },
  },
];

/**
 * A download that answered with a page instead of the file: a link expired or behind a sign-in
 * gives HTML, cloud storage's refusal XML (S3's `<Error><Code>AccessDenied</Code>…`). Read as CSV,
 * its lines would be an inventory's bad rows (`kind is missing`), nothing said of what it is.
 */
const MARKUP: readonly (readonly [RegExp, ForeignContent])[] = [
  [/^<(!doctype\s+html|html[\s>])/i, { name: "an HTML page", advice: DOWNLOAD_AGAIN }],
  [/^<\?xml[\s?]/i, { name: "an XML document", advice: DOWNLOAD_AGAIN }],
];

/** A start's kind: by its signature, else text unless it holds NUL bytes (UTF-16 without a mark, a binary) or is markup. */
export function contentOf(start: Uint8Array): FileContent {
  const bytes = Buffer.from(start.buffer, start.byteOffset, start.byteLength).toString("latin1");
  const signed = SIGNATURES.find((signature) => bytes.startsWith(signature.starts));
  if (signed !== undefined) return signed.content;
  const nul = bytes.indexOf("\x00");
  if (nul < 0) {
    // Past a UTF-8 byte-order mark and blanks, as a browser reads a page: 4 KiB at most here.
    const text = bytes.replace(/^\xef\xbb\xbf/, "").trimStart();
    return MARKUP.find(([pattern]) => pattern.test(text))?.[1] ?? "text";
  }
  // ASCII in UTF-16 is every other byte NUL: the high byte (big-endian first, little-endian second).
  const pairs = bytes.slice(0, bytes.length - (bytes.length % 2));
  const even = [...pairs].filter((byte, index) => index % 2 === 0 && byte === "\x00").length;
  const odd = [...pairs].filter((byte, index) => index % 2 === 1 && byte === "\x00").length;
  const half = pairs.length / 2;
  return even > half * 0.9 || odd > half * 0.9 ? UTF16 : BINARY;
}

/** A regular file's first `size` bytes, SIGNATURE_BYTES unless told (the caller checks that it is a regular file). */
export function fileStartBytes(file: string, size = SIGNATURE_BYTES): Buffer {
  const descriptor = openSync(file, "r");
  try {
    const buffer = Buffer.alloc(size);
    return buffer.subarray(0, readSync(descriptor, buffer, 0, size, 0));
  } finally {
    closeSync(descriptor);
  }
}

/** A regular file's kind by its first bytes (the caller checks that it is a regular file). */
export function fileContent(file: string): FileContent {
  return contentOf(fileStartBytes(file));
}

/**
 * A ZIP archive where it cannot be unpacked (standard input, a pipe: its directory is at its end):
 * an Excel workbook is one too.
 */
export const ZIP_ON_A_PIPE: ForeignContent = {
  name: "a ZIP archive",
  advice:
    "save it to a file and name that file (an Excel workbook on standard input is read with --input xlsx)",
};

/** The sentence refusing a file no reader takes. */
export function foreignContentMessage(file: string, content: ForeignContent): string {
  return `${file} is ${content.name}, which is not read here: ${content.advice}`;
}

/**
 * The sentence refusing a file that is read by its name as it is, never unpacked (a header, the
 * keys, a grid file): a ZIP archive or a file no reader takes; null for text, gzip or Parquet.
 * `subject` names the file as the sentence starts (`--keys kinds.csv`).
 */
export function unreadRefusal(subject: string, content: FileContent): string | null {
  if (content === "zip") return `${subject} is a ZIP archive: unzip it and give the file it holds`;
  return typeof content === "object" ? foreignContentMessage(subject, content) : null;
}

/** The sentence refusing a ZIP archive found inside one (its copy named as the archive's file): unpacked once, never twice. */
export function nestedArchiveRefusal(file: string): string {
  return `${file} is a ZIP archive itself: unzip both`;
}

/** Bytes of a file's start read to find its header (a header longer than this is not a billing export's). */
export const HEADER_BYTES = 1 << 20;

/** Count of records a text ends (line ends outside quotes: src/support/recordEnds.ts), up to `most`. */
function recordEnds(text: Buffer, most: number): number {
  const scanner = new RecordEnds();
  let count = 0;
  for (let from = 0; count < most; count += 1) {
    const { end } = scanner.next(text, from);
    if (end < 0) break;
    from = end + 1;
  }
  return count;
}

/**
 * The first `HEADER_BYTES` of a gzip stream at most, from its compressed start. A kilobyte of gzip
 * may stand for a megabyte of text (a header that never ends: 1.5 MB of gzip took 2.2 GB whole), so
 * the compressed start grows fourfold until the text holds `lines` records or its bound.
 */
function gunzippedStart(compressed: Buffer, lines: number): Buffer | null {
  for (let size = 1 << 10; ; size *= 4) {
    const part = compressed.subarray(0, size);
    let text: Buffer;
    try {
      text = gunzipSync(part, { finishFlush: 2, maxOutputLength: 4 * HEADER_BYTES });
    } catch {
      return null;
    }
    if (recordEnds(text, lines) >= lines || text.length >= HEADER_BYTES || part.length === compressed.length)
      return text.subarray(0, HEADER_BYTES);
  }
}

/**
 * A file's first HEADER_BYTES as text (gunzipped when it is gzip: until it holds `lines`
 * records), its byte-order mark left out; null when it is gzip that cannot be read.
 */
export function fileStart(file: string, lines = 1): FileStart | null {
  return startText(fileStartBytes(file, HEADER_BYTES), lines);
}

/** A file's first HEADER_BYTES read as text (fileStart). */
function startText(start: Buffer, lines: number): FileStart | null {
  // gzip by its mark, whatever the file's name (a download may lose its .gz, or keep it unzipped)
  const gzip = contentOf(start.subarray(0, 2)) === "gzip";
  const bytes = gzip ? gunzippedStart(start, lines) : start;
  return bytes === null ? null : { text: bytes.toString("utf8").replace(/^\uFEFF/, ""), gzip };
}

/** A regular file's start read once for every decision taken by it: its kind, then its text. */
export interface ReadStart {
  /** Its first SIGNATURE_BYTES, which its kind is told by. */
  readonly bytes: Buffer;
  readonly content: FileContent;
  /** Its start as text (fileStart, until `lines` records), read on first use. */
  readonly text: () => FileStart | null;
}

/**
 * A regular file's start, read from the file once: what a file's kind and then its layout are
 * decided by (src/billing/reading/layout.ts, inputKindOf), whose text is only made when asked.
 */
export function readStart(file: string, lines: number): ReadStart {
  const start = fileStartBytes(file, HEADER_BYTES);
  const bytes = start.subarray(0, SIGNATURE_BYTES);
  let text: FileStart | null | undefined;
  return {
    bytes,
    content: contentOf(bytes),
    text: () => {
      if (text === undefined) text = startText(start, lines);
      return text;
    },
  };
}

/**
 * A file's start as the decisions on it take it: read (readStart), the error its reading threw
 * (said where a decision needs the start, as a read there would have), or null for what is no
 * regular file (standard input, a pipe, a folder: a pipe's start would be consumed by a read).
 */
export type HeldStart = ReadStart | Error | null;

/** Whether `file` is a regular file (standard input, a pipe or a file that cannot be stated is not). */
export function isRegularFile(file: string): boolean {
  if (file === "-") return false;
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** A regular file's start (readStart, until `lines` records), read once for every decision on it. */
export function regularFileStart(file: string, lines: number): HeldStart {
  if (!isRegularFile(file)) return null;
  try {
    return readStart(file, lines);
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** A file's start as text, and whether the file is gzip (its text then inflated). */
export interface FileStart {
  readonly text: string;
  readonly gzip: boolean;
}

/**
 * A CSV file's header (gzipped or not) and the lines it spans (a cell may hold a line break,
 * quoted), or null when it has no complete first record.
 */
export function csvHeader(file: string): { readonly cells: string[]; readonly lines: number } | null {
  const text = fileStart(file)?.text ?? null;
  if (text === null) return null;
  const [record] = wholeRecords(text, "\n", 1);
  if (record === undefined) return null;
  try {
    const [header] = parse(record.text, { relax_quotes: true }) as string[][];
    return header === undefined ? null : { cells: header, lines: record.lines };
  } catch {
    return null;
  }
}
