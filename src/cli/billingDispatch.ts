/*
 * Which `evaluate` invocations are billing exports (src/cli/billing.ts) rather than inventories:
 * a Parquet file, `--input focus|cur|azure`, or a CSV (gzipped or not) whose header is a billing
 * format's. Light on purpose: an inventory run never loads the billing engine.
 */

import { closeSync, openSync, readSync, statSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { parse } from "csv-parse/sync";
import { BILLING_FORMAT_NAMES, recognisedFormat } from "../billing/formats.js";

/** Bytes of a file's start read to find its header (a header longer than this is not a billing export's). */
const HEADER_BYTES = 1 << 20;

/** A CSV file's header (gzipped or not), or null when it has no complete first line. */
export function csvHeader(file: string): string[] | null {
  const descriptor = openSync(file, "r");
  let bytes: Buffer;
  try {
    const buffer = Buffer.alloc(HEADER_BYTES);
    bytes = buffer.subarray(0, readSync(descriptor, buffer, 0, HEADER_BYTES, 0));
  } finally {
    closeSync(descriptor);
  }
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = gunzipSync(bytes, { finishFlush: 2 });
    } catch {
      return null;
    }
  }
  const text = bytes.toString("utf8").replace(/^\uFEFF/, "");
  const end = text.indexOf("\n");
  if (end < 0) return null;
  try {
    const [header] = parse(text.slice(0, end), { relax_quotes: true }) as string[][];
    return header ?? null;
  } catch {
    return null;
  }
}

/** The options of `evaluate` (inventory or billing) followed by a value. */
const VALUE_OPTIONS: ReadonlySet<string> = new Set([
  "--input",
  "--edition",
  "--criteria",
  "--format",
  "--output",
  "--workers",
  "--load",
  "--group-by",
  "--instance-type-column",
]);

/** Whether `evaluate` hands this invocation to the billing path: Parquet, --input of a billing format, or a billing header. */
export function isBillingInvocation(argv: readonly string[]): boolean {
  const file = argv.find(
    (arg, index) =>
      (arg === "-" || !arg.startsWith("-")) && (index === 0 || !VALUE_OPTIONS.has(argv[index - 1])),
  );
  const inputAt = argv.indexOf("--input");
  const input = inputAt >= 0 ? argv[inputAt + 1] : undefined;
  if (input !== undefined) return (BILLING_FORMAT_NAMES as readonly string[]).includes(input);
  if (file === undefined || file === "-") return false;
  if (file.toLowerCase().endsWith(".parquet")) return true;
  try {
    if (!statSync(file).isFile()) return false;
    const header = csvHeader(file);
    return header !== null && recognisedFormat(header) !== null;
  } catch {
    return false;
  }
}
