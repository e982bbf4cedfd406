/**
 * How a billing export's layout is read from its first bytes (src/billing/reading/layout.ts) and
 * its numbers with a decimal comma (src/support/numbers.ts): separators, decimal marks, lines
 * above the header, JSON records. The command-line runs are in test/cli/billingReading.test.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { billLayout, layoutClass } from "../../src/billing/reading/layout.js";
import { decimalMarkOf, decimalPointText, readNumber } from "../../src/support/numbers.js";

const scratch = mkdtempSync(join(tmpdir(), "billing-layout-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let files = 0;
function file(text: string | Buffer, name = "bill.csv"): string {
  files += 1;
  const path = join(scratch, `${files}-${name}`);
  writeFileSync(path, text);
  return path;
}

const AZURE = "MeterCategory;MeterName;Quantity;UnitOfMeasure;ResourceLocation;CostInBillingCurrency";

describe("numbers written with a decimal comma", () => {
  it.each([
    ["12,5", "12.5", 12.5],
    ["-0,5", "-0.5", -0.5],
    ["1.234,56", "1234.56", 1234.56],
    ["1.500", "1500", 1500],
    ["1.234.567,8", "1234567.8", 1234567.8],
    [" 24 ", "24", 24],
    ["2,5E-3", "2.5E-3", 0.0025],
  ])("reads %j as %j", (text, point, value) => {
    expect(decimalPointText(text, ",")).toBe(point);
    expect(readNumber(decimalPointText(text, ",") ?? "")).toEqual({ value });
  });

  it.each(["12.5", "0.25", "1.23,4", "89,0,88", "1,234.5", "12,", "abc", "1".repeat(101)])(
    "refuses %j: no number with a decimal comma",
    (text) => {
      expect(decimalPointText(text, ",")).toBeNull();
    },
  );

  it("tells a comma by 12,5, a point by 12.5, and nothing by 1.500 or 24", () => {
    expect(["12,5", "12.5", "1.500", "24", "1.234,5", ""].map(decimalMarkOf)).toEqual([
      ",",
      ".",
      null,
      null,
      ",",
      null,
    ]);
  });
});

describe("a text export's layout", () => {
  it("is today's for a comma file with its header first: line 1, ',', a point", () => {
    const layout = billLayout(
      file(`${AZURE.replaceAll(";", ",")}\nVirtual Machines,D2 v3,24,1 Hour,westeurope,2.4\n`),
    );
    expect(layout).toMatchObject({
      kind: "csv",
      separator: ",",
      skipped: 0,
      decimalMark: ".",
      decimalTold: false,
    });
  });

  it("finds ';' and tab separators, the decimal mark as the numbers tell it", () => {
    const comma = billLayout(file(`${AZURE}\nVirtual Machines;D2 v3;24;1 Hour;westeurope;2,4\n`));
    expect(comma).toMatchObject({ separator: ";", decimalMark: ",", decimalTold: true });
    const point = billLayout(file(`${AZURE}\nVirtual Machines;D2 v3;24;1 Hour;westeurope;2.4\n`));
    expect(point).toMatchObject({ separator: ";", decimalMark: ".", decimalTold: true });
    // 24 and 1.500 tell nothing: the comma that goes with ';', said as not told.
    const silent = billLayout(file(`${AZURE}\nVirtual Machines;D2 v3;24;1 Hour;westeurope;1.500\n`));
    expect(silent).toMatchObject({ separator: ";", decimalMark: ",", decimalTold: false });
    const tabs = billLayout(
      file(`${AZURE.replaceAll(";", "\t")}\nVirtual Machines\tD2 v3\t24\t1 Hour\twesteurope\t2,4\n`),
    );
    expect(tabs).toMatchObject({ separator: "\t", decimalMark: "," });
  });

  it("skips report lines above the header, gzipped too", () => {
    const text = `Usage Details Report,,\nEnrollment Number,8611537,\n,,\n${AZURE}\nVirtual Machines;D2 v3;24;1 Hour;westeurope;2,4\n`;
    expect(billLayout(file(text))).toMatchObject({ skipped: 3, separator: ";" });
    expect(billLayout(file(gzipSync(text), "bill.csv.gz"))).toMatchObject({ skipped: 3, separator: ";" });
  });

  it("finds a header below 50 lines (to refuse it), and reads a file with none as before", () => {
    const low = billLayout(file(`${"Report,,\n".repeat(60)}${AZURE}\n`));
    expect(low).toMatchObject({ skipped: 60 });
    const inventory = billLayout(file("kind,provider,instance_type\ncloud,aws,m5.large\n"));
    expect(inventory).toMatchObject({ header: ["kind", "provider", "instance_type"], skipped: 0 });
    expect(inventory === null ? "none" : layoutClass(inventory)).toBeNull();
  });

  it("takes a near miss within the bound (to say what it lacks), on any line", () => {
    const near = billLayout(file(`Report,,\nMeterCategory;MeterName;Quantity;UnitOfMeasure\n`));
    expect(near).toMatchObject({ skipped: 1, separator: ";" });
    expect(near === null ? null : layoutClass(near)).toMatchObject({ missing: ["ResourceLocation"] });
  });
});

describe("a JSON export's layout", () => {
  it("is its first record's fields, a record's own named record.field", () => {
    const record = {
      service: { id: "6F81", description: "Compute Engine" },
      sku: { description: "N2 Instance Core running in Paris" },
      usage: { amount: 172800.0, unit: "seconds" },
      location: { region: "europe-west9" },
      labels: [{ key: "team", value: "web" }],
      cost: 1.1743,
    };
    const layout = billLayout(file(`${JSON.stringify(record)}\n`, "bill.json"));
    expect(layout).toEqual({
      kind: "json",
      fields: [
        "service.id",
        "service.description",
        "sku.description",
        "usage.amount",
        "usage.unit",
        "location.region",
        "labels",
        "cost",
      ],
      gzip: false,
    });
    expect(layout === null ? null : layoutClass(layout)).toMatchObject({ format: { name: "gcp" } });
    // Gzipped, told by its mark whatever its name: the same fields, read inflated
    const gzipped = file(gzipSync(`${JSON.stringify(record)}\n`), "bill-gzipped.json");
    expect(billLayout(gzipped)).toEqual({ ...layout, gzip: true });
  });

  it("is none for a first line that is no JSON object; an inventory batch's is no bill", () => {
    expect(billLayout(file("{not json\n", "bad.json"))).toBeNull();
    const batch = billLayout(file('{"method":"POST","path":"/v1/server/","body":{}}\n', "batch.ndjson"));
    expect(batch === null ? "none" : layoutClass(batch)).toBeNull();
  });
});
