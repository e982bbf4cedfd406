/*
 * Names, texts and files as DuckDB's SQL writes them: quoted so that any name or path is read as
 * itself, never as SQL nor as a glob pattern.
 */

import { InputFileError } from "./errors.js";

/** An identifier as SQL writes it (any name: blanks, quotes, case kept). */
export function identifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** A text as an SQL literal. */
export function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** The characters DuckDB's readers take for a glob pattern (`h[ab].csv` reads ha.csv and hb.csv). */
const GLOB_CHARACTERS = /[[*?]/g;

/**
 * A file's path as a literal DuckDB's readers read as that one file, never as a glob pattern:
 * each glob character is a bracket class of its own (`h[[]ab].csv` is the file `h[ab].csv`).
 * DuckDB splits a pattern at a backslash too, so a path with both cannot be named literally: an
 * input error.
 */
export function fileLiteral(path: string): string {
  const globbing = path.match(GLOB_CHARACTERS) !== null;
  if (globbing && path.includes("\\")) {
    throw new InputFileError(
      `${path}: a file name with both a backslash and one of [ * ? cannot be read literally; rename it`,
    );
  }
  return literal(globbing ? path.replace(GLOB_CHARACTERS, "[$&]") : path);
}

/**
 * The files DuckDB reads as one relation: one file's literal, or the list of a bill's parts, in the
 * order given (DuckDB's readers keep it: the lines come part after part).
 */
export function filesLiteral(files: string | readonly string[]): string {
  if (typeof files === "string") return fileLiteral(files);
  return files.length === 1 ? fileLiteral(files[0]) : `[${files.map(fileLiteral).join(", ")}]`;
}
