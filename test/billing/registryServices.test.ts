/**
 * What billing lines mean, from the registry (src/billing/registry/services.ts:
 * KNOWN_SERVICES and serviceNotes), through the command line (its function, `main`): an unknown service named once
 * on stderr with its lines and cost (the ten largest, then the rest summed), known services no
 * method estimates (support, tax, EMR's fees) named as such, EMR read as it is billed (its fees on
 * EC2 and EKS hours not counted again, EMR Serverless's vCPU-, memory- and storage GB-hours
 * estimated), and a GPU inside an instance against one billed alone, per edition.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqlQuery } from "../../src/billing/queries.js";
import {
  gpusBothWays,
  KNOWN_SERVICES,
  type ServiceGroup,
  serviceNotes,
} from "../../src/billing/registry/services.js";
import { type RequestedCriterion, resolveCriterion } from "../../src/engine/index.js";
import { runMain } from "../support/cli.js";
import { routeRaw } from "./support.js";

const SLOW = { timeout: 180_000 };
const scratch = mkdtempSync(join(tmpdir(), "billing-services-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type Row = Record<string, string>;
const runs: Record<string, { rows: Row[]; stderr: string; report: string }> = {};

beforeAll(async () => {
  for (const [name, edition] of [
    ["registry-emr", "2.4.1"],
    ["registry-services", "2.4.1"],
    ["registry-services", "1.2.4"],
  ]) {
    const output = join(scratch, `${name}-${edition}.csv`);
    const report = join(scratch, `${name}-${edition}.html`);
    const file = `test/fixtures/billing/${name}.csv`;
    const { code, stderr } = await runMain([
      "evaluate",
      file,
      "--edition",
      edition,
      "--criteria",
      "gwp",
      "--output",
      output,
      "--report",
      report,
    ]);
    if (code !== 0) throw new Error(`exit ${code}: ${stderr}`);
    runs[`${name} ${edition}`] = {
      rows: parse(await readFile(output, "utf8"), { columns: true }) as Row[],
      stderr,
      report: await readFile(report, "utf8"),
    };
  }
}, 180_000);

const gwp: RequestedCriterion = (() => {
  const criterion = resolveCriterion("gwp");
  if (criterion === null) throw new Error("gwp is a criterion");
  return criterion;
})();

const close = (actual: string, expected: number, what: string) => {
  const value = Number(actual);
  const scale = Math.max(Math.abs(value), Math.abs(expected));
  expect(scale, what).toBeGreaterThan(0);
  expect(Math.abs(value - expected) / scale, `${what}: ${actual} vs ${expected}`).toBeLessThan(1e-8);
};

function line(run: string, column: string, text: string): Row {
  const found = runs[run].rows.find((row) => row[column] === text);
  if (found === undefined) throw new Error(`${run}: no line ${text}`);
  return found;
}

// Energy per unit before PUE (docs/methodology.md): CCF's coefficients.
const SSD = 1.2e-6; // kWh per GB-hour
const MEMORY = 0.000392; // kWh per GB-hour
const AWS_VCPU = (0.74 + 0.5 * (3.5 - 0.74)) / 1000; // kWh per vCPU-hour at 50 %: 0.00212
const PUE = { aws: 1.135, gcp: 1.1 };

describe("unknown services (impact-service evaluate)", () => {
  const stderr = () => runs["registry-services 2.4.1"].stderr;

  it("names the largest by cost once; DNS, keys and secrets by their kind, not as unknown", SLOW, () => {
    // Twelve services of one line each, costs 12 down to 1; Route 53 (11), Key Management (10) and
    // Secrets Manager (9) are decided by their kind: no hardware of their own
    expect(stderr()).toContain(
      "unknown services (not in the registry; no method reads their lines):\n" +
        "  aws Amazon Kinesis: 1 row, cost 12\n" +
        "  aws Amazon Simple Notification Service: 1 row, cost 8\n" +
        "  aws Amazon Simple Queue Service: 1 row, cost 7\n" +
        "  aws AWS CloudTrail: 1 row, cost 6\n" +
        "  aws Amazon API Gateway: 1 row, cost 5\n" +
        "  aws AWS Config: 1 row, cost 4\n" +
        "  aws Amazon GuardDuty: 1 row, cost 3\n" +
        "  aws AWS WAF: 1 row, cost 2\n" +
        "  aws AWS Shield: 1 row, cost 1\n",
    );
    expect(stderr()).toContain(
      "  DNS: a zone and its queries on the shared name servers of its provider, no hardware of their own: 1 row, cost 11\n",
    );
    expect(stderr()).toContain(
      "  keys and secrets: held and used in the shared key stores of their provider, no hardware of their own: 2 rows, cost 19\n",
    );
  });

  it("calls no known service unknown: support, tax and EMR's fee are named for what they are", SLOW, () => {
    expect(stderr()).toContain(
      "known services not estimated:\n" +
        "  aws AWS Support (Business) (support: people, no hardware billed): 1 row, cost 100\n" +
        "  aws Tax (tax: no hardware billed): 1 row, cost 5\n" +
        "  aws Amazon Elastic MapReduce (EMR's fee on hours billed as EC2 instances or EKS nodes, estimated on those lines): 1 row, cost 0.48\n",
    );
    // Services some of whose lines a method reads are never unknown
    const unknown = stderr().split("known services not estimated:")[0];
    for (const service of ["Compute Engine", "Amazon Elastic Compute Cloud", "Tax", "AWS Support"])
      expect(unknown).not.toContain(`aws ${service}:`);
  });

  it("names no unknown service in a bill whose services are all known", SLOW, () => {
    expect(runs["registry-emr 2.4.1"].stderr).not.toContain("unknown services");
  });
});

describe("EMR as it is billed (impact-service evaluate)", () => {
  const usage = (type: string) => line("registry-emr 2.4.1", "line_item_usage_type", type);
  const fee = (row: Row) => {
    expect(row.status).toBe("not compute");
    expect(row.method).toBe("");
    expect(row.energy_kwh).toBe("");
  };

  it("counts the hours of an EMR cluster once: the EC2 line's, not the EMR fee's", SLOW, () => {
    const rows = runs["registry-emr 2.4.1"].rows.filter(
      (row) => row.line_item_usage_type === "EUW3-BoxUsage:m5.xlarge",
    );
    expect(rows.map((row) => [row.line_item_product_code, row.status])).toEqual([
      ["AmazonEC2", "evaluated"],
      ["ElasticMapReduce", "not compute"],
    ]);
    fee(rows[1]);
  });

  it("does not evaluate EMR on EKS's vCPU- and GB-hours: a fee on the nodes billed elsewhere", SLOW, () => {
    fee(usage("USE1-EMR-EKS-EC2-vCPUHours"));
    fee(usage("USE1-EMR-EKS-EC2-GBHours"));
  });

  it("estimates EMR Serverless's vCPU-, memory and storage GB-hours as Fargate's and EBS's", SLOW, () => {
    const cases: [string, string, string, number, number][] = [
      // 8 vCPU-hours × 0.00212 kWh × 1.135 = 0.0192496 kWh
      ["USE1-EMR-SERVERLESS-vCPUHours", "per-vcpu", "vCPU-hours", 8, AWS_VCPU],
      // 32 GB-hours × 0.000392 kWh × 1.135 = 0.01423744 kWh
      ["USE1-EMR-SERVERLESS-MemoryGBHours", "memory", "GB-hours of memory", 32, MEMORY],
      // a worker's local disk, one copy: 100 GB-hours × 1.2e-6 kWh × 1.135 = 0.0001362 kWh
      ["USE1-EMR-SERVERLESS-StorageGBHours", "block-storage", "GB-hours SSD x1", 100, SSD],
    ];
    for (const [type, method, unit, quantity, kwh] of cases) {
      const row = usage(type);
      expect(row.status, type).toBe("evaluated");
      expect(row.method, type).toBe(method);
      expect(row.method_unit, type).toBe(unit);
      close(row.method_quantity, quantity, `${type} quantity`);
      close(row.energy_kwh, quantity * kwh * PUE.aws, `${type} energy`);
    }
    close(usage("USE1-EMR-SERVERLESS-vCPUHours").energy_kwh, 0.0192496, "vCPU by hand");
    close(usage("USE1-EMR-SERVERLESS-MemoryGBHours").energy_kwh, 0.01423744, "memory by hand");
  });

  it("says the fees and the support are not estimated, and why, with their lines and cost", SLOW, () => {
    expect(runs["registry-emr 2.4.1"].stderr).toContain(
      "known services not estimated:\n" +
        "  aws AWSSupportBusiness (support: people, no hardware billed): 1 row, cost 100\n" +
        // 0.48 (EC2 hours' fee) + 0.16 + 0.11 (EKS's)
        "  aws ElasticMapReduce (EMR's fee on hours billed as EC2 instances or EKS nodes, estimated on those lines): 3 rows, cost 0.75\n",
    );
    // Positive cost 103.5 (2.14 + 0.48 + 0.42 + 0.18 + 0.01 + 0.16 + 0.11 + 100): 100 is 96.6 %, 0.75 0.7 %
    expect(runs["registry-emr 2.4.1"].stderr).toContain(
      "largest unestimated services by cost:\n" +
        "  AWSSupportBusiness: 100 (96.6 %), 1 row (no hardware)\n" +
        "  ElasticMapReduce: 0.75 (0.7 %), 3 rows (a fee)\n",
    );
  });

  it("does not read an EMR fee as instance hours in a FOCUS export without extension columns", SLOW, () => {
    // "$0.048 per hour for EMR m5.xlarge" names an instance type in an hour unit
    const row = line("registry-services 2.4.1", "ServiceName", "Amazon Elastic MapReduce");
    expect(row.status).toBe("not compute");
    expect(row.energy_kwh).toBe("");
  });

  it("does not read Dataproc's licensing fees per GPU and CPU as GPU- or vCPU-hours", SLOW, () => {
    // "Licensing Fee for Google Cloud Dataproc (GPU cost)", 10 hours: the GPUs are billed (and
    // estimated) on their own lines; it was 10 GPU-hours at CCF's average GPU
    for (const id of ["dataproc-gpu", "dataproc-cpu"]) {
      const row = line("registry-services 2.4.1", "ResourceId", id);
      expect(row.method, id).toBe("");
      expect(row.energy_kwh, id).toBe("");
    }
  });

  it("writes in the FOCUS query's rules the fee services the registry lists", () => {
    const sql = sqlQuery("classify/billing_lines_focus.sql");
    const listed = /NOT IN \(([^)]*)\)/.exec(sql)?.[1] ?? "";
    const names = [...listed.matchAll(/'([^']*)'/g)].map((match) => match[1]).sort();
    const fees = KNOWN_SERVICES.filter((service) => service.role === "fee")
      .flatMap((service) => service.names.map((name) => name.toLowerCase()))
      .sort();
    expect(names).toEqual(fees);
  });
});

describe("a GPU inside an instance and billed alone (impact-service evaluate)", () => {
  /** kWh of a V100 GPU-hour at 50 %: idle at 35/306 of its 300 W (CCF's ratio), full at 300 W. */
  const idle = 300 * (35 / 306); // 34.3137 W
  const v100Hour = (idle + 0.5 * (300 - idle)) / 1000; // 0.1671569 kWh

  it.each(["2.4.1", "1.2.4"])(
    "%s: the instance carries the engine's figures, the GPU billed alone its model's watts",
    SLOW,
    async (edition) => {
      const run = `registry-services ${edition}`;
      const instance = line(run, "ResourceId", "i-gpu-1");
      const gpu = line(run, "ResourceId", "gpu-1");
      // The p3.2xlarge's 10 hours: the single route's use impact (the REST answer's, unrounded)
      const [impacts] = await routeRaw(
        edition,
        "aws",
        "p3.2xlarge",
        // 1.2.4 has no cloud regions: us-east-1 is read at its country (docs/methodology.md, Places)
        edition === "1.2.4"
          ? { region: null, usageLocation: "USA" }
          : { region: "us-east-1", usageLocation: null },
        null,
        10,
        [gwp],
      );
      close(instance.gwp_use_kgco2eq, impacts.use?.value ?? Number.NaN, "p3.2xlarge gwp use");
      close(instance.gwp_embedded_kgco2eq, impacts.embedded?.value ?? Number.NaN, "p3.2xlarge embedded");
      // …whose energy is about 55 Wh an hour in both editions: its platform's share, no GPU power
      // (docs/methodology.md §19.7.6), pinned here so that a change is seen
      close(instance.energy_kwh, 0.5510574222, "p3.2xlarge energy");
      // The V100 billed alone: 10 GPU-hours × 0.1671569 kWh × Google's PUE 1.1 = 1.838725 kWh
      expect(gpu.method_unit).toBe("GPU-hours V100");
      close(gpu.energy_kwh, 10 * v100Hour * PUE.gcp, "V100 energy");
      close(gpu.energy_kwh, 1.83872549, "V100 energy by hand");
      expect(runs[run].stderr).toContain(
        "GPU models inside instances and billed alone (docs/methodology.md, GPUs inside an instance):\n" +
          "  V100: inside p3.2xlarge at the instance's figures; 1 row of GPU-hours at 300 W a GPU\n",
      );
    },
  );

  it(
    "gives the V100 billed alone the GPU component's embedded impacts only where the edition has one",
    SLOW,
    () => {
      expect(
        Number(line("registry-services 2.4.1", "ResourceId", "gpu-1").gwp_embedded_kgco2eq),
      ).toBeGreaterThan(0);
      expect(line("registry-services 1.2.4", "ResourceId", "gpu-1").gwp_embedded_kgco2eq).toBe("");
    },
  );
});

describe("what the registry says of a bill's services and GPUs (serviceNotes)", () => {
  const group = (service: string | null, method: string | null, lines: number, cost: number, more = {}) =>
    ({
      provider: "aws",
      service,
      instanceType: null,
      problem: null,
      method,
      methodKey: null,
      lines,
      cost,
      ...more,
    }) as ServiceGroup;

  it("never calls unknown a service some of whose lines are estimated, however it is spelled", () => {
    // Glue's DPU-hours estimated under `AWSGlue`, its crawler's requests under `AWS Glue`
    const { unknown } = serviceNotes([group("AWSGlue", "dpu", 2, 4), group("AWS Glue", null, 1, 1)]);
    expect(unknown).toEqual([]);
  });

  it("calls unknown only a service not in the registry none of whose lines a method reads", () => {
    const { unknown, known } = serviceNotes([
      group("AmazonKinesis", null, 2, 3),
      group("AmazonKinesis", null, 1, 4),
      // one line read: not unknown, though the registry does not list it
      group("AmazonMQ", null, 5, 50),
      group("AmazonMQ", "by-cost", 1, 1),
      // listed as storage: known, never unknown
      group("AmazonS3", null, 3, 1),
      // a fee service with estimated lines: its other lines are named as known
      group("ElasticMapReduce", "per-vcpu", 1, 0.42),
      group("ElasticMapReduce", null, 3, 0.75),
      // Tax is known for every provider
      { ...group("Tax", null, 1, 5), provider: "gcp" },
      group("other services", null, 9, 99),
      group(null, null, 1, 1),
    ]);
    expect(unknown).toEqual([
      { name: "aws AmazonKinesis", service: "AmazonKinesis", lines: 3, cost: 7, note: "" },
    ]);
    expect(known.map((row) => [row.name, row.lines, row.cost])).toEqual([
      ["gcp Tax", 1, 5],
      ["aws ElasticMapReduce", 3, 0.75],
    ]);
  });

  it("finds a GPU model inside an instance family and billed alone, and only then", () => {
    const evaluated = (instanceType: string | null, methodKey: string | null) =>
      group("x", methodKey === null ? "instance" : "accelerator", 1, 1, { instanceType, methodKey });
    expect(
      gpusBothWays([
        evaluated("ml.p3.2xlarge", null),
        evaluated("p3.8xlarge", null),
        evaluated(null, "method:gpu-hour:v100"),
        evaluated("a2-highgpu-1g", null),
        evaluated(null, "method:gpu-hour:t4"),
      ]),
    ).toEqual([{ model: "v100", instanceTypes: ["ml.p3.2xlarge", "p3.8xlarge"], watts: 300, lines: 1 }]);
    // a line not evaluated counts for neither
    expect(
      gpusBothWays([
        { ...evaluated("p3.2xlarge", null), problem: "bad row: x" },
        evaluated(null, "method:gpu-hour:v100"),
      ]),
    ).toEqual([]);
  });
});

describe("the report's services not estimated", () => {
  it("say why: unknown to the registry, no hardware", () => {
    const { report } = runs["registry-services 2.4.1"];
    const table = report.slice(report.indexOf("Largest services not estimated"));
    expect(table).toContain("<th>why</th>");
    // The same services the stderr names: Kinesis unknown, Support and Tax known, no hardware
    expect(table).toMatch(
      /<td class="name">Amazon Kinesis<\/td>(<td class="n"[^>]*>[^<]*<\/td>){3}<td>[0-9]+ rows? \(unknown to the registry[;)]/,
    );
    expect(table).toMatch(
      /<td class="name">AWS Support \(Business\)<\/td>(<td class="n"[^>]*>[^<]*<\/td>){3}<td>[0-9]+ rows? \(no hardware\)<\/td>/,
    );
    expect(table).toMatch(
      /<td class="name">Tax<\/td>(<td class="n"[^>]*>[^<]*<\/td>){3}<td>[0-9]+ rows? \(no hardware\)<\/td>/,
    );
    expect(runs["registry-services 2.4.1"].stderr).toMatch(
      /unknown services[^\n]*\n( {2}[^\n]*\n)* {2}aws Amazon Kinesis: 1 row, cost 12\n/,
    );
  });
});
