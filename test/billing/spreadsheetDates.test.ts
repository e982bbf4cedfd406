/**
 * Dates in every form a spreadsheet writes: a column re-saved in several forms (`07-01-22`,
 * `07/13/2022`, `7.14.2022`, an Excel serial `44757`, `07-16-22 12:00 AM`), each read as the day
 * it is, the file deciding day or month first; a date that reads as none (`July 17`) is named on
 * stderr with its lines and cost. On a real Azure export re-saved so, 12 of 30 days fell out of
 * the report's time chart, the command saying nothing.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { evaluateBillingExport } from "../../src/billing/bill.js";
import { billingAccount } from "../../src/billing/report/runSummary.js";
import { billingFixture } from "../support/publicExports.js";
import { billingRequest, billingTermsOf } from "./support.js";

const scratch = mkdtempSync(join(tmpdir(), "billing-spreadsheet-dates-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("dates a spreadsheet writes", () => {
  it("are read in each form, month first as 07/13/2022 says; an unreadable one named with its cost", async () => {
    const summary = await evaluateBillingExport(
      billingTermsOf("2.4.1", { criteria: ["gwp"] }),
      billingRequest(billingFixture("arrivals/dates-spreadsheet.csv"), join(scratch, "out.csv"), {
        report: true,
      }),
    );
    const over = summary.report?.overTime;
    if (over === undefined || over === null) throw new Error("no time chart");
    // Azure's Date is a usage day: each line's impacts in its day alone
    const days = over.steps.filter((_, step) => over.series.some((series) => series.energy[step] > 0));
    expect(days).toEqual(["2022-07-01", "2022-07-13", "2022-07-14", "2022-07-15", "2022-07-16"]);
    expect([over.undated.lines, over.undated.cost]).toEqual([1, 1.3]);
    const { text } = billingAccount(summary, null, "2026-11-27");
    expect(text).toContain(
      "dates: 1 row, cost 1.3, without a period that reads: in no day of the report's time chart (their impacts are in every table)\n",
    );
  });

  it("are read day first where a date says so (13.07.2022), dots, hyphens and two-digit years alike", async () => {
    const fixture = readFileSync(billingFixture("arrivals/dates-spreadsheet.csv"), "utf8");
    const dayFirst = fixture
      .replace("07-01-22", "01-07-22")
      .replace("07/13/2022", "13.07.2022")
      .replace("7.14.2022", "14/7/2022")
      .replace("07-16-22 12:00 AM", "16.07.22 0:00");
    const file = join(scratch, "day-first.csv");
    writeFileSync(file, dayFirst);
    const summary = await evaluateBillingExport(
      billingTermsOf("2.4.1", { criteria: ["gwp"] }),
      billingRequest(file, join(scratch, "day-first.out.csv"), { report: true }),
    );
    const over = summary.report?.overTime;
    if (over === undefined || over === null) throw new Error("no time chart");
    const days = over.steps.filter((_, step) => over.series.some((series) => series.energy[step] > 0));
    expect(days).toEqual(["2022-07-01", "2022-07-13", "2022-07-14", "2022-07-15", "2022-07-16"]);
  });
});
