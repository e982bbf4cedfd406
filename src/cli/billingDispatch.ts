/*
 * Which `evaluate` invocations are billing exports (src/cli/billing.ts) rather than inventories:
 * a Parquet file, `--input focus|cur|azure`, or a CSV (gzipped or not) whose header is a billing
 * format's. Light on purpose: an inventory run never loads the billing engine.
 */

import { statSync } from "node:fs";
import { BILLING_FORMAT_NAMES, recognisedFormat } from "../billing/formats.js";
import { csvHeader } from "../billing/header.js";

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
  "--report",
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
