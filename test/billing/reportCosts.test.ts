/**
 * A bill's report reads one cost: every ranking's rows, with the row summing the rest, add up to
 * the coverage's estimated cost and lines (the cost basis named at the top), whatever the format
 * and whether the export amortises its commitments (FOCUS EffectiveCost against BilledCost, a
 * CUR's reservation and Savings Plan columns).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeBillingExport } from "../../scripts/billing-exports.js";
import { evaluateBillingExport } from "../../src/billing/bill.js";
import { billingAccount } from "../../src/billing/report/runSummary.js";
import type { Ranking } from "../../src/output/reportParts/model.js";
import { billingFixture } from "../support/publicExports.js";
import { billingRequest, billingTermsOf } from "./support.js";

const scratch = mkdtempSync(join(tmpdir(), "report-costs-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function reportOfRun(file: string, output: string) {
  const summary = await evaluateBillingExport(
    billingTermsOf("2.5.0", { criteria: ["gwp"] }),
    billingRequest(file, join(scratch, output), { report: true }),
  );
  const report = billingAccount(summary, null, "2026-11-26").report;
  if (report === null) throw new Error("no report model");
  return report;
}

/** Each run's report model, by its output: a run read by several tests is run once for the file. */
const reports = new Map<string, ReturnType<typeof reportOfRun>>();

function reportOf(file: string, output: string): ReturnType<typeof reportOfRun> {
  let report = reports.get(output);
  if (report === undefined) {
    report = reportOfRun(file, output);
    reports.set(output, report);
  }
  return report;
}

const SAMPLE = "focus-1.0-finops-sample.csv";

const sum = (ranking: Ranking, of: (row: { cost: number; lines: number }) => number) =>
  [...ranking.rows, ...(ranking.others === null ? [] : [ranking.others])].reduce(
    (total, row) => total + of(row),
    0,
  );

/** Every table of the report that ranks the evaluated lines. */
const rankings = (report: Awaited<ReturnType<typeof reportOf>>) => [
  report.byMethod,
  report.byService,
  report.byRegion,
  report.byAccount,
  report.resources,
];

describe("the bill's report reads one cost", () => {
  it.each([
    ["the FinOps Foundation's FOCUS sample (EffectiveCost)", SAMPLE, "out.csv"],
    ["a whole CUR bill", "cur-whole-bill.csv", "out.parquet"],
    ["a whole Azure bill", "azure-whole-bill.csv", "out.csv"],
  ])("%s: each table sums to the coverage line", async (_, fixture, output) => {
    const report = await reportOf(billingFixture(fixture), `${fixture}.${output}`);
    const { estimatedCost, estimatedLines } = report.coverage;
    expect(estimatedLines).toBeGreaterThan(0);
    for (const ranking of rankings(report)) {
      expect(sum(ranking, (row) => row.cost)).toBeCloseTo(estimatedCost, 6);
      expect(sum(ranking, (row) => row.lines)).toBe(estimatedLines);
    }
    const perMethod = report.coverage.byMethod.reduce((total, row) => total + row.cost, 0);
    expect(perMethod).toBeCloseTo(estimatedCost, 6);
  });

  it("the FOCUS sample: amortised cost, the instance hours at 16 USD in every table, no NULL resource", async () => {
    // The run of the sample's case above (the same request)
    const report = await reportOf(billingFixture(SAMPLE), `${SAMPLE}.out.csv`);
    expect(report.costBasis).toMatch(/^amortised cost, as EffectiveCost/);
    // The coverage's 16.55 of 18.14 USD: BilledCost would make EC2 alone 18.61
    expect(report.coverage.estimatedCost).toBeCloseTo(16.55, 2);
    const instance = report.byMethod.rows.find((row) => row.name === "instance");
    expect(instance?.cost).toBeCloseTo(16, 6);
    expect(report.coverage.byMethod.find((row) => row.name === "instance")?.cost).toBeCloseTo(16, 6);
    const names = [...report.resources.rows.map((row) => row.name)];
    expect(names).not.toContain("NULL");
    expect(names.every((name) => name !== "")).toBe(true);
  });

  it("a generated CUR 2.0 with reservations and Savings Plans: amortised, product names with their codes", async () => {
    const file = join(scratch, "cur.parquet");
    await writeBillingExport("cur", 4000, file, "1.2", true);
    const report = await reportOf(file, "cur-out.csv");
    expect(report.costBasis).toMatch(/^amortised cost, as line_item_unblended_cost amortised by/);
    for (const ranking of rankings(report)) {
      expect(sum(ranking, (row) => row.cost)).toBeCloseTo(report.coverage.estimatedCost, 6);
    }
    const ec2 = report.byService.rows.find((row) => row.id === "AmazonEC2");
    expect(ec2?.name).toBe("Amazon Elastic Compute Cloud");
  });
});

describe("one cost basis, the by-cost lines included", () => {
  it("a by-cost line's estimate reads the report's cost: EffectiveCost, its rate the instance lines' EffectiveCost", async () => {
    // 10 h of m5.xlarge billed 2.00 and paid 1.50; a load balancer's capacity units billed 1.00, paid
    // 0.60 (its hours are a catalogue's size, its LCU-hours have no hardware of their own: by cost)
    const file = join(scratch, "by-cost.csv");
    const header =
      "BilledCost,EffectiveCost,ChargeCategory,ChargeDescription,ConsumedQuantity,ConsumedUnit,ProviderName,RegionId,ServiceName,ServiceCategory,ResourceId";
    writeFileSync(
      file,
      `${header}\n2.00,1.50,Usage,$0.20 per On Demand Linux m5.xlarge Instance Hour,10,Hours,AWS,eu-west-3,Amazon Elastic Compute Cloud,Compute,i-1\n` +
        "1.00,0.60,Usage,$0.008 per used Application load balancer capacity unit-hour (or partial hour),1,LCU-Hours,AWS,eu-west-3,Elastic Load Balancing,Networking,lb-1\n",
    );
    const report = await reportOf(file, "by-cost-out.csv");
    const [names, ...lines] = readFileSync(join(scratch, "by-cost-out.csv"), "utf8").trim().split("\n");
    const header_ = names.split(",");
    const cell = (line: string, column: string) => Number(line.split(",")[header_.indexOf(column)]);
    const [instance, balancer] = lines;
    expect(balancer).toContain("by-cost");
    // kWh per paid USD of the instance lines × the balancer's paid 0.60 (BilledCost: 1.00 × kWh / 2.00)
    const rate = cell(instance, "energy_kwh") / 1.5;
    expect(cell(balancer, "method_quantity")).toBeCloseTo(0.6, 12);
    expect(cell(balancer, "energy_kwh") / (0.6 * rate)).toBeCloseTo(1, 9);
    // The report's rows: the by-cost row's cost on the basis its impacts were read from
    const byCost = report.byMethod.rows.find((row) => row.name === "by-cost");
    expect(byCost?.cost).toBeCloseTo(0.6, 12);
    expect(report.coverage.byMethod.find((row) => row.name === "by-cost")?.cost).toBeCloseTo(0.6, 12);
    expect(report.costBasis).toMatch(/^amortised cost, as EffectiveCost/);
  });

  it("the FOCUS sample's by-cost row: 5 lines paid 0 USD carry no impact", async () => {
    const report = await reportOf(billingFixture(SAMPLE), `${SAMPLE}.out.csv`);
    const byCost = report.byMethod.rows.find((row) => row.name === "by-cost");
    // 5 load balancers' capacity units (their balancers' hours are the catalogue's; the EKS
    // cluster's hours its control plane's: method control-plane)
    expect(byCost?.lines).toBe(5);
    expect(report.byMethod.rows.find((row) => row.name === "control-plane")?.lines).toBe(1);
    expect(byCost?.cost).toBe(0);
    // Its AWS lines' EffectiveCost is 0 where BilledCost is positive (20.3 gCO2eq on BilledCost)
    expect((byCost?.impacts[0].embedded ?? 1) + (byCost?.impacts[0].use ?? 1)).toBe(0);
    expect(byCost?.energy).toBe(0);
  });

  it("an Azure amortised export says amortised, by its unused reservation's charge", async () => {
    const [header, ...rows] = readFileSync(billingFixture("azure-ea.csv"), "utf8").trim().split("\n");
    const columns = header.split(",");
    const at = columns.indexOf("ChargeType");
    // The amortised dataset's own charge: a reservation's unused hours (the row's other cells kept)
    const unused = rows[0].replace(
      ",Usage,UsageBased,OnDemand,",
      ",UnusedReservation,UsageBased,Reservation,",
    );
    expect(unused).not.toBe(rows[0]);
    expect(at).toBeGreaterThan(0);
    const amortised = join(scratch, "azure-amortised.csv");
    writeFileSync(amortised, `${[header, ...rows, unused].join("\n")}\n`);
    const report = await reportOf(amortised, "azure-amortised-out.csv");
    expect(report.costBasis).toBe(
      "amortised cost, as CostInBillingCurrency (an amortised dataset: its ChargeType UnusedReservation lines), positive lines only (credits and refunds left out)",
    );
    const actual = await reportOf(billingFixture("azure-ea.csv"), "azure-actual-out.csv");
    expect(actual.costBasis).toMatch(/^billed cost, as CostInBillingCurrency,/);
  });
});
