import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { StringDecoder } from "node:string_decoder";
import type ExcelJS from "exceljs";
import yauzl, { type Entry } from "yauzl";
import { byteBound } from "./boundedCopy.js";

/*
 * An Excel workbook (.xlsx, a ZIP archive of XML parts) read within bounds checked before a part
 * is inflated: its directory (yauzl) says every part's size, which yauzl holds each part to as it
 * inflates it; the parts are read in the order the sheet needs them — relationships, workbook,
 * styles, shared strings, then the first tab's sheet — and streamed to exceljs's reader, so that
 * nothing is written but the workbook itself and no sheet waits in a temporary file for the
 * strings stored after it (exceljs's own reading of the archive in its order did that: a sheet of
 * 3 GiB of spaces before the relationships filled the disk). Shared strings are counted as they
 * stream, rows × columns as the sheet's rows are read.
 */

const MiB = 1024 * 1024;

/**
 * The bounds (docs/limits.md, "The command line"). A sheet of 256 MiB holds about a million rows
 * of ten cells; the shared strings of such a sheet are fewer than its cells; rows × columns stop a
 * sheet of rows that each name a far column (a cell at column XFD makes a row of 16,384 cells).
 */
export const WORKBOOK_LIMITS = {
  /** The workbook as given (a stream is copied to a temporary file first: its directory is at its end). */
  fileBytes: 256 * MiB,
  entries: 10_000,
  /** Every part unpacked, all together, as the directory declares them. */
  partsBytes: 512 * MiB,
  /** The first tab's sheet, unpacked. */
  sheetBytes: 256 * MiB,
  /** The shared strings' part, unpacked, and the strings it holds. */
  sharedStringsBytes: 64 * MiB,
  sharedStrings: 1_000_000,
  /** Each other part read (relationships, workbook, styles), unpacked. */
  otherPartBytes: 16 * MiB,
  /** The sheet's rows × their columns (a row counted as wide as its last cell). */
  cells: 20_000_000,
} as const;

/** A workbook past one of its bounds: one line naming the bound (the command line exits 2). */
export class WorkbookBoundError extends Error {}

const count = (n: number) => n.toLocaleString("en-US");

/**
 * The part readers of exceljs's streaming WorkbookReader (4.4), which its own `parse` calls for
 * each part as it meets it in the archive: here called in the order the sheet needs, its reading
 * of the archive (and its temporary sheets) left aside. Not its documented interface: the
 * workbook tests (test/cli/workbookInput.test.ts) read through them, byte for byte.
 */
interface ReaderParts {
  _parseRels(stream: Readable): Promise<void>;
  _parseWorkbook(stream: Readable): Promise<void>;
  _parseStyles(stream: Readable): Promise<void>;
  _parseSharedStrings(stream: Readable): AsyncIterable<unknown>;
  _parseWorksheet(
    chunks: AsyncIterable<string>,
    sheetNo: string,
  ): Iterable<{ readonly value: ExcelJS.stream.xlsx.WorksheetReader }>;
  workbookRels?: readonly { readonly Id: string; readonly Target: string }[];
  model?: { readonly sheets?: readonly { readonly rId?: string }[] };
}

/** A stream's bytes copied to `file`, refused past `maxBytes` as they are written. */
async function copyWithin(input: Readable, file: string, maxBytes: number): Promise<void> {
  const refusal = () =>
    new WorkbookBoundError(
      `the workbook exceeds ${count(maxBytes)} bytes (a workbook's bound): save the sheet as CSV UTF-8`,
    );
  await pipeline(input, byteBound(maxBytes, refusal), createWriteStream(file, { flags: "wx", mode: 0o600 }));
}

/** Decodes UTF-8 into text whatever the chunks' cuts (exceljs decodes each chunk alone otherwise). */
function utf8Text(): Transform {
  const decoder = new StringDecoder("utf8");
  return new Transform({
    readableObjectMode: true,
    transform(chunk: Buffer, _encoding, done) {
      const text = decoder.write(chunk);
      done(null, text === "" ? undefined : text);
    },
    flush(done) {
      const text = decoder.end();
      done(null, text === "" ? undefined : text);
    },
  });
}

/** The end of a text that may open a `<si` tag whose next character is still to come. */
function openTagTail(text: string): string {
  for (const tail of ["<si", "<s", "<"]) if (text.endsWith(tail)) return tail;
  return "";
}

/** Counts the strings (`<si>` elements) of the shared strings' part as it streams, past the bound refused. */
function stringCounter(): Transform {
  let strings = 0;
  let tail = "";
  return new Transform({
    objectMode: true,
    transform(text: string, _encoding, done) {
      // A tag cut between two chunks is counted once, in the chunk that completes it.
      const seen = tail + text;
      strings += seen.match(/<si[\s>/]/g)?.length ?? 0;
      tail = openTagTail(seen);
      if (strings > WORKBOOK_LIMITS.sharedStrings) {
        done(
          new WorkbookBoundError(
            `the workbook holds more than ${count(WORKBOOK_LIMITS.sharedStrings)} shared strings (a workbook's bound): save the sheet as CSV UTF-8`,
          ),
        );
        return;
      }
      done(null, text);
    },
  });
}

/** `source` through `transform`, a failure of the source failing the transform (pipe alone loses it). */
function through(source: Readable, transform: Transform): Transform {
  source.once("error", (error) => transform.destroy(error));
  transform.once("close", () => source.destroy());
  return source.pipe(transform);
}

/** The sheet part of the first tab (workbook.xml's first sheet), as exceljs names sheets' parts. */
function firstTabPart(reader: ReaderParts, sheets: ReadonlyMap<string, Entry>): string | undefined {
  const rId = reader.model?.sheets?.[0]?.rId;
  const target = reader.workbookRels?.find((rel) => rel.Id === rId)?.Target;
  const part = target === undefined ? undefined : `xl/${target.replace(/^\/?(xl\/)?/, "")}`;
  return part !== undefined && sheets.has(part) ? part : [...sheets.keys()][0];
}

/** An opened workbook's parts: its directory read and checked. */
interface Parts {
  readonly zip: yauzl.ZipFile;
  readonly entries: ReadonlyMap<string, Entry>;
  /** The sheets' parts (`xl/worksheets/sheetN.xml`), in the archive's order. */
  readonly sheets: ReadonlyMap<string, Entry>;
}

/** The directory, its entries and their declared sizes within the bounds. */
async function directoryOf(file: string): Promise<Parts> {
  const zip = await yauzl.openPromise(file, { lazyEntries: true, autoClose: false });
  if (zip.entryCount > WORKBOOK_LIMITS.entries) {
    zip.close();
    throw new WorkbookBoundError(
      `the workbook has ${count(zip.entryCount)} parts, more than ${count(WORKBOOK_LIMITS.entries)} (a workbook's bound)`,
    );
  }
  const entries = new Map<string, Entry>();
  let total = 0;
  for await (const entry of zip.eachEntry()) {
    entries.set(entry.fileName, entry);
    total += entry.uncompressedSize;
  }
  if (total > WORKBOOK_LIMITS.partsBytes) {
    zip.close();
    throw new WorkbookBoundError(
      `the workbook's parts hold ${count(total)} bytes unpacked, more than ${count(WORKBOOK_LIMITS.partsBytes)} (a workbook's bound): save the sheet as CSV UTF-8`,
    );
  }
  const sheets = new Map([...entries].filter(([name]) => /^xl\/worksheets\/sheet\d+\.xml$/.test(name)));
  return { zip, entries, sheets };
}

/**
 * The bounds a workbook's directory alone tells (its parts, their bytes together, its shared
 * strings' bytes), checked without inflating a part: what the /evaluate page checks of a workbook
 * before it starts the command. A WorkbookBoundError past one; an archive yauzl cannot read is
 * left to the command to name.
 */
export async function checkWorkbookDirectory(file: string): Promise<void> {
  let parts: Parts;
  try {
    parts = await directoryOf(file);
  } catch (error) {
    if (error instanceof WorkbookBoundError) throw error;
    return;
  }
  try {
    const strings = parts.entries.get("xl/sharedStrings.xml");
    if (strings !== undefined && strings.uncompressedSize > WORKBOOK_LIMITS.sharedStringsBytes)
      throw tooLarge(
        "xl/sharedStrings.xml",
        "shared strings",
        strings.uncompressedSize,
        WORKBOOK_LIMITS.sharedStringsBytes,
      );
  } finally {
    parts.zip.close();
  }
}

/** The refusal of a part larger than its bound. */
function tooLarge(name: string, what: string, size: number, maxBytes: number): WorkbookBoundError {
  return new WorkbookBoundError(
    `the workbook's ${what} (${name}) holds ${count(size)} bytes unpacked, more than ${count(maxBytes)} (a workbook's bound): save the sheet as CSV UTF-8`,
  );
}

/** A part's text, its declared size within `maxBytes` (yauzl holds the part to it as it inflates). */
async function partText(parts: Parts, name: string, maxBytes: number, what: string): Promise<Readable> {
  const entry = parts.entries.get(name) as Entry;
  if (entry.uncompressedSize > maxBytes) throw tooLarge(name, what, entry.uncompressedSize, maxBytes);
  return through(await parts.zip.openReadStreamPromise(entry), utf8Text());
}

/**
 * The first tab's sheet of the workbook `input` holds, read within WORKBOOK_LIMITS by `reader` (a
 * new exceljs WorkbookReader, whose options say what is cached); null when the workbook has no
 * sheet. The workbook is copied to a temporary folder (`TMPDIR`) first, removed by `close`.
 */
export async function firstSheet(
  input: Readable,
  reader: ExcelJS.stream.xlsx.WorkbookReader,
): Promise<{
  readonly sheet: ExcelJS.stream.xlsx.WorksheetReader | null;
  readonly close: () => Promise<void>;
}> {
  const folder = await mkdtemp(join(tmpdir(), "impact-workbook-"));
  let parts: Parts | null = null;
  const close = async () => {
    parts?.zip.close();
    await rm(folder, { recursive: true, force: true });
  };
  try {
    const file = join(folder, "workbook.xlsx");
    await copyWithin(input, file, WORKBOOK_LIMITS.fileBytes);
    parts = await directoryOf(file);
    return { sheet: await sheetOf(parts, reader as unknown as ReaderParts), close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The parts the sheet needs, read in order, then the sheet's reader (null: no sheet). */
async function sheetOf(
  parts: Parts,
  reader: ReaderParts,
): Promise<ExcelJS.stream.xlsx.WorksheetReader | null> {
  const other = (name: string, what: string) => partText(parts, name, WORKBOOK_LIMITS.otherPartBytes, what);
  if (parts.entries.has("xl/_rels/workbook.xml.rels"))
    await reader._parseRels(await other("xl/_rels/workbook.xml.rels", "relationships"));
  if (parts.entries.has("xl/workbook.xml"))
    await reader._parseWorkbook(await other("xl/workbook.xml", "workbook"));
  if (parts.entries.has("xl/styles.xml")) await reader._parseStyles(await other("xl/styles.xml", "styles"));
  if (parts.entries.has("xl/sharedStrings.xml")) {
    const strings = await partText(
      parts,
      "xl/sharedStrings.xml",
      WORKBOOK_LIMITS.sharedStringsBytes,
      "shared strings",
    );
    for await (const _ of reader._parseSharedStrings(through(strings, stringCounter()))) {
      // Kept by the reader itself (its `sharedStrings: "cache"`).
    }
  }
  const part = firstTabPart(reader, parts.sheets);
  if (part === undefined) return null;
  const sheet = await partText(parts, part, WORKBOOK_LIMITS.sheetBytes, "sheet");
  const sheetNo = /sheet(\d+)\.xml$/.exec(part)?.[1] as string;
  const [worksheet] = [...reader._parseWorksheet(sheet as AsyncIterable<string>, sheetNo)];
  return worksheet?.value ?? null;
}

/** Counts a sheet's rows × columns as they are read, past the bound refused. */
export function cellCounter(): (columns: number) => void {
  let cells = 0;
  return (columns) => {
    cells += Math.max(1, columns);
    if (cells > WORKBOOK_LIMITS.cells) {
      throw new WorkbookBoundError(
        `the workbook's sheet holds more than ${count(WORKBOOK_LIMITS.cells)} cells, rows × columns (a workbook's bound): save the sheet as CSV UTF-8`,
      );
    }
  };
}
