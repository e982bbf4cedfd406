/**
 * `impact-service price-list azure` (src/cli/priceListCommand.ts): Azure's on-demand Linux VM
 * prices read from the Retail Prices API — here its emulator (test/support/azureRetailEmulator.ts,
 * the tests' own figures) — page after page, Windows, Spot, Low Priority and other currencies left
 * out; a region that cannot be read named, the rest written; and the list it writes prices the
 * Azure actions of a bill that the bill itself does not (docs/billing.md, "What-if").
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listPrice, parsePriceList } from "../../src/billing/priceList.js";
import { linuxVmPrices, MAX_PAGE_BYTES } from "../../src/billing/priceSources/azureRetail.js";
import {
  type RetailEmulator,
  type RetailMeter,
  startRetailEmulator,
} from "../support/azureRetailEmulator.js";
import { runMain } from "../support/cli.js";
import { whatIfRows } from "../support/whatIfRows.js";

const scratch = mkdtempSync(join(tmpdir(), "azure-price-list-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type Row = Record<string, string>;

describe("the Linux on-demand prices of a page's meters", () => {
  const meter = (over: Record<string, unknown>) => ({
    armRegionName: "westeurope",
    armSkuName: "Standard_D4s_v5",
    retailPrice: 0.2,
    currencyCode: "USD",
    unitOfMeasure: "1 Hour",
    type: "Consumption",
    productName: "Virtual Machines Dsv5 Series",
    skuName: "D4s v5",
    ...over,
  });

  it("keep an hourly Linux meter's price and leave Windows, Spot, Low Priority, other currencies out", () => {
    const kept = linuxVmPrices([
      meter({}),
      meter({ productName: "Virtual Machines Dsv5 Series Windows", retailPrice: 0.4 }),
      meter({ skuName: "D4s v5 Spot", retailPrice: 0.02 }),
      meter({ skuName: "D4s v5 Low Priority", retailPrice: 0.04 }),
      meter({ currencyCode: "EUR", retailPrice: 0.18 }),
      meter({ type: "Reservation", retailPrice: 900 }),
      meter({ unitOfMeasure: "1/Month", retailPrice: 10 }),
      meter({ armSkuName: "", retailPrice: 0.1 }),
      meter({ retailPrice: "0.1" }),
      null,
      "a meter",
    ]);
    expect(kept).toEqual([{ region: "westeurope", instanceType: "Standard_D4s_v5", usdPerHour: 0.2 }]);
  });

  it("keep a size's lowest price where two meters name it", () => {
    expect(
      linuxVmPrices([
        meter({ retailPrice: 0.25 }),
        meter({ retailPrice: 0.2, productName: "Virtual Machines Dsv5 Series (2)" }),
      ]),
    ).toEqual([{ region: "westeurope", instanceType: "Standard_D4s_v5", usdPerHour: 0.2 }]);
  });
});

/** The tests' own figures: three sizes at two regions, with decoys the list leaves out. */
const METERS: RetailMeter[] = [
  { armRegionName: "westeurope", armSkuName: "Standard_D4s_v5", retailPrice: 0.2 },
  { armRegionName: "westeurope", armSkuName: "Standard_D2s_v5", retailPrice: 0.1 },
  { armRegionName: "westeurope", armSkuName: "Standard_E8s_v5", retailPrice: 0.5 },
  {
    armRegionName: "westeurope",
    armSkuName: "Standard_D4s_v5",
    retailPrice: 0.35,
    productName: "Virtual Machines Dsv5 Series Windows",
  },
  { armRegionName: "westeurope", armSkuName: "Standard_D4s_v5", retailPrice: 0.03, skuName: "D4s v5 Spot" },
  { armRegionName: "swedencentral", armSkuName: "Standard_D4s_v5", retailPrice: 0.18 },
  { armRegionName: "swedencentral", armSkuName: "Standard_D2s_v5", retailPrice: 0.09 },
];

/** `price-list azure` of `regions` into `out` against the emulator, with `extra` options. */
const listRun = (emulator: RetailEmulator, regions: string, out: string, ...extra: string[]) =>
  runMain(["price-list", "azure", "--region", regions, "-o", out, "--endpoint", emulator.endpoint, ...extra]);

/** `test` with an emulator of `meters` started, closed after whatever it does. */
async function withEmulator(
  meters: readonly RetailMeter[],
  options: Parameters<typeof startRetailEmulator>[1],
  test: (emulator: RetailEmulator) => Promise<void>,
) {
  const emulator = await startRetailEmulator(meters, options);
  try {
    await test(emulator);
  } finally {
    await emulator.close();
  }
}

describe("price-list azure", () => {
  it("writes every page's Linux prices of the regions asked, its source named, a list PRICE_LIST reads", async () => {
    await withEmulator(METERS, { pageSize: 2 }, async (emulator) => {
      const out = join(scratch, "two-regions.csv");
      const run = await listRun(emulator, "westeurope,swedencentral", out);
      expect(run.code).toBe(0);
      expect(run.stderr).toContain("westeurope: 3 VM types priced");
      expect(run.stderr).toContain("swedencentral: 2 VM types priced");
      // westeurope's 5 meters at 2 a page: 3 pages; swedencentral's 2: 1
      expect(emulator.asked).toEqual(["westeurope@0", "westeurope@2", "westeurope@4", "swedencentral@0"]);
      const text = readFileSync(out, "utf8");
      const list = parsePriceList(text, out);
      expect(list.source).toMatch(
        /^Azure Retail Prices API: Virtual Machines, Consumption, Linux, USD \(127\.0\.0\.1:\d+\), read \d{4}-\d\d-\d\d, at westeurope swedencentral$/,
      );
      expect(listPrice(list, "azure", "d4s_v5", "westeurope")).toEqual({ price: 0.2 });
      expect(listPrice(list, "azure", "Standard_D2s_v5", "swedencentral")).toEqual({ price: 0.09 });
      expect(listPrice(list, "azure", "e8s_v5", "swedencentral")).toEqual({
        price: null,
        missing: "e8s_v5 in swedencentral",
      });
      expect(text.trim().split("\n")).toHaveLength(2 + 5);
    });
  });

  it("keeps another list's rows with --with, both sources named", async () => {
    await withEmulator(METERS, {}, async (emulator) => {
      const other = join(scratch, "aws.csv");
      writeFileSync(
        other,
        "# source: the tests' own AWS figures\nprovider,region,instance_type,usd_per_hour\naws,us-east-1,m5.xlarge,0.2\n",
      );
      const out = join(scratch, "with.csv");
      const run = await listRun(emulator, "swedencentral", out, "--with", other);
      expect(run.code).toBe(0);
      const list = parsePriceList(readFileSync(out, "utf8"), out);
      expect(list.source).toMatch(/at swedencentral; the tests' own AWS figures$/);
      expect(listPrice(list, "aws", "m5.xlarge", "us-east-1")).toEqual({ price: 0.2 });
      expect(listPrice(list, "azure", "d4s_v5", "swedencentral")).toEqual({ price: 0.18 });
    });
  });

  it("names a region that cannot be read and writes the rest; none read is exit 1, nothing written", async () => {
    await withEmulator(
      METERS,
      {
        broken: ["swedencentral"],
        hugeRegion: "northeurope",
      },
      async (emulator) => {
        const out = join(scratch, "partial.csv");
        const run = await listRun(emulator, "westeurope,swedencentral,northeurope", out);
        expect(run.code).toBe(0);
        expect(run.stderr).toContain("impact-service: swedencentral, page 1: HTTP 500; not in the list\n");
        expect(run.stderr).toContain(
          `impact-service: northeurope, page 1: more than ${MAX_PAGE_BYTES} bytes; not in the list\n`,
        );
        expect(parsePriceList(readFileSync(out, "utf8"), out).source).toMatch(/at westeurope$/);
        const none = join(scratch, "none.csv");
        const failed = await listRun(emulator, "swedencentral", none);
        expect(failed.code).toBe(1);
        expect(failed.stderr).toContain("no region could be read; nothing written");
        expect(existsSync(none)).toBe(false);
      },
    );
  });

  it("never follows a next page to another origin", async () => {
    await withEmulator(METERS, { pageSize: 1, foreignNext: true }, async (emulator) => {
      const run = await runMain([
        "price-list",
        "azure",
        "--region",
        "westeurope",
        "-o",
        join(scratch, "foreign.csv"),
        "--endpoint",
        emulator.endpoint,
      ]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(
        "westeurope, page 1: its next page is on another origin (http://prices.example.invalid), not followed",
      );
      expect(emulator.asked).toEqual(["westeurope@0"]);
    });
  });

  it("refuses, before any request, a region Azure has not, a missing file, a bad endpoint", async () => {
    const out = join(scratch, "never.csv");
    const misused = [
      [
        ["price-list", "azure", "--region", "westeurop", "-o", out],
        "--region westeurop is not a region of azure; did you mean westeurope?",
      ],
      [["price-list", "azure", "--region", "westeurope"], "no file to write: -o <file>"],
      [["price-list", "azure", "-o", out], "no region: --region <region>[,<region>…]"],
      [["price-list", "gcp", "--region", "us-east1", "-o", out], "price-list reads aws or azure, not gcp"],
      [
        ["price-list", "azure", "--region", "westeurope", "-o", out, "--endpoint", "file:///etc/passwd"],
        "--endpoint is an http(s) URL, not file:///etc/passwd",
      ],
      [
        ["price-list", "azure", "--region", "westeurope", "-o", out, "--timeout", "5"],
        "--timeout is a number of seconds from 10 to 3600, not 5",
      ],
    ] as const;
    for (const [args, said] of misused) {
      const run = await runMain(args);
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stderr).toContain(said);
    }
    expect(existsSync(out)).toBe(false);
  });
});

describe("the list it writes, read by the what-if", () => {
  const BILL = fileURLToPath(new URL("../fixtures/billing/azure.csv", import.meta.url));
  let without: Row[] = [];
  let priced: Row[] = [];

  const whatIf = (name: string) => whatIfRows(BILL, scratch, name);

  beforeAll(async () => {
    const before = process.env.PRICE_LIST;
    try {
      process.env.PRICE_LIST = join(scratch, "empty-list.csv");
      writeFileSync(process.env.PRICE_LIST, "# source: none\nprovider,region,instance_type,usd_per_hour\n");
      without = await whatIf("without");
      // The tests' own prices for every size and region the actions name: 0.01 USD a vCPU-ish unit
      // of the size's digits, so that sizes differ
      const meters = new Map<string, RetailMeter>();
      for (const row of without)
        for (const [type, region] of [
          [row.instance_type, row.place],
          [row.to_instance_type, row.to_place],
        ]) {
          const size = `Standard_${type.replace(/^standard_/i, "")}`;
          const digits = Number(/\d+/.exec(type)?.[0] ?? "1");
          meters.set(`${region}/${size}`, {
            armRegionName: region,
            armSkuName: size,
            retailPrice: 0.05 * digits,
          });
        }
      const emulator = await startRetailEmulator([...meters.values()], { pageSize: 50 });
      try {
        const regions = [...new Set([...meters.values()].map((meter) => meter.armRegionName))];
        const list = join(scratch, "bill-regions.csv");
        const made = await runMain([
          "price-list",
          "azure",
          "--region",
          regions.join(","),
          "-o",
          list,
          "--endpoint",
          emulator.endpoint,
        ]);
        if (made.code !== 0) throw new Error(made.stderr);
        process.env.PRICE_LIST = list;
        priced = await whatIf("priced");
      } finally {
        await emulator.close();
      }
    } finally {
      if (before === undefined) delete process.env.PRICE_LIST;
      else process.env.PRICE_LIST = before;
    }
  }, 300_000);

  it("prices every Azure action the bill alone leaves unpriced, each at the bill's rate × the list's ratio", () => {
    expect(without.length).toBeGreaterThan(10);
    expect(without.every((row) => row.saved_cost === "")).toBe(true);
    expect(priced.length).toBe(without.length);
    for (const row of priced) {
      expect(row.saved_cost, `${row.instance_type} → ${row.to_instance_type} in ${row.to_place}`).not.toBe(
        "",
      );
      // The bill names no currency: the list's USD is read only as a ratio
      expect(row.price_origin).toMatch(/^bill's (billed )?rate × list ratio$/);
      const digits = (type: string) => Number(/\d+/.exec(type)?.[0]);
      const ratio = digits(row.to_instance_type) / digits(row.instance_type);
      expect(Number(row.to_price_per_hour)).toBeCloseTo(Number(row.price_per_hour) * ratio, 9);
      expect(Number(row.saved_cost)).toBeCloseTo(
        Number(row.hours) * (Number(row.price_per_hour) - Number(row.to_price_per_hour)),
        6,
      );
    }
  });
});
