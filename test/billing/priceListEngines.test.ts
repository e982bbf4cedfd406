/**
 * A price list whose managed services' nodes are priced per engine (src/billing/priceList.ts, the
 * `engine` column; docs/billing.md, "What-if"), with the test's own figures: a node's price is
 * never read for a usage (its engine is not known), its ratio between two regions only where every
 * engine agrees on it; a list without the column is read as before.
 */
import { describe, expect, it } from "vitest";
import { billPrices, type PricedUsage } from "../../src/billing/changePrices.js";
import {
  listPrice,
  listRatio,
  offeredAt,
  parsePriceList,
  priceListRows,
  priceListText,
} from "../../src/billing/priceList.js";

const TEXT = [
  "# source: test figures",
  "provider,region,instance_type,usd_per_hour,engine",
  "aws,eu-west-3,m5.large,0.112,",
  "aws,eu-north-1,m5.large,0.102,",
  // A cache node: its engines' prices differ, their ratio between the two regions does not
  "aws,eu-west-3,cache.m5.large,0.2,ElastiCache Redis",
  "aws,eu-west-3,cache.m5.large,0.16,ElastiCache Valkey",
  "aws,eu-north-1,cache.m5.large,0.18,ElastiCache Redis",
  "aws,eu-north-1,cache.m5.large,0.144,ElastiCache Valkey",
  // A database node: its engines' ratios differ
  "aws,eu-west-3,db.m5.large,0.2,RDS MySQL",
  "aws,eu-west-3,db.m5.large,0.4,RDS Oracle",
  "aws,eu-north-1,db.m5.large,0.18,RDS MySQL",
  "aws,eu-north-1,db.m5.large,0.5,RDS Oracle",
  // A node whose engines are not the same at both regions
  "aws,eu-west-3,cache.r6g.large,0.2,ElastiCache Redis",
  "aws,eu-west-3,cache.r6g.large,0.16,ElastiCache Valkey",
  "aws,eu-north-1,cache.r6g.large,0.18,ElastiCache Redis",
].join("\n");
const LIST = parsePriceList(TEXT, "test list");
const at = (instanceType: string, region: string) => ({ instanceType, region });

describe("a list that prices nodes per engine", () => {
  it("reads a VM's price as a list without engines does", () => {
    expect(listPrice(LIST, "aws", "m5.large", "eu-north-1")).toEqual({ price: 0.102 });
    const before = parsePriceList(
      "# source: s\nprovider,region,instance_type,usd_per_hour\naws,eu-north-1,m5.large,0.102\n",
      "old list",
    );
    expect(listPrice(before, "aws", "m5.large", "eu-north-1")).toEqual({ price: 0.102 });
    expect(before.engines.size).toBe(0);
  });

  it("reads no node's price: its engine is not known", () => {
    expect(listPrice(LIST, "aws", "cache.m5.large", "eu-north-1")).toEqual({
      price: null,
      missing:
        "single price of cache.m5.large in eu-north-1: it prices its engines apart (ElastiCache Redis, ElastiCache Valkey) and the usage names none",
    });
  });

  it("reads a node's ratio between two regions where every engine agrees on it", () => {
    const found = listRatio(
      LIST,
      "aws",
      at("cache.m5.large", "eu-west-3"),
      at("cache.m5.large", "eu-north-1"),
    );
    expect(found.ratio).toBeCloseTo(0.9, 12);
    expect(found).toMatchObject({
      from: 0.2,
      to: 0.18,
      where: "in eu-north-1 and eu-west-3, ElastiCache Redis's, its 2 engines' ratios alike within 0.5 %",
    });
  });

  it("reads none where the engines' ratios differ, or their engines do", () => {
    expect(listRatio(LIST, "aws", at("db.m5.large", "eu-west-3"), at("db.m5.large", "eu-north-1"))).toEqual({
      ratio: null,
      missing:
        "ratio of db.m5.large in eu-north-1 to db.m5.large in eu-west-3 whatever the engine: its engines' are 0.900 to 1.25 (RDS MySQL, RDS Oracle) and the usage names none",
    });
    expect(
      listRatio(LIST, "aws", at("cache.r6g.large", "eu-west-3"), at("cache.r6g.large", "eu-north-1")).ratio,
    ).toBeNull();
  });

  it("prices a node's region move at the bill's rate × the engines' ratio, never at a list price", () => {
    const usage: PricedUsage = {
      provider: "aws",
      instanceType: "cache.m5.large",
      place: "eu-west-3",
      hours: 100,
      cost: 25,
      billedCost: 25,
    };
    const prices = billPrices([usage], "USD", LIST);
    const from = { provider: "aws", instanceType: "cache.m5.large", place: "eu-west-3", shown: "eu-west-3" };
    const pair = prices.pairOf(from, { ...from, place: "eu-north-1", shown: "eu-north-1" });
    expect(pair.basis).toBe("paid");
    if (pair.basis === null) return;
    expect(pair.to.price).toBeCloseTo(0.25 * 0.9, 12);
    expect(pair.to.origin).toBe("bill's rate × list ratio");
    const db = billPrices([{ ...usage, instanceType: "db.m5.large" }], "USD", LIST);
    const dbFrom = { ...from, instanceType: "db.m5.large" };
    const refused = db.pairOf(dbFrom, { ...dbFrom, place: "eu-north-1", shown: "eu-north-1" });
    expect(refused.basis).toBeNull();
    if (refused.basis === null) expect(refused.why).toMatch(/its engines' are 0\.900 to 1\.25/);
  });

  it("keeps its engines through its rows and text, and writes the old header where no row has one", () => {
    const { source, rows } = priceListRows(TEXT, "test list");
    const again = parsePriceList(priceListText(source, rows), "again");
    expect(again.engines).toEqual(LIST.engines);
    expect(again.prices).toEqual(LIST.prices);
    expect(
      priceListText("s", [{ provider: "aws", region: "x-1", instanceType: "m5.large", usdPerHour: 1 }]),
    ).toBe("# source: s\nprovider,region,instance_type,usd_per_hour\naws,x-1,m5.large,1\n");
  });

  it("is refused, named, where a row has more fields than its header", () => {
    expect(() =>
      parsePriceList(
        "# source: s\nprovider,region,instance_type,usd_per_hour\naws,x,y,1,RDS MySQL\n",
        "l.csv",
      ),
    ).toThrow("l.csv: line 3 is not provider,region,instance_type,usd_per_hour");
  });
});

describe("where a list says a type is sold", () => {
  it("is at the regions it prices the type at, of those where the type's source lists all it sells", () => {
    const listed = parsePriceList(
      [
        "# source: s",
        // One source of two regions, another of one: a type of the second says nothing of eu-north-1
        "# sold where listed: aws dump regions eu-north-1 eu-west-3 types m5.large x2gd.large",
        "# sold where listed: aws karpenter regions us-east-1 types m8i.large",
        "provider,region,instance_type,usd_per_hour",
        "aws,eu-west-3,m5.large,0.1",
        "aws,eu-north-1,m5.large,0.09",
        "aws,eu-west-3,x2gd.large,0.3",
        "aws,us-east-1,m8i.large,0.1",
      ].join("\n"),
      "listed",
    );
    expect(offeredAt(listed, "aws", "x2gd.large", "eu-north-1")).toBe(false);
    expect(offeredAt(listed, "aws", "x2gd.large", "EU-WEST-3")).toBe(true);
    expect(offeredAt(listed, "aws", "m5.large", "eu-north-1")).toBe(true);
    // A region its source does not read, a type no line names, another provider: unknown
    expect(offeredAt(listed, "aws", "x2gd.large", "ap-south-1")).toBe(true);
    expect(offeredAt(listed, "aws", "m8i.large", "eu-north-1")).toBe(true);
    expect(offeredAt(listed, "aws", "t8i.large", "eu-north-1")).toBe(true);
    expect(offeredAt(listed, "azure", "x2gd.large", "eu-north-1")).toBe(true);
    // A list without such lines says nothing of where a type is not sold
    expect(offeredAt(LIST, "aws", "cache.r6g.large", "ap-south-1")).toBe(true);
    expect(LIST.sold.size).toBe(0);
  });
});
