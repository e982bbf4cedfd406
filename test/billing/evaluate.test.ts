import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join } from "node:path";
import { gzipSync } from "node:zlib";
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeBillingExport } from "../../scripts/billing-exports.js";
import {
  BillingInputError,
  BillingStrictStop,
  evaluateBillingExport,
  FileReadError,
} from "../../src/billing/bill.js";
import { BILLING_FORMATS } from "../../src/billing/formats/knownFormats.js";
import { billingPlaces, spellingKey } from "../../src/billing/places.js";
import { REGISTRY_TABLES } from "../../src/billing/registry/sqlTables.js";
import {
  addBilledUnits,
  createLineViews,
  createRegistryTables,
  orderLineViews,
} from "../../src/billing/stages/classify.js";
import type { BillingAsked, BillingRequest } from "../../src/billing/stages/request.js";
import type { BillingSummary } from "../../src/billing/stages/summarise.js";
import type { CloudRegion } from "../../src/data/types.js";
import { openDatabase, sourceOf } from "../../src/duckdb/database.js";
import { identifier, literal } from "../../src/duckdb/sqlText.js";
import { coefficientCriteria } from "../../src/service/coefficients.js";
import { app, billingRequest, billingTermsOf, editionContext, expectClose, routeRaw } from "./support.js";

const FIXTURES = new URL("../fixtures/billing/", import.meta.url).pathname;
const scratch = mkdtempSync(join(tmpdir(), "billing-test-"));
const knownRegions = (): readonly CloudRegion[] => app.service.editions.get("2.4.1")?.data.cloudRegions ?? [];

type Row = Record<string, unknown>;

/** One DuckDB database for the file's reads of the files the runs write (a query each), opened once. */
let reader: Promise<{ instance: DuckDBInstance; connection: DuckDBConnection }> | undefined;
const readerConnection = async (): Promise<DuckDBConnection> => {
  reader ??= DuckDBInstance.create(":memory:").then(async (instance) => ({
    instance,
    connection: await instance.connect(),
  }));
  return (await reader).connection;
};
afterAll(async () => {
  if (reader === undefined) return;
  const { instance, connection } = await reader;
  connection.closeSync();
  instance.closeSync();
});

/** A file as DuckDB reads it: Parquet, else CSV with every cell as text. */
const sourceOfFile = (file: string) =>
  file.endsWith(".parquet")
    ? `read_parquet(${literal(file)})`
    : `read_csv(${literal(file)}, header = true, all_varchar = true)`;

async function readRows(file: string): Promise<Row[]> {
  const connection = await readerConnection();
  return (await connection.runAndReadAll(`SELECT * FROM ${sourceOfFile(file)}`)).getRowObjects() as Row[];
}

/** A file's columns, in order. */
async function headerOfFile(file: string): Promise<string[]> {
  const connection = await readerConnection();
  const described = await connection.runAndReadAll(`DESCRIBE SELECT * FROM ${sourceOfFile(file)}`);
  return described.getRowObjects().map((row) => String(row.column_name));
}

/**
 * Each line of a file with the columns `own` (a CSV's cells as text) as one JSON array (DuckDB's
 * json_array: a text quoted and escaped, an empty cell null), under `own`, beside the columns `also`:
 * a large file's lines compared without a JavaScript object per cell.
 */
async function ownLines(file: string, own: readonly string[], also: readonly string[] = []): Promise<Row[]> {
  const connection = await readerConnection();
  const columns = [`json_array(${own.map(identifier).join(", ")}) AS own`, ...also.map(identifier)];
  const read = await connection.runAndReadAll(`SELECT ${columns.join(", ")} FROM ${sourceOfFile(file)}`);
  return read.getRowObjects() as Row[];
}

/**
 * A fixture's run in edition 2.4.1 with each impact's range, its lines written as Parquet (numbers
 * unrounded), and those lines: run once for the file, read by the tests of its format and of its lines.
 */
const formatRuns = new Map<string, Promise<{ summary: BillingSummary; rows: Row[] }>>();
function formatRun(fixture: string): Promise<{ summary: BillingSummary; rows: Row[] }> {
  let run = formatRuns.get(fixture);
  if (run === undefined) {
    const out = `${fixture}.out.parquet`;
    run = evaluateBillingExport(terms("2.4.1"), request(fixture, out)).then(async (summary) => ({
      summary,
      rows: await readRows(join(scratch, out)),
    }));
    formatRuns.set(fixture, run);
  }
  return run;
}

/** A run's request for `file` (a fixture's name, or a path). */
function request(file: string, output: string, options: Partial<BillingRequest> = {}): BillingRequest {
  const path = isAbsolute(file) ? file : join(FIXTURES, file);
  return billingRequest(path, join(scratch, output), options);
}

/** A run's terms in `edition`, each impact's range written unless `asked` says otherwise. */
const terms = (edition: string, asked: Partial<BillingAsked> = {}) =>
  billingTermsOf(edition, { ranges: true, ...asked });

/** The provider of a line, as the formats spell it. */
function providerOf(row: Row): string {
  if ("line_item_product_code" in row) return "aws";
  if ("MeterCategory" in row) return "azure";
  const name = String(row.ServiceProviderName ?? row.ProviderName);
  return name === "AWS" ? "aws" : name === "Microsoft" ? "azure" : "gcp";
}

function regionOf(row: Row): string {
  return String(row.RegionId ?? row.product_region_code ?? row.ResourceLocation ?? "");
}

const FORMATS = [
  "focus-1.0.csv",
  "focus-1.2.parquet",
  "cur.csv.gz",
  "azure.csv",
  "focus-1.0-spec-only.csv",
  "cur-managed.csv",
  "azure-ea.csv",
];

describe.each(FORMATS)("%s, edition 2.4.1, against POST /v1/cloud/instance", (fixture) => {
  let summary: BillingSummary;
  let rows: Row[];
  const criteriaNames = ["gwp", "adp", "pe"];

  beforeAll(async () => {
    ({ summary, rows } = await formatRun(fixture));
  });

  it("keeps every line, in its order, with its status", async () => {
    const input = await readRows(join(FIXTURES, fixture));
    expect(rows).toHaveLength(input.length);
    const first = Object.keys(input[0])[0];
    expect(rows.map((row) => String(row[first]))).toEqual(input.map((row) => String(row[first])));
    const statuses = new Set(rows.map((row) => row.status));
    expect(statuses).toContain("evaluated");
    // A line that is not an instance hour is estimated by its method, or says why it is not.
    const others = rows.filter((row) => row.method !== "instance");
    expect(others.length).toBeGreaterThan(0);
    for (const row of others) {
      if (row.method === null) expect(String(row.status)).toMatch(/^(not compute|not evaluated|bad row)/);
      else expect(String(row.matched_instance_type)).toMatch(/^method:/);
    }
    if (fixture !== "azure.csv") expect(statuses).toContain("unknown instance type");
  });

  it("gives each evaluated line the single route's unrounded impacts for its hours", async () => {
    const context = editionContext("2.4.1");
    const criteria = coefficientCriteria(context, criteriaNames);
    const { data } = context.service;
    const places = billingPlaces({
      own: data.cloudRegions,
      known: [],
      countries: data.electricity.countryCodes,
      defaultLocation: data.config.defaultLocation,
    });
    const evaluated = rows.filter((row) => row.status === "evaluated" && row.method === "instance");
    expect(evaluated.length).toBeGreaterThan(10);
    for (const row of evaluated) {
      const provider = providerOf(row);
      const key = spellingKey(regionOf(row));
      const region =
        key === ""
          ? null
          : (places.find((p) => p.provider === provider && p.spelling === key)?.place ?? null);
      expect(region === null && key !== "", `${regionOf(row)} is a known region`).toBe(false);
      const hours = Number(row.hours);
      const route = await routeRaw(
        "2.4.1",
        provider,
        String(row.matched_instance_type),
        { region, usageLocation: null },
        null,
        hours,
        criteria,
      );
      criteria.forEach((criterion, index) => {
        for (const phase of ["embedded", "use"] as const) {
          const expected = route[index][phase];
          const column = summary.impactColumns.find((name) =>
            name.startsWith(`${criterion.info.name}_${phase}`),
          );
          if (column === undefined) throw new Error(`a column for ${criterion.info.name} ${phase}`);
          // Not implemented by the route (a region without this factor): no number either.
          if (expected === null) {
            expect(row[column], `${row.matched_instance_type} ${column}`).toBeNull();
            continue;
          }
          expectClose(Number(row[column]), expected.value, `${row.matched_instance_type} ${column}`);
          expectClose(
            Number(row[`${column}_min`]),
            expected.min,
            `${row.matched_instance_type} ${column}_min`,
          );
          expectClose(
            Number(row[`${column}_max`]),
            expected.max,
            `${row.matched_instance_type} ${column}_max`,
          );
        }
      });
    }
  });

  it("totals the evaluated lines: the sums of the rows", () => {
    for (const total of summary.totals) {
      const column = summary.impactColumns.find((name) =>
        name.startsWith(`${total.criterion.info.name}_${total.phase}`),
      );
      const sum = (suffix: string) =>
        rows.reduce(
          (acc, row) => acc + (row.status === "evaluated" ? Number(row[`${column}${suffix}`]) : 0),
          0,
        );
      expectClose(total.value, sum(""), `${column}`);
      expectClose(total.min, sum("_min"), `${column}_min`);
      expectClose(total.max, sum("_max"), `${column}_max`);
    }
  });
});

describe("the compute lines of each provider and service", () => {
  // The lines of the formats' runs above (their Parquet lines: the statuses and types a CSV has)
  it("finds EC2 (usage, discounted, Savings Plan), RDS db. types, OpenSearch .search and Azure Spot / Low Priority VMs", async () => {
    const cur = (await formatRun("cur.csv.gz")).rows;
    const evaluated = (rows: Row[]) =>
      rows.filter((row) => row.status === "evaluated" && row.method === "instance");
    const services = new Set(evaluated(cur).map((row) => row.line_item_product_code));
    expect(services).toEqual(new Set(["AmazonEC2", "AmazonRDS", "AmazonES"]));
    const lineTypes = new Set(evaluated(cur).map((row) => row.line_item_line_item_type));
    expect(lineTypes).toEqual(new Set(["Usage", "DiscountedUsage", "SavingsPlanCoveredUsage"]));
    // RIFee and Tax lines are never compute lines (no double counting of reserved hours).
    for (const row of cur.filter(
      (r) => r.line_item_line_item_type === "RIFee" || r.line_item_line_item_type === "Tax",
    )) {
      expect(row.status).toBe("not compute");
    }
    const rds = evaluated(cur).find((row) => String(row.line_item_usage_type).includes(":db."));
    expect(rds?.matched_instance_type).toMatch(/^(db\.)?[a-z0-9]+\.[a-z0-9]+$/);
    const search = evaluated(cur).find((row) => String(row.line_item_usage_type).includes(".search"));
    expect(search?.matched_instance_type).toMatch(/\.elasticsearch$|^[a-z0-9]+\.[a-z0-9]+$/);

    const azure = (await formatRun("azure.csv")).rows;
    const meters = evaluated(azure).map((row) => String(row.MeterName));
    expect(meters.some((name) => name.endsWith(" Spot"))).toBe(true);
    expect(meters.some((name) => name.endsWith(" Low Priority"))).toBe(true);
    const spellings = new Set(evaluated(azure).map((row) => row.ResourceLocation));
    for (const spelling of ["westeurope", "West Europe", "EU West"]) expect(spellings).toContain(spelling);
    // 10 Hours units: hours are 10 × the quantity.
    const tens = evaluated(azure).find((row) => row.UnitOfMeasure === "10 Hours");
    expect(Number(tens?.hours)).toBeCloseTo(10 * Number(tens?.Quantity), 9);
  });

  it("writes CSV numbers with at most 10 significant digits, the file's columns first", async () => {
    await evaluateBillingExport(terms("2.4.1"), request("azure.csv", "azure.csv"));
    const input = await readRows(join(FIXTURES, "focus-1.0.csv"));
    const rows = await readRows(join(scratch, "azure.csv"));
    expect(Object.keys(rows[0]).slice(-4)).toEqual(["pe_use_mj_min", "pe_use_mj_max", "status", "warnings"]);
    const header = readFileSync(join(FIXTURES, "focus-1.0.csv"), "utf8").split("\n")[0].split(",");
    expect(header).toEqual(Object.keys(input[0]));
    for (const row of rows.filter((r) => r.status === "evaluated" && r.method === "instance")) {
      const text = String(row.gwp_use_kgco2eq);
      expect(text.replace(/^0\.0*|[.-]|e.*$/g, "").length, text).toBeLessThanOrEqual(10);
    }
  });
});

/** The generator's wide export, written once for the file (both tests below start from it). */
let generatedWide: Promise<string> | undefined;

/**
 * The generator's wide export; with `prices`, each description's price one of that many per line
 * (`$17.01 per On Demand Linux …`): many more tuples than kinds, as a real bill has.
 */
async function wideExport(prices: number | null): Promise<string> {
  generatedWide ??= (async () => {
    const file = join(scratch, "wide.csv");
    await writeBillingExport("focus", 12_000, file, "1.2", true);
    return file;
  })();
  const generated = await generatedWide;
  if (prices === null) return generated;
  const file = join(scratch, `wide-${prices}.csv`);
  const connection = await readerConnection();
  await connection.run(
    `COPY (SELECT * REPLACE (regexp_replace(ChargeDescription, '^[$][0-9.]+',
        CONCAT('$', CAST(row_number() OVER () % ${prices} AS VARCHAR), '.01')) AS ChargeDescription)
      FROM read_csv(${literal(generated)}, header = true, all_varchar = true))
     TO ${literal(file)} (FORMAT csv, HEADER true)`,
  );
  return file;
}

describe("a wide export of many chunks (both threads)", () => {
  it.each([
    ["each tuple's row", null],
    ["tuples read through their kind (a price per line)", 97],
  ])(
    "writes every line in its order, with the method the queries give it line by line: %s",
    async (_, prices) => {
      const file = await wideExport(prices);
      await evaluateBillingExport(terms("2.4.1"), request(file, "wide.out.csv"));
      const header = await headerOfFile(file);
      expect(header).toHaveLength(56);
      // Every line's own cells, in order (a line's as one JSON array), and what the run added
      const input = await ownLines(file, header);
      const output = await ownLines(join(scratch, "wide.out.csv"), header, [
        "method",
        "status",
        "matched_instance_type",
        "hours",
        "gwp_embedded_kgco2eq",
      ]);
      expect(output.map((row) => row.own)).toEqual(input.map((row) => row.own));
      // Each line's method as the format's queries give it, each line through them.
      const db = await openDatabase();
      try {
        await createRegistryTables(db.connection);
        await createLineViews(db.connection, {
          from: sourceOf(file, header),
          header,
          renamed: new Map(),
          format: BILLING_FORMATS.focus,
          typeHintColumn: null,
        });
        await addBilledUnits(db.connection);
        // Read in their order, as the command's writing pass reads them
        await orderLineViews(db.connection, new Set(REGISTRY_TABLES.map((table) => table.name)));
        const classified = (
          await db.connection.runAndReadAll(
            "SELECT billing_method, billing_instance_type, billing_region_key FROM billing_classified",
          )
        ).getRowObjects();
        expect(output.map((row) => row.method)).toEqual(classified.map((row) => row.billing_method));
        // Lines of many descriptions (a price each) read their kind's row: the lines of one billed
        // type and region share its match, place and per-hour impacts.
        const kinds = new Map<string, { type: unknown; perHour: number }>();
        output.forEach((row, index) => {
          if (row.status !== "evaluated" || row.method !== "instance") return;
          const { billing_instance_type: type, billing_region_key: region } = classified[index];
          const kind = `${type} ${region}`;
          // Written with 10 significant digits: the ratio agrees to about 1e-9.
          const read = {
            type: row.matched_instance_type,
            perHour: Number(row.gwp_embedded_kgco2eq) / Number(row.hours),
          };
          const first = kinds.get(kind) ?? read;
          expect(read.type, `line ${index + 1}, ${kind}`).toBe(first.type);
          expect(Math.abs(read.perHour / first.perHour - 1), `line ${index + 1}, ${kind}`).toBeLessThan(1e-8);
          kinds.set(kind, first);
        });
        expect(kinds.size).toBeGreaterThan(100);
      } finally {
        db.close();
      }
      expect(new Set(output.map((row) => row.method))).toEqual(
        new Set(["instance", "object-storage", "per-vcpu", null]),
      );
    },
  );
});

// The lines of the formats' runs above
describe("instance lines found from the formats' own columns", () => {
  const statusOf = async (fixture: string, column: string) => {
    const { rows } = await formatRun(fixture);
    return rows.map((row) => [String(row[column]), row.matched_instance_type ?? null, row.status] as const);
  };

  it("reads a FOCUS 1.0 export without extension columns: AWS, Microsoft, Google and Oracle lines", async () => {
    const lines = await statusOf("focus-1.0-spec-only.csv", "ChargeDescription");
    const of = (description: string) => lines.find(([text]) => text.startsWith(description))?.slice(1);
    expect(of("$0.34 per On Demand Linux c5.2xlarge")).toEqual(["c5.2xlarge", "evaluated"]);
    expect(of("$0.000 per Linux t3.micro instance-hour")).toEqual(["t3.micro", "evaluated"]);
    expect(of("$0.171 per RDS db.m5.large")).toEqual(["db.m5.large", "evaluated"]);
    // Managed nodes: the edition's own type where it lists one, else the EC2 type (docs/methodology.md).
    expect(of("$0.156 per Node hour for cache.m5.large")).toEqual(["cache.m5.large", "evaluated"]);
    expect(of("$0.115 per On Demand Hosting ml.m5.large")).toEqual(["m5.large", "evaluated"]);
    expect(of("$0.00 for 1000 Mbps per c4.xlarge")).toEqual([null, "not compute"]);
    // CPU credits bill the vCPU-hours a burstable instance ran above its baseline.
    expect(of("$0.05 per vCPU-Hour of T3 CPU Credits")).toEqual(["method:vcpu-hour", "evaluated"]);
    expect(of("D4ads v5")).toEqual(["d4ads_v5", "evaluated"]);
    expect(of("E4s v5 Spot")).toEqual(["e4s_v5", "evaluated"]);
    // A meter of two sizes and no size named elsewhere: the first the edition lists.
    expect(of("D2 v3/D2s v3")).toEqual(["d2s_v3", "evaluated"]);
    // Without its machine type, a Google Cloud core is estimated per vCPU-hour.
    expect(of("N2 Instance Core")).toEqual(["method:vcpu-hour", "evaluated"]);
    // No Oracle instance types in the edition: said so, not dropped as a region or a service.
    expect(of("VM.Standard2.1")).toEqual([null, "unknown instance type"]);
  });

  it("evaluates ElastiCache, MemoryDB, DocumentDB, Neptune, SageMaker and MSK nodes of a CUR", async () => {
    const lines = await statusOf("cur-managed.csv", "line_item_usage_type");
    const byUsage = new Map(lines.map(([usage, type, status]) => [usage, [type, status]]));
    expect(byUsage.get("USE1-NodeUsage:cache.m5.large")).toEqual(["cache.m5.large", "evaluated"]);
    expect(byUsage.get("USE1-NodeUsage:db.r6g.large")?.[1]).toBe("evaluated");
    expect(byUsage.get("USE1-InstanceUsage:db.r5.large")?.[1]).toBe("evaluated");
    expect(byUsage.get("USE1-Host:ml.m5.large")).toEqual(["m5.large", "evaluated"]);
    expect(byUsage.get("USE1-Notebk:ml.t3.medium")).toEqual(["t3.medium", "evaluated"]);
    expect(byUsage.get("USE1-Kafka.m5.large")).toEqual(["m5.large", "evaluated"]);
    // An MSK broker's storage is a gp2 volume: block storage on SSD.
    expect(byUsage.get("USE1-Kafka.Storage.GP2")).toEqual(["method:ssd-gb-hour", "evaluated"]);
    expect(byUsage.get("USE1-NodeUsage:cache.m99.large")).toEqual([null, "unknown instance type"]);
  });

  it("resolves an Azure meter of two sizes through AdditionalInfo's ServiceType", async () => {
    const { rows } = await formatRun("azure-ea.csv");
    const twoSizes = rows.filter((row) => row.MeterName === "D2 v3/D2s v3");
    expect(twoSizes.map((row) => row.matched_instance_type)).toEqual([
      "d2s_v3",
      "d2s_v3",
      "d2s_v3",
      "d2s_v3",
    ]);
    expect(rows.find((row) => row.MeterName === "B2ms")?.matched_instance_type).toBe("standard_b2ms");
  });
});

describe("edition 1.2.4 (no cloud regions)", () => {
  it("evaluates AWS lines at their region's country; Azure has no instance types there", async () => {
    const out = "focus-124.parquet";
    await evaluateBillingExport(terms("1.2.4"), request("focus-1.0.csv", out));
    const rows = await readRows(join(scratch, out));
    const context = editionContext("1.2.4");
    const criteria = coefficientCriteria(context, null);
    const places = billingPlaces({
      own: null,
      known: knownRegions(),
      countries: context.service.data.electricity.countryCodes,
      defaultLocation: context.service.data.config.defaultLocation,
    });
    const aws = rows.filter((row) => row.status === "evaluated" && row.method === "instance");
    expect(aws.length).toBeGreaterThan(5);
    for (const row of aws.slice(0, 8)) {
      const country = places.find(
        (p) => p.provider === "aws" && p.spelling === spellingKey(String(row.RegionId)),
      )?.place;
      const route = await routeRaw(
        "1.2.4",
        "aws",
        String(row.matched_instance_type),
        { region: null, usageLocation: country ?? null },
        null,
        Number(row.hours),
        criteria,
      );
      expectClose(Number(row.gwp_use_kgco2eq), route[0].use?.value ?? Number.NaN, `${row.RegionId} use`);
      expectClose(Number(row.gwp_embedded_kgco2eq), route[0].embedded?.value ?? Number.NaN, "embedded");
    }
    const azure = rows.filter(
      (row) => row.ProviderName === "Microsoft" && row.x_SkuMeterCategory === "Virtual Machines",
    );
    expect(new Set(azure.map((row) => row.status))).toEqual(new Set(["unknown instance type"]));
  });
});

describe("sums per group", () => {
  it("writes, per group of the columns named, the sums of its evaluated lines", async () => {
    const groupsOutput = join(scratch, "groups.csv");
    await evaluateBillingExport(
      terms("2.4.1", { ranges: false }),
      request("focus-1.0.csv", "grouped.csv", {
        groupBy: ["SubAccountId", "ServiceName"],
        groupsOutput,
      }),
    );
    const rows = await readRows(join(scratch, "grouped.csv"));
    const groups = await readRows(groupsOutput);
    expect(groups.length).toBeGreaterThan(2);
    for (const group of groups) {
      const members = rows.filter(
        (row) =>
          row.status === "evaluated" &&
          row.SubAccountId === group.SubAccountId &&
          row.ServiceName === group.ServiceName,
      );
      expect(Number(group.lines)).toBe(members.length);
      const sum = members.reduce((acc, row) => acc + Number(row.gwp_embedded_kgco2eq), 0);
      // Both sides written with 10 significant digits.
      expect(Math.abs(Number(group.gwp_embedded_kgco2eq) - sum) / sum).toBeLessThan(1e-8);
    }
  });
});

describe("sums per tag", () => {
  it.each([
    ["focus-1.0.csv", "Tags", "team"],
    ["cur-managed.csv", "resource_tags", "team"],
    ["azure-ea.csv", "Tags", "env"],
  ])("groups %s's evaluated lines by a key of %s (--group-by tag:%s)", async (fixture, column, key) => {
    const groupsOutput = join(scratch, `${fixture}.tags.csv`);
    await evaluateBillingExport(
      terms("2.4.1", { ranges: false }),
      request(fixture, `${fixture}.tagged.csv`, {
        groupBy: [`tag:${key}`],
        groupsOutput,
      }),
    );
    const rows = await readRows(join(scratch, `${fixture}.tagged.csv`));
    const groups = await readRows(groupsOutput);
    const tagOf = (row: Row) => {
      const text = String(row[column]);
      const tags = JSON.parse(text.startsWith("{") ? text : `{${text}}`) as Record<string, string>;
      return tags[key] ?? tags[`user_${key}`];
    };
    const evaluated = rows.filter((row) => row.status === "evaluated");
    expect(groups.map((group) => group[`tag:${key}`])).toEqual([...new Set(evaluated.map(tagOf))].sort());
    for (const group of groups) {
      const members = evaluated.filter((row) => tagOf(row) === group[`tag:${key}`]);
      expect(Number(group.lines)).toBe(members.length);
      const sum = members.reduce((acc, row) => acc + Number(row.gwp_use_kgco2eq), 0);
      expect(Math.abs(Number(group.gwp_use_kgco2eq) - sum) / sum).toBeLessThan(1e-8);
    }
  });
});

describe("bad input", () => {
  it("gives each bad row its status and goes on (a negative quantity is a refund, not one); --strict stops before writing anything", async () => {
    const out = "bad.csv";
    const summary = await evaluateBillingExport(
      terms("2.4.1"),
      request("focus-bad-rows.csv", out, {
        instanceTypeColumn: "x_MachineType",
      }),
    );
    const rows = await readRows(join(scratch, out));
    expect(rows.map((row) => row.status)).toEqual([
      "evaluated",
      "bad row: quantity is missing or not a number (or a quantity or cost is not finite within 1e30)",
      "not evaluated: negative quantity (a refund or correction)",
      "bad row: unknown unit Fortnights",
      "bad row: unknown region eu-mars-1",
      "evaluated",
      "evaluated",
      "not evaluated: Google Cloud bills cores and memory, not machine types",
      "not compute",
    ]);
    expect(rows[5].matched_instance_type).toBe("d4ads_v5");
    expect(rows[6].matched_instance_type).toBe("n2-standard-4");
    expect(summary.groups.reduce((sum, group) => sum + group.lines, 0)).toBe(9);
    const strict = request("focus-bad-rows.csv", "strict.csv", {
      strict: true,
    });
    await expect(evaluateBillingExport(terms("2.4.1"), strict)).rejects.toThrow(BillingStrictStop);
    expect(existsSync(strict.output)).toBe(false);
  });

  it("names the columns a header lacks and the formats known", async () => {
    const attempt = evaluateBillingExport(terms("2.4.1"), request("unknown-header.parquet", "x.csv"));
    await expect(attempt).rejects.toThrow(BillingInputError);
    await expect(attempt).rejects.toThrow(
      /FOCUS 1\.0–1\.2 \(--input focus\) lacks .*ChargeCategory.*AWS CUR 2\.0.*line_item_usage_amount.*Azure cost export/,
    );
    const asked = request("not-billing.csv", "y.csv", { input: "azure" });
    await expect(evaluateBillingExport(terms("2.4.1"), asked)).rejects.toThrow(
      /Azure cost export \(--input azure\) lacks MeterCategory, MeterName, Quantity, UnitOfMeasure, ResourceLocation/,
    );
  });

  it("refuses a bill in two currencies, naming each with its lines (their costs were summed before)", async () => {
    const [header, ...lines] = readFileSync(join(FIXTURES, "focus-1.0.csv"), "utf8").trimEnd().split("\n");
    // Every third line in EUR, one line naming none (in the bill's currency)
    const mixed = lines.map((line, i) =>
      i === 1
        ? line.replace(/^([^,]*,[^,]*,)USD,/, "$1,")
        : i % 3 === 2
          ? line.replace(/^([^,]*,[^,]*,)USD,/, "$1EUR,")
          : line,
    );
    const euros = mixed.filter((line) => /^[^,]*,[^,]*,EUR,/.test(line)).length;
    const dollars = mixed.filter((line) => /^[^,]*,[^,]*,USD,/.test(line)).length;
    expect(euros).toBeGreaterThan(0);
    const file = join(scratch, "two-currencies.csv");
    writeFileSync(file, `${[header, ...mixed].join("\n")}\n`);
    const asked = request(file, "two-currencies.out.csv");
    const attempt = evaluateBillingExport(terms("2.4.1"), asked);
    await expect(attempt).rejects.toThrow(BillingInputError);
    await expect(attempt).rejects.toThrow(
      `${file}: its amounts are in 2 currencies (USD: ${dollars} lines, EUR: ${euros} lines); their costs cannot be summed nor estimated at one rate: evaluate each currency's lines apart (split the file by its BillingCurrency column); nothing written`,
    );
    expect(existsSync(asked.output)).toBe(false);
    // One currency and a line naming none: read, in that currency
    const one = join(scratch, "one-currency.csv");
    writeFileSync(
      one,
      `${[header, ...lines.map((line, i) => (i === 1 ? line.replace(/^([^,]*,[^,]*,)USD,/, "$1,") : line))].join("\n")}\n`,
    );
    const summary = await evaluateBillingExport(terms("2.4.1"), request(one, "one-currency.out.csv"));
    expect(summary.currency).toBe("USD");
  });

  it("reads a bill's currency on its first lines, and further where they name none", async () => {
    const [header, ...lines] = readFileSync(join(FIXTURES, "focus-1.0.csv"), "utf8").trimEnd().split("\n");
    const blank = (line: string) => line.replace(/^([^,]*,[^,]*,)USD,/, "$1,");
    // 1,200 lines naming none (past the first 1,000 the run reads first), then one naming EUR
    const named = (first: number) => [
      ...Array.from({ length: first }, (_, i) => blank(lines[i % lines.length])),
      lines[0].replace(/^([^,]*,[^,]*,)USD,/, "$1EUR,"),
    ];
    const late = join(scratch, "late-currency.csv");
    writeFileSync(late, `${[header, ...named(1200)].join("\n")}\n`);
    const summary = await evaluateBillingExport(terms("2.4.1"), request(late, "late-currency.out.csv"));
    expect(summary.currency).toBe("EUR");
    // None in the first 100,000 lines: none read, as before
    const none = join(scratch, "no-currency.csv");
    writeFileSync(none, `${[header, ...named(100_000)].join("\n")}\n`);
    const unnamed = await evaluateBillingExport(terms("2.4.1"), request(none, "no-currency.out.csv"));
    expect(unnamed.currency).toBeNull();
  });

  it("stops at a file cut short, not UTF-8 or with a line too long, naming its line, with nothing written", async () => {
    const whole = readFileSync(join(FIXTURES, "azure.csv"));
    const [header, first, ...rest] = whole.toString().split("\n");
    // A line past DuckDB's longest (2,000,000 bytes), well within its buffer: its error, worded.
    const long = [header, first, `"${"x".repeat(2_100_000)}"`, ...rest].join("\n");
    const cases: [string, Buffer, RegExp][] = [
      [
        "long.csv",
        Buffer.from(long),
        /long\.csv: line 3: longer than 2,000,000 bytes, the longest line read; nothing written$/,
      ],
      ["cut.csv", whole.subarray(0, 3000), /line \d+: a malformed line \(is the file cut short\?\)/],
      ["cut.csv.gz", gzipSync(whole).subarray(0, 1500), /the gzip file is cut short after line \d+/],
      [
        "latin1.csv",
        Buffer.from(whole.toString("latin1").replace("Virtual Machines Series", "Séries"), "latin1"),
        /line 2: not UTF-8/,
      ],
    ];
    for (const [name, bytes, message] of cases) {
      writeFileSync(join(scratch, name), bytes);
      const asked = request(join(scratch, name), `${name}.out.csv`);
      // One run's refusal: its words and its class
      const attempt = evaluateBillingExport(terms("2.4.1"), asked);
      await expect(attempt).rejects.toThrow(message);
      await expect(attempt).rejects.toThrow(FileReadError);
      expect(existsSync(asked.output), name).toBe(false);
      expect(existsSync(`${asked.output}.partial`), name).toBe(false);
    }
  });
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));
