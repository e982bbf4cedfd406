/**
 * Lines read by what they measure, through the command (`main`, edition 2.4.1): units that are
 * not storage, compute or transfer are never read as one, fees billed in usage units are fees,
 * Oracle's readable units (GiB, performance units, data transferred), a deployment's instances
 * (Multi-AZ ×2, a Multi-AZ DB cluster ×3, each line of the deployment alike), and the summary's
 * reasons and currency. Fixtures: test/fixtures/billing/meanings-cur.csv, meanings-oci.csv.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readUnit, unitSpelling } from "../../src/billing/registry/units.js";
import { evaluatedLines, type OutputRow, onlyLine } from "../support/cli.js";

const GIB = 1.073741824;
const read = (text: string) => readUnit(unitSpelling(text) ?? "");

describe("units by what they measure", () => {
  it.each([
    // Counts: no hardware stands behind one unit
    ["Bucket-Mo", "count", 1],
    ["Key Version Hours", "count", 1],
    // (a million of them: `1K`, `1M` and their words multiply a count, as Azure's `1M` tokens)
    ["Million Datapoints", "count", 1_000_000],
    ["Mbps Per Hour", "count", 1],
    // Provisioned IOPS over time: the SSD delivering them, 3 IOPS a GiB (a decision: docs/billing.md)
    ["IOPS-Mo", "gb-hour", (730 * GIB) / 3],
    ["IOs", "count", 1],
    ["1 GiB MONTHS PERFORMANCE_UNITS", "count", 1],
    ["1000000 NONE NONE DATAPOINTS", "count", 1_000_000],
    // Storage: what it stores adds nothing to the quantity
    ["Gigabyte Log Storage per Month", "gb-hour", 730],
    ["1 GiB MONTHS STORAGE_SIZE", "gb-hour", 730 * GIB],
    ["1 TiB MONTHS STORAGE_SIZE", "gb-hour", 730 * 1024 * GIB],
    ["1 GiB HOURS MEMORY", "gb-hour", GIB],
    // Transfer: GB carried, whatever period the unit names
    ["1 GiB HOURS DATA_TRANSFERRED", "gb", GIB],
    ["1 GiB NONE DATA_TRANSFERRED", "gb", GIB],
    ["GB Of Data Transferred", "gb", 1],
    // Compute
    ["1 NONE HOURS OCPUS", "hour", 1],
  ])("reads %s as %s × %d", (text, dimension, factor) => {
    const unit = read(text);
    expect(unit?.dimension).toBe(dimension);
    expect(unit?.factor).toBeCloseTo(factor, 9);
  });

  it("reads no word it does not know (EarlyDelete-ByteHrs is a usage type, not a unit)", () => {
    expect(read("EarlyDelete-ByteHrs")).toBeNull();
  });
});

const SLOW = { timeout: 180_000 };
const scratch = mkdtempSync(join(tmpdir(), "billing-meanings-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const runs: Record<string, { stderr: string; lines: OutputRow[] }> = {};
beforeAll(async () => {
  for (const name of ["meanings-cur", "meanings-oci", "meanings-azure"]) {
    runs[name] = await evaluatedLines(`test/fixtures/billing/${name}.csv`, join(scratch, `${name}.csv`), [
      "--criteria",
      "gwp",
    ]);
  }
}, 180_000);

const close = (actual: string, expected: number) =>
  expect(Math.abs(Number(actual) - expected) / Math.abs(expected)).toBeLessThan(1e-8);

// Energy per unit before the PUE (docs/methodology.md, CCF) and the PUEs the methods read
const SSD = 1.2e-6;
const HDD = 0.65e-6;
const NETWORK = 0.001;
const MEMORY = 0.000392;
const PUE_AWS = 1.135;
const PUE_OTHER = 1.185;

describe("deployments: every line of a deployment counts its instances (impact-service evaluate)", () => {
  const line = (type: string) => onlyLine(runs["meanings-cur"].lines, "line_item_usage_type", type);

  it("counts a Multi-AZ instance's hours twice and a Multi-AZ DB cluster's three times", SLOW, () => {
    const single = line("EUW3-InstanceUsage:db.m5.large");
    const multi = line("EUW3-Multi-AZUsage:db.m5.large");
    const cluster = line("EUW3-Multi-AZClusterUsage:db.m5.large");
    // 10 billed hours each: 10 × 1, 10 × 2 (the instance and its standby), 10 × 3 (a writer, two standbys)
    expect([single.hours, multi.hours, cluster.hours]).toEqual(["10", "20", "30"]);
    for (const [row, copies] of [
      [multi, 2],
      [cluster, 3],
    ] as const) {
      expect(row.matched_instance_type).toBe("db.m5.large");
      close(row.gwp_embedded_kgco2eq, copies * Number(single.gwp_embedded_kgco2eq));
      close(row.gwp_use_kgco2eq, copies * Number(single.gwp_use_kgco2eq));
    }
    expect(multi.warnings).toBe(
      "deployment: Multi-AZ: the instance and its standby in a second zone, 2 instances",
    );
    expect(single.warnings).toBe("");
  });

  it("counts the same deployment's storage twice too", SLOW, () => {
    const storage = line("EUW3-RDS:Multi-AZ-GP2-Storage");
    // 100 GB-months × 730 h × 2 copies = 146,000 GB-hours of SSD; × 1.2 Wh/TB-h × PUE 1.135 = 0.198852 kWh
    expect(storage.method_unit).toBe("GB-hours SSD x2");
    close(storage.method_quantity, 146_000);
    close(storage.energy_kwh, 146_000 * SSD * PUE_AWS);
  });
});

describe("measures that are not storage, compute or transfer (impact-service evaluate)", () => {
  const cur = (type: string) => onlyLine(runs["meanings-cur"].lines, "line_item_usage_type", type);
  const oci = (text: string) =>
    runs["meanings-oci"].lines.filter((row) => row["product/Description"] === text);

  it("reads early deletion in byte-hours as a fee, not stored bytes", SLOW, () => {
    expect(cur("EUW3-EarlyDelete-ByteHrs").status).toBe("not compute");
    expect(runs["meanings-cur"].stderr).toContain(
      "  a fee: data deleted before the minimum its storage class bills: 1 row, cost 0.4\n",
    );
  });

  it("names keys by their kind, bandwidth-hours and buckets as counts, with their cost", SLOW, () => {
    for (const type of ["eu-west-3-KMS-Keys", "EUW3-PortUsage:1G", "EUW3-StorageLens-Buckets"])
      expect(cur(type).status).toBe("not compute");
    const { stderr } = runs["meanings-cur"];
    expect(stderr).toContain("  a count, no hardware per unit: Mbps Per Hour: 1 row, cost 216\n");
    // A key's version hours: a key held in the provider's shared key store, no hardware of its own
    expect(stderr).toContain(
      "  keys and secrets: held and used in the shared key stores of their provider, no hardware of their own: 1 row, cost 1\n",
    );
    expect(stderr).toContain("  a count, no hardware per unit: Bucket-Mo: 1 row, cost 0.3\n");
    expect(stderr).toContain(
      "  AWSDirectConnect: 216 (84.9 %), 1 row (unknown to the registry; a count, no hardware per unit: Mbps Per Hour)\n",
    );
  });

  it("reads log storage per month as stored gigabytes", SLOW, () => {
    const logs = cur("EUW3-TimedStorage-ByteHrs");
    // 10 GB-months × 730 h = 7,300 GB-hours of HDD, one copy; × 0.65 Wh/TB-h × 1.135
    expect(logs.method_unit).toBe("GB-hours HDD x1");
    close(logs.method_quantity, 7_300);
    close(logs.energy_kwh, 7_300 * HDD * PUE_AWS);
  });

  it("reads Oracle's readable units: GiB, data transferred, performance units, datapoints", SLOW, () => {
    const [storage] = oci("Block Volume - Storage");
    // 100 × `1 GiB MONTHS STORAGE_SIZE` = 100 × 730 × 1.073741824 = 78,383.15315 GB-hours (not 73,000)
    close(storage.method_quantity, 100 * 730 * GIB);
    close(storage.energy_kwh, 100 * 730 * GIB * SSD * PUE_OTHER);
    const [transfer] = oci("Outbound Data Transfer Zone 1");
    // 10 × `1 GiB HOURS DATA_TRANSFERRED` = 10.73741824 GB carried
    expect(transfer.method).toBe("data-transfer");
    close(transfer.method_quantity, 10 * GIB);
    close(transfer.energy_kwh, 10 * GIB * NETWORK * PUE_OTHER);
    const [memory] = oci("Standard - E4 - Memory");
    // 16 × `1 GiB HOURS MEMORY` = 17.17986918 GB-hours
    close(memory.method_quantity, 16 * GIB);
    close(memory.energy_kwh, 16 * GIB * MEMORY * PUE_OTHER);
    // Performance units, with the readable unit and without it (`GB Months` alone): not gigabytes
    const performance = oci("Block Volume - Performance Units");
    expect(performance.map((row) => row.status)).toEqual(["not compute", "not compute"]);
    expect(oci("Monitoring Service - Retrieval")[0].status).toBe("not compute");
  });

  it("says each reason once with its lines and cost in the bill's currency", SLOW, () => {
    const { stderr } = runs["meanings-oci"];
    expect(stderr).toContain(
      "not compute, by reason:\n" +
        "  a rate bought (performance units, throughput), not capacity: 2 rows, cost 2.55 EUR\n" +
        "  a count, no hardware per unit: 1000000 NONE NONE DATAPOINTS: 1 row, cost < 0.01 EUR\n",
    );
    // 2.55 + 0.085 + 0.0224 estimated of 5.2104 positive
    expect(stderr).toContain("coverage: 3 of 6 lines estimated; 2.66 of 5.21 EUR positive cost (51.0 %)\n");
    expect(stderr).toContain(
      "  estimated from a quantity: 2.66 EUR (51.0 %); from its cost alone (by-cost, no quantity behind it): 0 EUR (0.0 %)\n",
    );
  });
});

describe("instance types by shape (impact-service evaluate)", () => {
  const azure = (meter: string) =>
    runs["meanings-azure"].lines.filter((row) => row.MeterName === meter && row.UnitOfMeasure !== "");

  it("estimates Azure's DS2_v2, not in the edition, as its family's type of 2 vCPUs", SLOW, () => {
    // Standard_DS2_v2: family D, 2 vCPUs, premium storage (`DS2` is `D2s`), version 2; 2.4.1 has no
    // Dv2: the D family's 2-vCPU `s` types are d2s_v3, d2s_v4, d2s_v5, the nearest version v3.
    const [ds2] = azure("DS2 v2");
    const [d2s] = azure("D2s v3");
    expect([ds2.matched_instance_type, ds2.method, ds2.hours]).toEqual(["d2s_v3", "instance-by-shape", "24"]);
    expect(ds2.warnings).toBe(
      "instance-by-shape: Standard_DS2_v2 is not in the edition; estimated as d2s_v3, its family's type of 2 vCPUs",
    );
    // The same 24 hours of the same type: the same impacts
    expect(ds2.gwp_use_kgco2eq).toBe(d2s.gwp_use_kgco2eq);
    expect(ds2.gwp_embedded_kgco2eq).toBe(d2s.gwp_embedded_kgco2eq);
    // 3.6 of 14.71 EUR positive cost
    expect(runs["meanings-azure"].stderr).toContain("  instance-by-shape: 1 row, cost 3.6 EUR (24.5 %)\n");
    // The approximate matches of the types evaluated lines bill: the line of `DS2_v2` without a
    // unit (a bad row) is matched for nothing
    expect(runs["meanings-azure"].stderr).toContain(
      "approximate instance-type matches:\n  azure Standard_DS2_v2 -> d2s_v3\ntotals",
    );
  });

  it("reads logs kept (Log Analytics' data retention) as stored gigabytes", SLOW, () => {
    const [retention] = azure("Pay-as-you-go Data Retention");
    // 20 × `1 GB/Month` = 20 × 730 = 14,600 GB-hours of HDD, one copy; × 0.65 Wh/TB-h × PUE 1.185
    expect([retention.method, retention.method_unit]).toEqual(["object-storage", "GB-hours HDD x1"]);
    close(retention.method_quantity, 14_600);
    close(retention.energy_kwh, 14_600 * HDD * PUE_OTHER);
  });

  it("names a line without a unit with its cost, never a blank unit", SLOW, () => {
    const { stderr } = runs["meanings-azure"];
    expect(stderr).toContain("  bad row: unknown unit (none): 1 row, cost 0.3 EUR\n");
    expect(stderr).not.toMatch(/unit :/);
  });
});
