/*
 * An AWS Cost and Usage Report's manifest (`<report>-Manifest.json`), which AWS delivers beside
 * each version of a legacy CUR and which names, in order, the parts that version is made of
 * (`reportKeys`: S3 keys such as `prefix/report/20261101-20261201/<assemblyId>/report-00001.csv.gz`).
 * Given as the input, it is read as those parts, found where a download keeps them: the key's last
 * folders below the manifest's folder (`aws s3 sync` keeps `<assemblyId>/report-00001.csv.gz`;
 * a download by hand keeps the file alone). A part not found is named, never skipped: a bill
 * missing a part would be read short without a word.
 */

import { statSync } from "node:fs";
import { dirname, join } from "node:path";
import { BillingInputError } from "../errors.js";
import { MAX_BILL_PARTS } from "./layout.js";

/** A key's length at most (S3's own bound on a key), checked before it is split. */
const MAX_KEY_LENGTH = 1024;

/** Folders of a key, from its end, tried below the manifest's folder (the assembly's and the period's). */
const KEY_FOLDERS_TRIED = 3;

/** A manifest read: what its note says, and the parts in its order. */
export interface CurManifest {
  readonly parts: readonly string[];
  /** The line on stderr saying what the manifest is and which parts are read. */
  readonly note: string;
}

/** Whether a path is a regular file (a folder or nothing is not). */
function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Where a key's file is kept below `folder`: its last folders and name, the longest found first. */
function keptFile(folder: string, manifest: string, key: unknown): string {
  if (typeof key !== "string" || key === "" || key.length > MAX_KEY_LENGTH) {
    throw new BillingInputError(
      `${manifest}: reportKeys holds ${JSON.stringify(key)?.slice(0, 80)}, not a file's key`,
    );
  }
  const names = key.split("/").filter((name) => name !== "" && name !== "." && name !== "..");
  const tried: string[] = [];
  for (let count = Math.min(names.length, KEY_FOLDERS_TRIED + 1); count >= 1; count -= 1) {
    const path = join(folder, ...names.slice(-count));
    if (isFile(path)) return path;
    tried.push(path);
  }
  throw new BillingInputError(
    `${manifest}: its part ${key} is not beside it (${tried.join(", ")}); download the report's parts with their manifest`,
  );
}

/**
 * The parts a manifest names, each found beside it, in its order; refused when it names none,
 * more than a run reads, or one that is not there. `document`: the manifest parsed.
 */
export function curManifestParts(manifest: string, document: { reportKeys: unknown[] }): CurManifest {
  const keys = document.reportKeys;
  if (keys.length === 0) throw new BillingInputError(`${manifest}: an AWS CUR manifest naming no part`);
  if (keys.length > MAX_BILL_PARTS) {
    throw new BillingInputError(
      `${manifest}: an AWS CUR manifest of ${keys.length} parts; a bill is read in ${MAX_BILL_PARTS} parts at most`,
    );
  }
  const folder = dirname(manifest);
  const parts = keys.map((key) => keptFile(folder, manifest, key));
  const fields = document as Record<string, unknown>;
  const name = typeof fields.reportName === "string" ? ` ${fields.reportName}` : "";
  const period = fields.billingPeriod as { start?: unknown; end?: unknown } | undefined;
  const days = (value: unknown) => (typeof value === "string" ? value.slice(0, 8) : "?");
  const when = period === undefined ? "" : `, ${days(period.start)}–${days(period.end)}`;
  const shown = parts.length > 3 ? `${parts.slice(0, 3).join(", ")}, …` : parts.join(", ");
  return {
    parts,
    note: `${manifest}: the manifest of the AWS CUR${name}${when}; its ${parts.length} part${parts.length === 1 ? "" : "s"} read as one bill (${shown})`,
  };
}
