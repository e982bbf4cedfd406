/*
 * Which `evaluate` invocations are billing exports (src/cli/billing.ts) rather than inventories:
 * a Parquet file, `--input focus|cur|azure|gcp|oci`, or a CSV (gzipped or not) whose header is a billing
 * format's or nearly one's (to say what it lacks). Light on purpose: an inventory run never loads the billing engine.
 */

import { statSync } from "node:fs";
import { BILLING_FORMAT_NAMES, classifyHeader } from "../billing/formats.js";
import { csvHeader } from "../duckdb/csvHeader.js";

/** What `evaluate` reads; a billing export's CSV header when it was read to decide (read once). */
export type InputKind =
  | { readonly kind: "inventory" }
  | { readonly kind: "billing"; readonly header: readonly string[] | undefined };

const INVENTORY: InputKind = { kind: "inventory" };

/**
 * The one decision between inventory and billing export: `--input` when given, else a `.parquet`
 * name, else the header of a CSV file (src/billing's reading of it). Standard input, a pipe or a
 * file that cannot be read is an inventory's (its reading says what is wrong).
 */
export function inputKindOf(file: string, input: string | undefined): InputKind {
  if (input !== undefined) {
    return (BILLING_FORMAT_NAMES as readonly string[]).includes(input)
      ? { kind: "billing", header: undefined }
      : INVENTORY;
  }
  if (file === "-" || file.toLowerCase().endsWith(".xlsx")) return INVENTORY;
  if (file.toLowerCase().endsWith(".parquet")) return { kind: "billing", header: undefined };
  try {
    // A pipe's start would be consumed here: only a regular file's header is read.
    if (!statSync(file).isFile()) return INVENTORY;
    const header = csvHeader(file);
    return header !== null && classifyHeader(header) !== null ? { kind: "billing", header } : INVENTORY;
  } catch {
    return INVENTORY;
  }
}
