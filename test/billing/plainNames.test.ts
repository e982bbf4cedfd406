/**
 * `--group-by` and `--filter` take `account`, `region` and `service` on every format: the column
 * the format's report reads for it (src/billing/stages/read.ts, dimensionColumn), so that a group
 * of `service` is the group of the format's own service column, line for line.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, describe, expect, it } from "vitest";
import { evaluateBillingExport } from "../../src/billing/bill.js";
import { billingRequest, billingTermsOf } from "./support.js";

const FIXTURES = new URL("../fixtures/billing/", import.meta.url).pathname;
const scratch = mkdtempSync(join(tmpdir(), "plain-names-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type Row = Record<string, string>;

async function groups(fixture: string, name: string, asked: Record<string, unknown>): Promise<Row[]> {
  const groupsOutput = join(scratch, `${name}.groups.csv`);
  await evaluateBillingExport(
    billingTermsOf("2.4.1", { criteria: ["gwp"] }),
    billingRequest(join(FIXTURES, fixture), join(scratch, `${name}.csv`), { groupsOutput, ...asked }),
  );
  return parse(readFileSync(groupsOutput, "utf8"), { columns: true }) as Row[];
}

describe("plain names on every format", () => {
  it.each([
    ["focus-1.0.csv", "service", "ServiceName"],
    ["focus-1.0.csv", "region", "RegionId"],
    ["cur-1.0-legacy.csv", "region", "product/region"],
    ["azure.csv", "service", "MeterCategory"],
    ["gcp-bigquery-resource.csv", "region", "location.region"],
    ["oci-cost-report.csv", "service", "product/service"],
  ])("%s: --group-by %s sums as --group-by %s", async (fixture, plain, own) => {
    const byPlain = await groups(fixture, `${fixture}-${plain}`, { groupBy: [plain] });
    const byOwn = await groups(fixture, `${fixture}-${plain}-own`, { groupBy: [own] });
    expect(byPlain.length).toBeGreaterThan(0);
    expect(byPlain.map((row) => [row[plain], row.lines, row.gwp_use_kgco2eq])).toEqual(
      byOwn.map((row) => [row[own], row.lines, row.gwp_use_kgco2eq]),
    );
    const [first] = byPlain;
    const kept = await groups(fixture, `${fixture}-${plain}-filter`, {
      groupBy: [plain],
      filters: [{ column: plain, value: first[plain] }],
    });
    expect(kept).toEqual([first]);
  });
});
