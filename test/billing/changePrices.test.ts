/**
 * The money of the what-if's actions (src/billing/changePrices.ts): the bill's own rate of the
 * target, else a sibling size's at the same place by the provider's size factors (AWS's
 * normalization factors, Google's vCPUs in a series; Azure none), on the cost paid, else the billed
 * cost, else a public list's (both sides, or the bill's rate × the list's ratio); and the actions of a `--filter`: the FinOps Foundation's FOCUS sample filtered to one
 * region gives only that region's usages, in the CSV and the report alike.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { billPrices, type PricedUsage } from "../../src/billing/changePrices.js";
import { loadPriceList, PriceListError, parsePriceList } from "../../src/billing/priceList.js";
import { PROVIDERS } from "../../src/billing/providers/index.js";
import { runMain } from "../support/cli.js";
import { publicExport } from "../support/publicExports.js";
import { expectClose } from "./support.js";

const scratch = mkdtempSync(join(tmpdir(), "change-prices-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type Row = Record<string, string>;

const usage = (instanceType: string, place: string, hours: number, cost: number, billedCost = cost) =>
  ({ provider: "aws", instanceType, place, hours, cost, billedCost }) satisfies PricedUsage;
const at = (instanceType: string, place: string, provider = "aws") => ({
  provider,
  instanceType,
  place,
  shown: place,
});

describe("the providers' size factors", () => {
  const factor = (provider: string, name: string) => {
    const pricing = PROVIDERS.find((entry) => entry.id === provider)?.sizePricing;
    return pricing === undefined || pricing.factor === null ? null : pricing.factor(name);
  };

  it("read AWS's normalization factors, a managed node's family apart, no metal size", () => {
    expect(factor("aws", "m5.nano")).toEqual({ family: "m5", factor: 0.25 });
    expect(factor("aws", "t3.micro")).toEqual({ family: "t3", factor: 0.5 });
    expect(factor("aws", "m5.large")).toEqual({ family: "m5", factor: 4 });
    expect(factor("aws", "m5.xlarge")).toEqual({ family: "m5", factor: 8 });
    expect(factor("aws", "m5.24xlarge")).toEqual({ family: "m5", factor: 192 });
    expect(factor("aws", "db.r6g.2xlarge")).toEqual({ family: "db.r6g", factor: 16 });
    expect(factor("aws", "m7i-flex.large")).toEqual({ family: "m7i-flex", factor: 4 });
    expect(factor("aws", "m5.metal")).toBeNull();
  });

  it("read Google's vCPUs within a series but an accelerator series; Azure and Oracle none", () => {
    expect(factor("gcp", "n2-standard-8")).toEqual({ family: "n2-standard", factor: 8 });
    expect(factor("gcp", "a2-highgpu-1g")).toBeNull();
    expect(factor("gcp", "g2-standard-8")).toBeNull();
    expect(PROVIDERS.find((entry) => entry.id === "azure")?.sizePricing.factor).toBeNull();
    expect(PROVIDERS.find((entry) => entry.id === "oracle")?.sizePricing.factor).toBeNull();
  });
});

describe("a change's price", () => {
  const prices = billPrices(
    [
      usage("m5.xlarge", "us-east-1", 720, 138.24),
      usage("m5.2xlarge", "eu-west-2", 10, 0, 4.44),
      usage("c5.large", "eu-west-2", 100, 8.5),
    ],
    "USD",
  );

  it("is the bill's own rate where it bills the type at the place", () => {
    const found = prices.priceOf(at("m5.xlarge", "us-east-1"), "paid");
    expect(found.price).toBeCloseTo(0.192, 12);
    expect(found.price === null ? "" : found.origin).toBe("bill's rate");
  });

  it("is a sibling size's rate at the place × the factors' ratio where the bill lacks the type", () => {
    const found = prices.priceOf(at("m5.4xlarge", "us-east-1"), "paid");
    expectClose(found.price ?? Number.NaN, (0.192 * 32) / 8, "m5.4xlarge from m5.xlarge");
    expect(found.price === null ? "" : found.origin).toBe("bill's rate × AWS size factor");
    // No size of the family at the place: none, and why
    expect(prices.priceOf(at("m5.xlarge", "ap-south-1"), "paid")).toEqual({
      price: null,
      why: "the bill has no hours of m5.xlarge in ap-south-1, nor of a size of its family there",
    });
  });

  it("reads a usage and its change on the billed cost where the bill paid nothing for the hours", () => {
    const pair = prices.pairOf(at("m5.2xlarge", "eu-west-2"), at("m5.xlarge", "eu-west-2"));
    expect(pair.basis).toBe("billed");
    if (pair.basis === null) return;
    expectClose(pair.from.price, 0.444, "m5.2xlarge billed");
    expectClose(pair.to.price, 0.222, "m5.xlarge by its factor");
    expect(pair.to.origin).toBe("bill's billed rate × AWS size factor");
  });

  it("says why where the change is priced on no basis", () => {
    const pair = prices.pairOf(at("c5.large", "eu-west-2"), at("c5.large", "eu-north-1"));
    expect(pair).toEqual({
      basis: null,
      why: "the bill has no hours of c5.large in eu-north-1, nor of a size of its family there; no price list is read",
    });
    const azure = billPrices([{ ...usage("d2s_v3", "westeurope", 10, 1), provider: "azure" }], "EUR");
    expect(azure.priceOf(at("d4s_v3", "westeurope", "azure"), "paid")).toEqual({
      price: null,
      why: "the bill has no hours of d4s_v3 in westeurope; Azure publishes no rule by which a size's price follows from another's: none is used",
    });
  });
});

/** Test figures of our own (not a provider's): two regions of m5.xlarge, one of m8i.xlarge, one Azure type. */
const LIST = parsePriceList(
  [
    "# source: test figures",
    "provider,region,instance_type,usd_per_hour",
    "aws,us-east-1,m5.xlarge,0.2",
    "aws,eu-north-1,m5.xlarge,0.18",
    "aws,us-east-1,m8i.xlarge,0.25",
    "azure,westeurope,Standard_D4s_v5,0.3",
    "azure,westeurope,Standard_D4s_v3,0.35",
  ].join("\n"),
  "test list",
);

describe("a change's price from a public price list", () => {
  const bill = [usage("m5.xlarge", "us-east-1", 720, 138.24)];

  it("keeps the bill's rate where the bill gives one: the list is the last resort", () => {
    const pair = billPrices(bill, "USD", LIST).pairOf(
      at("m5.xlarge", "us-east-1"),
      at("m5.large", "us-east-1"),
    );
    expect(pair.basis).toBe("paid");
  });

  it("prices both sides at their list price where the bill gives no rate of the change", () => {
    const prices = billPrices(bill, "USD", LIST);
    const moved = prices.pairOf(at("m5.xlarge", "us-east-1"), at("m5.xlarge", "eu-north-1"));
    expect(moved.basis).toBe("list");
    if (moved.basis === null) return;
    // The usage at its list price (0.2), not at the bill's rate (0.192): one basis for both
    expect(moved.from.price).toBe(0.2);
    expect(moved.to.price).toBe(0.18);
    expect(moved.to.origin).toBe("list price, both sides");
    expect(moved.from.read).toBe("0.2 USD an hour: m5.xlarge in us-east-1 (the list: test figures)");
    expect(moved.to.read).toBe("0.18 USD an hour: m5.xlarge in eu-north-1");
    const renewed = prices.pairOf(at("m5.xlarge", "us-east-1"), at("m8i.xlarge", "us-east-1"));
    expect(renewed.basis === null ? null : renewed.to.price).toBe(0.25);
  });

  it("reads Azure's names with or without their tier", () => {
    const azure = billPrices([{ ...usage("d4s_v3", "westeurope", 10, 4), provider: "azure" }], "USD", LIST);
    const pair = azure.pairOf(
      at("d4s_v3", "westeurope", "azure"),
      at("standard_d4s_v5", "westeurope", "azure"),
    );
    expect(pair.basis === null ? null : [pair.from.price, pair.to.price]).toEqual([0.35, 0.3]);
  });

  it("names what the list lacks, and never converts a bill in another currency", () => {
    const prices = billPrices(bill, "USD", LIST);
    expect(prices.pairOf(at("m5.xlarge", "us-east-1"), at("m5.xlarge", "ca-central-1"))).toEqual({
      basis: null,
      why: "the bill has no hours of m5.xlarge in ca-central-1, nor of a size of its family there; the list has no m5.xlarge in ca-central-1",
    });
    expect(prices.pairOf(at("m5.xlarge", "us-east-1"), at("c8i.xlarge", "us-east-1"))).toMatchObject({
      basis: null,
      why: expect.stringMatching(/; the list has no c8i\.xlarge at any region$/),
    });
    // The target listed, the usage's own type not: said so
    expect(prices.pairOf(at("c5.large", "us-east-1"), at("m8i.xlarge", "us-east-1"))).toMatchObject({
      basis: null,
      why: expect.stringMatching(/; the list has no c5\.large at any region, the usage's own$/),
    });
    // A bill in another currency is never read at the list's USD: where no ratio of the list
    // prices the change either, both reasons are said
    const brl = billPrices(bill, "BRL", LIST).pairOf(
      at("m5.xlarge", "us-east-1"),
      at("m5.xlarge", "ca-central-1"),
    );
    expect(brl).toMatchObject({
      basis: null,
      why: expect.stringMatching(
        /; the list is in USD, the bill in BRL; the list has no m5\.xlarge in ca-central-1$/,
      ),
    });
    const none = billPrices(bill, null, LIST).pairOf(
      at("m5.xlarge", "us-east-1"),
      at("c8i.xlarge", "us-east-1"),
    );
    expect(none).toMatchObject({
      basis: null,
      why: expect.stringMatching(
        /; the list is in USD, the bill names no currency; the list has no c8i\.xlarge at any region$/,
      ),
    });
  });

  it("scales the bill's own rate by the list's ratio where the list cannot price both sides", () => {
    // eu-north-1 bills m5.xlarge at 0.2 EUR an hour: m8i.xlarge is there 0.2 × 0.25/0.2, the two
    // types' ratio where the list prices both (us-east-1): the list's USD converts nothing
    const eur = billPrices([usage("m5.xlarge", "eu-north-1", 100, 20)], "EUR", LIST);
    const renewed = eur.pairOf(at("m5.xlarge", "eu-north-1"), at("m8i.xlarge", "eu-north-1"));
    expect(renewed.basis).toBe("paid");
    if (renewed.basis === null) return;
    expect(renewed.from.price).toBe(0.2);
    expectClose(renewed.to.price, 0.25, "m8i.xlarge at the bill's rate × the list's ratio");
    expect(renewed.to.origin).toBe("bill's rate × list ratio");
    expect(renewed.to.read).toBe(
      "0.25 EUR an hour: 0.2 EUR × 0.25/0.2 (list ratio: m8i.xlarge and m5.xlarge in us-east-1, test figures)",
    );
    // A region the list prices the usage at: its two prices there, in the bill's currency
    const moved = billPrices([usage("m5.xlarge", "us-east-1", 10, 3)], null, LIST).pairOf(
      at("m5.xlarge", "us-east-1"),
      at("m5.xlarge", "eu-north-1"),
    );
    expect(moved.basis === null ? null : [moved.to.price, moved.to.origin]).toEqual([
      0.3 * (0.18 / 0.2),
      "bill's rate × list ratio",
    ]);
    // The billed cost where nothing was paid for the hours
    const billed = billPrices([usage("m5.xlarge", "eu-north-1", 10, 0, 2)], "EUR", LIST).pairOf(
      at("m5.xlarge", "eu-north-1"),
      at("m8i.xlarge", "eu-north-1"),
    );
    expect(billed.basis === null ? null : [billed.basis, billed.to.origin]).toEqual([
      "billed",
      "bill's billed rate × list ratio",
    ]);
    // A region move to a region the list lacks stays unpriced: no ratio is read across regions
    // the list does not price
    expect(eur.pairOf(at("m5.xlarge", "eu-north-1"), at("m5.xlarge", "eu-west-3")).basis).toBeNull();
  });

  it("is refused, named, where its file is not a list", () => {
    expect(() => parsePriceList("provider,region,instance_type,usd_per_hour\naws,x,y,1\n", "l.csv")).toThrow(
      'l.csv: no "# source:" line names where its prices come from',
    );
    expect(() => parsePriceList("# source: s\nregion,price\n", "l.csv")).toThrow(
      "l.csv: its header is not provider,region,instance_type,usd_per_hour",
    );
    expect(() =>
      parsePriceList("# source: s\nprovider,region,instance_type,usd_per_hour\naws,x,y,free\n", "l.csv"),
    ).toThrow("l.csv: line 3 is not provider,region,instance_type,usd_per_hour");
    const missing = join(scratch, "no-list.csv");
    expect(() => loadPriceList(missing)).toThrow(PriceListError);
    expect(() => loadPriceList(missing)).toThrow(`PRICE_LIST=${JSON.stringify(missing)}: no such file`);
  });
});

describe("the actions of a --filter", () => {
  let whole: Row[] = [];
  let filtered: Row[] = [];
  let report = "";

  beforeAll(async () => {
    const sample = publicExport("focus-1.0-finops-sample.csv");
    const run = async (name: string, extra: readonly string[]) => {
      const done = await runMain([
        "evaluate",
        sample,
        "--edition",
        "2.5.0",
        "-o",
        join(scratch, `${name}.csv`),
        "--what-if",
        join(scratch, `${name}-what-if.csv`),
        ...extra,
      ]);
      if (done.code !== 0) throw new Error(`exit ${done.code}: ${done.stderr}`);
      return parse(readFileSync(join(scratch, `${name}-what-if.csv`), "utf8"), { columns: true }) as Row[];
    };
    whole = await run("whole", []);
    filtered = await run("filtered", [
      "--filter",
      "RegionId=eu-west-2",
      "--report",
      join(scratch, "filtered.html"),
    ]);
    report = readFileSync(join(scratch, "filtered.html"), "utf8");
  }, 360_000);

  it("are only the region's usages, where the whole bill's rank another region first", () => {
    expect(whole[0].place).toBe("us-east-1");
    expect(new Set(whole.map((row) => row.place)).size).toBeGreaterThan(1);
    expect(filtered.length).toBeGreaterThan(0);
    expect(filtered.every((row) => row.place === "eu-west-2")).toBe(true);
    expect(new Set(filtered.map((row) => row.change))).toEqual(new Set(["family", "region", "size"]));
  });

  it("are the report's too, priced on the bill's rates whatever the filter", () => {
    const table = report.slice(
      report.indexOf('id="what-if"'),
      report.indexOf("</table>", report.indexOf('id="what-if"')),
    );
    const usages = [...table.matchAll(/<td class="name" title="aws [^"]* at ([^"]+)">/g)].map(
      (match) => match[1],
    );
    expect(usages.length).toBe(filtered.length);
    expect(new Set(usages)).toEqual(new Set(["eu-west-2"]));
    const size = filtered.find((row) => row.change === "size") as Row;
    // m5.2xlarge's 0.444 USD billed an hour (its cost paid is 0), m5.xlarge by AWS's factors
    expectClose(Number(size.saved_cost), 0.222, "one size down's cost saved");
    expect(size.price_origin).toBe("bill's billed rate × AWS size factor");
    expect(table).toContain(`<span class="why">bill's billed rate × AWS size factor</span>`);
  });

  it("carry money with its origin, else price unknown and why", () => {
    for (const row of whole) {
      if (row.saved_cost === "") expect(row.price_read).toMatch(/^price unknown: the bill/);
      else expect(row.price_origin).toMatch(/^(bill's (billed )?rate|list price, both sides$)/);
    }
  });
});
