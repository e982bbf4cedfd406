/**
 * The registry a billing line is read with (src/billing/registry/): its units' grammar on every
 * spelling the providers write, its tables' agreement (each method's keys, dimensions and rows),
 * and, through the command line (its function, `main`), lines of each kind against hand computations
 * from docs/methodology.md: units, regions the edition lacks, `global`, media by service whatever
 * the format, GPU models, DPU-hours, and what the registry does not know named on stderr.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { billingPlaces, spellingKey } from "../../src/billing/places.js";
import { sqlQuery } from "../../src/billing/queries.js";
import { BILLED_AI_MODELS, GENERATIVE_AI } from "../../src/billing/registry/generativeAi.js";
import {
  BILLING_METHODS,
  type BillingMethod,
  GPU_MODELS,
  METHOD_KEY_ROWS,
  methodProblems,
} from "../../src/billing/registry/methods.js";
import { REGION_COUNTRIES } from "../../src/billing/registry/regions.js";
import { STORAGE_SERVICES } from "../../src/billing/registry/services.js";
import { REGISTRY_TABLES } from "../../src/billing/registry/sqlTables.js";
import { DOCUMENTED_UNITS, readUnit, unitSpelling } from "../../src/billing/registry/units.js";
import { methodRows, UNIT_KEY_NAMES } from "../../src/billing/stages/methodRows.js";
import { Evaluation, type RequestedCriterion, resolveCriterion } from "../../src/engine/index.js";
import { coefficientCriteria } from "../../src/service/coefficients.js";
import { prepareComponent } from "../../src/service/components.js";
import { runMain } from "../support/cli.js";
import { editionContext, routeRaw } from "./support.js";

const GIB = 1.073741824;

/** A unit as a line writes it, read. */
const read = (text: string) => {
  const spelling = unitSpelling(text);
  return spelling === null ? null : readUnit(spelling);
};

describe("units: a grammar over the spelling, not a list", () => {
  it.each([
    // Azure: a count, a binary prefix, a slash
    ["10 GB/Month", "gb-hour", 10 * 730],
    ["100 GB Hours", "gb-hour", 100],
    ["1 GiB Hour", "gb-hour", GIB],
    ["1 GiB/Hour", "gb-hour", GIB],
    ["1 GiB", "gb", GIB],
    ["1 GB/Month", "gb-hour", 730],
    ["1 TB/Month", "gb-hour", 730_000],
    ["10 Hours", "hour", 10],
    ["100 Hours", "hour", 100],
    ["1 Hour", "hour", 1],
    // AWS
    ["ByteHrs", "gb-hour", 1e-9],
    ["GB-Mo", "gb-hour", 730],
    ["GiB-Mo", "gb-hour", 730 * GIB],
    ["TB-Mo", "gb-hour", 730_000],
    ["GB", "gb", 1],
    ["Lambda-GB-Second", "gb-hour", 1 / 3600],
    ["Hrs", "hour", 1],
    ["vCPU-Hours", "hour", 1],
    ["ACU-Hr", "hour", 1],
    ["RPU-Hr", "hour", 1],
    ["DPU-Hour", "hour", 1],
    ["Requests", "count", 1],
    ["Obj-Month", "count", 1],
    // Google Cloud
    ["gibibyte month", "gb-hour", 730 * GIB],
    ["gibibyte hour", "gb-hour", GIB],
    ["gibibyte", "gb", GIB],
    ["hour", "hour", 1],
    ["seconds", "hour", 1 / 3600],
    ["requests", "count", 1],
    // Oracle
    ["GB Months", "gb-hour", 730],
    ["OCPU Hours", "hour", 1],
    ["OCPU Per Hour", "hour", 1],
    ["Performance Units Per Gigabyte Per Month", "count", 1],
    ["minutes", "hour", 1 / 60],
  ])("%s: %s × %d", (text, dimension, factor) => {
    const reading = read(text);
    expect(reading?.dimension).toBe(dimension);
    expect(reading?.factor).toBeCloseTo(factor, 12);
  });

  it("says which resource is counted over time", () => {
    expect(read("OCPU Hours")?.resource).toBe("ocpu");
    expect(read("DPU-Hour")?.resource).toBe("dpu");
    expect(read("ACU-Hr")?.resource).toBe("acu");
    expect(read("RPU-Hr")?.resource).toBe("rpu");
    expect(read("vCPU-Hours")?.resource).toBe("vcpu");
    expect(read("Hrs")?.resource).toBeNull();
  });

  it("reads no unit it does not know, nor one longer than a unit is", () => {
    for (const text of ["10 Widgets", "Widget-Weeks", "", "GB GB", "hours 10", "GB-Mo".repeat(40)]) {
      expect(read(text), text).toBeNull();
    }
  });

  it("reads every spelling the providers' documentation writes", () => {
    for (const text of DOCUMENTED_UNITS) expect(read(text), text).not.toBeNull();
  });
});

describe("the registry's tables agree", () => {
  it("holds each table's key once", () => {
    const keys: Record<string, (row: readonly unknown[]) => string> = {
      billing_units: (row) => String(row[0]),
      billing_storage_services: (row) => `${row[0]} ${row[1]}`,
      billing_services: (row) => `${row[0]} ${row[1]}`,
      billing_gpus: (row) => String(row[0]),
      billing_method_kinds: (row) => String(row[0]),
      billing_method_keys: (row) => `${row[0]} ${row[1]}`,
      billing_ai_models: (row) => `${row[0]} ${row[1]}`,
    };
    for (const table of REGISTRY_TABLES) {
      const rows = table.rows;
      expect(rows.length, table.name).toBeGreaterThan(0);
      const key = keys[table.name];
      expect(new Set(rows.map(key)).size, table.name).toBe(rows.length);
    }
  });

  it("gives each method its keys: each medium, each GPU model and CCF's average, each generative-AI model named", () => {
    const unitDimensions = new Set(["hour", "gb", "gb-hour", "count"]);
    const aiModels = [...new Set(BILLED_AI_MODELS.map((row) => row.variant))];
    for (const method of BILLING_METHODS) {
      const variants = method.keys.map((key) => key.variant);
      const expected =
        method.variantOf === "medium"
          ? ["ssd", "hdd"]
          : method.variantOf === "gpu"
            ? ["", ...GPU_MODELS.map((gpu) => gpu.model)]
            : method.variantOf === "model"
              ? ["", ...aiModels]
              : [""];
      expect(variants.sort(), method.method).toEqual(expected.sort());
      if (method.dimension !== "any") expect(unitDimensions.has(method.dimension), method.method).toBe(true);
    }
    for (const service of STORAGE_SERVICES) {
      expect(BILLING_METHODS.find((method) => method.method === service.storage)?.variantOf).toBe("medium");
    }
  });

  it("gives every method its energy, its embedded rule and a rule classifying its lines, each rule a place of its own", () => {
    expect(methodProblems(BILLING_METHODS)).toEqual([]);
    const [first, ...others] = BILLING_METHODS;
    const [key] = first.keys;
    // A method entry missing each, as an edit by hand (or a cast) could leave it
    const broken = {
      ...first,
      method: "tape-storage",
      keys: [{ ...key, energy: undefined, embedded: undefined }],
      rules: [],
    } as unknown as BillingMethod;
    const twice: BillingMethod = {
      ...others[0],
      rules: [{ order: first.rules[0].order, match: { has: "tape" } }],
    };
    expect(methodProblems([broken, twice])).toEqual([
      `billing method tape-storage: key ${key.key} has no energy`,
      `billing method tape-storage: key ${key.key} has no embedded rule`,
      "billing method tape-storage: no rule gives lines this method",
    ]);
    expect(methodProblems([first, twice])).toEqual([
      `2 classifying rules at place ${first.rules[0].order}: a rule's place is its own`,
    ]);
  });

  it("names in the classifying SQL exactly the methods the registry describes, in their rules' order", () => {
    // The CASE written from the registry into sql/classify/billing_methods.sql (its `-- @method rules` line)
    const sql = sqlQuery("classify/billing_methods.sql");
    const start = sql.indexOf("WHEN u.billing_line_kind = 'compute' THEN 'instance'");
    const end = sql.indexOf("END AS billing_method\n");
    expect(start).toBeGreaterThan(0);
    expect(end).toBeGreaterThan(start);
    const given = [...sql.slice(start, end).matchAll(/THEN '([a-z-]+)'/g)].map((match) => match[1]);
    const named = new Set(given);
    // instance hours and a managed size's are the line rules' (LINE_RULES), not a method's of the registry
    named.delete("instance");
    named.delete("managed-size");
    // storage methods are also named by their service (billing_storage_services), by name
    for (const service of STORAGE_SERVICES) named.add(service.storage);
    expect([...named].sort()).toEqual(BILLING_METHODS.map((method) => method.method).sort());
    // the first rules win: a GPU's hours before a vCPU's, any storage's catch-all last
    expect(given.indexOf("accelerator")).toBeLessThan(given.indexOf("per-vcpu"));
    expect(given.at(-1)).toBe("object-storage");
  });

  it("has a coefficient row of each method key at every place, with energy", async () => {
    const context = editionContext("2.4.1");
    const criteria = coefficientCriteria(context, ["gwp"]);
    const rows = await methodRows(context, "aws", [{ region: null, usageLocation: null }], criteria);
    const keys = new Set(rows.map((row) => row.row.instanceType));
    // The cost key's rows are a bill's (its kWh per cost), a generative-AI model's the
    // generative-AI edition's (test/billing/generativeAi.test.ts)
    for (const row of METHOD_KEY_ROWS) {
      if (row.key !== "method:cost" && row.method !== GENERATIVE_AI)
        expect(keys.has(row.key), row.key).toBe(true);
    }
    expect(keys.size).toBe(UNIT_KEY_NAMES.length);
    for (const row of rows) expect(row.energyKwh, row.row.instanceType).toBeGreaterThan(0);
  });

  it("names each instance family's GPU once", () => {
    const families = GPU_MODELS.flatMap((gpu) => gpu.families);
    expect(new Set(families).size).toBe(families.length);
  });

  it("lists every region of the edition; a country without a factor is the default place, said", () => {
    const context = editionContext("2.4.1");
    const { cloudRegions, electricity } = context.service.data;
    for (const region of cloudRegions ?? []) {
      const listed = REGION_COUNTRIES[region.provider];
      if (listed === undefined) continue;
      expect(listed[region.region], `${region.provider} ${region.region}`).toBe(region.usageLocation);
    }
    // Oracle's Serbian region: no factor for SRB in the edition
    const places = billingPlaces({
      own: cloudRegions,
      known: [],
      countries: electricity.countryCodes,
      defaultLocation: context.service.data.config.defaultLocation,
    });
    for (const [provider, countries] of Object.entries(REGION_COUNTRIES)) {
      for (const [region, country] of Object.entries(countries)) {
        if (electricity.countryCodes.has(country)) continue;
        expect(country).toBe("SRB");
        const spelling = spellingKey(region);
        expect(places.find((place) => place.provider === provider && place.spelling === spelling)).toEqual({
          provider,
          spelling,
          place: "",
          warning: `region ${region} is not in the edition and ${country} has no factor: the default place (EEE)`,
        });
      }
    }
  });
});

const SLOW = { timeout: 180_000 };
const scratch = mkdtempSync(join(tmpdir(), "billing-registry-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type Row = Record<string, string>;
const runs: Record<string, { rows: Row[]; stderr: string }> = {};

// The three runs in turn: each opens a DuckDB database of its own (runMain runs them so anyway).
beforeAll(async () => {
  for (const name of ["registry-azure", "registry-cur", "registry-focus"]) {
    const output = join(scratch, `${name}.csv`);
    const file = `test/fixtures/billing/${name}.csv`;
    const { code, stderr } = await runMain([
      "evaluate",
      file,
      "--edition",
      "2.4.1",
      "--criteria",
      "gwp",
      "--output",
      output,
    ]);
    if (code !== 0) throw new Error(`exit ${code}: ${stderr}`);
    runs[name] = { rows: parse(await readFile(output, "utf8"), { columns: true }) as Row[], stderr };
  }
}, 180_000);

const gwp: RequestedCriterion = (() => {
  const criterion = resolveCriterion("gwp");
  if (criterion === null) throw new Error("gwp is a criterion");
  return criterion;
})();
const context = editionContext("2.4.1");
const { electricity } = context.service.data;
/** A country's gwp factor, kgCO2eq/kWh. */
const factor = (country: string) =>
  electricity.byLocation.get(country)?.factors.get("gwp")?.value ?? Number.NaN;

const close = (actual: string, expected: number, what: string) => {
  const value = Number(actual);
  const scale = Math.max(Math.abs(value), Math.abs(expected));
  if (scale === 0) return;
  expect(Math.abs(value - expected) / scale, `${what}: ${actual} vs ${expected}`).toBeLessThan(1e-8);
};

/** The line of a run whose column holds the text. */
function line(run: string, column: string, text: string): Row {
  const found = runs[run].rows.find((row) => row[column] === text);
  if (found === undefined) throw new Error(`${run}: no line ${text}`);
  return found;
}

// Energy per unit before PUE (docs/methodology.md): CCF's coefficients.
const SSD = 1.2e-6; // kWh per GB-hour
const HDD = 0.65e-6;
const NETWORK = 0.001; // kWh per GB
const MEMORY = 0.000392; // kWh per GB-hour
const AWS_VCPU = (0.74 + 0.5 * (3.5 - 0.74)) / 1000; // kWh per vCPU-hour at 50 %
const PUE = { aws: 1.135, azure: 1.185, gcp: 1.1 };

/** A method line: its method, units and unit, energy (PUE included) and gwp use at the country. */
function expectMethod(
  row: Row,
  expected: { method: string; quantity: number; unit: string; kwhPerUnit: number; country: string },
) {
  const what = `${row.status} ${expected.method}`;
  expect(row.status, what).toBe("evaluated");
  expect(row.method, what).toBe(expected.method);
  expect(row.method_unit, what).toBe(expected.unit);
  close(row.method_quantity, expected.quantity, `${what} quantity`);
  close(row.energy_kwh, expected.quantity * expected.kwhPerUnit, `${what} energy`);
  close(
    row.gwp_use_kgco2eq,
    expected.quantity * expected.kwhPerUnit * factor(expected.country),
    `${what} gwp use`,
  );
}

describe("Azure units with a count and a binary prefix (impact-service evaluate)", () => {
  const meter = (name: string, location = "westeurope") =>
    runs["registry-azure"].rows.find(
      (row) => row.MeterName === name && row.ResourceLocation === location,
    ) as Row;

  it("reads 10 GB/Month, 100 GB Hours, 1 GiB Hour, 1 GiB/Hour and 1 GiB", SLOW, () => {
    const azure = PUE.azure;
    // West Europe is in the Netherlands
    expectMethod(meter("Hot LRS Data Stored"), {
      method: "object-storage",
      quantity: 3 * 10 * 730 * 3,
      unit: "GB-hours HDD x3",
      kwhPerUnit: HDD * azure,
      country: "NLD",
    });
    expectMethod(meter("Premium SSD v2 Capacity"), {
      method: "block-storage",
      quantity: 2 * 100,
      unit: "GB-hours SSD x1",
      kwhPerUnit: SSD * azure,
      country: "NLD",
    });
    expectMethod(meter("Standard Memory Duration"), {
      method: "memory",
      quantity: 720 * GIB,
      unit: "GB-hours of memory",
      kwhPerUnit: MEMORY * azure,
      country: "NLD",
    });
    expectMethod(meter("Standard Memory Active Usage"), {
      method: "memory",
      quantity: 360 * GIB,
      unit: "GB-hours of memory",
      kwhPerUnit: MEMORY * azure,
      country: "NLD",
    });
    expectMethod(meter("Intra Continent Data Transfer Out"), {
      method: "data-transfer",
      quantity: 50 * GIB,
      unit: "GB inter-region",
      kwhPerUnit: NETWORK * azure,
      country: "NLD",
    });
  });

  it("estimates virtual network peering's ingress and egress as data transfer", SLOW, () => {
    for (const [name, gb] of [
      ["Intra-Region Ingress", 40],
      ["Intra-Region Egress", 60],
    ] as const) {
      expectMethod(meter(name), {
        method: "data-transfer",
        quantity: gb,
        unit: "GB intra-region",
        kwhPerUnit: NETWORK * PUE.azure,
        country: "NLD",
      });
    }
  });

  it("evaluates a VM in a region the edition lacks at its country, saying both", SLOW, async () => {
    const row = meter("D2ads v5", "Sweden South");
    expect(row.status).toBe("evaluated");
    expect(row.warnings).toBe("region swedensouth is not in the edition: its country SWE's factor");
    const [impacts] = await routeRaw(
      "2.4.1",
      "azure",
      "d2ads_v5",
      { region: null, usageLocation: "SWE" },
      null,
      10,
      [gwp],
    );
    close(row.gwp_use_kgco2eq, impacts.use?.value ?? Number.NaN, "gwp use at SWE");
    close(row.gwp_embedded_kgco2eq, impacts.embedded?.value ?? Number.NaN, "gwp embedded");
  });

  it("names a unit it cannot read once on stderr, with its lines and cost", SLOW, () => {
    expect(meter("Basic Logs Widgets").status).toBe("not evaluated: unknown unit 10 Widgets");
    expect(runs["registry-azure"].stderr).toContain(
      "not evaluated:\n  unknown unit 10 Widgets: 2 rows, cost 2.25\n",
    );
  });
});

describe("AWS units, regions and services (impact-service evaluate)", () => {
  const usage = (type: string) => line("registry-cur", "line_item_usage_type", type);

  it(
    "reads ByteHrs as byte-hours, Lambda's GB as 1,024 MB, and S3's bytes deleted as no transfer",
    SLOW,
    () => {
      expectMethod(usage("EUW3-TimedStorage-ByteHrs"), {
        method: "object-storage",
        quantity: 5e12 * 1e-9 * 3,
        unit: "GB-hours HDD x3",
        kwhPerUnit: HDD * PUE.aws,
        country: "FRA",
      });
      // 3,600 GB-seconds: one GB-hour of 1,024 MB, a vCPU per 1,769 MB
      expectMethod(usage("USE1-Lambda-GB-Second"), {
        method: "serverless",
        quantity: 1024 / 1769,
        unit: "vCPU-hours",
        kwhPerUnit: AWS_VCPU * PUE.aws,
        country: "USA",
      });
      expect(usage("EUW3-BytesDeleted-STD").status).toBe("not compute");
    },
  );

  it("estimates Glue's DPU-hours as 4 vCPUs and 16 GB of memory each", SLOW, async () => {
    const row = usage("EUW3-ETL-DPU-Hour");
    expectMethod(row, {
      method: "dpu",
      quantity: 10,
      unit: "DPU-hours",
      kwhPerUnit: (4 * AWS_VCPU + 16 * MEMORY) * PUE.aws,
      country: "FRA",
    });
    // Embedded: 4 vCPUs of the reference instance (m5.xlarge: 4 vCPUs), i.e. one m5.xlarge-hour
    const [impacts] = await routeRaw(
      "2.4.1",
      "aws",
      "m5.xlarge",
      { region: null, usageLocation: null },
      null,
      1,
      [gwp],
    );
    close(row.gwp_embedded_kgco2eq, 10 * (impacts.embedded?.value ?? Number.NaN), "embedded");
  });

  it("evaluates regions the edition lacks at their country, naming both", SLOW, async () => {
    for (const [type, region, country] of [
      ["EUC2-BoxUsage:m5.xlarge", "eu-central-2", "CHE"],
      ["APS4-BoxUsage:m5.xlarge", "ap-southeast-3", "IDN"],
    ]) {
      const row = usage(type);
      expect(row.status).toBe("evaluated");
      expect(row.warnings).toBe(`region ${region} is not in the edition: its country ${country}'s factor`);
      const [impacts] = await routeRaw(
        "2.4.1",
        "aws",
        "m5.xlarge",
        { region: null, usageLocation: country },
        null,
        10,
        [gwp],
      );
      close(row.gwp_use_kgco2eq, impacts.use?.value ?? Number.NaN, `${region} gwp use`);
    }
  });

  it("evaluates CloudFront's global at the default place, saying so", SLOW, () => {
    const row = usage("EU-DataTransfer-Out-Bytes");
    expectMethod(row, {
      method: "data-transfer",
      quantity: 100,
      unit: "GB internet",
      kwhPerUnit: NETWORK * PUE.aws,
      country: "EEE",
    });
    expect(row.warnings).toBe("region global names no one place: the default place (EEE)");
  });

  it("names each place other than a line's region once on stderr, with its lines and cost", SLOW, () => {
    expect(runs["registry-cur"].stderr).toContain(
      "places other than the line's region:\n" +
        "  region eu-central-2 is not in the edition: its country CHE's factor: 1 row, cost 2.3\n" +
        "  region ap-southeast-3 is not in the edition: its country IDN's factor: 1 row, cost 2.4\n" +
        "  region global names no one place: the default place (EEE): 1 row, cost 8.5\n",
    );
  });

  it("names a unit it cannot read once on stderr, with its lines and cost", SLOW, () => {
    expect(usage("USE1-Widget-Weeks").status).toBe("not evaluated: unknown unit Widget-Weeks");
    expect(runs["registry-cur"].stderr).toContain("  unknown unit Widget-Weeks: 1 row, cost 2.5\n");
  });
});

describe("media by service, the same whatever the format (impact-service evaluate)", () => {
  it("gives RDS gp2 storage SSD in a CUR and in a FOCUS export without extension columns", SLOW, () => {
    const expected = {
      method: "block-storage",
      quantity: 100 * 730,
      unit: "GB-hours SSD x1",
      kwhPerUnit: SSD * PUE.aws,
      country: "FRA",
    };
    expectMethod(line("registry-cur", "line_item_usage_type", "EUW3-RDS:GP2-Storage"), expected);
    expectMethod(
      line(
        "registry-focus",
        "ChargeDescription",
        "$0.133 per GB-month of provisioned gp2 storage running MySQL",
      ),
      expected,
    );
  });

  it("gives Aurora (6 copies) and DocumentDB (2) storage SSD without extension columns", SLOW, () => {
    expectMethod(line("registry-focus", "ChargeDescription", "$0.11 per GB-month of Aurora storage"), {
      method: "block-storage",
      quantity: 100 * 730 * 6,
      unit: "GB-hours SSD x6",
      kwhPerUnit: SSD * PUE.aws,
      country: "FRA",
    });
    expectMethod(line("registry-focus", "ChargeDescription", "$0.10 per GB-month of storage"), {
      method: "block-storage",
      quantity: 50 * 730 * 2,
      unit: "GB-hours SSD x2",
      kwhPerUnit: SSD * PUE.aws,
      country: "FRA",
    });
  });

  it("reads Google's gibibyte month and hour, its multi-region us at the United States", SLOW, () => {
    const bucket = line("registry-focus", "ChargeDescription", "Standard Storage US Multi-region");
    expectMethod(bucket, {
      method: "object-storage",
      quantity: 200 * 730 * GIB,
      unit: "GB-hours HDD x1",
      kwhPerUnit: HDD * PUE.gcp,
      country: "USA",
    });
    expect(bucket.warnings).toBe("region us is not in the edition: its country USA's factor");
    expectMethod(
      line("registry-focus", "ChargeDescription", "Cloud SQL for MySQL: Zonal - Standard storage"),
      {
        method: "block-storage",
        quantity: 7300 * GIB,
        unit: "GB-hours SSD x1",
        kwhPerUnit: SSD * PUE.gcp,
        country: "FRA",
      },
    );
  });
});

describe("GPU models (impact-service evaluate)", () => {
  /** kWh of a GPU-hour at 50 %: idle at 35/306 of its board power (CCF's ratio), full at it. */
  const gpuHour = (watts: number) => (watts * (35 / 306) + 0.5 * (watts - watts * (35 / 306))) / 1000;

  it.each([
    // Board power per GPU, the makers' datasheets
    ["Nvidia Tesla K80 GPU running in Americas", "K80", 150],
    ["Nvidia Tesla P4 GPU running in Americas", "P4", 75],
    ["Nvidia Tesla P100 GPU running in Americas", "P100", 250],
    ["Nvidia Tesla V100 GPU running in Americas", "V100", 300],
    ["Nvidia Tesla T4 GPU running in Americas", "T4", 70],
    ["Nvidia Tesla A100 GPU running in Americas", "A100", 400],
    ["Nvidia H100 80GB GPU running in Americas", "H100", 700],
    ["Nvidia L4 GPU running in Americas", "L4", 72],
  ])("%s: %s, %d W", SLOW, async (description, model, watts) => {
    const row = line("registry-focus", "ChargeDescription", description);
    expectMethod(row, {
      method: "accelerator",
      quantity: 720,
      unit: `GPU-hours ${model}`,
      kwhPerUnit: gpuHour(watts) * PUE.gcp,
      country: "USA",
    });
    const prepared = await prepareComponent(context, "gpu", null, {});
    const evaluation = new Evaluation(prepared.build(), {
      duration: 1,
      allocation: "LINEAR",
      criteria: [gwp],
    });
    close(row.gwp_embedded_kgco2eq, 720 * (evaluation.raw(gwp, "embedded")?.value ?? Number.NaN), "embedded");
  });

  it("reads a model it does not know at CCF's average GPU, saying so", SLOW, () => {
    const row = line("registry-focus", "ChargeDescription", "Nvidia Tesla Z9 GPU running in Americas");
    expectMethod(row, {
      method: "accelerator",
      quantity: 10,
      unit: "GPU-hours",
      kwhPerUnit: ((35 + 0.5 * (306 - 35)) / 1000) * PUE.gcp,
      country: "USA",
    });
    expect(row.warnings).toBe("GPU model z9 not in the registry: the CCF average GPU");
  });
});
