import type { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import yauzl, { type Entry } from "yauzl";
import { FileRefusal } from "./evaluationRequest.js";

/*
 * A ZIP archive sent to the page: a bill's parts (its months, as the page packs several files, or
 * as a person zipped them), which the command reads as parts given one by one
 * (src/support/zipArchive.ts). Its lines cannot be counted as it arrives (its directory is at its
 * end), so it is checked once received, before its run starts, against the bounds of one file:
 * its parts at most MAX_BILL_PARTS, their bytes unpacked (as files: a `.csv.gz` part gzipped) the
 * page's bytes, their lines (a text part's, a gzipped part's inflated) the page's lines, a gzipped
 * part's text its inflated bytes, the whole reading its inflation's time. The entries are read as
 * streams (zlib's threads inflate them), their sizes checked against their directory by yauzl.
 * An archive the check cannot read, or an entry of another kind, goes to the command, which says
 * what it is.
 */

/** Files read as one bill at most: chosen on the page, or held by an archive sent. */
export const MAX_BILL_PARTS = 36;

/** The bounds an archive is held to (FileEvaluationBounds, src/service/fileEvaluation.ts). */
export interface ArchiveBounds {
  readonly maxBytes: number;
  readonly maxLines: number;
  readonly maxInflatedBytes: number;
  readonly inflateMs: number;
}

/** What a desktop adds beside the files it packs: no data (as the command skips it). */
const LEFTOVER = /(^|\/)(__MACOSX\/|\._|\.DS_Store$|Thumbs\.db$|desktop\.ini$)/;

/** A part whose lines are counted: text, or gzipped text (a Parquet part's rows are not lines). */
const TEXT_PART = /\.(csv|json|ndjson|jsonl)(\.gz)?$/i;

const count = (n: number) => n.toLocaleString("en");
const mib = (bytes: number) => `${bytes / 1024 / 1024} MiB`;

/** The archive's data entries, its directory within the bounds of parts and bytes. */
async function dataEntries(zip: yauzl.ZipFile, bounds: ArchiveBounds): Promise<Entry[]> {
  if (zip.entryCount > 10 * MAX_BILL_PARTS) {
    throw new FileRefusal(
      413,
      `the ZIP archive has ${count(zip.entryCount)} entries; the page reads ${MAX_BILL_PARTS} files of one bill at most (the page's bound)`,
    );
  }
  const entries: Entry[] = [];
  for await (const entry of zip.eachEntry()) {
    if (!entry.fileName.endsWith("/") && !LEFTOVER.test(entry.fileName)) entries.push(entry);
  }
  if (entries.length > MAX_BILL_PARTS) {
    throw new FileRefusal(
      413,
      `the ZIP archive holds ${entries.length} files; the page reads ${MAX_BILL_PARTS} files of one bill at most (the page's bound)`,
    );
  }
  const unpacked = entries.reduce((sum, entry) => sum + entry.uncompressedSize, 0);
  if (unpacked > bounds.maxBytes) {
    throw new FileRefusal(
      413,
      `the ZIP archive's files hold ${count(unpacked)} bytes unpacked, more than ${mib(bounds.maxBytes)} (the page's bound, its files counted as one)`,
    );
  }
  return entries;
}

/** Counts the lines of the archive's text parts, together, within the bounds. */
function lineCounting(bounds: ArchiveBounds) {
  let lines = 0;
  let inflated = 0;
  let inflatingMs = 0;
  const counted = async (stream: Readable, gzipped: boolean): Promise<void> => {
    const started = performance.now();
    const text = gzipped ? stream.pipe(createGunzip()) : stream;
    if (gzipped) stream.once("error", (error) => text.destroy(error));
    for await (const chunk of text as AsyncIterable<Buffer>) {
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines += 1;
      if (lines > bounds.maxLines) {
        throw new FileRefusal(
          413,
          `the ZIP archive's files have more than ${count(bounds.maxLines)} lines (the page's bound, its files counted as one)`,
        );
      }
      if (gzipped) inflated += chunk.length;
      if (inflated > bounds.maxInflatedBytes) {
        throw new FileRefusal(
          413,
          `the ZIP archive's gzipped files inflate to more than ${bounds.maxInflatedBytes / 1024 / 1024 / 1024} GiB (the page's bound)`,
        );
      }
      if (inflatingMs + (performance.now() - started) > bounds.inflateMs) {
        throw new FileRefusal(
          413,
          `the ZIP archive took more than ${bounds.inflateMs / 1000} s to read (the page's bound)`,
        );
      }
    }
    inflatingMs += performance.now() - started;
  };
  return counted;
}

/**
 * An archive at `path` (named `.zip`) checked within `bounds`: a FileRefusal (413) naming the
 * bound it passes. Anything else, or an archive the check cannot read (damaged, encrypted
 * entries), is left to the command.
 */
export async function checkArchive(path: string, bounds: ArchiveBounds): Promise<void> {
  if (!path.toLowerCase().endsWith(".zip")) return;
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(path, { lazyEntries: true, autoClose: false });
  } catch {
    return;
  }
  try {
    const entries = await dataEntries(zip, bounds);
    const counted = lineCounting(bounds);
    for (const entry of entries) {
      if (!TEXT_PART.test(entry.fileName) || entry.isEncrypted()) continue;
      await counted(await zip.openReadStreamPromise(entry), /\.gz$/i.test(entry.fileName));
    }
  } catch (error) {
    if (error instanceof FileRefusal) throw error;
    // A damaged entry or gzip: the command's to name.
  } finally {
    zip.close();
  }
}
