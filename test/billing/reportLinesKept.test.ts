/**
 * The report's lines kept in a table or in a file give one report (src/billing/stages/writtenLines.ts,
 * withReportLines): a small bill's report reads its lines from a table made once, a large bill's
 * from a Parquet file of the run's scratch folder. Here each bill's written lines are read back
 * both ways, the table's by the count the file holds and the file's by a count past the bound,
 * from the written CSV itself and from the run's Parquet copy of it (withReadCopy, which the run
 * itself reads), and where no folder has room for the file, from the written lines at each read:
 * every report equals the run's own, value for value.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { evaluateBillingExport } from "../../src/billing/bill.js";
import { isBillingFormatName } from "../../src/billing/formats/knownFormats.js";
import { writtenReportData } from "../../src/billing/report/reportData.js";
import { withReadCopy } from "../../src/billing/stages/write.js";
import { reportLinesFolder, withDescribedLines } from "../../src/billing/stages/writtenLines.js";
import type { WrittenFile } from "../../src/billing/writtenFile.js";
import { openDatabase } from "../../src/duckdb/database.js";
import { publicExport } from "../support/publicExports.js";
import { billingRequest, billingTermsOf } from "./support.js";

const scratch = mkdtempSync(join(tmpdir(), "report-lines-kept-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const FIXTURES = join(import.meta.dirname, "../fixtures/billing");

/** A count past any bound on the lines kept in a table. */
const IN_A_FILE = Number.MAX_SAFE_INTEGER;

describe("the report's lines, kept in a table or in a file", () => {
  it.each(["focus-whole-bill.csv", "cur-whole-bill.csv", "azure-whole-bill.csv"])(
    "give %s's report as its run made it",
    async (name) => {
      const bill = join(FIXTURES, name);
      const output = join(scratch, `${name}.out.csv`);
      const request = billingRequest(bill, output, { report: true });
      const summary = await evaluateBillingExport(
        billingTermsOf("2.4.1", { criteria: ["gwp", "pe"], ranges: true }),
        request,
      );
      const made = summary.report;
      if (made === null) throw new Error(`${name}: no report`);
      // Every line the run wrote, evaluated or not; a report of several services
      const written = summary.groups.reduce((sum, group) => sum + group.lines, 0);
      expect(made.byService.rows.length).toBeGreaterThan(1);
      const layout = request.layout;
      const input = summary.format.name;
      if (layout?.kind !== "csv" || !isBillingFormatName(input)) throw new Error(`${name}: not a CSV bill`);
      const db = await openDatabase();
      try {
        const target = { file: output, format: "csv", gzip: false } as const;
        const readBack = (count: number, source: WrittenFile = target, folder: string | null = db.scratch) =>
          withDescribedLines(
            db.connection,
            { ...source, header: layout.header, renamed: new Map(), input, count, scratch: folder },
            (described) => writtenReportData(db.connection, described, made.criteria),
          );
        const kept = await readBack(written);
        const inAFile = await readBack(IN_A_FILE);
        const readAgain = await readBack(IN_A_FILE, target, null);
        const copied = await withReadCopy(db.connection, target, db.scratch, async (source) => {
          expect(source.copy).toBeDefined();
          return [await readBack(written, source), await readBack(IN_A_FILE, source)];
        });
        expect(kept).toEqual(made);
        expect(inAFile).toEqual(made);
        expect(readAgain).toEqual(made);
        expect(copied).toEqual([made, made]);
      } finally {
        db.close();
      }
    },
  );

  it("are written to the run's folder only where its disk has room for their estimate besides 256 MiB", () => {
    const file = join(FIXTURES, "cur-whole-bill.csv");
    const lines = { file, count: 100_000, scratch };
    // The written lines' bytes and eight for each of the 20 numbers of each line
    const estimate = statSync(file).size + 100_000 * 20 * 8;
    const spare = 256 * 1024 * 1024;
    expect(reportLinesFolder(lines, 20, () => spare + estimate)).toBe(scratch);
    expect(reportLinesFolder(lines, 20, () => spare + estimate - 1)).toBeNull();
    // The copy's size where the run made one, not the CSV's
    const copy = join(FIXTURES, "focus-1.0.csv");
    const withCopy = { ...lines, copy };
    const copied = statSync(copy).size + 100_000 * 20 * 8;
    expect(reportLinesFolder(withCopy, 20, () => spare + copied)).toBe(scratch);
    expect(reportLinesFolder(withCopy, 20, () => spare + copied - 1)).toBeNull();
    expect(reportLinesFolder({ ...lines, scratch: null }, 20, () => Number.MAX_SAFE_INTEGER)).toBeNull();
  });

  it("give the report of 20,000 lines of the FinOps Foundation's sample as its run made it, read from its CSV without a copy", async () => {
    // The sample's 1,000 lines twenty times: past the CSV reader's one buffer, so two threads read
    // it; its tags make the facts' candidates some 170 JSON reads a line, and two threads over the
    // CSV ran out of the report's 300 MB (one thread, or the Parquet copy, did not)
    const sample = readFileSync(publicExport("focus-1.0-finops-sample.csv"), "utf8");
    const [header, ...rows] = sample.trimEnd().split("\n");
    const bill = join(scratch, "finops-20000.csv");
    writeFileSync(bill, [header, ...Array.from({ length: 20 }, () => rows).flat(), ""].join("\n"));
    const output = join(scratch, "finops-20000.out.csv");
    const request = billingRequest(bill, output, { report: true });
    const summary = await evaluateBillingExport(billingTermsOf("2.4.1"), request);
    const made = summary.report;
    const layout = request.layout;
    const input = summary.format.name;
    if (made === null || layout?.kind !== "csv" || !isBillingFormatName(input)) throw new Error("no report");
    const written = summary.groups.reduce((sum, group) => sum + group.lines, 0);
    expect(written).toBe(20 * rows.length);
    const db = await openDatabase();
    try {
      const target = { file: output, format: "csv", gzip: false } as const;
      const read = await withReadCopy(
        db.connection,
        target,
        db.scratch,
        async (source) => {
          expect(source.copy).toBeUndefined();
          return withDescribedLines(
            db.connection,
            {
              ...source,
              header: layout.header,
              renamed: new Map(),
              input,
              count: written,
              scratch: db.scratch,
            },
            (described) => writtenReportData(db.connection, described, made.criteria),
          );
        },
        () => 0,
      );
      expect(read).toEqual(made);
    } finally {
      db.close();
    }
  });
});
