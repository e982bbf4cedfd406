/*
 * Which `evaluate` invocations are billing exports (src/cli/billing.ts) rather than inventories:
 * a Parquet file, `--input` naming a billing format (src/billing/formats.ts), a text file (gzipped or not) with a header
 * that is a billing format's or nearly one's (to say what it lacks) — on its first line with commas,
 * or with semicolons or tabs, or below a few report lines (src/billing/reading/layout.ts) — or
 * newline-delimited JSON whose first record's fields are. Light on purpose: an inventory run never
 * loads the billing engine.
 */

import { statSync } from "node:fs";
import { BILLING_FORMAT_NAMES, classifyHeader } from "../billing/formats.js";
import { type BillLayout, billLayout, layoutClass } from "../billing/reading/layout.js";
import { isCurManifest, MAX_MANIFEST_BYTES } from "../billing/reading/manifest.js";
import { fileStart } from "../duckdb/csvHeader.js";
import { contentOf, fileStartBytes, foreignContentMessage } from "../support/fileSignature.js";

/** What `evaluate` reads; a billing export's layout when it was read to decide (read once). */
export type InputKind =
  /** `records`: newline-delimited JSON named otherwise than .ndjson or .jsonl (read as a batch). */
  | { readonly kind: "inventory"; readonly records?: boolean }
  /** An AWS CUR's manifest: its parts are read as one bill (src/billing/reading/manifest.ts). */
  | { readonly kind: "manifest"; readonly manifest: { reportKeys: unknown[] } }
  | { readonly kind: "billing"; readonly layout: BillLayout | undefined }
  /** A ZIP archive (not read as a workbook): its one file is read (src/support/zipArchive.ts). */
  | { readonly kind: "archive" }
  /** A file no reader takes (UTF-16, an image…): refused, the sentence says what it is. */
  | { readonly kind: "foreign"; readonly problem: string };

/** A regular file's first bytes, or null for standard input, a pipe, or a file that cannot be read (its reader says why). */
function regularFileStart(file: string): Buffer | null {
  if (file === "-") return null;
  try {
    // A pipe's start would be consumed here: only a regular file's start is read.
    return statSync(file).isFile() ? fileStartBytes(file) : null;
  } catch {
    return null;
  }
}

/** Whether a regular file is a ZIP archive by its first bytes (a bill's part: src/cli/main.ts). */
export function isZipFile(file: string): boolean {
  const start = regularFileStart(file);
  return start !== null && contentOf(start) === "zip";
}

/**
 * The one decision between inventory and billing export: a file that no reader takes is refused
 * first and a ZIP archive unpacked (a workbook is a ZIP: a file read as one is not asked; `--input`
 * then says how its one file is read), then `--input` when given, else a
 * Parquet file (by its name or its first bytes), else the file's start (src/billing's reading of
 * it). Standard input, a pipe or a file that cannot be read is an inventory's (its reading says
 * what is wrong).
 */
export function inputKindOf(file: string, input: string | undefined): InputKind {
  const workbook = input === "xlsx" || (input === undefined && file.toLowerCase().endsWith(".xlsx"));
  const start = workbook ? null : regularFileStart(file);
  const content = start === null ? null : contentOf(start);
  if (typeof content === "object" && content !== null) {
    return { kind: "foreign", problem: foreignContentMessage(file, content) };
  }
  if (content === "zip") return { kind: "archive" };
  // Its reader tells a gzip inventory by the same first bytes, as it reads them (src/cli/source.ts, inputText).
  const inventory: InputKind = { kind: "inventory" };
  if (input !== undefined) {
    return (BILLING_FORMAT_NAMES as readonly string[]).includes(input)
      ? { kind: "billing", layout: undefined }
      : inventory;
  }
  if (workbook) return inventory;
  if (content === "parquet" || file.toLowerCase().endsWith(".parquet")) {
    return { kind: "billing", layout: { kind: "parquet" } };
  }
  if (content === null) return inventory;
  try {
    const json = content === "text" && start !== null && !startsAsJson(start) ? null : jsonDocumentKind(file);
    if (json !== null && json.kind !== "inventory") return json;
    const layout = billLayout(file);
    if (layout !== null && layoutClass(layout) !== null) return { kind: "billing", layout };
    return json ?? inventory;
  } catch {
    return inventory;
  }
}

/**
 * What a text starting with `{` or `[` is: newline-delimited JSON (a record on its first line: a
 * bill's, else a batch's, whatever the file's name), an AWS CUR's manifest (one object over one
 * line or several), or a JSON document of another kind, refused: the CSV reader would take it for
 * a column of braces, or no row at all, without a word. Null for any other text.
 */
function jsonDocumentKind(file: string): InputKind | null {
  const start = fileStart(file);
  const text = start?.text.trimStart() ?? "";
  if (!text.startsWith("{") && !text.startsWith("[")) return null;
  const end = text.indexOf("\n");
  const first = parsedJson(end < 0 ? text : text.slice(0, end));
  const whole =
    first !== undefined || start?.gzip || statSync(file).size > MAX_MANIFEST_BYTES ? first : parsedJson(text);
  if (isCurManifest(whole)) return { kind: "manifest", manifest: whole };
  if (first !== null && typeof first === "object" && !Array.isArray(first))
    return { kind: "inventory", records: true };
  const what = Array.isArray(whole ?? first) ? "a JSON array" : "a JSON document over several lines";
  return {
    kind: "foreign",
    problem: `${file} is ${what}, not newline-delimited JSON (one record a line, as BigQuery exports a bill or a batch is written); it is not read`,
  };
}

/**
 * Whether a plain text's first character (past a byte-order mark and blanks, in its first
 * SIGNATURE_BYTES) opens JSON: the start read whole (jsonDocumentKind) only then. A start of blanks
 * alone is read whole too.
 */
function startsAsJson(start: Buffer): boolean {
  const first = start
    .toString("utf8")
    .replace(/^\uFEFF/, "")
    .trimStart()[0];
  return first === undefined || first === "{" || first === "[";
}

/** A JSON text's value, or undefined when it is none. */
function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Where an inventory reader met a bill's header: a pipe (not read ahead) or a workbook's first sheet. */
export type BillPlace = "pipe" | "workbook";

/**
 * What refuses an inventory read from a pipe (standard input, a FIFO: not read ahead, so taken
 * for an inventory) or from a workbook (Excel's "Save as" of an export, a portal's "Download to
 * Excel") whose header is a billing export's, rather than a bad row per line; null for any other
 * header. A bill is read from a file DuckDB reads, more than once: CSV, CSV.gz, Parquet or JSON.
 */
export function billElsewhere(name: string, header: readonly string[], place: BillPlace): string | null {
  const found = classifyHeader(header);
  if (found === null || !("format" in found)) return null;
  const what = `${name}: a billing export's header (${found.format.title})`;
  return place === "pipe"
    ? `${what}; a billing export is read from a file, not from a pipe: save it to a file and name that file`
    : `${what} on the workbook's first sheet; a billing export is read as CSV, CSV.gz, Parquet or JSON: save the sheet as CSV UTF-8 and name that file`;
}
