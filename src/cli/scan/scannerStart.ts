import { closeSync, openSync, readSync, statSync } from "node:fs";

/*
 * Whether `evaluate`'s file is one of Boavizta cloud-scanner's JSON files, by its start alone: a
 * module of its own, light (no reader, no engine), as every `evaluate` asks it before reading its
 * file (src/cli/main.ts); the file is then read by src/cli/scan/scannerFile.ts.
 */

/** Bytes of a file's start read to recognise cloud-scanner's JSON. */
const HEAD_BYTES = 64 * 1024;

/** cloud-scanner's top-level keys (src/scan/inventoryJson.ts, scannerShapeOf), as a file starts with them. */
const SCANNER_KEY = /"(resources|impacting_resources|instances)"\s*:\s*\[/;

/** Whether a named file (not stdin) is a JSON object with one of cloud-scanner's top-level lists near its start. */
export function isScannerFile(file: string): boolean {
  if (file === "-") return false;
  let descriptor: number | null = null;
  try {
    if (!statSync(file).isFile()) return false;
    descriptor = openSync(file, "r");
    const head = Buffer.alloc(HEAD_BYTES);
    const text = head.subarray(0, readSync(descriptor, head, 0, HEAD_BYTES, 0)).toString("utf8");
    return /^\uFEFF?\s*\{/.test(text) && SCANNER_KEY.test(text);
  } catch {
    return false;
  } finally {
    if (descriptor !== null) closeSync(descriptor);
  }
}
