/**
 * Bills as they arrive (`main`, edition 2.4.1): a portal's bilingual header read as its format, a
 * file that is neither a bill nor an inventory refused in one line (exit 2, nothing written), a CUR
 * 2.0 Data Exports manifest named for what it is, BigQuery's records null in every line read line by
 * line. Fixtures: test/fixtures/billing/arrivals/.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, describe, expect, it } from "vitest";
import { evaluatedLines, onlyLine, runMain241 } from "../support/cli.js";

const SLOW = { timeout: 120_000 };
const scratch = mkdtempSync(join(tmpdir(), "billing-arrivals-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const fixture = (name: string) => `test/fixtures/billing/arrivals/${name}`;

describe("headers as the portals localise them", () => {
  it("reads `Kategorie der Verbrauchseinheit (MeterCategory)` as Azure's MeterCategory", SLOW, async () => {
    for (const input of [[], ["--input", "azure"]]) {
      const { stderr, lines } = await evaluatedLines(
        fixture("azure-bilingual.csv"),
        join(scratch, "bilingual.csv"),
        ["--criteria", "gwp", ...input],
      );
      expect(stderr).toContain("azure-bilingual.csv: Azure cost export, edition 2.4.1");
      const vm = onlyLine(lines, "Name der Verbrauchseinheit (MeterName)", "D2s v3");
      expect([vm.matched_instance_type, vm.hours, vm.status]).toEqual(["d2s_v3", "24", "evaluated"]);
      // 100 × `1 GB/Month` × 730 h × 3 copies (LRS) = 219,000 GB-hours of HDD; × 0.65 Wh/TB-h × PUE 1.185
      const blob = onlyLine(lines, "Name der Verbrauchseinheit (MeterName)", "LRS Data Stored");
      expect(blob.method_unit).toBe("GB-hours HDD x3");
      expect(Number(blob.method_quantity)).toBe(219_000);
      expect(Number(blob.energy_kwh)).toBeCloseTo(219_000 * 0.65e-6 * 1.185, 10);
      // Its currency read from `Währung (BillingCurrency)`: 2.3 + 4.5
      expect(stderr).toContain("coverage: 2 of 2 lines estimated; 6.8 of 6.8 EUR positive cost (100.0 %)\n");
    }
  });
});

describe("FOCUS versions", () => {
  it("names FOCUS 1.3 by its columns new to 1.3 (ContractApplied, HostProviderName)", SLOW, async () => {
    const { stderr, lines } = await evaluatedLines(fixture("focus-1.3.csv"), join(scratch, "focus-1.3.csv"));
    expect(stderr).toContain("focus-1.3.csv: FOCUS 1.3 (Cost and Usage), edition 2.4.1");
    expect(lines).toHaveLength(5);
  });
});

describe("FOCUS in snake_case", () => {
  it("reads the currency of `billing_currency`, a column the run renames", SLOW, async () => {
    // focus-1.0.csv's first four usage lines and a tax line, its header in snake_case: the run writes
    // `billing_currency` as input_billing_currency (`billing_` is its working columns' prefix), and
    // the currency was looked up under that name, so the amounts came without it.
    const report = join(scratch, "snake-case.html");
    const { stderr, lines } = await evaluatedLines(
      fixture("focus-snake-case.csv"),
      join(scratch, "snake-case.csv"),
      ["--report", report],
    );
    expect(lines.map((line) => line.status)).toEqual([
      "evaluated",
      "evaluated",
      "evaluated",
      "evaluated",
      "not compute",
    ]);
    expect(lines[0].input_billing_currency).toBe("USD");
    // effective_cost: 0.01125 + 0.4275 + 0.84375 + 1.26 = 2.5425 estimated, + the tax's 0.045 = 2.5875
    expect(stderr).toContain("coverage: 4 of 5 lines estimated; 2.54 of 2.59 USD positive cost (98.3 %)\n");
    expect(stderr).toContain("a tax: 1 row, cost 0.05 USD");
    expect(readFileSync(report, "utf8")).toContain('title="2.5425 USD"');
  });
});

describe("a legacy CUR flattened by a loader", () => {
  it("names `lineItem__UsageType` columns the legacy CUR they are, read as its CSV", SLOW, async () => {
    // cur-1.0-legacy.csv with each `/` of its header written `__`; it was titled AWS CUR 2.0
    const flat = await evaluatedLines(fixture("cur-1.0-flattened.csv"), join(scratch, "flattened.csv"));
    expect(flat.stderr).toContain(
      "cur-1.0-flattened.csv: AWS CUR 1.0 (legacy, lineItem/… columns flattened by a loader), edition 2.4.1",
    );
    // The same lines as the CSV's (test/cli/billingFormats.test.ts): m5.large 24 h, c5.xlarge 10 h…
    const box = onlyLine(flat.lines, "identity__LineItemId", "a1");
    expect([box.matched_instance_type, box.hours, box.status]).toEqual(["m5.large", "24", "evaluated"]);
    expect(flat.stderr).toContain(
      "coverage: 6 of 9 lines estimated; 8.27 of 14.88 USD positive cost (55.6 %)\n",
    );
    const csv = await evaluatedLines("test/fixtures/billing/cur-1.0-legacy.csv", join(scratch, "legacy.csv"));
    expect(flat.lines.map((line) => [line.status, line.gwp_use_kgco2eq])).toEqual(
      csv.lines.map((line) => [line.status, line.gwp_use_kgco2eq]),
    );
  });
});

describe("dates as a spreadsheet resaves them", () => {
  // half-days.csv: FRA at 10, 20, 30 gCO2eq/kWh from 10 January 2024 00:00, 12:00 and 11 January
  // 00:00; at 100, 200, 300 from 1 October 00:00, 12:00 and 2 October 00:00; 400, 500 from 10
  // October 00:00 and 12:00; each for 12 hours (the series' step), the rest gaps. Each bill's
  // lines: 12 hours of m5.xlarge in eu-west-3 (FRA), and a tax line whose dates decide the order.
  const series = "test/fixtures/grid/half-days.csv";
  const run = (bill: string) =>
    evaluatedLines(fixture(bill), join(scratch, `${bill}.out.csv`), [
      "--criteria",
      "gwp",
      "--grid-intensity",
      series,
    ]);
  /** gwp use = energy_kwh × the intensity / 1000, the intensity applied said in grid_gco2_per_kwh. */
  const expectIntensity = (line: Record<string, string>, intensity: number) => {
    expect(Number(line.grid_gco2_per_kwh)).toBeCloseTo(intensity, 9);
    expect(Number(line.gwp_use_kgco2eq)).toBeCloseTo((Number(line.energy_kwh) * intensity) / 1000, 12);
  };

  it("reads them day first when a date's first field is above 12 (13/10/2024 0:00)", SLOW, async () => {
    const { stderr, lines } = await run("dates-day-first.csv");
    expect(stderr).toContain("  dates of day and month read day first, as 13/10/2024 0:00 writes them\n");
    // 10/1/2024 0:00 to 10/1/2024 12:00: 10 January 00:00–12:00, at 10 (read month first: 100)
    expectIntensity(lines[0], 10);
    // 1/10/2024 12:00:00 PM to 2/10/2024 12:00:00 AM: 1 October 12:00 to 2 October 00:00, at 200
    expectIntensity(lines[1], 200);
    expect(lines[0].warnings).toBe("");
  });

  it("reads them month first when a date's second field is above 12 (10/13/2024 0:00)", SLOW, async () => {
    const { stderr, lines } = await run("dates-month-first.csv");
    expect(stderr).toContain("  dates of day and month read month first, as 10/13/2024 0:00 writes them\n");
    // 1/10/2024 0:00 to 1/10/2024 12:00: 10 January 00:00–12:00, at 10
    expectIntensity(lines[0], 10);
    // 10/1/2024 1:00 PM to 10/2/2024 12:00 AM: 1 October 13:00 to 2 October 00:00, within the 200
    expectIntensity(lines[1], 200);
  });

  it("gives a line no period where no date of the file, or both orders, decide", SLOW, async () => {
    // The series' mean where a line has no period: (10 + 20 + 30 + 100 + 200 + 300 + 400 + 500) / 8
    // = 195, each interval 12 hours
    const undecided = await run("dates-undecided.csv");
    expect(undecided.stderr).toContain(
      "  dates of day and month: no date of the bill tells day from month (10/1/2024 0:00: no field above 12); those whose day and month differ have no period\n",
    );
    expect(undecided.stderr).toContain("  without a period: 1 row, their zone's mean over the series\n");
    expect(undecided.lines[0].warnings).toBe(
      "grid series: no period (10/1/2024 0:00: day or month first? no date of the bill has a field above 12), the mean intensity of zone FRA over the series",
    );
    expectIntensity(undecided.lines[0], 195);
    // 10/10/2024 0:00 is 10 October either way: 00:00–12:00 at 400
    expectIntensity(undecided.lines[1], 400);
    const both = await run("dates-both-orders.csv");
    expect(both.stderr).toContain(
      "  dates of day and month written both day first (13/10/2024 0:00) and month first (10/13/2024 0:00); those whose day and month differ have no period\n",
    );
    expect(both.lines[0].warnings).toContain(
      "grid series: no period (the bill writes its dates both day first, 13/10/2024 0:00, and month first, 10/13/2024 0:00)",
    );
    expectIntensity(both.lines[0], 195);
    expectIntensity(both.lines[1], 400);
  });
});

describe("an instance's shape as the bill gives it", () => {
  it("estimates a type the edition lacks by CUR's product/vcpu and product/memory", SLOW, async () => {
    // Six lines of 10 hours in eu-west-3. The edition's cloud types are their platform's share by
    // vCPUs: c7i.24xlarge is half of c7i.48xlarge (96 of its 192 vCPUs, on the same platform).
    const { stderr, lines } = await evaluatedLines(
      fixture("cur-1.0-shapes.csv"),
      join(scratch, "shapes.csv"),
      ["--criteria", "gwp"],
    );
    const line = (id: string) => onlyLine(lines, "identity/LineItemId", id);
    const [exact, metal] = [line("s0"), line("s1")];
    expect([exact.matched_instance_type, exact.method]).toEqual(["c7i.48xlarge", "instance"]);
    // c7i.metal: no size the grammar reads; the bill's 192 vCPUs and 384 GiB are c7i.48xlarge's
    expect([metal.matched_instance_type, metal.method, metal.hours]).toEqual([
      "c7i.48xlarge",
      "instance-by-shape",
      "10",
    ]);
    expect(metal.warnings).toBe(
      "instance-by-shape: c7i.metal is not in the edition; estimated as c7i.48xlarge, its family's type of 192 vCPUs and 384 GiB (the bill's)",
    );
    expect(metal.energy_kwh).toBe(exact.energy_kwh);
    expect(metal.gwp_embedded_kgco2eq).toBe(exact.gwp_embedded_kgco2eq);
    // c7i.metal-24xl, 96 vCPUs and 192 GiB by the bill: c7i.24xlarge, half of s0's energy
    const half = line("s3");
    expect(half.matched_instance_type).toBe("c7i.24xlarge");
    expect(half.warnings).toContain("its family's type of 96 vCPUs and 192 GiB (the bill's)");
    expect(Number(half.energy_kwh)).toBeCloseTo(Number(exact.energy_kwh) / 2, 9);
    // No bill columns: the size grammar (metal-24xl, 4 × 24 = 96 vCPUs)
    const grammar = line("s2");
    expect([grammar.matched_instance_type, grammar.warnings]).toEqual([
      "m7i.24xlarge",
      "instance-by-shape: m7i.metal-24xl is not in the edition; estimated as m7i.24xlarge, its family's type of 96 vCPUs",
    ]);
    // A family the edition lacks, and a memory its family's type of 192 vCPUs does not have (m7i.48xlarge:
    // 768 GiB, not 1000): said unknown, never scaled nor taken from the nearest name (c7i.metal was
    // c6i.metal's, another family)
    expect([line("s4").status, line("s5").status]).toEqual([
      "unknown instance type",
      "unknown instance type",
    ]);
    expect(stderr).toContain("  aws m7i.metal: 1 row, 10 h, cost 100 USD\n");
    expect(stderr).toContain("  aws x9z.metal: 1 row, 10 h, cost 30 USD\n");
  });
});

describe("BigQuery's records as they come", () => {
  it(
    "reads each line of an export whose `location` is null in every line, placed by default",
    SLOW,
    async () => {
      // gcp-bigquery-resource.json's first three lines, `"location": null` in each (a SKU without a
      // place): DuckDB reads such a record as JSON without fields, and the file was refused for
      // lacking location.region.
      const { stderr, lines } = await evaluatedLines(
        fixture("gcp-bigquery-null-location.json"),
        join(scratch, "null-location.csv"),
      );
      expect(stderr).toContain(
        "gcp-bigquery-null-location.json: Google Cloud billing export (BigQuery, resource-level), edition 2.4.1",
      );
      expect(stderr).toContain("no region: the default place (EEE): 3 rows, cost 1.56 EUR");
      expect(stderr).toContain("coverage: 3 of 3 lines estimated; 1.56 of 1.56 EUR positive cost (100.0 %)");
      // 172,800 seconds of N2 cores: 48 vCPU-hours.
      const cores = onlyLine(lines, "sku.description", "N2 Instance Core running in Paris");
      expect([cores.method, cores.method_quantity, cores.status]).toEqual(["per-vcpu", "48", "evaluated"]);
      // 742,170,348,748,800 byte-seconds / 3,600 / 10⁹ = 206.1584302 GB-hours.
      const memory = onlyLine(lines, "sku.description", "N2 Instance Ram running in Paris");
      expect(memory.method).toBe("memory");
      expect(Number(memory.method_quantity)).toBeCloseTo(742_170_348_748_800 / 3600 / 1e9, 6);
      expect(lines.every((line) => line["location.region"] === "")).toBe(true);
    },
  );
});

describe("a managed database's vCores", () => {
  it(
    "reads Azure's `N vCore` meters as vCPU-hours and an SQL licence per vCore as a licence",
    SLOW,
    async () => {
      const { stderr, lines } = await evaluatedLines(
        fixture("azure-database-vcores.csv"),
        join(scratch, "vcores.csv"),
        ["--criteria", "gwp"],
      );
      // A vCPU-hour on Azure: CCF's 0.78–3.76 W at 50 % load, 2.27 W, × PUE 1.185 = 2.68995 Wh.
      const perVcpuHour = (0.78 + (3.76 - 0.78) / 2) * 1.185 * 1e-3;
      // MySQL's `2 vCore` server for 24 hours: 48 vCPU-hours.
      const mysql = onlyLine(lines, "MeterName", "2 vCore");
      expect([mysql.method, mysql.method_quantity, mysql.method_unit]).toEqual([
        "per-vcpu",
        "48",
        "vCPU-hours",
      ]);
      expect(Number(mysql.energy_kwh)).toBeCloseTo(48 * perVcpuHour, 10);
      // PostgreSQL's `vCore` meter bills vCore-hours: 96 of them.
      const postgres = lines.find((line) => line.MeterCategory === "Azure Database for PostgreSQL");
      expect([postgres?.method, postgres?.method_quantity]).toEqual(["per-vcpu", "96"]);
      expect(Number(postgres?.energy_kwh)).toBeCloseTo(96 * perVcpuHour, 10);
      // A managed instance's SQL licence and Defender's vCore pack, per vCore: software, the
      // hardware billed by the compute meters.
      for (const category of ["SQL Managed Instance", "Microsoft Defender for Cloud"]) {
        expect(lines.find((line) => line.MeterCategory === category)?.status).toBe("not compute");
      }
      expect(stderr).toContain("a licence: 2 rows, cost 8.78 EUR");
      expect(stderr).toContain("per-vcpu: 2 rows, cost 10.6 EUR (54.7 %)");
    },
  );
});

describe("files that are not bills", () => {
  it("refuses a headerless invoice in one line, writing nothing", SLOW, async () => {
    const output = join(scratch, "invoice-out.csv");
    const { code, stderr, stdout } = await runMain241([
      "evaluate",
      fixture("invoice-headerless.csv"),
      "-o",
      output,
    ]);
    expect(code).toBe(2);
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toContain("neither a billing export nor an inventory");
    expect(stderr).toContain("INV-2024-0042, 2024-10-01, AmazonEC2, m5.xlarge, …");
    expect(stdout).toBe("");
    expect(existsSync(output)).toBe(false);
  });

  it("names a CUR 2.0 Data Exports manifest and its data files, reading none", SLOW, async () => {
    const { code, stderr } = await runMain241(["evaluate", fixture("cur2-Manifest.json")]);
    expect(code).toBe(2);
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toContain(
      "is an AWS Data Exports (CUR 2.0) manifest, not a bill: name its 1 data file instead",
    );
  });
});

describe("CUR 2.0's product map", () => {
  // CUR 2.0 keeps the legacy product/vcpu and product/memory as keys of its `product` column: a MAP
  // in Parquet, its JSON text in CSV. Five lines of 10 hours in eu-west-3, read as
  // cur-1.0-shapes.csv's product/vcpu and product/memory are.
  const parquet = join(scratch, "cur-2.0-product-map.parquet");

  async function writeParquet(): Promise<void> {
    const instance = await DuckDBInstance.create(":memory:");
    const connection = await instance.connect();
    await connection.run(
      `COPY (SELECT * REPLACE (CAST(json(product) AS MAP(VARCHAR, VARCHAR)) AS product)
         FROM read_csv('${fixture("cur-2.0-product-map.csv")}', all_varchar = true))
       TO '${parquet}' (FORMAT parquet)`,
    );
    connection.closeSync();
    instance.closeSync();
  }

  it("reads vcpu and memory from the map, as JSON text (CSV) and as a MAP (Parquet)", SLOW, async () => {
    await writeParquet();
    for (const input of [fixture("cur-2.0-product-map.csv"), parquet]) {
      const { stderr, lines } = await evaluatedLines(input, join(scratch, "product-map.csv"), [
        "--criteria",
        "gwp",
      ]);
      const line = (id: string) => onlyLine(lines, "identity_line_item_id", id);
      const exact = line("m0");
      expect([exact.matched_instance_type, exact.method, exact.energy_kwh]).toEqual([
        "c7i.48xlarge",
        "instance",
        "9.1125748",
      ]);
      // c7i.metal: no size its name's grammar reads (unknown before); the map's 192 vCPUs and 384 GiB
      // are c7i.48xlarge's, so the same 10 hours of it: 9.1125748 kWh
      const metal = line("m1");
      expect([metal.matched_instance_type, metal.method, metal.energy_kwh]).toEqual([
        "c7i.48xlarge",
        "instance-by-shape",
        "9.1125748",
      ]);
      expect(metal.warnings).toBe(
        "instance-by-shape: c7i.metal is not in the edition; estimated as c7i.48xlarge, its family's type of 192 vCPUs and 384 GiB (the bill's)",
      );
      // c7i.metal-24xl, 96 vCPUs and 192 GiB by the map: c7i.24xlarge, 96 of the platform's 192
      // vCPUs, so half of m0's energy: 9.1125748 / 2 = 4.5562874 kWh
      const half = line("m2");
      expect([half.matched_instance_type, half.energy_kwh]).toEqual(["c7i.24xlarge", "4.5562874"]);
      expect(half.warnings).toContain("its family's type of 96 vCPUs and 192 GiB (the bill's)");
      // A map without vcpu: the name's grammar (metal-24xl: 4 × 24 = 96 vCPUs), not the bill's
      expect(line("m3").warnings).toBe(
        "instance-by-shape: m7i.metal-24xl is not in the edition; estimated as m7i.24xlarge, its family's type of 96 vCPUs",
      );
      // 192 vCPUs and 1000 GiB: m7i.48xlarge has 768 GiB, so no type of the family has the shape
      expect(line("m4").status).toBe("unknown instance type");
      // 90 + 90 + 45 + 50 of 375 USD (the legacy reading of this map left c7i.metal unknown: 185)
      expect(stderr).toContain("coverage: 4 of 5 lines estimated; 275 of 375 USD positive cost (73.3 %)\n");
    }
  });
});

describe("a database's DTUs", () => {
  it("reads an Azure SQL database's DTUs as vCores, as Microsoft converts them", SLOW, async () => {
    const { stderr, lines } = await evaluatedLines(fixture("azure-sql-dtus.csv"), join(scratch, "dtus.csv"), [
      "--criteria",
      "gwp",
    ]);
    // A vCPU-hour on Azure: CCF's 0.78–3.76 W at 50 % load, 2.27 W, × PUE 1.185 = 2.68995 Wh.
    const perVcpuHour = (0.78 + (3.76 - 0.78) / 2) * 1.185 * 1e-3;
    // A vCore for 100 DTUs of the Standard tier, 125 of Premium (Microsoft Learn). S2: 50 DTUs,
    // 0.5 vCore × 24 h = 12 vCPU-hours; P2: 250 DTUs, 2 vCores × 10 h = 20; an elastic pool's
    // `100 eDTUs` (Standard): 1 vCore × 10 h = 10.
    for (const [meter, vcpuHours] of [
      ["S2 DTUs", 12],
      ["P2 DTUs", 20],
      ["100 eDTUs", 10],
    ] as const) {
      const line = onlyLine(lines, "MeterName", meter);
      expect([line.method, line.method_quantity, line.method_unit]).toEqual([
        "per-vcpu",
        String(vcpuHours),
        "vCPU-hours",
      ]);
      expect(Number(line.energy_kwh)).toBeCloseTo(vcpuHours * perVcpuHour, 10);
    }
    expect(stderr).toContain(
      "coverage: 3 of 3 lines estimated; 56.62 of 56.62 EUR positive cost (100.0 %)\n",
    );
  });
});

describe("a DTU tier Microsoft does not list", () => {
  it("names the tier with its lines and cost, never reads it as another tier", SLOW, async () => {
    const { stderr, lines } = await evaluatedLines(
      fixture("azure-sql-dtus-unknown-tier.csv"),
      join(scratch, "dtus-unknown.csv"),
      ["--criteria", "gwp"],
    );
    expect(onlyLine(lines, "MeterName", "Z9 DTUs").status).toBe("not evaluated: unknown DTU tier Z9");
    expect(onlyLine(lines, "MeterName", "DTUs").status).toBe(
      "not evaluated: DTUs of no tier or number named",
    );
    // S2 beside them still read: 50 DTUs, 0.5 vCore × 10 h = 5 vCPU-hours
    const known = onlyLine(lines, "MeterName", "S2 DTUs");
    expect([known.status, known.method_quantity]).toEqual(["evaluated", "5"]);
    expect(stderr).toContain(
      "not evaluated:\n  DTUs of no tier or number named: 1 row, cost 2.5 EUR\n  unknown DTU tier Z9: 1 row, cost 36 EUR\n",
    );
    // Positive cost 36 + 15 + 2.5 = 53.5 EUR, of which S2's 15 estimated: 28.0 %
    expect(stderr).toContain("coverage: 1 of 3 lines estimated; 15 of 53.5 EUR positive cost (28.0 %)\n");
    expect(stderr).not.toContain("does not read the unit");
  });
});

describe("a legacy CUR's lines without a unit, and provisioned-IOPS volumes", () => {
  it(
    "reads a free-tier line in the unit its usage type measures, an io1 volume's GB-months as storage",
    SLOW,
    async () => {
      const { stderr, lines } = await evaluatedLines(
        fixture("cur-1.0-free-tier-units.csv"),
        join(scratch, "free-tier.csv"),
        ["--criteria", "gwp"],
      );
      const line = (id: string) => onlyLine(lines, "identity/LineItemId", id);
      const read = (id: string) => [line(id).method, line(id).method_quantity, line(id).method_unit];
      // f0, free, no pricing/unit: the same 10 GB-Mo of gp2 as its paid hour f1, 10 × 730 h × 2 copies
      expect(read("f0")).toEqual(["block-storage", "14600", "GB-hours SSD x2"]);
      expect(read("f1")).toEqual(read("f0"));
      expect(line("f0").energy_kwh).toBe(line("f1").energy_kwh);
      // f2, `DataTransfer-Out-Bytes` without a unit: 5 GB; × AWS's 0.001 kWh/GB × PUE 1.135
      expect(read("f2")).toEqual(["data-transfer", "5", "GB internet"]);
      expect(Number(line("f2").energy_kwh)).toBeCloseTo(5 * 0.001 * 1.135, 12);
      // f3, `TimedStorage-ByteHrs` without a unit: 2 GB-Mo × 730 h × 3 copies = 4,380 GB-hours
      expect(read("f3")).toEqual(["object-storage", "4380", "GB-hours HDD x3"]);
      // f4, RDS `Multi-AZ-PIOPS-Storage` in GB-Mo: 100 × 730 × 2 (Multi-AZ) = 146,000 GB-hours of SSD;
      // f6, EBS `VolumeUsage.piops`: 50 × 730 × 2 = 73,000. Before, both were a rate bought
      expect(read("f4")).toEqual(["block-storage", "146000", "GB-hours SSD x2"]);
      expect(read("f6")).toEqual(["block-storage", "73000", "GB-hours SSD x2"]);
      // f5, the IOPS-months bought: the SSD delivering them at 3 IOPS a GiB, the deployment's two
      // copies: 1,000 IOPS-months = 333.3 GiB × 1.0737 GB × 730 h × 2; f7, S3 requests without a
      // unit, stays without one
      expect(read("f5")).toEqual(["block-storage", "522554.3543", "GB-hours SSD x2"]);
      expect(stderr).toContain("  no unit: 1 row, cost 0 USD\n");
      // f8, GuardDuty's `PaidEventsAnalyzed-Bytes`: logs analysed, not carried; named, not data transfer
      expect(line("f8").status).toBe("not compute");
      expect(stderr).toContain("  no method reads its text (gb in GB): 1 row, cost 0.5 USD\n");
      // Estimated: f1 1 + f4 25 + f5 200 + f6 6.25 = 232.25 of 232.75 USD (f8's 0.5 not): 99.8 %,
      // four figures as the report writes them
      expect(stderr).toContain(
        "coverage: 7 of 9 lines estimated; 232.3 of 232.8 USD positive cost (99.8 %)\n",
      );
    },
  );
});

describe("a bilingual header whose English names are the legacy pay-as-you-go's", () => {
  it(
    "reads `UsageQuantity (UsageQuantity)` and `PreTaxCost (PreTaxCost)` as the quantity and cost",
    SLOW,
    async () => {
      const { stderr, lines } = await evaluatedLines(
        fixture("azure-payg-bilingual.csv"),
        join(scratch, "payg-bilingual.csv"),
        ["--criteria", "gwp"],
      );
      expect(stderr).toContain(
        "azure-payg-bilingual.csv: Azure legacy pay-as-you-go usage export, edition 2.4.1",
      );
      // D2s v3: 3 × `10 Hours` = 30 hours
      const vm = onlyLine(lines, "Name der Verbrauchseinheit (MeterName)", "D2s v3");
      expect([vm.matched_instance_type, vm.hours, vm.status]).toEqual(["d2s_v3", "30", "evaluated"]);
      // Cost read from `PreTaxCost (PreTaxCost)`, in the legacy file's `Currency`: the VM's 0.9 and the
      // load balancer's 0.075 (by-cost, at the VM's rate), 0.975 shown 0.98; by cost alone 0.075 / 0.975 = 7.7 %
      expect(stderr).toContain("cost read: PreTaxCost (PreTaxCost)");
      expect(stderr).toContain(
        "coverage: 2 of 2 lines estimated; 0.98 of 0.98 USD positive cost (100.0 %)\n",
      );
      expect(stderr).toContain("from its cost alone (by-cost, no quantity behind it): 0.08 USD (7.7 %)\n");
    },
  );
});
