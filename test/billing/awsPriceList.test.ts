/**
 * `impact-service price-list aws` (src/billing/priceSources/awsBulk.ts): EC2's on-demand Linux
 * prices streamed from a region's offer file of the Price List Bulk API — here served by a local
 * server, its rows the tests' own figures in the file's documented layout (metadata lines, then
 * a header, a row per price term) — the other terms, systems, tenancies and regions left out; and
 * the list it writes prices a region move the bill and the derived list do not.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listPrice, parsePriceList } from "../../src/billing/priceList.js";
import { offerPrices } from "../../src/billing/priceSources/awsBulk.js";
import { runMain } from "../support/cli.js";
import { whatIfRows } from "../support/whatIfRows.js";

const scratch = mkdtempSync(join(tmpdir(), "aws-price-list-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const HEADER =
  '"SKU","OfferTermCode","RateCode","TermType","PriceDescription","EffectiveDate","StartingRange","EndingRange","Unit","PricePerUnit","Currency","RelatedTo","LeaseContractLength","PurchaseOption","OfferingClass","Product Family","serviceCode","Location","Location Type","Instance Type","Current Generation","Instance Family","vCPU","Memory","Tenancy","Operating System","License Model","Usage Type","operation","CapacityStatus","Pre Installed S/W","Region Code"';

/** A price term's row: an on-demand Linux hour at `region` unless `over` says otherwise. */
function row(region: string, type: string, price: number, over: Record<string, string> = {}): string {
  const cells: Record<string, string> = {
    TermType: "OnDemand",
    Unit: "Hrs",
    Currency: "USD",
    "Product Family": "Compute Instance",
    Tenancy: "Shared",
    "Operating System": "Linux",
    "License Model": "No License required",
    operation: "RunInstances",
    CapacityStatus: "Used",
    "Pre Installed S/W": "NA",
    ...over,
  };
  const names = HEADER.slice(1, -1).split('","');
  const values = names.map((name) =>
    name === "Region Code"
      ? region
      : name === "Instance Type"
        ? type
        : name === "PricePerUnit"
          ? String(price)
          : (cells[name] ?? "x"),
  );
  return values.map((value) => `"${value}"`).join(",");
}

/** An offer file: the metadata lines, the header, its rows (the tests' own figures). */
const offerFile = (rows: readonly string[]) =>
  [
    '"FormatVersion","v1.0"',
    '"Disclaimer","the tests\' own figures"',
    '"Publication Date","2026-11-20T00:00:00Z"',
    '"Version","20261120000000"',
    '"OfferCode","AmazonEC2"',
    HEADER,
    ...rows,
  ].join("\n");

const FILES: Record<string, string> = {
  "eu-north-1": offerFile([
    row("eu-north-1", "m5.xlarge", 0.204),
    row("eu-north-1", "c5.large", 0.091),
    row("eu-north-1", "m5.xlarge", 0.388, { "Operating System": "Windows" }),
    row("eu-north-1", "m5.xlarge", 0.12, { TermType: "Reserved" }),
    row("eu-north-1", "m5.xlarge", 0.3, { Tenancy: "Dedicated" }),
    row("eu-north-1", "m5.xlarge", 0.5, { "Pre Installed S/W": "SQL Web" }),
    row("eu-north-1", "m5.xlarge", 0.204, { CapacityStatus: "UnusedCapacityReservation" }),
    row("eu-north-1", "m5.xlarge", 0.01, { "Product Family": "Dedicated Host" }),
    row("eu-west-1", "m5.xlarge", 0.214),
  ]),
  "eu-west-1": offerFile([row("eu-west-1", "m5.xlarge", 0.214), row("eu-west-1", "c5.large", 0.096)]),
};

let endpoint = "";
const asked: string[] = [];
const server = createServer((request, response) => {
  asked.push(request.url ?? "");
  const region = /^\/offers\/v1\.0\/aws\/AmazonEC2\/current\/([^/]+)\/index\.csv$/.exec(
    request.url ?? "",
  )?.[1];
  const file = region === undefined ? undefined : FILES[region];
  if (file === undefined) {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(200, { "content-type": "text/csv" }).end(file);
});

beforeAll(async () => {
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

async function* chunksOf(text: string) {
  yield Buffer.from(text);
}

describe("an offer file's prices", () => {
  it("are the on-demand Linux hours of shared tenancy, no software, capacity used, at the region", async () => {
    const prices = await offerPrices(chunksOf(FILES["eu-north-1"]), "eu-north-1", "eu-north-1's offer file");
    expect(prices).toEqual([
      { region: "eu-north-1", instanceType: "m5.xlarge", usdPerHour: 0.204 },
      { region: "eu-north-1", instanceType: "c5.large", usdPerHour: 0.091 },
    ]);
  });

  it("name a file that is not one: no header, a header without the columns read", async () => {
    await expect(offerPrices(chunksOf('"a","b"\n"1","2"\n'), "eu-north-1", "f")).rejects.toThrow(
      'f: no header (a line starting "SKU")',
    );
    await expect(
      offerPrices(chunksOf('"SKU","TermType"\n"1","OnDemand"\n'), "eu-north-1", "f"),
    ).rejects.toThrow(/^f: its header has no priceperunit, instance type, product family, unit, currency/);
  });
});

/** `price-list aws` of `regions` into `out`, read from the local server. */
const listRun = (regions: string, out: string) =>
  runMain(["price-list", "aws", "--region", regions, "-o", out, "--endpoint", endpoint]);

describe("price-list aws", () => {
  it("writes each region's prices from its offer file; a region without one is named, the rest written", async () => {
    const out = join(scratch, "aws.csv");
    const run = await listRun("eu-north-1,eu-west-1,ap-south-2", out);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("impact-service: eu-north-1: 2 VM types priced\n");
    expect(run.stderr).toContain("impact-service: ap-south-2's offer file: HTTP 404; not in the list\n");
    const list = parsePriceList(readFileSync(out, "utf8"), out);
    expect(list.source).toMatch(
      /^AWS Price List Bulk API: .+ \(127\.0\.0\.1:\d+\), read .+, at eu-north-1 eu-west-1$/,
    );
    expect(listPrice(list, "aws", "m5.xlarge", "eu-north-1")).toEqual({ price: 0.204 });
    expect(listPrice(list, "aws", "c5.large", "eu-west-1")).toEqual({ price: 0.096 });
    expect(asked).toContain("/offers/v1.0/aws/AmazonEC2/current/eu-west-1/index.csv");
    const refused = await runMain([
      "price-list",
      "aws",
      "--region",
      "eu-north-7",
      "-o",
      join(scratch, "x.csv"),
    ]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /--region eu-north-7 is not a region of aws; did you mean eu-north-1[ ,?]/,
    );
    expect(existsSync(join(scratch, "x.csv"))).toBe(false);
  });
});

describe("the list it writes, read by the what-if", () => {
  // 720 hours of m5.xlarge in eu-west-1 at 0.214 USD an hour, a FOCUS bill of the tests' own
  const BILL = [
    "BilledCost,EffectiveCost,BillingCurrency,ChargeCategory,ChargeDescription,ConsumedQuantity,ConsumedUnit,ProviderName,RegionId,ServiceName,ServiceCategory,ResourceId,ChargePeriodStart,ChargePeriodEnd",
    "154.08,154.08,USD,Usage,$0.214 per On Demand Linux m5.xlarge Instance Hour,720,Hours,AWS,eu-west-1,Amazon Elastic Compute Cloud,Compute,i-1,2024-09-01T00:00:00Z,2024-10-01T00:00:00Z",
  ].join("\n");

  const moveOf = async (name: string, list: string) => {
    const bill = join(scratch, `${name}-bill.csv`);
    writeFileSync(bill, `${BILL}\n`);
    return (await whatIfRows(bill, scratch, name, list)).find((row) => row.change === "region");
  };

  it("prices the move both sides at their list price, where without it the price is unknown", async () => {
    const empty = join(scratch, "empty.csv");
    writeFileSync(empty, "# source: none\nprovider,region,instance_type,usd_per_hour\n");
    const without = await moveOf("without", empty);
    expect(without?.to_place).toBe("eu-north-1");
    expect(without?.saved_cost).toBe("");
    const list = join(scratch, "moves.csv");
    const made = await listRun("eu-west-1,eu-north-1", list);
    expect(made.code).toBe(0);
    const moved = await moveOf("with", list);
    expect(moved?.price_origin).toBe("list price, both sides");
    expect(Number(moved?.to_price_per_hour)).toBe(0.204);
    expect(Number(moved?.saved_cost)).toBeCloseTo(720 * (0.214 - 0.204), 9);
  });
});
