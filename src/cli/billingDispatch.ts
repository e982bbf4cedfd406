/*
 * Which `evaluate` invocations are billing exports (src/cli/billing.ts) rather than inventories:
 * a Parquet file, `--input focus|cur|azure|gcp|oci`, a text file (gzipped or not) with a header
 * that is a billing format's or nearly one's (to say what it lacks) — on its first line with commas,
 * or with semicolons or tabs, or below a few report lines (src/billing/reading/layout.ts) — or
 * newline-delimited JSON whose first record's fields are. Light on purpose: an inventory run never
 * loads the billing engine.
 */

import { statSync } from "node:fs";
import { BILLING_FORMAT_NAMES } from "../billing/formats.js";
import { type BillLayout, billLayout, layoutClass } from "../billing/reading/layout.js";

/** What `evaluate` reads; a billing export's layout when it was read to decide (read once). */
export type InputKind =
  | { readonly kind: "inventory" }
  | { readonly kind: "billing"; readonly layout: BillLayout | undefined };

const INVENTORY: InputKind = { kind: "inventory" };

/**
 * The one decision between inventory and billing export: `--input` when given, else a `.parquet`
 * name, else the file's start (src/billing's reading of it). Standard input, a pipe or a file that
 * cannot be read is an inventory's (its reading says what is wrong).
 */
export function inputKindOf(file: string, input: string | undefined): InputKind {
  if (input !== undefined) {
    return (BILLING_FORMAT_NAMES as readonly string[]).includes(input)
      ? { kind: "billing", layout: undefined }
      : INVENTORY;
  }
  if (file === "-" || file.toLowerCase().endsWith(".xlsx")) return INVENTORY;
  if (file.toLowerCase().endsWith(".parquet")) return { kind: "billing", layout: { kind: "parquet" } };
  try {
    // A pipe's start would be consumed here: only a regular file's start is read.
    if (!statSync(file).isFile()) return INVENTORY;
    const layout = billLayout(file);
    return layout !== null && layoutClass(layout) !== null ? { kind: "billing", layout } : INVENTORY;
  } catch {
    return INVENTORY;
  }
}
