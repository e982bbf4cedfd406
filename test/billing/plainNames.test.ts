/**
 * `--group-by` and `--filter` take `account`, `region` and `service` on every format: the column
 * the format's report reads for it (src/billing/stages/read.ts, dimensionColumn), so that a group
 * of `service` is the group of the format's own service column, line for line. And `month`: the
 * month each line's period starts (src/billing/stages/filters.ts, linesRead), the month each month's
 * coverage puts it in; none where the period does not read (dates whose day and month the file
 * does not decide).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, describe, expect, it } from "vitest";
import { evaluateBillingExport } from "../../src/billing/bill.js";
import { runMain } from "../support/cli.js";
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

/** The lines of every group, summed. */
const linesOf = (rows: readonly Row[]) => rows.reduce((sum, row) => sum + Number(row.lines), 0);

describe("month on every format", () => {
  it.each([
    ["focus-1.0.csv", "2026-10"],
    ["focus-1.2.parquet", "2026-10"],
    ["months/cur-2026-04.csv", "2026-04"],
    ["cur-1.0-legacy.csv", "2026-10"],
    ["azure.csv", "2026-10"],
    ["azure-payg-legacy.csv", "2026-10"],
    ["gcp-bigquery-resource.csv", "2026-10"],
    ["gcp-bigquery-standard.csv.gz", "2026-10"],
    ["oci-cost-report.csv", "2026-10"],
  ])("%s: --group-by month puts every evaluated line in its period's month, %s", async (fixture, month) => {
    const name = fixture.replace("/", "-");
    const byMonth = await groups(fixture, `${name}-month`, { groupBy: ["month"] });
    const byMethod = await groups(fixture, `${name}-month-all`, { groupBy: ["method"] });
    expect(byMonth.map((row) => row.month)).toEqual([month]);
    expect(linesOf(byMonth)).toBe(linesOf(byMethod));
    const kept = await groups(fixture, `${name}-month-filter`, {
      groupBy: ["method"],
      filters: [{ column: "month", value: month }],
    });
    expect(kept).toEqual(byMethod);
    const none = await groups(fixture, `${name}-month-other`, {
      groupBy: ["method"],
      filters: [{ column: "month", value: "1999-01" }],
    });
    expect(none).toEqual([]);
  });

  it("a date whose day and month the file does not decide (10/01/2024 alone) has no month: `month=` keeps it", async () => {
    const byMonth = await groups("azure-ea.csv", "azure-ea-month", { groupBy: ["month"] });
    expect(byMonth.map((row) => row.month)).toEqual([""]);
    const kept = await groups("azure-ea.csv", "azure-ea-month-none", {
      groupBy: ["month"],
      filters: [{ column: "month", value: "" }],
    });
    expect(kept).toEqual(byMonth);
  });

  it("three monthly exports: each month's group is the month's coverage; --filter month= sums its lines", async () => {
    const files = ["2026-04", "2026-05", "2026-06"].map((month) =>
      join(FIXTURES, "months", `cur-${month}.csv`),
    );
    const output = join(scratch, "months.csv");
    const done = await runMain([
      "evaluate",
      ...files,
      "-o",
      output,
      "--group-by",
      "month",
      "--filter",
      "month=2026-05",
    ]);
    expect(done.code, done.stderr).toBe(0);
    const covered = [...done.stderr.matchAll(/^ {2}(\d{4}-\d{2}): (\d+) of \d+ lines estimated/gm)].map(
      (match) => [match[1], match[2]],
    );
    expect(covered).toEqual([
      ["2026-04", "7"],
      ["2026-05", "8"],
      ["2026-06", "8"],
    ]);
    // The groups' file is the filter's lines: the month's alone, as its coverage counts them
    const rows = parse(readFileSync(output.replace(/\.csv$/, ".groups.csv"), "utf8"), {
      columns: true,
    }) as Row[];
    expect(rows.map((row) => [row.month, row.lines])).toEqual([["2026-05", "8"]]);
    expect(done.stderr).toContain("the lines of --filter (month is 2026-05): 8 of 23 evaluated");
  });
});
