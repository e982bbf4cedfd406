/**
 * Billing lines that are not instance hours, through the command line (its function, `main`): each
 * method's line of a multi-provider FOCUS export (AWS with and without the extension columns,
 * Microsoft, Google Cloud, Oracle) against a hand computation from the coefficients
 * docs/methodology.md ("Billing lines that are not instance hours") gives, and the coverage summary.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Evaluation, type RequestedCriterion, resolveCriterion } from "../../src/engine/index.js";
import { prepareComponent } from "../../src/service/components.js";
import { runMain } from "../support/cli.js";
import { billingFixture } from "../support/publicExports.js";
import { namesAsText } from "../support/reportHtml.js";
import { editionContext, expectClose, routeRaw } from "./support.js";

const SLOW = { timeout: 180_000 };
const scratch = mkdtempSync(join(tmpdir(), "billing-methods-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type Row = Record<string, string>;
let rows: Row[] = [];
let stderr = "";
const other: Record<string, Row[]> = {};
/** Each run's stderr, by fixture. */
const summaries: Record<string, string> = {};

/** The command on a fixture of test/fixtures/billing, in edition 2.4.1: its stderr and written lines. */
async function evaluated(name: string, ...extra: string[]): Promise<{ stderr: string; lines: Row[] }> {
  const output = join(scratch, `${name}.csv`);
  const file = billingFixture(`${name}.csv`);
  const run = await runMain(["evaluate", file, "--edition", "2.4.1", "--output", output, ...extra]);
  if (run.code !== 0) throw new Error(`exit ${run.code}: ${run.stderr}`);
  return { stderr: run.stderr, lines: parse(await readFile(output, "utf8"), { columns: true }) as Row[] };
}

// The five runs in turn: each opens a DuckDB database of its own (runMain runs them so anyway).
beforeAll(async () => {
  const whole = await evaluated("focus-whole-bill", "--ranges", "--report", join(scratch, "bill.html"));
  const azure = await evaluated("azure-whole-bill");
  const cur = await evaluated("cur-whole-bill");
  const services = await evaluated(
    "focus-1.0-services",
    "--report",
    join(scratch, "focus-1.0-services.html"),
  );
  const sample = await evaluated(
    "focus-1.0-finops-sample",
    "--report",
    join(scratch, "focus-1.0-finops-sample.html"),
  );
  stderr = whole.stderr;
  rows = whole.lines;
  other.azure = azure.lines;
  other.cur = cur.lines;
  other["focus-1.0-services"] = services.lines;
  other["focus-1.0-finops-sample"] = sample.lines;
  summaries["focus-1.0-services"] = services.stderr;
  summaries["focus-1.0-finops-sample"] = sample.stderr;
}, 180_000);

const gwp: RequestedCriterion = (() => {
  const criterion = resolveCriterion("gwp");
  if (criterion === null) throw new Error("gwp is a criterion");
  return criterion;
})();
const context = editionContext("2.4.1");
const { electricity, cloudRegions } = context.service.data;

/** The gwp factor of a provider's region (its country's), kgCO2eq/kWh. */
function factorOf(provider: string, region: string): number {
  const country = cloudRegions?.find((r) => r.provider === provider && r.region === region)?.usageLocation;
  const factor = electricity.byLocation.get(country ?? "")?.factors.get("gwp")?.value;
  if (factor === undefined) throw new Error(`no factor for ${provider} ${region}`);
  return factor;
}

/** One hour of a component, embedded gwp (the engine's default archetype). */
async function componentHour(kind: "ssd" | "hdd" | "gpu", input: Record<string, unknown>): Promise<number> {
  const prepared = await prepareComponent(context, kind, null, input);
  const evaluation = new Evaluation(prepared.build(), { duration: 1, allocation: "LINEAR", criteria: [gwp] });
  return evaluation.raw(gwp, "embedded")?.value ?? Number.NaN;
}

/** One hour of an instance at the default place, embedded gwp. */
async function instanceHour(provider: string, type: string): Promise<number> {
  const [impacts] = await routeRaw("2.4.1", provider, type, { region: null, usageLocation: null }, null, 1, [
    gwp,
  ]);
  return impacts.embedded?.value ?? Number.NaN;
}

/** kWh per unit of cost of a bill's instance lines (type, hours) in one region, from the route: Σ use ÷ factor ÷ cost. */
async function kwhPerCost(
  provider: string,
  region: string,
  lines: readonly (readonly [string, number])[],
  cost: number,
): Promise<number> {
  const usageLocation =
    cloudRegions?.find((r) => r.provider === provider && r.region === region)?.usageLocation ?? null;
  let energy = 0;
  for (const [type, hours] of lines) {
    const [impacts] = await routeRaw("2.4.1", provider, type, { region, usageLocation }, null, hours, [gwp]);
    energy += (impacts.use?.value ?? Number.NaN) / factorOf(provider, region);
  }
  return energy / cost;
}

const close = (actual: string, expected: number, what: string) => {
  const value = Number(actual);
  const scale = Math.max(Math.abs(value), Math.abs(expected));
  if (scale === 0) return;
  expect(Math.abs(value - expected) / scale, `${what}: ${actual} vs ${expected}`).toBeLessThan(1e-8);
};

// Energy per unit before PUE (docs/methodology.md): CCF's coefficients.
const SSD = 1.2e-6; // kWh per GB-hour
const HDD = 0.65e-6;
const NETWORK = 0.001; // kWh per GB
const MEMORY = 0.000392; // kWh per GB-hour
const vcpu = (min: number, max: number) => (min + 0.5 * (max - min)) / 1000; // kWh per vCPU-hour at 50 %
/** A GPU model's kWh per hour at 50 %: idle at 35/306 of its board power (CCF's ratio), full at it. */
const gpuAt = (watts: number) => (watts * (35 / 306) + 0.5 * (watts - watts * (35 / 306))) / 1000;
/** Lambda: GiB-seconds (1,024 MB) of memory, one vCPU per 1,769 MB. */
const LAMBDA_VCPUS_PER_GB = 1024 / 1769;
const GIB = 1.073741824;

interface Expected {
  readonly description: string;
  readonly method: string;
  /** Units of the method's key. */
  readonly quantity: number;
  /** kWh per unit, PUE included. */
  readonly energy: number;
  readonly factor: number;
  /** Embedded gwp per unit. */
  readonly embedded: () => Promise<number>;
}

const ssdHour = async () => (await componentHour("ssd", { capacity: 5000 })) / 5000;
const hddHour = async () => (await componentHour("hdd", {})) / 10000;
const none = async () => 0;

const EXPECTED: Expected[] = [
  {
    description: "General Purpose SSD (gp3)",
    method: "block-storage",
    quantity: 500 * 730 * 2,
    energy: SSD * 1.135,
    factor: factorOf("aws", "us-east-1"),
    embedded: ssdHour,
  },
  {
    description: "Throughput Optimized HDD (st1)",
    method: "block-storage",
    quantity: 1000 * 730 * 2,
    energy: HDD * 1.135,
    factor: factorOf("aws", "us-east-1"),
    embedded: hddHour,
  },
  {
    description: "first 50 TB / month of storage used",
    method: "object-storage",
    quantity: 2000 * 730 * 3,
    energy: HDD * 1.135,
    factor: factorOf("aws", "us-east-1"),
    embedded: hddHour,
  },
  {
    description: "One Zone-IA",
    method: "object-storage",
    quantity: 100 * 730 * 2,
    energy: HDD * 1.135,
    factor: factorOf("aws", "us-east-1"),
    embedded: hddHour,
  },
  {
    description: "data transfer out beyond",
    method: "data-transfer",
    quantity: 300,
    energy: NETWORK * 1.135,
    factor: factorOf("aws", "us-east-1"),
    embedded: none,
  },
  {
    description: "Total Compute",
    method: "serverless",
    quantity: (1_000_000 / 3600) * LAMBDA_VCPUS_PER_GB,
    energy: vcpu(0.74, 3.5) * 1.135,
    factor: factorOf("aws", "us-east-1"),
    embedded: async () => (await instanceHour("aws", "m5.xlarge")) / 4,
  },
  {
    description: "AWS Fargate - vCPU",
    method: "per-vcpu",
    quantity: 1440,
    energy: vcpu(0.74, 3.5) * 1.135,
    factor: factorOf("aws", "us-east-1"),
    embedded: async () => (await instanceHour("aws", "m5.xlarge")) / 4,
  },
  {
    description: "AWS Fargate - Memory",
    method: "memory",
    quantity: 2880,
    energy: MEMORY * 1.135,
    factor: factorOf("aws", "us-east-1"),
    embedded: none,
  },
  {
    description: "Aurora Serverless v2",
    method: "per-vcpu",
    quantity: 200 * 0.25,
    energy: vcpu(0.74, 3.5) * 1.135,
    factor: factorOf("aws", "us-east-1"),
    embedded: async () => (await instanceHour("aws", "m5.xlarge")) / 4,
  },
  {
    description: "per GB-month of General Purpose SSD (gp2)",
    method: "block-storage",
    quantity: 200 * 730 * 2,
    energy: SSD * 1.135,
    factor: factorOf("aws", "eu-west-1"),
    embedded: ssdHour,
  },
  {
    description: "Hot LRS Data Stored",
    method: "object-storage",
    quantity: 1000 * 730 * 3,
    energy: HDD * 1.185,
    factor: factorOf("azure", "westeurope"),
    embedded: hddHour,
  },
  {
    description: "Standard Data Transfer Out",
    method: "data-transfer",
    quantity: 200,
    energy: NETWORK * 1.185,
    factor: factorOf("azure", "westeurope"),
    embedded: none,
  },
  {
    description: "N2 Instance Core",
    method: "per-vcpu",
    quantity: 2880,
    energy: vcpu(0.71, 4.26) * 1.1,
    factor: factorOf("gcp", "us-central1"),
    embedded: async () => (await instanceHour("gcp", "n2-standard-4")) / 4,
  },
  {
    description: "N2 Instance Ram",
    method: "memory",
    quantity: 11520 * GIB,
    energy: MEMORY * 1.1,
    factor: factorOf("gcp", "us-central1"),
    embedded: none,
  },
  {
    description: "Storage PD Capacity",
    method: "block-storage",
    quantity: 500 * 730 * GIB,
    energy: HDD * 1.1,
    factor: factorOf("gcp", "us-central1"),
    embedded: hddHour,
  },
  {
    description: "SSD backed PD Capacity",
    method: "block-storage",
    quantity: 200 * 730 * GIB,
    energy: SSD * 1.1,
    factor: factorOf("gcp", "us-central1"),
    embedded: ssdHour,
  },
  {
    description: "Tesla T4 GPU",
    method: "accelerator",
    quantity: 720,
    energy: gpuAt(70) * 1.1, // a T4: 70 W (NVIDIA T4 datasheet)
    factor: factorOf("gcp", "us-central1"),
    embedded: () => componentHour("gpu", {}),
  },
  {
    description: "Network Internet Egress",
    method: "data-transfer",
    quantity: 150 * GIB,
    energy: NETWORK * 1.1,
    factor: factorOf("gcp", "us-central1"),
    embedded: none,
  },
  // Oracle: regions unknown to the edition, so their country (eu-frankfurt-1: Germany); PUE 1.185,
  // watts the mean of the three providers'.
  {
    description: "E4 - OCPU",
    method: "per-vcpu",
    quantity: 1440 * 2,
    energy: vcpu((0.74 + 0.71 + 0.78) / 3, (3.5 + 4.26 + 3.76) / 3) * 1.185,
    factor: electricity.byLocation.get("DEU")?.factors.get("gwp")?.value ?? Number.NaN,
    embedded: async () => (await instanceHour("aws", "m5.xlarge")) / 4,
  },
];

describe("billing lines that are not instance hours (impact-service evaluate)", () => {
  it(
    "writes the bill's report: one page, coverage, methods, services, regions, accounts, resources",
    SLOW,
    async () => {
      const html = namesAsText(await readFile(join(scratch, "bill.html"), "utf8"));
      expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=/);
      expect(html).toContain("echarts");
      expect(html).toContain("<b>95.9 %</b>of the positive cost estimated (1,187 of 1,237 USD)");
      for (const heading of [
        "Coverage",
        "By method",
        "By service",
        "By region",
        "By account",
        "Largest resources",
      ]) {
        expect(html).toContain(`<h2>${heading}</h2>`);
      }
      const data = JSON.parse(html.split('id="report-data">')[1].split("</script>")[0]);
      expect(data.rankings["chart-method"][0].name).toBe("accelerator");
      expect(data.rankings["chart-region"].map((r: { name: string }) => r.name)).toContain("eu-frankfurt-1");
      expect(html).toContain(
        '<td class="name">AmazonCloudWatch</td><td class="n">1</td><td class="n" title="30 USD">30</td>',
      );
    },
  );

  it.each(EXPECTED)(
    "estimates $description as $method from its documented coefficients",
    SLOW,
    async (expected) => {
      const row = rows.find((r) => r.ChargeDescription.includes(expected.description));
      if (row === undefined) throw new Error(`no line ${expected.description}`);
      expect(row.status).toBe("evaluated");
      expect(row.method).toBe(expected.method);
      close(row.method_quantity, expected.quantity, "quantity");
      close(row.energy_kwh, expected.quantity * expected.energy, "energy_kwh");
      // use = energy_kwh × the place's electricity factor of the edition
      close(row.gwp_use_kgco2eq, expected.quantity * expected.energy * expected.factor, "gwp use");
      close(row.gwp_embedded_kgco2eq, expected.quantity * (await expected.embedded()), "gwp embedded");
    },
  );

  it(
    "reads an Azure cost export's managed disks by their tier's size, blobs by their redundancy",
    SLOW,
    () => {
      const azure = other.azure;
      const disk = (name: string) => azure.find((r) => r.MeterName === name) as Row;
      // P10: 128 GiB; LRS: 3 copies; a GB-month is 730 GB-hours
      expect(disk("P10 LRS Disk").method).toBe("block-storage");
      close(disk("P10 LRS Disk").method_quantity, 128 * GIB * 730 * 3, "P10");
      close(disk("P10 LRS Disk").energy_kwh, 128 * GIB * 730 * 3 * SSD * 1.185, "P10 energy");
      // S30: 1,024 GiB, two disks, on HDD
      expect(disk("S30 LRS Disk").method_unit).toBe("GB-hours HDD x3");
      close(disk("S30 LRS Disk").method_quantity, 2 * 1024 * GIB * 730 * 3, "S30");
      // GRS: 6 copies
      close(disk("Hot GRS Data Stored").method_quantity, 500 * 730 * 6, "GRS blob");
      expect(disk("Standard vCPU Duration").method).toBe("per-vcpu");
      expect(disk("Standard Memory Duration").method).toBe("memory");
      expect(disk("Public Queries").method).toBe("");
    },
  );

  it("reads a CUR's snapshots, EFS, RDS and DynamoDB storage with CCF's replication factors", SLOW, () => {
    const cur = other.cur;
    const line = (usage: string, code: string) =>
      cur.find((r) => r.line_item_usage_type === usage && r.line_item_product_code === code) as Row;
    const expected: [string, string, string, number][] = [
      ["EU-EBS:SnapshotUsage", "AmazonEC2", "object-storage", 300 * 730 * 3],
      ["EU-TimedStorage-ByteHrs", "AmazonEFS", "file-storage", 100 * 730 * 3],
      ["EU-RDS:GP2-Storage", "AmazonRDS", "block-storage", 200 * 730],
      ["EU-TimedStorage-ByteHrs", "AmazonDynamoDB", "block-storage", 50 * 730 * 2],
    ];
    for (const [usage, code, method, quantity] of expected) {
      expect(line(usage, code).method, usage).toBe(method);
      close(line(usage, code).method_quantity, quantity, `${code} ${usage}`);
    }
    expect(cur.find((r) => r.line_item_line_item_type === "Tax")?.method).toBe("");
  });

  it(
    "estimates load balancers' capacity by cost, control planes by their nodes, NAT gateways by the catalogue",
    SLOW,
    async () => {
      const cases: [Row | undefined, number, number, string][] = [];
      // The NAT gateway's and the load balancer's hours are the catalogue's (test/billing/managedServices.test.ts)
      for (const id of ["li-6", "li-8"]) {
        const row = other.cur.find((r) => r.identity_line_item_id === id);
        expect([row?.method, row?.matched_instance_type, row?.method_quantity]).toEqual([
          "managed-size",
          "m5.large",
          "720",
        ]);
      }
      const azure = await kwhPerCost("azure", "westeurope", [["d4ads_v5", 720]], 150);
      cases.push([
        other.azure.find((r) => r.MeterName === "Standard Included LB Rules and Outbound Rules"),
        18,
        azure,
        "westeurope",
      ]);
      for (const [row, cost, rate, region] of cases) {
        if (row === undefined) throw new Error("a by-cost line is missing");
        expect(row.method).toBe("by-cost");
        close(row.energy_kwh, cost * rate, `energy of ${cost}`);
        close(row.gwp_use_kgco2eq, cost * rate * factorOf("azure", region), `use of ${cost}`);
      }
      // A control plane's hour: its nodes (EKS 5, published; AKS 3, Kubernetes' highly available
      // minimum), each 2 vCPUs and 8 GiB: 2 × the vCPU-hour and 8 × the memory GB-hour, PUE included
      const node = (min: number, max: number) => 2 * vcpu(min, max) + 8 * MEMORY;
      for (const [row, nodes, kwh, region] of [
        [other.cur.find((r) => r.identity_line_item_id === "li-9"), 5, node(0.74, 3.5) * 1.135, "eu-west-1"],
        [
          other.azure.find((r) => r.MeterName === "Standard Uptime SLA"),
          3,
          node(0.78, 3.76) * 1.185,
          "westeurope",
        ],
      ] as const) {
        if (row === undefined) throw new Error("a control plane's line is missing");
        const provider = region === "westeurope" ? "azure" : "aws";
        const hours = Number(row.Quantity ?? row.line_item_usage_amount);
        expect([row.method, row.method_unit]).toEqual(["control-plane", "node-hours of a control plane"]);
        close(row.method_quantity, hours * nodes, "node-hours");
        close(row.energy_kwh, hours * nodes * kwh, "energy");
        close(row.gwp_use_kgco2eq, hours * nodes * kwh * factorOf(provider, region), "use");
        expect(row.warnings).toContain(`${nodes} nodes an hour`);
      }
      // The GB the NAT gateway processes: data transfer
      const bytes = other.cur.find((r) => r.identity_line_item_id === "li-7") as Row;
      expect(bytes.method).toBe("data-transfer");
      close(bytes.method_quantity, 100, "NAT GB");
    },
  );

  it("bounds a vCPU-hour's use by the watts at 0 % and 100 % load", SLOW, () => {
    const row = rows.find((r) => r.ChargeDescription.includes("AWS Fargate - vCPU")) as Row;
    const factor = factorOf("aws", "us-east-1");
    close(row.gwp_use_kgco2eq_min, (1440 * 0.74 * 1.135 * factor) / 1000, "min");
    close(row.gwp_use_kgco2eq_max, (1440 * 3.5 * 1.135 * factor) / 1000, "max");
  });

  it(
    "names no method for lines that use no hardware: taxes, support, credits, requests, metrics",
    SLOW,
    () => {
      for (const description of [
        "Tax for",
        "AWS Support",
        "AWS Credit",
        "Total Requests",
        "per metric-month",
      ]) {
        const row = rows.find((r) => r.ChargeDescription.includes(description)) as Row;
        expect(row.method, description).toBe("");
        expect(row.status, description).toBe("not compute");
        expect(row.gwp_use_kgco2eq, description).toBe("");
      }
      const instance = rows.find((r) => r.ChargeDescription.includes("m5.xlarge Instance Hour")) as Row;
      expect(instance.method).toBe("instance");
      expect(instance.method_quantity).toBe("");
    },
  );

  it("says how much of the bill is estimated, per method, and the largest services left", SLOW, () => {
    const positive = rows.reduce((sum, r) => sum + Math.max(0, Number(r.BilledCost)), 0);
    const estimated = rows
      .filter((r) => r.status === "evaluated")
      .reduce((sum, r) => sum + Math.max(0, Number(r.BilledCost)), 0);
    expect(Math.round(positive * 100) / 100).toBe(1236.97);
    expect(Math.round(estimated * 100) / 100).toBe(1186.57);
    // Amounts in the bill's currency (BillingCurrency), to four figures as the report writes them
    expect(stderr).toContain("coverage: 26 of 31 lines estimated; 1,187 of 1,237 USD positive cost (95.9 %)");
    expect(stderr).toContain(
      "  estimated from a quantity: 1,187 USD (95.9 %); from its cost alone (by-cost, no quantity behind it): 0 USD (0.0 %)",
    );
    expect(stderr).toContain("  block-storage: 6 rows, cost 171.8 USD (13.9 %)");
    expect(stderr).toContain("  instance: 2 rows, cost 288.2 USD (23.3 %)");
    const largest = stderr.split("largest unestimated services by cost:\n")[1]?.split("\n") ?? [];
    // Each says why: what its lines measure (CloudWatch's metrics, a count), the tax line's category
    expect(largest[0]).toBe(
      "  AmazonCloudWatch: 30 USD (2.4 %), 1 row (unknown to the registry; a count, no hardware per unit: Metrics)",
    );
    // Each why said of its own lines: the tax line and the credit (no positive cost)
    expect(largest[1]).toBe(
      "  Amazon Elastic Compute Cloud: 12 USD (1.0 %), 1 row (a tax); 1 row (a credit)",
    );
    // Every line of positive cost no method reads, by its reason: 30 + 12 + 8 + 0.4 = 50.4 = 1236.97 − 1186.57
    expect(stderr).toContain(
      "not compute, by reason:\n" +
        "  a count, no hardware per unit: Metrics: 1 row, cost 30 USD\n" +
        "  a tax: 1 row, cost 12 USD\n" +
        "  a purchase (a commitment or an upfront fee): 1 row, cost 8 USD\n" +
        "  a count, no hardware per unit: Requests: 1 row, cost 0.4 USD\n" +
        "  a credit: 1 row, cost 0 USD\n",
    );
  });
});

/** The gwp factor of a place the edition does not locate (Oracle's regions): the default location's. */
const DEFAULT_FACTOR = electricity.byLocation.get("EEE")?.factors.get("gwp")?.value ?? Number.NaN;

// Lines of FOCUS exports without extension columns as their providers write them
// (test/fixtures/billing/focus-1.0-services.csv, after the FinOps Foundation's sample).
const SERVICES: Expected[] = [
  {
    description: "Premium SSD Managed Disks - P10 LRS",
    method: "block-storage",
    // half a disk-month of a P10 (128 GiB), 3 copies (LRS)
    quantity: 0.5 * 128 * GIB * 730 * 3,
    energy: SSD * 1.185,
    factor: factorOf("azure", "eastus"),
    embedded: ssdHour,
  },
  {
    description: "Rtn Preference: MGN - Standard Data Transfer Out",
    method: "data-transfer",
    quantity: 20,
    energy: NETWORK * 1.185,
    factor: factorOf("azure", "eastus"),
    embedded: none,
  },
  {
    description: "per GB Data Processed by NAT Gateways",
    method: "data-transfer",
    quantity: 10,
    energy: NETWORK * 1.135,
    factor: factorOf("aws", "us-east-1"),
    embedded: none,
  },
  {
    description: "custom log data ingested",
    method: "data-transfer",
    quantity: 2,
    energy: NETWORK * 1.135,
    factor: factorOf("aws", "us-east-1"),
    embedded: none,
  },
  {
    // "Total Compute" in Seconds: GB-seconds
    description: "AWS Lambda - Total Compute",
    method: "serverless",
    quantity: (36000 / 3600) * LAMBDA_VCPUS_PER_GB,
    energy: vcpu(0.74, 3.5) * 1.135,
    factor: factorOf("aws", "us-east-1"),
    embedded: async () => (await instanceHour("aws", "m5.xlarge")) / 4,
  },
  {
    // Fargate memory in Hours: GB-hours
    description: "AWS Fargate - Memory",
    method: "memory",
    quantity: 48,
    energy: MEMORY * 1.135,
    factor: factorOf("aws", "us-east-1"),
    embedded: none,
  },
  {
    // Oracle bills data transfer in "GB Months": GB transferred in the month
    description: "Outbound Data Transfer Zone 1",
    method: "data-transfer",
    quantity: 100,
    energy: NETWORK * 1.185,
    factor: DEFAULT_FACTOR,
    embedded: none,
  },
  {
    description: "Standard - E5 - Memory",
    method: "memory",
    quantity: 64,
    energy: MEMORY * 1.185,
    factor: DEFAULT_FACTOR,
    embedded: none,
  },
  // An OCPU: 2 vCPUs on x86 (E5: 4 OCPU-hours), 1 on Ampere A1 (8 OCPU-hours); Oracle, "Compute Shapes"
  ...(
    [
      ["Standard - E5", 4 * 2],
      ["Standard - A1", 8 * 1],
    ] as const
  ).map(([description, quantity]) => ({
    description,
    method: "per-vcpu",
    quantity,
    energy: vcpu((0.74 + 0.71 + 0.78) / 3, (3.5 + 4.26 + 3.76) / 3) * 1.185,
    factor: DEFAULT_FACTOR,
    embedded: async () => (await instanceHour("aws", "m5.xlarge")) / 4,
  })),
];

describe("lines of real FOCUS exports without extension columns (impact-service evaluate)", () => {
  const line = (id: string) => other["focus-1.0-services"].find((r) => r.Id === id) as Row;

  it.each(SERVICES)(
    "estimates $description as $method from its documented coefficients",
    SLOW,
    async (expected) => {
      const lines = other["focus-1.0-services"];
      const row =
        lines.find((r) => r.ChargeDescription === expected.description) ??
        lines.find((r) => r.ChargeDescription.includes(expected.description));
      if (row === undefined) throw new Error(`no line ${expected.description}`);
      expect(row.status).toBe("evaluated");
      expect(row.method).toBe(expected.method);
      close(row.method_quantity, expected.quantity, "quantity");
      close(row.energy_kwh, expected.quantity * expected.energy, "energy_kwh");
      close(row.gwp_use_kgco2eq, expected.quantity * expected.energy * expected.factor, "gwp use");
      close(row.gwp_embedded_kgco2eq, expected.quantity * (await expected.embedded()), "gwp embedded");
    },
  );

  it("finds a VM of another service by its description's meter, in an hour unit only", SLOW, async () => {
    const usageLocation =
      cloudRegions?.find((r) => r.provider === "azure" && r.region === "eastus")?.usageLocation ?? null;
    // Machine Learning compute and an AKS node pool (a scale set): "<subcategory> - <meter> - <region>"
    for (const [id, type, hours] of [
      ["1", "d4s_v3", 24],
      ["2", "d4as_v5", 72],
    ] as const) {
      const row = line(id);
      expect(row.method, id).toBe("instance");
      expect(row.matched_instance_type, id).toBe(type);
      expect(Number(row.hours), id).toBe(hours);
      const [impacts] = await routeRaw(
        "2.4.1",
        "azure",
        type,
        { region: "eastus", usageLocation },
        null,
        hours,
        [gwp],
      );
      expectClose(
        Number(row.gwp_use_kgco2eq),
        Number((impacts.use?.value ?? 0).toPrecision(10)),
        `${type} use`,
      );
    }
    // The VM's public address, billed under Virtual Machines in hours, uses no hardware of its own
    expect(line("4").status).toBe("not compute");
    expect(line("4").method).toBe("");
  });

  it(
    "estimates a transit gateway by its cost at the instance lines' kWh per cost, EKS by its nodes",
    SLOW,
    async () => {
      // The bill's instance lines: AWS 10 h of m5.xlarge for 1.92
      const aws = await kwhPerCost("aws", "us-east-1", [["m5.xlarge", 10]], 1.92);
      // The NAT gateway's, the load balancer's and the application gateway's hours are the
      // catalogue's (test/billing/managedServices.test.ts)
      for (const [id, server] of [
        ["8", "m5.large"],
        ["11", "m5.large"],
        ["22", "d2s_v3"],
      ] as const) {
        expect([line(id).method, line(id).matched_instance_type, line(id).status], id).toEqual([
          "managed-size",
          server,
          "evaluated",
        ]);
      }
      // EKS's 24 hours: 5 nodes each (2 API servers, 3 etcd), 2 vCPUs and 8 GiB a node
      const eks = line("10");
      const kwh = 24 * 5 * (2 * vcpu(0.74, 3.5) + 8 * MEMORY) * 1.135;
      expect([eks.method, eks.status]).toEqual(["control-plane", "evaluated"]);
      close(eks.method_quantity, 24 * 5, "EKS node-hours");
      close(eks.energy_kwh, kwh, "EKS energy");
      close(eks.gwp_use_kgco2eq, kwh * factorOf("aws", "us-east-1"), "EKS use");
      for (const [id, cost, rate, provider, region] of [["21", 1.2, aws, "aws", "us-east-1"]] as const) {
        const row = line(id);
        expect(row.method, id).toBe("by-cost");
        expect(row.status, id).toBe("evaluated");
        close(row.method_quantity, cost, `${id} quantity`);
        close(row.energy_kwh, cost * rate, `${id} energy`);
        close(row.gwp_use_kgco2eq, cost * rate * factorOf(provider, region), `${id} use`);
        expect(Number(row.gwp_embedded_kgco2eq), id).toBe(0);
      }
      // Oracle's load balancer: no Oracle instance line gives a rate
      expect(line("19").status).toBe(
        "not evaluated: by-cost has no rate: no instance line of its provider has a cost",
      );
      // A security plan priced per protected vCore: a licence, the vCores are the nodes' own lines
      expect(line("7").status).toBe("not compute");
      expect(summaries["focus-1.0-services"]).toContain("  bad rows: 0\n");
    },
  );

  it(
    "takes a negative quantity for a refund: not evaluated, not a bad row, out of the positive cost",
    SLOW,
    () => {
      expect(line("6").status).toBe("not evaluated: negative quantity (a refund or correction)");
      expect(line("6").gwp_use_kgco2eq).toBe("");
      const rows = other["focus-1.0-services"];
      const positive = rows.reduce((sum, r) => sum + Math.max(0, Number(r.BilledCost)), 0);
      const estimated = rows
        .filter((r) => r.status === "evaluated")
        .reduce((sum, r) => sum + Math.max(0, Number(r.BilledCost)), 0);
      expect(Math.round(positive * 100) / 100).toBe(46.3);
      expect(Math.round(estimated * 100) / 100).toBe(45.04);
      expect(summaries["focus-1.0-services"]).toContain(
        "coverage: 18 of 22 lines estimated; 45.04 of 46.3 USD positive cost (97.3 %)",
      );
    },
  );

  it(
    "estimates 90 % of the FinOps Foundation's anonymised multi-provider sample, no bad row",
    SLOW,
    async () => {
      const rows = other["focus-1.0-finops-sample"];
      const summary = summaries["focus-1.0-finops-sample"];
      expect(rows).toHaveLength(1000);
      expect(rows.filter((r) => r.status.startsWith("bad row"))).toEqual([]);
      const positive = rows.reduce((sum, r) => sum + Math.max(0, Number(r.BilledCost)), 0);
      const estimated = rows
        .filter((r) => r.status === "evaluated")
        .reduce((sum, r) => sum + Math.max(0, Number(r.BilledCost)), 0);
      // RDS Extended Support, per vCPU-hour of instances estimated on their own lines, is set aside
      const elsewhere = rows
        .filter((r) => r.ChargeDescription.includes("Extended Support"))
        .reduce((sum, r) => sum + Math.max(0, Number(r.BilledCost)), 0);
      expect(estimated / (positive - elsewhere)).toBeGreaterThanOrEqual(0.9);
      // Coverage reads EffectiveCost, what the hours cost (the sample's amortised AWS lines cost less);
      // 820: Oracle's `Block Volume - Performance Units` (GB Months of the volume) is a rate bought,
      // not more gigabytes; gp3's provisioned IOPS (9 lines) the SSD delivering them; RDS Extended
      // Support (2) billed per vCPU of instances estimated on their own lines.
      expect(summary).toContain(
        "coverage: 820 of 1,000 lines estimated; 16.55 of 18.14 USD positive cost (91.2 %)",
      );
      // Addresses, DNS and keys (49 lines, 0.01 USD) are set aside: no hardware of their own
      expect(summary).toContain(
        "  usage cost estimated: 16.55 USD of 18.13 USD (91.3 %); from a quantity 91.3 %, from its cost alone 0.0 %\n",
      );
      expect(summary).toContain("  cost read: EffectiveCost\n");
      // The report counts lines as it writes costs: thousands separated.
      const html = namesAsText(await readFile(join(scratch, "focus-1.0-finops-sample.html"), "utf8"));
      expect(html).toContain("<b>1,000</b>lines</div>");
      expect(html).toContain("<b>820</b>lines estimated</div>");
      expect(summary).toContain("  negative quantity (a refund or correction): 7 rows, cost 0 USD\n");
      const largest = summary.split("largest unestimated services by cost:\n")[1]?.split("\n") ?? [];
      // Defender for Containers' `Standard vCore vCore Pack`: a licence per vCore, whose hardware the
      // cluster's own VMs bill
      expect(largest[0]).toBe(
        "  Azure Kubernetes Service: 1.58 USD (8.7 %), 1 row (unknown to the registry; a licence)",
      );
      // Storage Accounts is known; its operations lines no method reads are said by what they count
      expect(largest).toContain(
        "  Storage Accounts: < 0.01 USD (0.0 %), 32 rows (a count, no hardware per unit: Units); 2 rows (not evaluated: negative quantity (a refund or correction))",
      );
      expect(html).toMatch(
        /<td class="name">Storage Accounts<\/td>(<td class="n"[^>]*>[^<]*<\/td>){3}<td>32 rows \(a count, no hardware per unit: Units\); 2 rows \(not evaluated: negative quantity \(a refund or correction\)\)<\/td>/,
      );
      // The sample writes a missing region as the text NULL: its 4 evaluated lines rank as no region
      // (a fifth, Oracle's performance units, is not estimated)
      const data = JSON.parse(html.split('id="report-data">')[1].split("</script>")[0]);
      const regions = data.rankings["chart-region"] as { name: string }[];
      expect(regions.map((region) => region.name)).not.toContain("NULL");
      expect(regions.map((region) => region.name)).toContain("");
      // The region table's row of no region, named so, with its lines
      const byRegion = html.slice(
        html.indexOf('id="chart-region"'),
        html.indexOf("</table>", html.indexOf('id="chart-region"')),
      );
      expect(byRegion).toContain('<td class="name">(none)</td><td class="n wide" data-v="4">4</td>');
    },
  );
});
