/**
 * The bounded reader of small files (src/support/boundedFile.ts): a regular file within its bytes
 * and lines is read whole; a FIFO (with or without a writer), a character device, a file past a
 * bound are refused with a line naming the file and the bound, without waiting or reading on.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readBoundedFile } from "../../src/support/boundedFile.js";

const scratch = mkdtempSync(join(tmpdir(), "bounded-file-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const bounds = { role: "the zones file", maxBytes: 100, maxLines: 3 };

describe("readBoundedFile", () => {
  it("reads a regular file within its bounds, and counts a last line without its end", () => {
    const path = join(scratch, "small.csv");
    writeFileSync(path, "a,b\n1,2\n3,4");
    expect(readBoundedFile(path, bounds)).toBe("a,b\n1,2\n3,4");
  });

  it("refuses a file of one line or one byte too many", () => {
    const lines = join(scratch, "lines.csv");
    writeFileSync(lines, "a\nb\nc\nd");
    expect(() => readBoundedFile(lines, bounds)).toThrow(`the zones file ${lines}: more than 3 lines`);
    const bytes = join(scratch, "bytes.csv");
    writeFileSync(bytes, "x".repeat(101));
    expect(() => readBoundedFile(bytes, bounds)).toThrow(`the zones file ${bytes}: more than 100 bytes`);
    writeFileSync(bytes, "x".repeat(100));
    expect(readBoundedFile(bytes, bounds)).toHaveLength(100);
  });

  it("refuses a FIFO without a writer at once, and a character device, made in a temporary folder", () => {
    const fifo = join(scratch, "fifo");
    execFileSync("mkfifo", [fifo]);
    expect(() => readBoundedFile(fifo, bounds)).toThrow(`the zones file ${fifo}: not a regular file`);
    const device = join(scratch, "zero");
    try {
      // /dev/zero's numbers (1, 5): a device fed without end; made here, not the machine's own.
      execFileSync("mknod", [device, "c", "1", "5"]);
    } catch {
      return; // mknod needs privileges this machine may not give
    }
    expect(() => readBoundedFile(device, bounds)).toThrow(`the zones file ${device}: not a regular file`);
  });

  it("names a missing file by its error code", () => {
    const missing = join(scratch, "missing.csv");
    expect(() => readBoundedFile(missing, bounds)).toThrow(`the zones file ${missing}: ENOENT`);
  });
});
