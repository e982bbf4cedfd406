/**
 * What a change would save (src/billing/stages/whatIf.ts): an instance's hours moved to its provider's
 * region of lowest intensity on the same continent, computed by hand from the run's own energy and
 * the edition's factors, and matched against the report's figure, `--what-if`'s line and the
 * service's answer (GraphQL's unrounded one hour at each place × the hours; REST's rounded one);
 * the current family of the same size; the cost saved where the bill prices both places, else
 * both sides at a price list's, else the bill's rate × the list's ratio of the two types
 * (PRICE_LIST: the tests' own figures, test/fixtures/price-lists/).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { currentFamilyType, sizeDownType } from "../../src/billing/instanceShapes.js";
import { COUNTRY_AREAS, REGION_COUNTRIES } from "../../src/billing/registry/regions.js";
import { partitionOf, regionMove } from "../../src/billing/stages/whatIf.js";
import { evaluated250, runMain } from "../support/cli.js";
import { graphqlClient } from "../support/graphql.js";
import { call } from "../support/rest.js";
import { app, editionContext, expectClose } from "./support.js";

const scratch = mkdtempSync(join(tmpdir(), "what-if-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type Row = Record<string, string>;

/**
 * 720 hours of m5.xlarge in us-east-1 paid 138.24 (0.192 an hour), 10 hours in ca-central-1 paid
 * 2.14 (0.214 an hour): the bill prices a move from one to the other.
 */
const BILL = [
  "BilledCost,EffectiveCost,ChargeCategory,ChargeDescription,ConsumedQuantity,ConsumedUnit,ProviderName,RegionId,ServiceName,ServiceCategory,ResourceId,ChargePeriodStart,ChargePeriodEnd",
  "138.24,138.24,Usage,$0.192 per On Demand Linux m5.xlarge Instance Hour,720,Hours,AWS,us-east-1,Amazon Elastic Compute Cloud,Compute,i-1,2024-09-01T00:00:00Z,2024-10-01T00:00:00Z",
  "2.14,2.14,Usage,$0.214 per On Demand Linux m5.xlarge Instance Hour,10,Hours,AWS,ca-central-1,Amazon Elastic Compute Cloud,Compute,i-2,2024-09-30T14:00:00Z,2024-10-01T00:00:00Z",
].join("\n");

let lines: Row[] = [];
let changes: Row[] = [];
let report = "";

/** The tests' own list (not a provider's figures): the run reads it, whatever lies beside the checkout. */
const TEST_LIST = fileURLToPath(new URL("../fixtures/price-lists/on-demand-linux.csv", import.meta.url));
const listBefore = process.env.PRICE_LIST;
process.env.PRICE_LIST = TEST_LIST;
afterAll(() => {
  if (listBefore === undefined) delete process.env.PRICE_LIST;
  else process.env.PRICE_LIST = listBefore;
});

beforeAll(async () => {
  const bill = join(scratch, "bill.csv");
  writeFileSync(bill, `${BILL}\n`);
  const out = (name: string) => join(scratch, name);
  await evaluated250(bill, [
    "--criteria",
    "gwp,pe",
    "-o",
    out("lines.csv"),
    "--report",
    out("report.html"),
    "--what-if",
    out("what-if.csv"),
  ]);
  lines = parse(readFileSync(out("lines.csv"), "utf8"), { columns: true }) as Row[];
  changes = parse(readFileSync(out("what-if.csv"), "utf8"), { columns: true }) as Row[];
  report = readFileSync(out("report.html"), "utf8");
}, 180_000);

/** The gwp factor of a country in edition 2.5.0, kgCO2eq/kWh. */
function factor(country: string): number {
  const value = editionContext("2.5.0")
    .service.data.electricity.byLocation.get(country)
    ?.factors.get("gwp")?.value;
  if (value === undefined) throw new Error(`no factor for ${country}`);
  return value;
}

const graphql = graphqlClient(app);

/** GraphQL's unrounded gwp of one hour of a type at a region (embedded + use). */
async function hourOf(instanceType: string, region: string): Promise<number> {
  const answer = await graphql(
    `{ cloudInstance(edition: "2.5.0", provider: "aws", instanceType: "${instanceType}", usage: { region: "${region}" }) {
        impacts(criteria: [gwp], duration: 1) { embedded { ... on Impact { unrounded { value } } } use { ... on Impact { unrounded { value } } } } } }`,
  );
  const [gwp] = answer.data.cloudInstance.impacts;
  return gwp.embedded.unrounded.value + gwp.use.unrounded.value;
}

describe("what a move to another region saves", () => {
  it("is the line's energy × the difference of the two countries' factors, as the service answers it", async () => {
    const move = changes.find((row) => row.change === "region" && row.place === "us-east-1");
    if (move === undefined) throw new Error("no region what-if for us-east-1");
    // Northern America (UN M49): of AWS's regions, Canada's intensity is the lowest
    expect(move.to_place).toBe("ca-central-1");
    expect(move.why).toContain("CAN");
    // By hand: embedded does not depend on the place; the use is the energy × the country's factor
    const line = lines.find((row) => row.RegionId === "us-east-1") as Row;
    const energy = Number(line.energy_kwh);
    const byHand = energy * (factor("USA") - factor("CAN"));
    expect(byHand).toBeGreaterThan(0);
    expectClose(Number(move.saved_gwp_kgco2eq), byHand, "--what-if's saving against the hand's");
    expectClose(
      Number(move.gwp_kgco2eq),
      Number(line.gwp_embedded_kgco2eq) + Number(line.gwp_use_kgco2eq),
      "the usage's gwp as billed",
    );
    // The service: one hour at each place (the requests the line carries) × the hours
    expect(move.to_graphql).toContain('region: "ca-central-1"');
    const service =
      720 * ((await hourOf("m5.xlarge", "us-east-1")) - (await hourOf("m5.xlarge", "ca-central-1")));
    expectClose(service, byHand, "the service's saving against the hand's");
    // Its REST request, as written, answers the same hour, rounded to its margin's figures
    const [method, path, ...body] = move.to_request.split(" ");
    expect(method).toBe("POST");
    const rest = await call(app, "POST", path, body.join(" "));
    expect(rest.status).toBe(200);
    const restHour = rest.body.impacts.gwp.embedded.value + rest.body.impacts.gwp.use.value;
    expect(Math.abs(restHour * 720 - Number(move.to_gwp_kgco2eq)) / Number(move.to_gwp_kgco2eq)).toBeLessThan(
      0.01,
    );
    // The report's table: the same saving, its exact value on the cell's hover
    const table = report.slice(
      report.indexOf('id="what-if"'),
      report.indexOf("</table>", report.indexOf('id="what-if"')),
    );
    const hovers = [...table.matchAll(/title="([-\d.e]+) kgCO2eq"/g)].map((match) => Number(match[1]));
    expect(hovers.some((value) => Math.abs(value - byHand) <= 1e-9 * byHand)).toBe(true);
  });

  it("says the cost where the bill prices both places, price unknown where it does not", () => {
    const move = changes.find((row) => row.change === "region" && row.place === "us-east-1") as Row;
    expectClose(Number(move.price_per_hour), 0.192, "the hour's price in us-east-1");
    expectClose(Number(move.to_price_per_hour), 0.214, "the hour's price in ca-central-1");
    // A move that saves gwp and costs more: 720 × (0.192 − 0.214) = −15.84
    expectClose(Number(move.saved_cost), -15.84, "the cost saved");
    expect(move.price_read).toBe(
      "as billed, 0.192 an hour: 138.2 over 720 h of m5.xlarge in us-east-1; changed, 0.214 an hour: 2.14 over 10 h of m5.xlarge in ca-central-1",
    );
    // The bill names no currency: the USD list never prices it, its ratio of two types does
    const family = changes.find((row) => row.change === "family" && row.place === "us-east-1") as Row;
    expectClose(Number(family.to_price_per_hour), 0.192 * (0.25 / 0.2), "m8i.xlarge at the list's ratio");
    expectClose(Number(family.saved_cost), 720 * 0.192 * (1 - 0.25 / 0.2), "the family's cost saved");
    expect(family.price_read).toBe(
      "as billed, 0.192 an hour: 138.2 over 720 h of m5.xlarge in us-east-1; changed, 0.24 an hour: 0.192 × 0.25/0.2 (list ratio: m8i.xlarge and m5.xlarge in us-east-1, the tests' own figures (not a provider's prices))",
    );
    expect(family.price_origin).toBe("bill's rate × list ratio");
    expect(move.price_origin).toBe("bill's rate");
    // "Try a change"'s places on the move's basis: us-west-2, which the bill does not price, at
    // the usage's rate × the list's ratio of m5.xlarge there and in us-east-1 (0.192 × 0.19/0.2)
    expect(report).toMatch(/"place":"us-west-2","price":0\.182\d*,"origin":"bill's rate × list ratio"/);
    // The report's cell: the saving read from the bill, its reading on the hover
    expect(report).toMatch(/data-read="bill" class="n" title="[^"]*as billed, 0\.192 an hour/);
  });
});

describe("one size down in the same family", () => {
  it("reads each provider's sizes: the family's largest type of fewer vCPUs", () => {
    const ids = editionContext("2.5.0").service.data.cloudInstances.get("aws")?.ids ?? [];
    expect(sizeDownType("aws", "m5.2xlarge", ids)).toBe("m5.xlarge");
    expect(sizeDownType("aws", "m5.xlarge", ids)).toBe("m5.large");
    expect(sizeDownType("aws", "db.r5.xlarge", ids)).toMatch(/^db\.r5\./);
    const azure = editionContext("2.5.0").service.data.cloudInstances.get("azure")?.ids ?? [];
    expect(sizeDownType("azure", "Standard_D4s_v3", azure)).toMatch(/d2s_v3$/);
    const gcp = editionContext("2.5.0").service.data.cloudInstances.get("gcp")?.ids ?? [];
    expect(sizeDownType("gcp", "n2-standard-8", gcp)).toBe("n2-standard-4");
  });

  it("evaluates the same hours as m5.large at the same place, as the service answers it", async () => {
    const size = changes.find((row) => row.change === "size" && row.place === "us-east-1") as Row;
    expect(size.to_instance_type).toBe("m5.large");
    const service =
      720 * ((await hourOf("m5.xlarge", "us-east-1")) - (await hourOf("m5.large", "us-east-1")));
    expectClose(Number(size.saved_gwp_kgco2eq), service, "one size down's saving");
    // m5.large is priced from the bill's m5.xlarge by AWS's normalization factors, 4 against 8
    expectClose(Number(size.to_price_per_hour), (0.192 * 4) / 8, "m5.large's hour");
    expectClose(Number(size.saved_cost), 720 * (0.192 - 0.096), "one size down's cost saved");
    expect(size.price_origin).toBe("bill's rate × AWS size factor");
    expect(size.price_read).toBe(
      "as billed, 0.192 an hour: 138.2 over 720 h of m5.xlarge in us-east-1; changed, 0.096 an hour: 0.192 × 4/8 (AWS size factor), 138.2 over 720 h of m5.xlarge in us-east-1",
    );
  });
});

describe("the current family of the same size", () => {
  it("reads each provider's naming: the latest generation of the same line, processor and size", () => {
    const ids = editionContext("2.5.0").service.data.cloudInstances.get("aws")?.ids ?? [];
    expect(currentFamilyType("aws", "m5.xlarge", ids)).toBe("m8i.xlarge");
    expect(currentFamilyType("aws", "m6g.large", ids)).toBe("m8g.large");
    expect(currentFamilyType("aws", "c5d.2xlarge", ids)).toBe("c8id.2xlarge");
    expect(currentFamilyType("aws", "m8i.xlarge", ids)).toBeNull();
    const azure = editionContext("2.5.0").service.data.cloudInstances.get("azure")?.ids ?? [];
    expect(currentFamilyType("azure", "Standard_D4s_v3", azure)).toMatch(/d4s_v[56]$/);
    const gcp = editionContext("2.5.0").service.data.cloudInstances.get("gcp")?.ids ?? [];
    expect(currentFamilyType("gcp", "n1-standard-4", gcp)).toBe("n4-standard-4");
  });

  it("evaluates the same hours as m8i.xlarge at the same place, as the service answers it", async () => {
    const family = changes.find((row) => row.change === "family" && row.place === "us-east-1") as Row;
    expect(family.to_instance_type).toBe("m8i.xlarge");
    const service =
      720 * ((await hourOf("m5.xlarge", "us-east-1")) - (await hourOf("m8i.xlarge", "us-east-1")));
    expectClose(Number(family.saved_gwp_kgco2eq), service, "the family's saving");
    // Ranked by the gwp saved, every change saving some
    const saved = changes.map((row) => Number(row.saved_gwp_kgco2eq));
    expect(saved.every((value) => value > 0)).toBe(true);
    expect([...saved].sort((a, b) => b - a)).toEqual(saved);
  });
});

describe("the continents of the providers' regions", () => {
  it("name every country a region of the registry or of an edition is in", () => {
    const countries = new Set([
      ...Object.values(REGION_COUNTRIES).flatMap((regions) => Object.values(regions)),
      ...[...app.service.editions.values()].flatMap((served) =>
        (served.data.cloudRegions ?? []).map((row) => row.usageLocation),
      ),
    ]);
    expect([...countries].filter((country) => COUNTRY_AREAS[country] === undefined)).toEqual([]);
  });
});

describe("a move within the region's partition", () => {
  const edition = editionContext("2.5.0").service;
  it("keeps AWS China and GovCloud usages in their own partition, the public one in its own", () => {
    // us-east-1's move is public (ca-central-1, above); China's two regions share one factor: none lower
    expect(regionMove(edition, [], "aws", "us-east-1")?.to.place).toBe("ca-central-1");
    expect(regionMove(edition, [], "aws", "cn-north-1")).toBeNull();
    // GovCloud's regions are both in the USA: no lower factor within the partition, and never Canada
    expect(regionMove(edition, [], "aws", "us-gov-west-1")).toBeNull();
    // Azure's China and US Government clouds alike, each provider's partitions its module's
    const places = [
      ["azure", "chinaeast2"],
      ["azure", "usgovvirginia"],
      ["azure", "usdodeast"],
      ["aws", "us-iso-east-1"],
      ["aws", "cn-north-1"],
      ["aws", "eu-west-3"],
      ["gcp", "us-east1"],
      ["aws", "FRA"],
      ["oracle", "us-ashburn-1"],
    ];
    expect(places.map(([provider, place]) => partitionOf(provider, place))).toEqual([
      "china",
      "government",
      "government",
      "isolated",
      "china",
      "",
      "",
      "",
      "",
    ]);
  });
});

describe("a bill in USD and a price list", () => {
  let listed: Row[] = [];
  let listedReport = "";

  beforeAll(async () => {
    // The same bill, its currency named
    const [header, ...rows] = BILL.split("\n");
    const bill = join(scratch, "usd-bill.csv");
    writeFileSync(bill, `${[`${header},BillingCurrency`, ...rows.map((row) => `${row},USD`)].join("\n")}\n`);
    await evaluated250(bill, [
      "-o",
      join(scratch, "usd-lines.csv"),
      "--report",
      join(scratch, "usd-report.html"),
      "--what-if",
      join(scratch, "usd-what-if.csv"),
    ]);
    listed = parse(readFileSync(join(scratch, "usd-what-if.csv"), "utf8"), { columns: true }) as Row[];
    listedReport = readFileSync(join(scratch, "usd-report.html"), "utf8");
  }, 180_000);

  it("prices a change the bill gives no rate of at both sides' list prices, said so", () => {
    const family = listed.find((row) => row.change === "family") as Row;
    // m5.xlarge at its list price (0.2), not at the bill's 0.192: one basis for both sides
    expectClose(Number(family.price_per_hour), 0.2, "m5.xlarge listed");
    expectClose(Number(family.to_price_per_hour), 0.25, "m8i.xlarge listed");
    expectClose(Number(family.saved_cost), 720 * (0.2 - 0.25), "the family's cost saved");
    expect(family.price_origin).toBe("list price, both sides");
    expect(family.price_read).toBe(
      "as listed (the bill gives no rate of the change: both at their on-demand list price), 0.2 USD an hour: m5.xlarge in us-east-1 (the list: the tests' own figures (not a provider's prices)); changed, 0.25 USD an hour: m8i.xlarge in us-east-1",
    );
    // The bill's own rates first: the region move stays on them
    expect(listed.find((row) => row.change === "region")?.price_origin).toBe("bill's rate");
    expect(listedReport).toContain(`<span class="why">list price, both sides</span>`);
  });

  it("tells the page each region's price on one basis: the bill's where it has one, else the list's", () => {
    // us-west-2: the list's m5.xlarge (0.19) against the usage's list price (0.2); ca-central-1 the bill's
    expect(listedReport).toContain(
      `"place":"us-west-2","price":0.19,"origin":"list price, both sides","fromPrice":0.2`,
    );
    expect(listedReport).toMatch(/"place":"ca-central-1","price":0\.214\d*,"origin":"bill's rate"/);
  });
});

describe("--what-if's file", () => {
  it("is checked with the run's other files and named by its option", async () => {
    const bill = join(scratch, "checked-bill.csv");
    writeFileSync(bill, `${BILL}\n`);
    const lines = join(scratch, "checked-lines.csv");
    const missing = join(scratch, "no-such-folder", "what-if.csv");
    const run = await runMain(["evaluate", bill, "--edition", "2.5.0", "-o", lines, "--what-if", missing]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `impact-service: --what-if ${missing}: its folder ${join(scratch, "no-such-folder")} does not exist\n`,
    );
    expect(() => readFileSync(lines)).toThrow();
  });
});
