/*
 * The files of a bill given otherwise than one by one: a folder (an account's monthly exports, as
 * downloaded) read as the bill files it holds, in their names' order; and several AWS CUR
 * manifests (a legacy CUR's `<report>-Manifest.json` of each month, given together or found in the
 * folder of a download: `<report>/<yyyymmdd-yyyymmdd>/<report>-Manifest.json`) read as the parts
 * each names, month after month — one bill in time. The files are then read as a bill's parts are
 * (src/billing/bill.ts): each month's coverage is said, the report shows the months side by side.
 */

import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { InputFileError } from "../duckdb/errors.js";
import { FileMisuse } from "../support/namedFiles.js";
import type { EvaluateArgs } from "./options.js";

/** A bill file by its name's ending: a text, gzipped, Parquet, JSON or a ZIP of one. */
const BILL_FILE = /\.(csv|csv\.gz|parquet|json|json\.gz|zip)$/i;
/** A legacy CUR's manifest, by its name. */
const MANIFEST = /-Manifest\.json$/i;
/** Folders looked into below the one given for manifests (a download's report and month folders). */
const MANIFEST_DEPTH = 2;

/** The manifests below `folder`, `depth` folders down at most, by their paths' order. */
function manifestsBelow(folder: string, depth: number): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.name.startsWith(".")) continue;
    const path = join(folder, entry.name);
    if (MANIFEST.test(entry.name) && isFile(path)) found.push(path);
    else if (depth > 0 && isFolder(path)) found.push(...manifestsBelow(path, depth - 1));
  }
  return found.sort();
}

/**
 * `evaluate <folder>`: its bill files (not its hidden ones nor its manifests), in their names'
 * order; where it holds none, the CUR manifests below it. A folder of neither, or whose first file
 * is no bill (`isBill`: an inventory is one file, named), is refused as a folder.
 */
export function folderArgs(
  args: EvaluateArgs,
  isBill: (file: string) => boolean,
  most: number,
): EvaluateArgs {
  if (args.parts !== undefined || args.file === "-" || !isFolder(args.file)) return args;
  // A file or a link to one (a folder of links to the downloads is read as they are)
  const files = readdirSync(args.file, { withFileTypes: true })
    .filter(
      (entry) => !entry.name.startsWith(".") && BILL_FILE.test(entry.name) && !MANIFEST.test(entry.name),
    )
    .map((entry) => join(args.file, entry.name))
    .filter(isFile)
    .sort();
  const chosen = files.length > 0 ? files : manifestsBelow(args.file, MANIFEST_DEPTH);
  if (chosen.length > most) {
    const count = (n: number) => n.toLocaleString("en-US");
    throw new FileMisuse(
      `${args.file}: a folder of ${count(chosen.length)} bill files; a bill is read in ${count(most)} parts at most (name fewer, or join them first)`,
    );
  }
  if (chosen.length === 0 || !isBill(chosen[0])) throw new FileMisuse(`${args.file}: a folder, not a file`);
  return chosen.length === 1 ? { ...args, file: chosen[0] } : { ...args, file: chosen[0], parts: chosen };
}

/** Whether a path is a regular file, a link followed. */
const isFile = (path: string) => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

const isFolder = (path: string) => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

/** Whether every file given is a CUR manifest by its name (several months' manifests). */
export const allManifests = (files: readonly string[]) =>
  files.length > 1 && files.every((file) => MANIFEST.test(file));

/**
 * Several CUR manifests (each month's): each read as the parts it names (`partsOf`,
 * src/billing/reading/manifest.ts), the parts of all in the manifests' order, what each says.
 */
export function manifestsParts(
  manifests: readonly string[],
  partsOf: (manifest: string) => { readonly parts: readonly string[]; readonly note: string },
): { parts: string[]; notes: string[] } {
  const parts: string[] = [];
  const notes: string[] = [];
  for (const manifest of manifests) {
    try {
      const read = partsOf(manifest);
      parts.push(...read.parts);
      notes.push(read.note);
    } catch (error) {
      throw error instanceof InputFileError ? new FileMisuse(error.message) : error;
    }
  }
  return { parts, notes };
}
