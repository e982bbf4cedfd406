/**
 * `npx impact-service evaluate <billing export>` on the formats real teams hold besides FOCUS,
 * CUR 2.0 and Azure's cost details: the legacy CUR (CSV `lineItem/…`, gzip, Athena Parquet),
 * Google Cloud's BigQuery export saved as CSV, Oracle's cost report, Azure's legacy pay-as-you-go
 * export (BOM) and its German headers. Each run is the command's function (`main`, what the bin
 * awaits): the tests read only what it writes. Fixtures: test/fixtures/billing (test/fixtures/README.md says how they were made).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, describe, expect, it } from "vitest";
import { evaluatedLines, type OutputRow, onlyLine, runMain241, runOnce } from "../support/cli.js";
import { billingFixture } from "../support/publicExports.js";

/** Each run starts tsx and loads the editions: seconds each on a busy 2-core machine. */
const SLOW = { timeout: 180_000 };
const FIXTURES = "test/fixtures/billing";
const scratch = mkdtempSync(join(tmpdir(), "billing-formats-"));

/** France's gwp electricity factor, kgCO2eq/kWh (data/2.4.1/factors.yml, FRA, gwp: 0.098). */
const FRANCE_GWP = 0.098;
/** A GiB in GB: Google's byte-seconds are read as GiB-hours, the methods count GB (written to 10 digits). */
const GIB = 1.073741824;

/**
 * A fixture's (or a file's) run, once per file for this test file: several tests read the same
 * export's lines (the legacy CUR's four, the BigQuery CSV's three), and one run says what the
 * next would (the command is deterministic; each test still reads what it asserts).
 */
const evaluate = runOnce((file: string) =>
  evaluatedLines(
    file.includes("/") ? file : billingFixture(file),
    join(scratch, `${file.replaceAll("/", "_")}.out.csv`),
  ),
);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("a legacy AWS CUR (CUR 1.0)", () => {
  it(
    "reads the CSV's lineItem/… columns, product/region's France, Spot without a unit and SageMaker",
    SLOW,
    async () => {
      const { stderr, lines } = await evaluate("cur-1.0-legacy.csv");
      expect(stderr).toMatch(
        /cur-1\.0-legacy\.csv: AWS CUR 1\.0 \(legacy CSV, lineItem\/… columns\), edition 2\.4\.1/,
      );
      expect(stderr).toContain("  rows read: 9\n");
      expect(stderr).toContain("  evaluated: 6 (65 hours)\n");
      expect(stderr).toContain("  bad rows: 0\n");
      const box = onlyLine(lines, "identity/LineItemId", "a1");
      expect(box.status).toBe("evaluated");
      expect(box.matched_instance_type).toBe("m5.large");
      expect(Number(box.hours)).toBe(24);
      // eu-west-3 is France (regions.csv): the use is the energy at France's factor, not the default mix.
      expect(Number(box.gwp_use_kgco2eq)).toBeCloseTo(Number(box.energy_kwh) * FRANCE_GWP, 12);
      // Spot: pricing/unit empty, read as the hours its usage type says.
      const spot = onlyLine(lines, "identity/LineItemId", "a2");
      expect(spot["pricing/unit"]).toBe("");
      expect([spot.status, spot.matched_instance_type, spot.hours]).toEqual(["evaluated", "c5.xlarge", "10"]);
      // SageMaker as CUR names it: the instance read out of USE1-ml.m5.large-hosting, evaluated as m5.large.
      const hosting = onlyLine(lines, "identity/LineItemId", "a3");
      expect([hosting.status, hosting.matched_instance_type, hosting.hours]).toEqual([
        "evaluated",
        "m5.large",
        "5",
      ]);
      expect(Number(hosting.gwp_use_kgco2eq)).toBeCloseTo((Number(box.gwp_use_kgco2eq) * 5) / 24, 12);
      const notebook = onlyLine(lines, "identity/LineItemId", "a4");
      expect([notebook.status, notebook.matched_instance_type]).toEqual(["evaluated", "t3.medium"]);
      // A reserved hour (unit empty, cost 0) is an hour as the on-demand one.
      const reserved = onlyLine(lines, "identity/LineItemId", "a5");
      expect(reserved.gwp_use_kgco2eq).toBe(box.gwp_use_kgco2eq);
    },
  );

  it("gives an m5.large hour in eu-west-3 the energy an inventory gives it in France", SLOW, async () => {
    const inventory = join(scratch, "inventory.csv");
    writeFileSync(inventory, "kind,provider,instance_type,usage_location,hours\ncloud,aws,m5.large,FRA,24\n");
    const output = join(scratch, "inventory.out.csv");
    const { code, stderr } = await runMain241(["evaluate", inventory, "-o", output]);
    expect(code, stderr).toBe(0);
    const [own] = parse(readFileSync(output), { columns: true }) as OutputRow[];
    const { lines } = await evaluate("cur-1.0-legacy.csv");
    expect(onlyLine(lines, "identity/LineItemId", "a1").energy_kwh).toBe(own.energy_kwh);
  });

  it("counts the coverage on the amortised cost: a reservation's fee where its hours are", SLOW, async () => {
    const { stderr } = await evaluate("cur-1.0-legacy.csv");
    // Estimated: 2.688 + 0.712 + 0.67 + 0.1166 + 1.68 (the reserved hour's effective cost) + 2.4 (S3)
    // = 8.2666; left: the RIFee's unused part 0.8 + 0.6 and the tax 5.21; the upfront fee (350)
    // is amortised into the reserved hours (0): 14.8766 in all, 55.6 %.
    expect(stderr).toContain("coverage: 6 of 9 lines estimated; 8.27 of 14.88 USD positive cost (55.6 %)\n");
    expect(stderr).toContain(
      "  cost read: lineItem/UnblendedCost amortised by reservation/EffectiveCost, savingsPlan/SavingsPlanEffectiveCost\n",
    );
    // Each line left said by its own why, the costliest first: the tax (5.21), the RIFee's unused
    // part (1.4, a purchase), the upfront fee amortised into the hours (0)
    expect(stderr).toContain(
      "  AmazonEC2: 6.61 USD (44.4 %), 1 row (a tax); 1 row (a purchase (a commitment or an upfront fee)); 1 row (a fee)\n",
    );
  });

  it("reads the same lines gzipped and as Athena's snake_case Parquet (product_region)", SLOW, async () => {
    const csv = await evaluate("cur-1.0-legacy.csv");
    const gzip = await evaluate("cur-1.0-legacy.csv.gz");
    expect(gzip.stderr).toMatch(/AWS CUR 1\.0 \(legacy CSV, lineItem\/… columns\)/);
    expect(gzip.lines.map((row) => row.gwp_use_kgco2eq)).toEqual(csv.lines.map((row) => row.gwp_use_kgco2eq));
    const athena = await evaluate("cur-1.0-athena.parquet");
    expect(athena.stderr).toMatch(/AWS CUR 1\.0 \(legacy, Athena\/Parquet snake_case columns\)/);
    expect(athena.stderr).toContain("  bad rows: 0\n");
    expect(athena.lines.map((row) => [row.status, row.gwp_use_kgco2eq])).toEqual(
      csv.lines.map((row) => [row.status, row.gwp_use_kgco2eq]),
    );
    const spot = onlyLine(athena.lines, "identity_line_item_id", "a2");
    expect([spot.pricing_unit, spot.status, spot.hours]).toEqual(["", "evaluated", "10"]);
    expect(athena.stderr).toContain(
      "  cost read: line_item_unblended_cost amortised by reservation_effective_cost",
    );
  });
});

describe("Google Cloud's billing export as BigQuery saves it", () => {
  it(
    "reads the resource-level CSV's dotted names: cores, RAM, storage and egress in Paris",
    SLOW,
    async () => {
      const { stderr, lines } = await evaluate("gcp-bigquery-resource.csv");
      expect(stderr).toMatch(/Google Cloud billing export \(BigQuery, resource-level\), edition 2\.4\.1/);
      expect(stderr).toContain("  bad rows: 0\n");
      // 172,800 vCPU-seconds: 48 vCPU-hours
      const cores = onlyLine(lines, "sku.description", "N2 Instance Core running in Paris");
      expect([cores.status, cores.method, Number(cores.method_quantity)]).toEqual([
        "evaluated",
        "per-vcpu",
        48,
      ]);
      expect(Number(cores.gwp_use_kgco2eq)).toBeCloseTo(Number(cores.energy_kwh) * FRANCE_GWP, 12);
      // 742,170,348,748,800 byte-seconds: 192 GiB-hours
      const ram = onlyLine(lines, "sku.description", "N2 Instance Ram running in Paris");
      expect(ram.method).toBe("memory");
      expect(Number(ram.method_quantity)).toBeCloseTo(192 * GIB, 6);
      // 10 GiB out to the internet
      const egress = onlyLine(
        lines,
        "sku.description",
        "Network Internet Data Transfer Out from Paris to Americas",
      );
      expect(Number(egress.method_quantity)).toBeCloseTo(10 * GIB, 6);
      expect(onlyLine(lines, "sku.description", "Tax").status).toBe("not compute");
      expect(stderr).toContain("  cost read: cost\n");
    },
  );

  it(
    "reads the table exported as Parquet, its records (service, sku, usage, location) flat",
    SLOW,
    async () => {
      const csv = await evaluate("gcp-bigquery-resource.csv");
      const { stderr, lines } = await evaluate("gcp-bigquery-resource.parquet");
      expect(stderr).toMatch(/Google Cloud billing export \(BigQuery, resource-level\), edition 2\.4\.1/);
      expect(lines.map((row) => [row["sku.description"], row.status, row.gwp_use_kgco2eq])).toEqual(
        csv.lines.map((row) => [row["sku.description"], row.status, row.gwp_use_kgco2eq]),
      );
      // A list of records stays whole, written as its JSON text.
      expect(JSON.parse(onlyLine(lines, "sku.description", "Tax").labels)).toEqual([
        { key: "team", value: "web" },
      ]);
    },
  );

  it("reads the standard table flattened with underscores, gzipped, alike", SLOW, async () => {
    const dotted = await evaluate("gcp-bigquery-resource.csv");
    const { stderr, lines } = await evaluate("gcp-bigquery-standard.csv.gz");
    expect(stderr).toMatch(/Google Cloud billing export \(BigQuery, standard\), edition 2\.4\.1/);
    expect(lines.map((row) => row.gwp_use_kgco2eq)).toEqual(dotted.lines.map((row) => row.gwp_use_kgco2eq));
  });
});

describe("Oracle OCI's cost report", () => {
  it(
    "reads OCPUs (two vCPUs on x86, one on Ampere A1), memory, storage and the cost column",
    SLOW,
    async () => {
      const { stderr, lines } = await evaluate("oci-cost-report.csv");
      expect(stderr).toMatch(/oci-cost-report\.csv: Oracle OCI cost report, edition 2\.4\.1/);
      const e4 = onlyLine(lines, "product/Description", "Standard - E4");
      expect([e4.status, e4.method, Number(e4.method_quantity)]).toEqual(["evaluated", "per-vcpu", 4]);
      const a1 = onlyLine(lines, "product/Description", "Compute - Ampere A1 - OCPU");
      expect([a1.status, a1.method, Number(a1.method_quantity)]).toEqual(["evaluated", "per-vcpu", 4]);
      // 16 × `1 GiB HOURS MEMORY` (cost/billingUnitReadable; the SKU's unit says `GB Hours`): 17.18 GB-hours
      const memory = onlyLine(lines, "product/Description", "Standard - E4 - Memory");
      expect(memory.method).toBe("memory");
      expect(Number(memory.method_quantity)).toBeCloseTo(16 * 1.073741824, 8);
      // 0.0672043 `1 GiB MONTHS STORAGE_SIZE` of a boot volume: 730 × 1.073741824 GB-hours each
      const storage = onlyLine(lines, "product/Description", "Block Volume - Storage");
      expect(storage.method).toBe("block-storage");
      expect(Number(storage.method_quantity)).toBeCloseTo(0.0672043 * 730 * 1.073741824, 6);
      // Its performance units, billed in `GB Months` too, are not more gigabytes of storage.
      expect(onlyLine(lines, "product/Description", "Block Volume - Performance Units").method).not.toBe(
        "block-storage",
      );
      expect(stderr).toContain("  cost read: cost/myCost\n");
    },
  );

  it("reads a real cost report (FinOps Foundation's converters' test data), no bad row", SLOW, async () => {
    const { stderr, lines } = await evaluate("oci-focus-converters-cost.csv.gz");
    expect(stderr).toMatch(/Oracle OCI cost report, edition 2\.4\.1/);
    expect(stderr).toContain("  rows read: 506\n");
    expect(stderr).toContain("  bad rows: 0\n");
    const ocpus = lines.filter((row) => row["product/Description"] === "Standard - E4");
    expect(ocpus).toHaveLength(24);
    for (const row of ocpus) {
      expect(Number(row.method_quantity)).toBeCloseTo(2 * Number(row["usage/billedQuantity"]), 8);
    }
    const units = lines.filter((row) => row["product/Description"] === "Block Volume - Performance Units");
    expect(units.map((row) => row.method)).not.toContain("block-storage");
  });
});

describe("a real legacy CUR (FinOps Foundation's converters' test data)", () => {
  it("is read as CUR 1.0, its S3 storage and transfer estimated, no bad row", SLOW, async () => {
    const { stderr, lines } = await evaluate("cur-1.0-focus-converters-aws.csv.gz");
    expect(stderr).toMatch(/AWS CUR 1\.0 \(legacy CSV, lineItem\/… columns\), edition 2\.4\.1/);
    expect(stderr).toContain("  rows read: 1,281\n");
    expect(stderr).toContain("  bad rows: 0\n");
    const storage = lines.filter(
      (row) => row["lineItem/ProductCode"] === "AmazonS3" && row["pricing/unit"] === "GB-Mo",
    );
    expect(storage.length).toBeGreaterThan(0);
    // Bytes deleted early, billed in GB-Mo too, are a fee: no data stored
    const early = (row: OutputRow) => row["lineItem/UsageType"].endsWith("EarlyDelete-ByteHrs");
    expect(new Set(storage.filter((row) => !early(row)).map((row) => row.method))).toEqual(
      new Set(["object-storage"]),
    );
    expect(new Set(storage.filter(early).map((row) => row.status))).toEqual(new Set(["not compute"]));
    expect(stderr).toContain(
      "  a fee: data deleted before the minimum its storage class bills: 11 rows, cost ",
    );
  });
});

describe("Azure's other exports", () => {
  it("reads the legacy pay-as-you-go export with its BOM: UsageQuantity, PreTaxCost", SLOW, async () => {
    const { stderr, lines } = await evaluate("azure-payg-legacy.csv");
    expect(stderr).toMatch(
      /azure-payg-legacy\.csv: Azure legacy pay-as-you-go usage export, edition 2\.4\.1/,
    );
    const vm = onlyLine(lines, "MeterName", "D2s v3");
    expect([vm.status, vm.matched_instance_type, vm.hours]).toEqual(["evaluated", "d2s_v3", "24"]);
    expect(Number(vm.gwp_use_kgco2eq)).toBeCloseTo(Number(vm.energy_kwh) * FRANCE_GWP, 12);
    // Its amounts in its `Currency` column's EUR
    expect(stderr).toContain("coverage: 3 of 3 lines estimated; 3.92 of 3.92 EUR positive cost (100.0 %)\n");
    expect(stderr).toContain("  cost read: PreTaxCost\n");
  });

  it("reads the EA usage file's German headers, and German mixed with camelCase", SLOW, async () => {
    const german = await evaluate("azure-ea-german.csv");
    expect(german.stderr).toMatch(/Azure EA usage file \(German headers\), edition 2\.4\.1/);
    const vm = onlyLine(german.lines, "Name der Verbrauchseinheit", "D4s v3");
    expect([vm.status, vm.matched_instance_type, vm.hours]).toEqual(["evaluated", "d4s_v3", "24"]);
    expect(german.stderr).toContain("  cost read: Erweiterte Kosten\n");
    const mixed = join(scratch, "azure-mixed.csv");
    writeFileSync(
      mixed,
      "\uFEFFdate,meterCategory,meterName,Verbrauchte Menge,Maßeinheit,resourceLocation,costInBillingCurrency\r\n" +
        "10/01/2026,Virtual Machines,D4s v3,24,1 Hour,germanywestcentral,5.5296\r\n",
    );
    const own = await evaluate(mixed);
    expect(own.stderr).toContain("  evaluated: 1 (24 hours)\n");
    expect(onlyLine(own.lines, "meterName", "D4s v3").gwp_use_kgco2eq).toBe(vm.gwp_use_kgco2eq);
  });
});

describe("a header that looks like a bill but fits none", () => {
  it("exits 2 naming the closest format and what it lacks, never read as an inventory", SLOW, async () => {
    const [header, first] = readFileSync(join(FIXTURES, "oci-cost-report.csv"), "utf8").split("\n");
    const columns = header.split(",");
    const keep = columns
      .map((name, index) => (name === "cost/myCost" ? -1 : index))
      .filter((index) => index >= 0);
    const cells = first.split(",");
    const input = join(scratch, "oci-without-cost.csv");
    writeFileSync(
      input,
      `${keep.map((i) => columns[i]).join(",")}\n${keep.map((i) => cells[i]).join(",")}\n`,
    );
    const output = join(scratch, "oci-without-cost.out.csv");
    const { code, stderr } = await runMain241(["evaluate", input, "-o", output]);
    expect(code).toBe(2);
    expect(stderr.trim()).toMatch(
      /the header is nearly an Oracle OCI cost report export's \(--input oci\) but lacks cost_my_cost$/,
    );
    expect(stderr).not.toContain("kind is missing");
    expect(existsSync(output)).toBe(false);
  });
});
