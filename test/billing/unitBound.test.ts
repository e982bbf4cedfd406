/**
 * A quantity times its unit is held to the bound every number is (src/support/numbers.ts: 1e30):
 * a line of a unit of many (`1` and 30 zeros `tokens`, `100 Hours`) times a quantity of 1e30 is a
 * bad row naming its unit, never 1e60 tokens or 1e32 hours evaluated, and the rest of the bill is
 * read: a line of the same description within the bound is evaluated.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, describe, expect, it } from "vitest";
import { evaluateBillingExport } from "../../src/billing/bill.js";
import { billingRequest, billingTermsOf } from "./support.js";

const scratch = mkdtempSync(join(tmpdir(), "billing-unit-bound-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const HEADER =
  "identity_line_item_id,line_item_line_item_type,line_item_product_code,line_item_usage_type,line_item_operation,line_item_line_item_description,line_item_usage_amount,line_item_unblended_cost,pricing_unit,product_instance_type,product_region_code";

/** Evaluates the lines into `out.csv`; returns the summary and the lines by id. */
async function evaluated(lines: readonly string[]) {
  const file = join(scratch, "bill.csv");
  writeFileSync(file, `${[HEADER, ...lines].join("\n")}\n`);
  const output = join(scratch, "out.csv");
  rmSync(output, { force: true });
  const summary = await evaluateBillingExport(billingTermsOf("2.4.1"), billingRequest(file, output));
  const written = parse(readFileSync(output), { columns: true }) as Record<string, string>[];
  return { summary, byId: Object.fromEntries(written.map((line) => [line.identity_line_item_id, line])) };
}

const MANY = `1${"0".repeat(30)} tokens`;
const TOKENS = (id: string, quantity: string) =>
  `${id},Usage,AmazonBedrock,USE1-Claude4.5Sonnet-output-tokens,InvokeModelInference,Claude Sonnet 4.5 output tokens,${quantity},3,${MANY},,us-east-1`;
const HOURS = (id: string, quantity: string) =>
  `${id},Usage,AmazonEC2,USE1-BoxUsage:m5.large,RunInstances,m5.large,${quantity},2,100 Hours,m5.large,us-east-1`;

describe("a quantity times its unit", () => {
  it("at the bound, 1e30 units, is evaluated", async () => {
    const { byId } = await evaluated([TOKENS("t", "1"), HOURS("h", "1e28")]);
    expect([byId.t.status, byId.h.status]).toEqual(["evaluated", "evaluated"]);
    expect(Number(byId.t.method_quantity)).toBe(1e30);
    // 1e28 × 100 hours
    expect(Number(byId.h.hours)).toBe(1e30);
  });

  it("past 1e30 is a bad row naming its unit, its lines and cost; the rest is read", async () => {
    const { summary, byId } = await evaluated([
      TOKENS("t1", "1e30"),
      TOKENS("t2", "1"),
      HOURS("h1", "1e30"),
      HOURS("h2", "2"),
    ]);
    expect(byId.t1.status).toBe(`bad row: quantity times its unit ${MANY} past 1e30`);
    expect(byId.h1.status).toBe("bad row: quantity times its unit 100 Hours past 1e30");
    // The same descriptions within the bound are evaluated, in the same tuple of the first pass
    expect([byId.t2.status, byId.h2.status]).toEqual(["evaluated", "evaluated"]);
    expect(Number(byId.t2.method_quantity)).toBe(1e30);
    expect(Number(byId.h2.hours)).toBe(200);
    // The summary's kinds are the lines': each bad row counted once with its cost
    const bad = summary.groups.filter((group) => group.problem?.includes("past 1e30"));
    expect(
      bad.map(({ problem, lines, cost }) => ({ problem, lines, cost })).sort((a, b) => a.cost - b.cost),
    ).toEqual([
      { problem: "bad row: quantity times its unit 100 Hours past 1e30", lines: 1, cost: 2 },
      { problem: `bad row: quantity times its unit ${MANY} past 1e30`, lines: 1, cost: 3 },
    ]);
    const evaluatedLines = summary.groups
      .filter((group) => group.problem === null)
      .reduce((sum, group) => sum + group.lines, 0);
    expect(evaluatedLines).toBe(2);
  });
});
