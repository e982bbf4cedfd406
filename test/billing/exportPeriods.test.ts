/**
 * A bill's parts as exports (src/billing/reading/exportPeriods.ts): one numbered series' parts are
 * one export, a month's numbered parts one month's, each month's file an export of its own — the
 * exports two of which, of one month, are refused as the same period given twice.
 */
import { describe, expect, it } from "vitest";
import { exportsOf } from "../../src/billing/reading/exportPeriods.js";

describe("a bill's parts as exports", () => {
  it("a numbered series is one export, in any folder (a manifest's parts)", () => {
    expect(exportsOf(["a/report-00001.csv.gz", "b/report-00002.csv.gz", "report-00003.csv.gz"])).toEqual([
      ["a/report-00001.csv.gz", "b/report-00002.csv.gz", "report-00003.csv.gz"],
    ]);
  });

  it("each month's file its own export; a month's numbered parts one", () => {
    expect(exportsOf(["cur-2026-04.csv", "cur-2026-05.csv"])).toEqual([
      ["cur-2026-04.csv"],
      ["cur-2026-05.csv"],
    ]);
    expect(
      exportsOf(["bill_202604_0001.csv.gz", "bill_202604_0002.csv.gz", "bill_202605_0001.csv.gz"]),
    ).toEqual([["bill_202604_0001.csv.gz", "bill_202604_0002.csv.gz"], ["bill_202605_0001.csv.gz"]]);
  });

  it("a file named otherwise is an export of its own", () => {
    expect(exportsOf(["cur-2026-04.csv", "april-again.csv", "copy.csv"])).toEqual([
      ["cur-2026-04.csv"],
      ["april-again.csv"],
      ["copy.csv"],
    ]);
  });
});
