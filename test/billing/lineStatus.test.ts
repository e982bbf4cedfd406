/**
 * A line's status as codes (src/billing/lineStatus.ts): each kind of lines carries its problem's
 * status code, the words written are derived from it, and the account tallies by the code.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluateBillingExport } from "../../src/billing/bill.js";
import { LINE_PROBLEMS, LINE_STATUSES, statusWords } from "../../src/billing/lineStatus.js";
import { sqlQuery } from "../../src/billing/queries.js";
import { billingAccount, statusCodeOf, statusOf } from "../../src/billing/report/runSummary.js";
import type { BillingSummary } from "../../src/billing/stages/summarise.js";
import { billingFixture } from "../support/publicExports.js";
import { billingRequest, billingTermsOf } from "./support.js";

const scratch = mkdtempSync(join(tmpdir(), "line-status-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let summary: BillingSummary;
let written: Record<string, string>[];

beforeAll(async () => {
  const output = join(scratch, "out.csv");
  summary = await evaluateBillingExport(
    billingTermsOf("2.4.1", { criteria: ["gwp"] }),
    billingRequest(billingFixture("focus-bad-rows.csv"), output),
  );
  written = parse(readFileSync(output), { columns: true }) as Record<string, string>[];
}, 120_000);

describe("a line's status as codes", () => {
  it("gives each problem the query names a code of LINE_PROBLEMS, and each code is named", () => {
    const whole = sqlQuery("evaluate/billing_impacts.sql");
    const end = whole.indexOf("END AS billing_problem_code");
    const query = whole.slice(whole.lastIndexOf(" CASE\n", end), end);
    const named = new Set([...query.matchAll(/THEN '([a-z-]+)'$/gm)].map((match) => match[1]));
    const codes = Object.keys(LINE_PROBLEMS).filter((code) => code !== "line-too-long");
    expect([...named].sort()).toEqual([...codes].sort());
  });

  it("derives every kind's words from its status code", () => {
    const matched = () => "m";
    expect(summary.groups.some((group) => group.problemStatus === "bad-row")).toBe(true);
    for (const group of summary.groups) {
      const code = statusCodeOf(group, matched);
      const words = statusOf(group, matched);
      expect(words.startsWith(LINE_STATUSES[code].words)).toBe(true);
      if (LINE_STATUSES[code].reasoned) expect(words).toBe(statusWords(code, group.problemReason));
    }
  });

  it("carries each kind's problem code and reason apart from its words", () => {
    const coded = summary.groups.filter((group) => group.problemCode !== null);
    expect(coded.map((group) => group.problemCode)).toContain("quantity-not-a-number");
    for (const group of summary.groups) {
      expect(group.problemCode === null).toBe(group.problemStatus === null);
      if (group.problemCode === null) continue;
      expect(LINE_PROBLEMS[group.problemCode].status).toBe(group.problemStatus);
      const reasoned = LINE_STATUSES[LINE_PROBLEMS[group.problemCode].status].reasoned;
      expect(group.problem).toBe(statusWords(LINE_PROBLEMS[group.problemCode].status, group.problemReason));
      if (!reasoned) expect(group.problemReason).toBeNull();
    }
  });

  it("writes each line's status in the words of one status", () => {
    const words = Object.values(LINE_STATUSES).map((status) => status.words);
    for (const line of written)
      expect(words.some((status) => line.status === status || line.status.startsWith(`${status}: `))).toBe(
        true,
      );
  });

  it("tallies the bad rows by their code: the account's count is the lines of the bad-row kinds", () => {
    const bad = summary.groups
      .filter((group) => group.problemStatus === "bad-row")
      .reduce((sum, group) => sum + group.lines, 0);
    expect(bad).toBe(written.filter((line) => line.status.startsWith("bad row: ")).length);
    const text = billingAccount(summary, null, null).text;
    expect(text).toMatch(new RegExp(`bad rows: ${bad}\\b`));
  });
});
