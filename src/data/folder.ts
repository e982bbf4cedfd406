import {
  closeSync,
  constants,
  type Dirent,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  type Stats,
  statSync,
} from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { ParsedCsv } from "./overlay.js";
import { readStoredTables } from "./storedTables.js";
import { DataError, displayPath } from "./validate.js";

/*
 * The files of a data folder, read safely (docs/own-data.md): a file is
 * named by a relative path of checked names (no `..`, no absolute path), resolved with its
 * symbolic links and refused when it leads outside the folder, read only when it is a regular
 * file, and its size checked against what remains of the bound before a byte is read. A custom
 * edition's folder is an organisation's, mounted or copied by hand: any of these may be wrong.
 */

/** What the custom editions of one start-up may hold, all together (MAX_CUSTOM_DATA_*, src/config/serviceConfig.ts). */
export interface DataBounds {
  /** Bytes of every file read from custom data folders. */
  readonly maxBytes: number;
  /** Rows of every CSV table read from custom data folders. */
  readonly maxRows: number;
  /** Bytes of one YAML file (factors.yml, config.yml): parsed YAML takes ~80 times its size in heap. */
  readonly maxYamlBytes: number;
}

/**
 * The default bounds: measured by bench/customEdition.ts (bench/README.md, "Custom editions at the
 * shipped heap"), a start-up at these bounds fits the shipped 768 MB heap with the built-in
 * editions and room for a served fleet.
 * A YAML file has its own, smaller bound: a 4 MB factors.yml holds 313 MB of heap once parsed, a
 * 16 MB one exhausts the heap, and the parser checks a mapping's keys pairwise (a 2 MB one of
 * 16,000 locations took 65 s to start); the published factors.yml is 0.5 MB.
 */
export const DEFAULT_DATA_BOUNDS: DataBounds = {
  maxBytes: 16 * 1024 * 1024,
  maxRows: 50_000,
  maxYamlBytes: 1024 * 1024,
};

/** What remains of the bounds while the custom editions are read (one per start-up). */
export interface DataBudget {
  readonly bounds: DataBounds;
  bytesLeft: number;
  rowsLeft: number;
}

export function dataBudget(bounds: DataBounds): DataBudget {
  return { bounds, bytesLeft: bounds.maxBytes, rowsLeft: bounds.maxRows };
}

/** A name in a data folder's path: letters, digits, `_`, `-`, `.` (not first, so no `..` nor hidden files). */
const NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;

/** Whether a name may be a file or folder name of a data folder (a provider name becomes one). */
export function isDataFileName(name: string): boolean {
  return NAME.test(name);
}

/** Entries a folder's listing looks at (the stray-file warning), and how deep. */
const MAX_LISTED_ENTRIES = 10_000;
const MAX_LISTED_DEPTH = 8;

/** A data folder: where its files are, how messages name them, the files asked for, its budget. */
export interface DataFolder {
  /** The folder as configured (messages name files under it). */
  readonly dir: URL;
  /** Its real path (symbolic links resolved): every file read must resolve inside it. */
  readonly real: string;
  /** The bounds this folder's files count against; null for the built-in data sets. */
  readonly budget: DataBudget | null;
  /** Every relative path asked for, present or not (what the edition reads). */
  readonly asked: Set<string>;
  /** A built-in data set's tables as parsed by `npm run data` (src/data/storedTables.ts), by file; null for a custom folder. */
  readonly stored: ReadonlyMap<string, ParsedCsv> | null;
}

/**
 * A data folder; a built-in one (no budget) with its stored tables unless `stored` is false (what
 * `npm run data` parses them from).
 */
export function dataFolder(dir: URL, budget: DataBudget | null, stored = budget === null): DataFolder {
  let real: string;
  try {
    real = realpathSync(fileURLToPath(dir));
  } catch (error) {
    throw new DataError(`${displayPath(dir, ".")}: ${systemProblem(error)}`);
  }
  return { dir, real, budget, asked: new Set(), stored: stored ? readStoredTables(real) : null };
}

/** A file system error as one line (its code and what it means), never a stack. */
function systemProblem(error: unknown): string {
  const code = (error as { code?: string }).code;
  const meaning: Record<string, string> = {
    ENOENT: "no such file",
    EACCES: "permission denied",
    EISDIR: "a folder, not a file",
    ELOOP: "a loop of symbolic links",
    ENAMETOOLONG: "name too long",
    ENOTDIR: "a path through something that is not a folder",
  };
  return code ? `cannot read (${code}${meaning[code] ? `: ${meaning[code]}` : ""})` : "cannot read";
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return "a folder";
  if (stats.isFIFO()) return "a FIFO";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  return "not a regular file";
}

/**
 * Whether a file is in the folder (`lstat`: a symbolic link counts, wherever it leads). A file
 * absent from a custom folder is the base's.
 * @throws DataError for a name that is not a data file name.
 */
export function hasFile(folder: DataFolder, file: string): boolean {
  const path = checkedPath(folder, file);
  folder.asked.add(file);
  try {
    lstatSync(path);
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return false;
    throw new DataError(`${displayPath(folder.dir, file)}: ${systemProblem(error)}`);
  }
}

function checkedPath(folder: DataFolder, file: string): string {
  const bad = file.split("/").find((name) => !isDataFileName(name));
  if (bad !== undefined) {
    throw new DataError(
      `${folder.real}: ${JSON.stringify(file.slice(0, 80))}: not a data file name (letters, digits, '_', '-', '.'; no '..' nor '/' at either end)`,
    );
  }
  return join(folder.real, file);
}

/**
 * A file's text, or null when the folder has no such file. Its real path must be inside the
 * folder, it must be a regular file (opened without blocking: a FIFO is refused, not waited for),
 * and its size within what remains of the folder's byte bound — all before it is read.
 * @throws DataError (one line naming the file) otherwise.
 */
export function readDataFile(folder: DataFolder, file: string): string | null {
  if (!hasFile(folder, file)) return null;
  const where = displayPath(folder.dir, file);
  let real: string;
  try {
    real = realpathSync(checkedPath(folder, file));
  } catch (error) {
    throw new DataError(`${where}: ${systemProblem(error)}`);
  }
  if (real !== folder.real && !real.startsWith(folder.real + sep)) {
    throw new DataError(`${where}: a symbolic link leading outside the data folder ${folder.real}`);
  }
  let fd: number;
  try {
    fd = openSync(real, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (error) {
    throw new DataError(`${where}: ${systemProblem(error)}`);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new DataError(`${where}: ${kindOf(stats)}, expected a regular file`);
    const budget = folder.budget;
    if (budget !== null && /\.ya?ml$/.test(file) && stats.size > budget.bounds.maxYamlBytes) {
      throw new DataError(
        `${where}: ${stats.size} bytes, more than MAX_CUSTOM_YAML_BYTES=${budget.bounds.maxYamlBytes} (the bytes of one YAML file; factors.json has no such bound)`,
      );
    }
    if (budget !== null && stats.size > budget.bytesLeft) {
      throw new DataError(
        `${where}: ${stats.size} bytes, more than the ${budget.bytesLeft} left of MAX_CUSTOM_DATA_BYTES=${budget.bounds.maxBytes} (the bytes of every custom data folder together)`,
      );
    }
    const bytes = Buffer.alloc(stats.size);
    let read = 0;
    while (read < stats.size) {
      const n = readSync(fd, bytes, read, stats.size - read, null);
      if (n === 0) break;
      read += n;
    }
    if (budget !== null) budget.bytesLeft -= read;
    return bytes.toString("utf8", 0, read);
  } catch (error) {
    if (error instanceof DataError) throw error;
    throw new DataError(`${where}: ${systemProblem(error)}`);
  } finally {
    closeSync(fd);
  }
}

/**
 * Counts `rows` more rows against the folder's row bound.
 * @throws DataError naming the file and the bound when they do not fit.
 */
export function countRows(folder: DataFolder, where: string, rows: number): void {
  const budget = folder.budget;
  if (budget === null) return;
  if (rows > budget.rowsLeft) {
    throw new DataError(
      `${where}: more than the ${budget.rowsLeft} rows left of MAX_CUSTOM_DATA_ROWS=${budget.bounds.maxRows} (the rows of every custom data folder together)`,
    );
  }
  budget.rowsLeft -= rows;
}

/** The rows a folder may still give (the parser stops past it). */
export function rowsLeft(folder: DataFolder): number {
  return folder.budget?.rowsLeft ?? Number.POSITIVE_INFINITY;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The files of a folder the edition did not ask for (relative paths), hidden names (`.git`,
 * Kubernetes' `..data`) and `ignore` left out; symbolic links are listed, not followed. At most
 * MAX_LISTED_ENTRIES entries and MAX_LISTED_DEPTH levels are looked at.
 */
export function unreadFiles(folder: DataFolder, ignore: ReadonlySet<string> = new Set()): string[] {
  const unread: string[] = [];
  let seen = 0;
  const walk = (path: string, depth: number) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(path, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (++seen > MAX_LISTED_ENTRIES) return;
      if (entry.name.startsWith(".")) continue;
      const full = join(path, entry.name);
      const name = relative(folder.real, full).split(sep).join("/");
      // A link to a folder is walked as the folder it stands for (a Kubernetes ConfigMap mount
      // links each top-level name into its hidden `..data`); the bounds stop a loop of links.
      if (entry.isDirectory() || (entry.isSymbolicLink() && isFolder(full))) {
        if (depth < MAX_LISTED_DEPTH) walk(full, depth + 1);
      } else if (!folder.asked.has(name) && !ignore.has(full)) {
        unread.push(name);
      }
    }
  };
  walk(folder.real, 0);
  return unread.sort();
}
