/**
 * A small bill's run is on one DuckDB thread (src/billing/stages/read.ts, runThreads): its files
 * together at 256 KiB at most, every one a regular file; a larger bill, a pipe or a file gone keep
 * DuckDB's default of a thread per core. The database opened for it has that many threads, and a
 * bill's lines are the same bytes whichever (the sums exact: src/duckdb/exactSum.ts).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { writeBillingExport } from "../../scripts/billing-exports.js";
import { evaluateBillingExport } from "../../src/billing/bill.js";
import { runThreads } from "../../src/billing/stages/read.js";
import { openDatabase } from "../../src/duckdb/database.js";
import { billingRequest, billingTermsOf } from "./support.js";

const scratch = mkdtempSync(join(tmpdir(), "run-threads-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const KiB = 1024;

function fileOf(name: string, bytes: number): string {
  const file = join(scratch, name);
  writeFileSync(file, Buffer.alloc(bytes, 0x61));
  return file;
}

describe("the threads of a bill's run", () => {
  it("is one for regular files of 256 KiB at most together, a bill's parts summed", () => {
    expect(runThreads({ files: fileOf("small.csv", 10 * KiB), gzip: false })).toBe(1);
    expect(runThreads({ files: fileOf("bound.csv", 256 * KiB), gzip: false })).toBe(1);
    expect(runThreads({ files: fileOf("past.csv", 256 * KiB + 1), gzip: false })).toBeNull();
    const parts = [fileOf("part-1.csv", 128 * KiB), fileOf("part-2.csv", 128 * KiB)];
    expect(runThreads({ files: parts, gzip: false })).toBe(1);
    expect(runThreads({ files: [...parts, fileOf("part-3.csv", 1)], gzip: false })).toBeNull();
  });

  it("is DuckDB's default for a pipe or a file that is not there", () => {
    const fifo = join(scratch, "bill.fifo");
    execFileSync("mkfifo", [fifo]);
    expect(runThreads({ files: fifo, gzip: false })).toBeNull();
    expect(runThreads({ files: join(scratch, "gone.csv"), gzip: false })).toBeNull();
  });

  it("is the database's number of threads", async () => {
    const threadsOf = async (threads: 1 | null) => {
      const db = await openDatabase(threads);
      try {
        const reader = await db.connection.runAndReadAll("SELECT current_setting('threads') AS threads");
        return Number(reader.getRowObjects()[0].threads);
      } finally {
        db.close();
      }
    };
    expect(await threadsOf(1)).toBe(1);
    // DuckDB's default: a thread per core, two on a machine of two
    expect(await threadsOf(null)).toBeGreaterThanOrEqual(1);
  });

  it("writes a bill's lines as the same bill read on DuckDB's default of threads", async () => {
    // The bill as a text past the bound (a thread per core) and gzipped within it (one thread)
    const text = join(scratch, "bill.csv");
    await writeBillingExport("focus", 1_500, text);
    const zipped = `${text}.gz`;
    writeFileSync(zipped, gzipSync(readFileSync(text)));
    expect(runThreads({ files: text, gzip: false })).toBeNull();
    expect(runThreads({ files: zipped, gzip: true })).toBe(1);
    const linesOf = async (bill: string) => {
      const output = `${bill}.out.csv`;
      await evaluateBillingExport(
        billingTermsOf("2.4.1", { criteria: ["gwp", "adp", "pe"], ranges: true }),
        billingRequest(bill, output, { report: true }),
      );
      return readFileSync(output, "utf8");
    };
    const many = await linesOf(text);
    expect(many.split("\n").length).toBeGreaterThan(1_500);
    expect(await linesOf(zipped)).toBe(many);
  });
});
