/*
 * The files a command names: the input read as the file named (never a pattern), an output that
 * is never the input, and an output written as a shell's redirect writes it — into a FIFO or a
 * device as it is, through a symbolic link to its target — never replacing what is there by
 * something else. Every file of one run is known in one place before anything is written: the
 * files it reads and those it writes (each beside the `.partial` file it is written as until
 * complete), each resolved once — its device and inode when it exists (links followed), else its
 * folder's real path and its name — so that no spelling, link or folder option makes a written
 * file one the run reads, or two written files one.
 */

import { createReadStream, existsSync, lstatSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import type { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { fileContent, unreadRefusal } from "./fileStart.js";
import { type OutputOptions, pipedOutput } from "./outputFile.js";

/** A file named on the command line that cannot be used as named: one line, exit 2. */
export class FileMisuse extends Error {}

/** What the system's error codes of a file say, in words (no code, no system call). */
const FILE_ERRORS: Readonly<Record<string, string>> = {
  ENOENT: "no such file or folder",
  EACCES: "permission denied",
  EPERM: "not permitted",
  EISDIR: "a folder, not a file",
  ENOTDIR: "a part of its path is a file, not a folder",
  ENAMETOOLONG: "its name is too long",
  ELOOP: "too many symbolic links on its path",
  EROFS: "on a read-only file system",
  ENOSPC: "no space left on its device",
  EDQUOT: "the disk quota is exceeded",
  EFBIG: "too large for the file size limit",
  EMFILE: "too many files open at once",
  EBUSY: "busy",
  EIO: "an input/output error of its device",
};

/**
 * A file's system error (ENOENT, EACCES…) as a sentence naming the file (`in.csv: no such file or
 * folder`); null for an error that is no file's. An unlisted code keeps the system's words, its
 * code and call left out.
 */
export function fileErrorLine(error: unknown): string | null {
  const { code, path, message } = (error ?? {}) as NodeJS.ErrnoException;
  if (typeof code !== "string" || !/^E[A-Z]+$/.test(code)) return null;
  const words =
    FILE_ERRORS[code] ??
    String(message)
      .replace(new RegExp(`^${code}: `), "")
      .replace(/, \w+ '[^']*'$/, "");
  return path === undefined ? words : `${path}: ${words}`;
}

/**
 * A file a run is given to read (not standard input, `-`): one that exists, is no folder and is
 * not empty (the /evaluate page refuses an empty file in the same words, EMPTY_FILE).
 */
export function checkedInput(file: string): void {
  if (file === "-") return;
  let stats: ReturnType<typeof statSync>;
  try {
    stats = statSync(file);
  } catch (error) {
    throw new FileMisuse(fileErrorLine(error) ?? `${file}: cannot be read`);
  }
  if (stats.isDirectory()) throw new FileMisuse(`${file}: a folder, not a file`);
  if (stats.isFile() && stats.size === 0) throw new FileMisuse(`${file}: ${EMPTY_FILE}`);
}

/** What an empty file is told, here and on the /evaluate page. */
export const EMPTY_FILE = "the file is empty";

/**
 * What the /evaluate page tells of a file whose run read no line (a header alone: a bill's rows
 * read 0, an inventory's 0 rows) rather than a report of zeros.
 */
export const NO_LINES = "the file has no lines below its header: nothing to evaluate, no report";

/**
 * A file a run is to write (`-o`, `--report`, a groups file), usable before any row is read: not a
 * folder, and in a folder that exists.
 */
export function checkedOutput(option: string, path: string): void {
  if (isFolder(path)) throw new FileMisuse(`${option} ${path}: a folder, not a file`);
  if (existsSync(path)) return;
  const folder = dirname(resolve(path));
  if (!isFolder(folder))
    throw new FileMisuse(`${option} ${path}: its folder ${dirname(path)} does not exist`);
}

/** Whether a path names a folder (through links). */
function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * An inventory's input and outputs, usable as named: the input exists, is no folder and is not
 * empty (a FIFO, a device, a process substitution are read as streams), no output is a folder or in
 * a folder that does not exist.
 */
export function checkedInventoryFiles(
  input: string,
  outputs: readonly (readonly [option: string, path: string | undefined])[],
): void {
  checkedInput(input);
  for (const [option, path] of outputs) if (path !== undefined) checkedOutput(option, path);
}

/**
 * A file an option names for the command to read by its name (`sql --header`, `tables --keys`): a
 * regular file (the read of a FIFO's or a device's start would wait for a writer, the event loop
 * held), of a kind its reader takes by its first bytes; a ZIP archive or a file no reader takes is
 * refused in one line. Its kind: text (gzipped or not) or Parquet.
 */
export function readByName(option: string, file: string): "text" | "gzip" | "parquet" {
  if (!statSync(file).isFile())
    throw new FileMisuse(`${option} ${file}: not a regular file (it is read from a file)`);
  const content = fileContent(file);
  const refusal = unreadRefusal(`${option} ${file}`, content);
  if (refusal !== null) throw new FileMisuse(refusal);
  // No refusal: text, gzip or Parquet.
  return content as "text" | "gzip" | "parquet";
}

/** A folder an option names to write files into: refused when a file (made by the run once it succeeds). */
export function checkedFolder(option: string, path: string): string {
  if (existsSync(path) && !isFolder(path)) throw new FileMisuse(`${option} ${path}: not a folder`);
  return path;
}

/** Where a run that writes whole files (renamed in place once complete) puts one it is asked for. */
export interface Destination {
  /** The regular file the run writes. */
  readonly path: string;
  /** A FIFO or a device the complete file is then written into; null when `path` is the output. */
  readonly into: string | null;
}

/**
 * The destination of an output path: the path itself (a regular file, or nothing yet), a
 * symbolic link's target (the link kept), or — a FIFO, a device — a file in `scratch` written
 * into it once complete, as a shell's redirect writes (the FIFO stays a FIFO).
 */
export function destinationOf(path: string, scratch: string, option = "the file"): Destination {
  let stats: ReturnType<typeof lstatSync>;
  try {
    stats = lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    checkedOutput(option, path);
    return { path, into: null };
  }
  if (stats.isSymbolicLink()) {
    let target: string;
    try {
      target = realpathSync(path);
    } catch {
      throw new FileMisuse(`${path}: a symbolic link to nothing`);
    }
    return destinationOf(target, scratch, option);
  }
  if (stats.isDirectory()) throw new FileMisuse(`${path}: a folder, not a file`);
  if (stats.isFile()) return { path, into: null };
  return { path: join(scratch, basename(path)), into: path };
}

/** The files a run writes whole and the folder it fills, as named (null: not asked for). */
export interface AskedOutputs {
  readonly output: string | null;
  readonly groups: string | null;
  readonly report: string | null;
  readonly whatIf: string | null;
  /** A folder of files (`--tables`) and its option. */
  readonly folder: { readonly option: string; readonly path: string } | null;
}

/** Where an AskedOutputs' files go (destinationOf), and its folder, checked. */
export interface CheckedOutputs {
  readonly output: Destination | null;
  readonly groups: Destination | null;
  readonly report: Destination | null;
  readonly whatIf: Destination | null;
  readonly folder: string | null;
}

/**
 * Every file of a run checked together, before any is read or written: no part named twice
 * (refuseRepeatedParts), no written file one the run reads or another it writes
 * (refuseOverlappingFiles), then where each written file goes and the folder it fills, in that
 * order; the first misuse found is the one said.
 */
export function checkedRunFiles(
  parts: readonly string[],
  files: RunFiles,
  asked: AskedOutputs,
  scratch: string,
): CheckedOutputs {
  refuseRepeatedParts(parts);
  refuseOverlappingFiles(files);
  const to = (path: string | null, option: string) =>
    path === null ? null : destinationOf(path, scratch, option);
  const output = to(asked.output, "--output");
  const folder = asked.folder === null ? null : checkedFolder(asked.folder.option, asked.folder.path);
  return {
    output,
    folder,
    groups: to(asked.groups, "--group-by's file"),
    report: to(asked.report, "--report"),
    whatIf: to(asked.whatIf, "--what-if"),
  };
}

/**
 * Writes a destination's complete file into its FIFO or device (nothing for a regular file),
 * opened without blocking (src/support/outputFile.ts): a FIFO without a reader waited for until
 * `options.signal` ends the wait.
 */
export async function deliver(destination: Destination, options: OutputOptions = {}): Promise<void> {
  if (destination.into === null) return;
  await pipedOutput(destination.into, () => createReadStream(destination.path), options);
}

/** A run's written files and where each goes: the lines (null: standard output), the groups, the report. */
export interface RunDestinations {
  /** The complete lines' file. */
  readonly lines: string;
  readonly output: Destination | null;
  readonly groups: Destination | null;
  readonly report: Destination | null;
}

/**
 * The written files where they were asked for (standard output, a FIFO, a device), in one step:
 * the report's page (`page`, its HTML) first, then the lines and the groups.
 */
export async function deliverOutputs(
  destinations: RunDestinations,
  stdout: Writable,
  page: string | null,
  options: OutputOptions = {},
): Promise<void> {
  const { lines, output, groups, report } = destinations;
  if (report !== null && page !== null) {
    writeFileSync(report.path, page);
    await deliver(report, options);
  }
  if (output === null) {
    await pipeline(createReadStream(lines), stdout, {
      end: false,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } else await deliver(output, options);
  if (groups !== null) await deliver(groups, options);
}

/** A file an option names (the option as the user typed it, the path as given). */
export interface NamedFile {
  readonly option: string;
  readonly path: string;
}

/** What a run reads and writes. */
export interface RunFiles {
  readonly reads: readonly NamedFile[];
  readonly writes: readonly NamedFile[];
}

/** A file's identity: its device and inode (through links), or where it would be made. */
function identityOf(path: string): string {
  try {
    const { dev, ino } = statSync(path);
    return `inode ${dev}:${ino}`;
  } catch {
    // Not there yet (or a link to nothing): the real folder it would be made in, and its name.
    const absolute = resolve(path);
    let folder = dirname(absolute);
    try {
      folder = realpathSync(folder);
    } catch {
      // A folder still to be made (--tables): its path as written.
    }
    return `path ${resolve(folder, basename(absolute))}`;
  }
}

/** `--output out.csv`, or `--output's partial out.csv.partial`. */
const shown = (file: NamedFile) => `${file.option} ${file.path}`;

/**
 * Refuses a run whose written file is a file it reads, or whose two written files are one (each
 * checked with its `.partial`): one line, before anything is written.
 */
export function refuseOverlappingFiles(files: RunFiles): void {
  const read = new Map<string, NamedFile>();
  for (const file of files.reads) {
    if (file.path !== "-" && !read.has(identityOf(file.path))) read.set(identityOf(file.path), file);
  }
  const written = new Map<string, NamedFile>();
  for (const file of files.writes) {
    const identity = identityOf(file.path);
    const input = read.get(identity);
    if (input !== undefined) {
      throw new FileMisuse(
        `${shown(file)} is ${input.option === "the input" ? "the input" : `the ${input.option} file`} ${input.path}: name another file; nothing written`,
      );
    }
    const other = written.get(identity);
    if (other !== undefined) {
      throw new FileMisuse(`${shown(file)} is also ${shown(other)}: name another file; nothing written`);
    }
    written.set(identity, file);
  }
}

/**
 * Refuses a bill whose part is named twice, by any spelling or link: its lines would be read, and
 * counted, twice.
 */
export function refuseRepeatedParts(parts: readonly string[]): void {
  const seen = new Map<string, string>();
  for (const part of parts) {
    const identity = identityOf(part);
    const earlier = seen.get(identity);
    if (earlier !== undefined) {
      throw new FileMisuse(`${part} is also ${earlier}: a part named twice would count its lines twice`);
    }
    seen.set(identity, part);
  }
}

/** The files read by any run: the editions file (EDITIONS_FILE) when there is one. */
export function environmentReads(environment: NodeJS.ProcessEnv): NamedFile[] {
  const editions = environment.EDITIONS_FILE;
  return editions === undefined || editions === "" ? [] : [{ option: "EDITIONS_FILE", path: editions }];
}

/** The file an option names, if it names one. */
export function named(option: string, path: string | undefined | null): NamedFile[] {
  return path === undefined || path === null ? [] : [{ option, path }];
}
