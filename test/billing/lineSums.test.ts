/**
 * A line's figures are its own: over every fixture, the public exports and bills generated at
 * random, the written lines sum to the summary's totals (each impact column, its min and max, and
 * the energy, to 1e-9 relative, the lines read from Parquet: before any rounding), and every row
 * of the report's tables and of `--group-by`'s file is the sum of its lines. A by-cost line once
 * carried its tuple's whole cost (three EKS lines of 0.10 USD each read 0.3, when EKS was estimated
 * by its cost), so the lines summed to ten times the summary on a real legacy CUR.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { evaluateBillingExport } from "../../src/billing/bill.js";
import { billLayout } from "../../src/billing/reading/layout.js";
import type { BillingSummary } from "../../src/billing/stages/summarise.js";
import { billingFixture } from "../support/publicExports.js";
import { billingRequest, billingTermsOf } from "./support.js";

const scratch = mkdtempSync(join(tmpdir(), "billing-line-sums-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const FIXTURE_FOLDER = join(import.meta.dirname, "../fixtures/billing");

/** Fixtures that are not bills a run evaluates, each refused by design (their own tests say how). */
const REFUSED = new Set([
  "not-billing.csv",
  "unknown-header.parquet",
  "arrivals/invoice-headerless.csv",
  "arrivals/cur2-Manifest.json",
  "arrivals/focus-1.3-contract-commitment.csv",
  "arrivals/focus-1.4-billing-period.csv",
  "arrivals/focus-1.4-invoice-detail.csv",
]);

const BILLS = /\.(csv|csv\.gz|parquet|json|json\.gz)$/;

/** Every billing fixture a run evaluates, and the public exports. */
const FIXTURES = [
  ...readdirSync(FIXTURE_FOLDER).filter((name) => BILLS.test(name)),
  ...readdirSync(join(FIXTURE_FOLDER, "arrivals"))
    .filter((name) => BILLS.test(name))
    .map((name) => `arrivals/${name}`),
  "focus-1.0-finops-sample.csv",
  "cur-1.0-focus-converters-aws.csv.gz",
  "oci-focus-converters-cost.csv.gz",
].filter((name) => !REFUSED.has(name));

/** A column naming each line's service, by the format's spelling, whatever the case and signs. */
const SERVICE_COLUMNS = [
  "servicename",
  "lineitemproductcode",
  "metercategory",
  "kategoriederverbrauchseinheitmetercategory",
  "kategoriederverbrauchseinheit",
  "servicedescription",
  "productservice",
];

const squeezed = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, "");

/** Equal within 1e-9 relative, or both below 1e-15 of the larger of the bill's figures (`scale`). */
function close(actual: number, expected: number, scale: number): boolean {
  const larger = Math.max(Math.abs(actual), Math.abs(expected));
  return Math.abs(actual - expected) <= 1e-9 * larger || larger <= 1e-15 * scale;
}

type Sums = Record<string, number>;

/** What disagrees between two sets of sums (empty when every sum agrees), each named. */
function disagreements(what: string, actual: Sums, expected: Sums): string[] {
  const scale = Math.max(1, ...Object.values(expected).map(Math.abs));
  return Object.keys(expected).flatMap((column) =>
    close(actual[column] ?? 0, expected[column], scale)
      ? []
      : [`${what} ${column}: ${actual[column] ?? 0} where its lines sum to ${expected[column]}`],
  );
}

/** The columns of a bill as its layout reads them (a Parquet file's from its schema). */
async function headerOf(connection: DuckDBConnection, file: string): Promise<string[]> {
  const layout = billLayout(file);
  if (layout?.kind === "csv") return [...layout.header];
  if (layout?.kind === "json") return [...layout.fields];
  const reader = await connection.runAndReadAll(`SELECT name FROM parquet_schema('${file}')`);
  return reader.getRowObjects().map((row) => String(row.name));
}

interface Checked {
  readonly summary: BillingSummary;
  readonly problems: readonly string[];
  readonly evaluated: number;
}

/** Evaluates `file` (its report and its groups by `groupBy`) and checks every sum against its lines. */
async function checkedSums(file: string, name: string): Promise<Checked> {
  const output = join(scratch, `${name}.parquet`);
  const groupsOutput = join(scratch, `${name}.groups.parquet`);
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    const names = await headerOf(connection, file);
    const service = names.find((column) => SERVICE_COLUMNS.includes(squeezed(column)));
    const groupBy = service === undefined ? [] : [service];
    const summary = await evaluateBillingExport(
      billingTermsOf("2.4.1", { criteria: ["gwp", "adp", "pe"], ranges: true }),
      billingRequest(file, output, {
        report: true,
        groupBy,
        groupsOutput: groupBy.length === 0 ? null : groupsOutput,
      }),
    );
    const problems: string[] = [];
    const columns = summary.impactColumns;
    const sumsOf = async (query: string) =>
      (await connection.runAndReadAll(query))
        .getRowObjects()
        .map((row) =>
          Object.fromEntries(
            Object.entries(row).map(([key, value]) => [
              key,
              key === "group_name" ? value : value === null ? 0 : Number(value),
            ]),
          ),
        ) as Sums[];
    const total = (
      await sumsOf(
        `SELECT COUNT(*) AS lines, ${[...columns, "energy_kwh"].map((c) => `SUM("${c}") AS "${c}"`).join(", ")}
         FROM '${output}' WHERE status = 'evaluated'`,
      )
    )[0];
    // The summary's totals: each criterion's phases, value and bounds
    const summed: Sums = { energy_kwh: summary.energyKwh };
    for (const impact of summary.totals) {
      const stem = columns.find(
        (column) =>
          column.startsWith(`${impact.criterion.info.name}_${impact.phase}_`) &&
          !column.endsWith("_min") &&
          !column.endsWith("_max"),
      );
      if (stem === undefined) continue;
      summed[stem] = impact.value;
      summed[`${stem.replace(/_([a-z0-9]+)$/, "_$1_min")}`] = impact.min;
      summed[`${stem.replace(/_([a-z0-9]+)$/, "_$1_max")}`] = impact.max;
    }
    const { lines: _lines, ...lineTotals } = total;
    problems.push(...disagreements("the summary's", summed, lineTotals));
    problems.push(...reportDisagreements(summary, lineTotals));
    problems.push(...(await methodDisagreements(summary, output, sumsOf)));
    if (groupBy.length > 0)
      problems.push(...(await groupDisagreements(groupBy[0], output, groupsOutput, columns, sumsOf)));
    return { summary, problems, evaluated: total.lines };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** Each ranking of the report (its rows and the rest summed) adds up to the lines. */
function reportDisagreements(summary: BillingSummary, lines: Sums): string[] {
  const report = summary.report;
  if (report === null) return ["no report"];
  const names = report.criteria.map((criterion) => criterion.name);
  const phaseColumn = (index: number, phase: "embedded" | "use") =>
    summary.impactColumns.find(
      (column) => column.startsWith(`${names[index]}_${phase}_`) && !/_(min|max)$/.test(column),
    ) ?? "";
  const rankings = {
    byMethod: report.byMethod,
    byService: report.byService,
    byRegion: report.byRegion,
    byAccount: report.byAccount,
    resources: report.resources,
  };
  return Object.entries(rankings).flatMap(([table, ranking]) => {
    const rows = [...ranking.rows, ...(ranking.others === null ? [] : [ranking.others])];
    const sums: Sums = { energy_kwh: 0 };
    for (const row of rows) {
      sums.energy_kwh += row.energy;
      row.impacts.forEach((impact, index) => {
        for (const phase of ["embedded", "use"] as const) {
          const column = phaseColumn(index, phase);
          sums[column] = (sums[column] ?? 0) + impact[phase];
        }
      });
    }
    const expected = Object.fromEntries(Object.keys(sums).map((column) => [column, lines[column] ?? 0]));
    return disagreements(`the report's ${table}`, sums, expected);
  });
}

/** Each row of the report's table by method is the sum of that method's lines. */
async function methodDisagreements(
  summary: BillingSummary,
  output: string,
  sumsOf: (query: string) => Promise<Sums[]>,
): Promise<string[]> {
  const report = summary.report;
  if (report === null) return [];
  const first = summary.impactColumns.filter((column) => column.startsWith(`${report.criteria[0]?.name}_`));
  const [embedded, use] = [
    first.find((c) => c.includes("_embedded_")),
    first.find((c) => c.includes("_use_")),
  ];
  if (embedded === undefined || use === undefined) return [];
  return (
    await Promise.all(
      report.byMethod.rows.map(async (row) => {
        const [lines] = await sumsOf(
          `SELECT SUM(energy_kwh) AS energy_kwh, SUM("${embedded}") AS "${embedded}", SUM("${use}") AS "${use}"
           FROM '${output}' WHERE status = 'evaluated' AND method = '${row.name.replaceAll("'", "''")}'`,
        );
        const measured = {
          energy_kwh: row.energy,
          [embedded]: row.impacts[0].embedded,
          [use]: row.impacts[0].use,
        };
        return disagreements(`the report's method ${row.name}`, measured, lines);
      }),
    )
  ).flat();
}

/** Each row of `--group-by`'s file is the sum of its group's lines. */
async function groupDisagreements(
  column: string,
  output: string,
  groupsOutput: string,
  impactColumns: readonly string[],
  sumsOf: (query: string) => Promise<Sums[]>,
): Promise<string[]> {
  const quoted = `"${column.replaceAll('"', '""')}"`;
  const summed = ["lines", "hours", ...impactColumns];
  const groups = await sumsOf(
    `SELECT g.${quoted} AS group_name, ${summed.map((c) => `g."${c}" AS "g_${c}"`).join(", ")},
       ${summed.map((c) => (c === "lines" ? `COUNT(l.status) AS "l_lines"` : `SUM(l."${c}") AS "l_${c}"`)).join(", ")}
     FROM '${groupsOutput}' g
     LEFT JOIN (SELECT * FROM '${output}' WHERE status = 'evaluated') l ON l.${quoted} IS NOT DISTINCT FROM g.${quoted}
     GROUP BY ALL`,
  );
  return groups.flatMap((row) => {
    const of = (prefix: string) => Object.fromEntries(summed.map((c) => [c, row[`${prefix}_${c}`]]));
    return disagreements(`--group-by's row ${String(row.group_name)}`, of("g"), of("l"));
  });
}

describe("a line's figures are its own: the lines sum to every figure built from them", () => {
  it("three load balancer capacity-unit lines of 0.10 USD beside three instance hours: each its own 0.10", async () => {
    const header =
      "identity_line_item_id,line_item_usage_account_id,line_item_line_item_type,line_item_usage_start_date,line_item_product_code,line_item_usage_type,line_item_operation,line_item_usage_amount,line_item_unblended_cost,pricing_unit,product_instance_type,product_region_code,product_product_family";
    const lines = [1, 2, 3].flatMap((hour) => [
      `a${hour},1,Usage,2026-10-01 0${hour}:00:00,AmazonEC2,EUW2-BoxUsage:t2.medium,RunInstances,1,0.05,Hrs,t2.medium,eu-west-2,Compute Instance`,
      `b${hour},1,Usage,2026-10-01 0${hour}:00:00,AWSELB,EUW2-LCUUsage,LoadBalancing:application,1,0.10,LCU-Hrs,,eu-west-2,Load Balancer-Application`,
    ]);
    const file = join(scratch, "lcu.csv");
    writeFileSync(file, `${[header, ...lines].join("\n")}\n`);
    const { problems } = await checkedSums(file, "lcu");
    expect(problems).toEqual([]);
    const instance = await DuckDBInstance.create(":memory:");
    const connection = await instance.connect();
    const reader = await connection.runAndReadAll(
      `SELECT method, method_quantity FROM '${join(scratch, "lcu.parquet")}' WHERE method <> 'instance'`,
    );
    connection.closeSync();
    instance.closeSync();
    // Each line's quantity is its own cost, not its three lines' 0.3
    expect(reader.getRowObjects().map((row) => [row.method, Number(row.method_quantity)])).toEqual([
      ["by-cost", 0.1],
      ["by-cost", 0.1],
      ["by-cost", 0.1],
    ]);
  });

  it.each(FIXTURES)(
    "%s",
    async (fixture) => {
      const { problems } = await checkedSums(billingFixture(fixture), fixture.replaceAll("/", "-"));
      expect(problems).toEqual([]);
    },
    120_000,
  );
});

/*
 * Bills generated at random: lines drawn from each format's kinds (instance hours, a control
 * plane's and a load balancer's hours by cost, storage, transfer, requests, a tax), each kind's
 * lines repeated with their own quantity and cost, so that a tuple of describing columns holds
 * lines of different figures.
 */

interface Kind {
  readonly cells: (quantity: number, cost: number, index: number) => string;
}

/** CUR 2.0 lines: header and kinds. */
const CUR_HEADER =
  "identity_line_item_id,line_item_usage_account_id,line_item_line_item_type,line_item_usage_start_date,line_item_product_code,line_item_usage_type,line_item_operation,line_item_usage_amount,line_item_unblended_cost,pricing_unit,product_instance_type,product_region_code,line_item_resource_id,product_product_family";

const curKind =
  (
    type: string,
    product: string,
    usage: string,
    operation: string,
    unit: string,
    instance = "",
    region = "eu-west-2",
  ) =>
  (quantity: number, cost: number, index: number) =>
    `l${index},1,${type},2026-10-01 00:00:00,${product},${usage},${operation},${quantity},${cost},${unit},${instance},${region},r${index % 3},${product === "AWSELB" ? "Load Balancer-Application" : ""}`;

const CUR_KINDS: readonly Kind[] = [
  { cells: curKind("Usage", "AmazonEC2", "EUW2-BoxUsage:t2.medium", "RunInstances", "Hrs", "t2.medium") },
  {
    cells: curKind(
      "Usage",
      "AmazonEC2",
      "EUW2-BoxUsage:m5.xlarge",
      "RunInstances",
      "Hrs",
      "m5.xlarge",
      "eu-west-3",
    ),
  },
  { cells: curKind("Usage", "AmazonEKS", "EUW2-AmazonEKS-Hours:perCluster", "CreateOperation", "Hours") },
  { cells: curKind("Usage", "AWSELB", "EUW2-LCUUsage", "LoadBalancing:application", "LCU-Hrs") },
  { cells: curKind("Usage", "AmazonEC2", "EUW2-EBS:VolumeUsage.gp2", "CreateVolume-Gp2", "GB-Mo") },
  { cells: curKind("Usage", "AmazonS3", "EUW2-TimedStorage-ByteHrs", "StandardStorage", "GB-Mo") },
  { cells: curKind("Usage", "AWSDataTransfer", "EUW2-DataTransfer-Out-Bytes", "", "GB") },
  { cells: curKind("Usage", "AmazonS3", "EUW2-Requests-Tier1", "PutObject", "Requests") },
  { cells: curKind("Tax", "AmazonEC2", "", "", "") },
];

/** FOCUS 1.0 lines (the spec's columns, several providers). */
const FOCUS_HEADER =
  "ProviderName,ChargeCategory,ServiceName,ServiceCategory,ChargeDescription,SkuMeter,ConsumedQuantity,ConsumedUnit,RegionId,BilledCost,EffectiveCost,SubAccountId,ResourceId,ChargePeriodStart,ChargePeriodEnd";

const focusKind =
  (provider: string, category: string, service: string, description: string, unit: string, region: string) =>
  (quantity: number, cost: number, index: number) =>
    `${provider},${category},${service},Compute,"${description}",,${quantity},${unit},${region},${cost},${cost},a${index % 2},r${index % 4},2024-01-01T00:00:00Z,2024-01-02T00:00:00Z`;

const FOCUS_KINDS: readonly Kind[] = [
  {
    cells: focusKind(
      "AWS",
      "Usage",
      "Amazon Elastic Compute Cloud",
      "$0.384 per On Demand Linux c5.2xlarge Instance Hour",
      "Hours",
      "eu-west-1",
    ),
  },
  {
    cells: focusKind(
      "AWS",
      "Usage",
      "Amazon Elastic Container Service for Kubernetes",
      "Amazon EKS cluster usage",
      "Hours",
      "eu-west-1",
    ),
  },
  { cells: focusKind("AWS", "Usage", "Elastic Load Balancing", "LoadBalancerUsage", "Hours", "eu-west-1") },
  { cells: focusKind("AWS", "Usage", "Amazon Simple Storage Service", "Storage", "GB-Mo", "eu-west-1") },
  {
    cells: focusKind(
      "Microsoft",
      "Usage",
      "Virtual Machines",
      "Virtual Machines Dsv3 Series - D4s v3 - EU West",
      "Hours",
      "westeurope",
    ),
  },
  {
    cells: focusKind(
      "Microsoft",
      "Usage",
      "Azure Kubernetes Service",
      "Standard Uptime SLA",
      "Hours",
      "westeurope",
    ),
  },
  {
    cells: focusKind(
      "AWS",
      "Usage",
      "Amazon Virtual Private Cloud",
      "$0.05 per Transit Gateway attachment-hour",
      "Hours",
      "eu-west-1",
    ),
  },
  { cells: focusKind("AWS", "Tax", "Amazon Elastic Compute Cloud", "Tax", "", "") },
];

const line = fc.record({
  kind: fc.integer({ min: 0, max: 8 }),
  quantity: fc.oneof(fc.constant(1), fc.double({ min: 0, max: 1000, noNaN: true })),
  cost: fc.oneof(fc.constant(0.1), fc.double({ min: 0, max: 500, noNaN: true })),
});

const BILLS_GENERATED = [
  { format: "cur", header: CUR_HEADER, kinds: CUR_KINDS },
  { format: "focus", header: FOCUS_HEADER, kinds: FOCUS_KINDS },
] as const;

describe("a line's figures are its own, over bills generated at random", () => {
  it.each(BILLS_GENERATED)(
    "$format",
    async ({ format, header, kinds }) => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 30, size: "medium" }), async (drawn) => {
          run += 1;
          // An instance's hour of a positive cost first: the by-cost lines' rate is the instance lines'
          const rows = [{ kind: 0, quantity: 1, cost: 1 }, ...drawn].map((entry, index) => {
            // Figures as a bill writes them: at most 6 decimals
            const quantity = Number(entry.quantity.toFixed(6));
            const cost = Number(entry.cost.toFixed(6));
            return kinds[entry.kind % kinds.length].cells(quantity, cost, index);
          });
          const file = join(scratch, `generated-${format}-${run}.csv`);
          writeFileSync(file, `${[header, ...rows].join("\n")}\n`);
          const { problems } = await checkedSums(file, `generated-${format}-${run}`);
          expect(problems).toEqual([]);
        }),
        { numRuns: 8, seed: 87, endOnFailure: true },
      );
    },
    300_000,
  );
});
