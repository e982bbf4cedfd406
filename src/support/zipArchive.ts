import { createWriteStream, type WriteStream } from "node:fs";
import { join } from "node:path";
import type { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import yauzl, { type Entry } from "yauzl";
import { freeBytes, SPARE_BYTES } from "./boundedCopy.js";
import { printable } from "./terminalText.js";

/*
 * A ZIP archive read as the one file it holds: an AWS Cost and Usage Report delivered with ZIP
 * compression (`report-00001.csv.zip`), an inventory packed by a desktop's "Compress". The file is
 * unpacked into a folder of the caller's, then read as if it had been named: its own name tells its
 * kind (a bill, an inventory, a workbook). yauzl reads the archive's directory and checks each
 * entry's bytes against the size it declares, so an archive that lies about a size stops there.
 * Which file is the data is never guessed: an archive holding none, or more than one, is refused
 * naming them.
 */

/** Why an archive's file is not read: one line for the user (the command line exits 2). */
export class ArchiveRefusal extends Error {}

/** An archive's bounds: its directory (entries listed before any is read), and the disk it leaves. */
export const ZIP_LIMITS = {
  entries: 10_000,
  /** Room left on the unpacking folder's disk once the file is there: the outputs need some. */
  spareBytes: SPARE_BYTES,
} as const;

/** A bill's file by its ending: a text, gzipped, Parquet or JSON. */
const BILL_FILE = /\.(csv|csv\.gz|parquet|json|json\.gz)$/i;

/** What a desktop adds beside the files it packs (macOS's resource forks, Windows' thumbnails): no data. */
function isPackingLeftover(name: string): boolean {
  const base = name.slice(name.lastIndexOf("/") + 1);
  return (
    name.startsWith("__MACOSX/") ||
    base.startsWith("._") ||
    base === ".DS_Store" ||
    base === "Thumbs.db" ||
    base === "desktop.ini"
  );
}

/** The archive's data files: its entries less folders and packing leftovers. */
async function dataEntries(archive: string, zip: yauzl.ZipFile): Promise<Entry[]> {
  if (zip.entryCount > ZIP_LIMITS.entries) {
    throw new ArchiveRefusal(
      `${archive}: a ZIP archive of ${zip.entryCount} entries; one holding a single file is read (${ZIP_LIMITS.entries} entries at most)`,
    );
  }
  const entries: Entry[] = [];
  for await (const entry of zip.eachEntry()) {
    if (!entry.fileName.endsWith("/") && !isPackingLeftover(entry.fileName)) entries.push(entry);
  }
  return entries;
}

/** The one data file, or the refusal naming what the archive holds. */
function onlyEntry(archive: string, entries: readonly Entry[]): Entry {
  const [entry, ...others] = entries;
  if (entry === undefined) throw new ArchiveRefusal(`${archive}: the ZIP archive holds no file`);
  if (others.length > 0) {
    const names = entries.slice(0, 5).map((each) => each.fileName);
    const more = entries.length > 5 ? `, and ${entries.length - 5} more` : "";
    throw new ArchiveRefusal(
      `${archive}: the ZIP archive holds ${entries.length} files (${names.join(", ")}${more}); one is read: unzip it and name its files (one bill's parts are read together)`,
    );
  }
  if (entry.isEncrypted()) {
    throw new ArchiveRefusal(
      `${archive}: ${entry.fileName} is protected by a password: unzip it and give the file`,
    );
  }
  return entry;
}

/**
 * The copy's name: the file's own, its ending kept (it tells the readers a `.parquet`, a `.xlsx`),
 * with only letters, digits, `.`, `-` and `_` (what the run prints names the file as the archive
 * does, never by this name) and short enough for any file system.
 */
function localName(fileName: string): string {
  const base = fileName.slice(fileName.lastIndexOf("/") + 1).replace(/[^\w.-]/g, "_");
  return base.length > 100 ? base.slice(-100) : base;
}

/** A ZIP archive's file, unpacked. */
export interface UnpackedMember {
  /** The archive as given. */
  readonly archive: string;
  /** The unpacked copy (its name: localName): what the readers read. */
  readonly file: string;
  /** How messages name it: `cur.csv.zip (report-00001.csv)`. */
  readonly shown: string;
  /** The line on stderr saying which file of the archive is read. */
  readonly note: string;
}

/** Why yauzl could not read the archive, in the user's words. */
function unreadable(archive: string, error: unknown): ArchiveRefusal {
  if (error instanceof ArchiveRefusal) return error;
  const message = (error as Error).message.split("\n")[0].slice(0, 200);
  const method = /unsupported compression method: (\d+)/.exec(message);
  return new ArchiveRefusal(
    method === null
      ? `${archive}: the ZIP archive is damaged or cut short (${message}); nothing read`
      : `${archive}: the ZIP archive is compressed by method ${method[1]}, which is not read here (deflate is): unzip it and give the file`,
  );
}

/** What unpacking is given besides the archive. */
export interface Unpacking {
  /** An empty folder of the caller's (who removes it), on the disk the copy is written to. */
  readonly folder: string;
  /** Stops the copy where it is (an interruption). */
  readonly signal?: AbortSignal;
  /** The bytes free where a folder is. */
  readonly free?: (folder: string) => number;
  /** Files read together at most (a bill's parts), counted before any is unpacked. */
  readonly most?: number;
}

/**
 * Unpacks the one file of `archive` into `folder`, refused when the disk there would keep less
 * than ZIP_LIMITS.spareBytes (checked on the size the archive declares, before a byte is written;
 * yauzl stops an entry inflating past it). An interruption rejects with the signal's reason.
 */
export async function unpackedMember(archive: string, unpacking: Unpacking): Promise<UnpackedMember> {
  const [member] = await unpackedMembers(archive, unpacking, false);
  return member;
}

/**
 * Unpacks the files of `archive` into `folder` (`several`: each of several, by their names'
 * order, as a bill's months or parts; else the one), refused as unpackedMember says.
 */
export async function unpackedMembers(
  archive: string,
  { folder, signal, free = freeBytes, most = Number.POSITIVE_INFINITY }: Unpacking,
  several: boolean,
): Promise<UnpackedMember[]> {
  let zip: yauzl.ZipFile | undefined;
  let copy: WriteStream | undefined;
  try {
    zip = await yauzl.openPromise(archive, { lazyEntries: true, autoClose: false });
    const found = await dataEntries(archive, zip);
    // Several files are read together where each is a bill's file by its ending (a month's, a part)
    const together = several && found.length > 1 && found.every((entry) => BILL_FILE.test(entry.fileName));
    const entries = together
      ? [...found].sort((a, b) => a.fileName.localeCompare(b.fileName))
      : [onlyEntry(archive, found)];
    if (entries.length > most) {
      throw new ArchiveRefusal(
        `${archive}: a ZIP archive of ${entries.length.toLocaleString("en-US")} files read together; a bill is read in ${most.toLocaleString("en-US")} parts at most`,
      );
    }
    const locked = entries.find((entry) => entry.isEncrypted());
    if (locked !== undefined) onlyEntry(archive, [locked]);
    const bytes = entries.reduce((sum, entry) => sum + entry.uncompressedSize, 0);
    const room = free(folder) - ZIP_LIMITS.spareBytes;
    if (bytes > room) {
      const what = entries.length === 1 ? entries[0].fileName : `its ${entries.length} files`;
      throw new ArchiveRefusal(
        `${archive}: ${what} holds ${bytes} bytes unpacked; the temporary folder's disk has room for ${Math.max(room, 0)} (TMPDIR names another)`,
      );
    }
    const members: UnpackedMember[] = [];
    for (const [index, entry] of entries.entries()) {
      signal?.throwIfAborted();
      const file = join(folder, `${entries.length === 1 ? "" : `${index}-`}${localName(entry.fileName)}`);
      const entryBytes = await zip.openReadStreamPromise(entry);
      copy = createWriteStream(file, { flags: "wx" });
      await pipeline(entryBytes, copy, signal === undefined ? {} : { signal });
      members.push({
        archive,
        file,
        shown: `${printable(archive)} (${printable(entry.fileName)})`,
        note: `${printable(archive)}: a ZIP archive; its file ${printable(entry.fileName)} (${entry.uncompressedSize} bytes) is read${entries.length === 1 ? "" : `, ${index + 1} of ${entries.length} read as one bill`}`,
      });
    }
    return members;
  } catch (error) {
    // The copy closed before the caller removes its folder: an open still under way would
    // otherwise fail after the pipeline let go of it, an error nobody hears.
    const closing = copy;
    if (closing !== undefined && !closing.closed) {
      // Its close, whatever error it reports on the way (the pipeline's, already caught).
      await new Promise<void>((resolve) => closing.once("close", () => resolve()));
    }
    if (signal?.aborted) throw signal.reason;
    throw unreadable(archive, error);
  } finally {
    zip?.close();
  }
}

/**
 * A stream whose written text names each unpacked copy as its archive's file (`shown`): the
 * readers name the file they read, the user knows the archive. Everything else is the stream's.
 */
export function namingMembers<S extends Writable>(stream: S, members: readonly UnpackedMember[]): S {
  const named = (text: string) =>
    members.reduce((result, member) => result.replaceAll(member.file, member.shown), text);
  const write = (chunk: unknown, ...rest: unknown[]) =>
    (stream.write as (...args: unknown[]) => boolean)(
      typeof chunk === "string" ? named(chunk) : chunk,
      ...rest,
    );
  return new Proxy(stream, {
    get(target, property) {
      if (property === "write") return write;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
