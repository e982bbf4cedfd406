/**
 * A FOCUS export of a provider the registry does not name (as Scaleway, Alibaba Cloud or Huawei
 * Cloud write one: FOCUS 1.2's columns, SkuPriceDetails' FOCUS-defined properties) is read by the
 * standard's columns alone (docs/billing.md, "Any FOCUS producer"): a VM's hours by its cores (or
 * its GPUs), a disk's and memory's hours by their size, with and without the spec's `F_` prefix,
 * each line's warning naming the property read.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROVIDERS } from "../../src/billing/providers/index.js";
import { focusExportText, type WrittenLine, writtenRun } from "../support/focusLines.js";

const SLOW = { timeout: 180_000 };
const scratch = mkdtempSync(join(tmpdir(), "billing-focus-any-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A provider no module of src/billing/providers/ names. */
const PRODUCER = "Example Sovereign Cloud";

interface Line {
  readonly id: string;
  readonly service: string;
  readonly category: string;
  readonly type: string;
  readonly hours: number;
  readonly sku: Record<string, string | number>;
  /** Its provider, where not PRODUCER. */
  readonly provider?: string;
}

const LINES: readonly Line[] = [
  // The VM: 4 cores, 16 GiB for 24 hours, the prefix written
  {
    id: "vm-f",
    service: "Elastic Compute Service",
    category: "Compute",
    type: "Virtual Machine",
    hours: 24,
    sku: { F_CoreCount: 4, F_MemorySize: 16, F_InstanceType: "ecs.g6.xlarge" },
  },
  // The same without the prefix, its values as texts
  {
    id: "vm-plain",
    service: "Elastic Cloud Server",
    category: "Compute",
    type: "Virtual Machine",
    hours: 24,
    sku: { CoreCount: "4", MemorySize: "16", InstanceType: "s6.xlarge.4" },
  },
  // A GPU VM: 8 cores, 48 GiB and 1 GPU for 10 hours, read by its GPU
  {
    id: "gpu-f",
    service: "GPU Instances",
    category: "Compute",
    type: "Virtual Machine",
    hours: 10,
    sku: { F_CoreCount: 8, F_MemorySize: 48, F_GpuCount: 1 },
  },
  {
    id: "gpu-plain",
    service: "GPU Instances",
    category: "Compute",
    type: "Virtual Machine",
    hours: 10,
    sku: { CoreCount: 8, MemorySize: 48, GpuCount: 2 },
  },
  // A VM of no GPU: its cores
  {
    id: "vm-nogpu",
    service: "Instances",
    category: "Compute",
    type: "Virtual Machine",
    hours: 5,
    sku: { F_CoreCount: 2, F_GpuCount: 0 },
  },
  // A disk's hours: its GB, its medium the disk type's
  {
    id: "disk-f",
    service: "Block Storage",
    category: "Storage",
    type: "Disk",
    hours: 24,
    sku: { F_DiskSpace: 100, F_DiskType: "HDD" },
  },
  {
    id: "disk-plain",
    service: "Block Storage",
    category: "Storage",
    type: "Disk",
    hours: 24,
    sku: { DiskSpace: "50", DiskType: "SSD" },
  },
  // Memory billed on its own, in hours of its size: GiB as GB
  {
    id: "memory-f",
    service: "Serverless Containers",
    category: "Compute",
    type: "Memory",
    hours: 10,
    sku: { F_MemorySize: 2 },
  },
  // A known provider's line in hours beside its VM's (a licence's, say): its own rules read it, its
  // SKU's cores are not counted again
  {
    id: "known",
    service: "Windows Server",
    category: "Compute",
    type: "License",
    hours: 24,
    sku: { F_CoreCount: 4 },
    provider: "Microsoft",
  },
];

function exportText(): string {
  return focusExportText(
    LINES.map((line) => ({ ...line, provider: line.provider ?? PRODUCER, region: "eu-central-1" })),
  );
}

type Row = WrittenLine;
let line: (id: string) => Row = () => {
  throw new Error("the export is not evaluated yet");
};
let summary = "";

beforeAll(async () => {
  ({ line, summary } = await writtenRun(scratch, "focus-any-producer.csv", exportText()));
}, SLOW.timeout);

describe("a FOCUS producer the registry does not name", () => {
  it("is no provider of the registry", () => {
    const names = PROVIDERS.flatMap((provider) => [provider.id, ...provider.focusNames]);
    expect(names.map((name) => name.toLowerCase())).not.toContain(PRODUCER.toLowerCase());
  });

  it("reads a VM's cores × hours as vCPU-hours, with and without the F_ prefix", () => {
    for (const id of ["vm-f", "vm-plain"]) {
      const row = line(id);
      expect(row.status, id).toBe("evaluated");
      expect(row.method, id).toBe("per-vcpu");
      expect(Number(row.method_quantity), id).toBe(4 * 24);
      expect(row.method_unit, id).toBe("vCPU-hours");
      expect(row.warnings, id).toContain("F_CoreCount 4 of SkuPriceDetails");
      expect(row.warnings, id).toContain("F_MemorySize and F_DiskSpace not read");
    }
    expect(Number(line("vm-nogpu").method_quantity)).toBe(2 * 5);
    expect(line("vm-nogpu").method).toBe("per-vcpu");
    expect(line("vm-nogpu").warnings).not.toContain("not read");
  });

  it("gives every vCPU-hour the same energy, whatever the VM's size", () => {
    const perVcpuHour = ["vm-f", "vm-plain", "vm-nogpu"].map(
      (id) => Number(line(id).energy_kwh) / Number(line(id).method_quantity),
    );
    expect(perVcpuHour[0]).toBeGreaterThan(0);
    for (const value of perVcpuHour) expect(value / perVcpuHour[0]).toBeCloseTo(1, 6);
  });

  it("reads a GPU VM's GPUs × hours as GPU-hours, naming what it leaves unread", () => {
    const one = line("gpu-f");
    const two = line("gpu-plain");
    for (const row of [one, two]) {
      expect(row.method).toBe("accelerator");
      expect(row.method_unit).toBe("GPU-hours");
      expect(row.warnings).toContain("F_CoreCount and F_MemorySize not read");
    }
    expect(Number(one.method_quantity)).toBe(1 * 10);
    expect(Number(two.method_quantity)).toBe(2 * 10);
    expect(one.warnings).toContain("F_GpuCount 1 of SkuPriceDetails");
    expect(Number(two.energy_kwh) / Number(one.energy_kwh)).toBeCloseTo(2, 9);
    // The summary names their GPU's model (none named), whatever else their warnings say
    expect(summary).toContain(
      "GPU-hours of no model the registry lists, read as the CCF average GPU:\n  GPU model not named: 2 rows, cost ",
    );
  });

  it("reads a disk's F_DiskSpace × hours as GB-hours of its F_DiskType", () => {
    const hdd = line("disk-f");
    expect(hdd.method).toBe("block-storage");
    expect(Number(hdd.method_quantity)).toBe(100 * 24);
    expect(hdd.method_unit).toBe("GB-hours HDD x1");
    expect(hdd.warnings).toBe("block-storage: F_DiskSpace 100 GB of SkuPriceDetails, for each of its hours");
    const ssd = line("disk-plain");
    expect(Number(ssd.method_quantity)).toBe(50 * 24);
    expect(ssd.method_unit).toBe("GB-hours SSD x1");
  });

  it("leaves a known provider's line to its own rules", () => {
    expect(line("known").method).toBe("");
    expect(line("known").status).toBe("not compute");
  });

  it("reads memory's F_MemorySize (GiB) × hours as GB-hours of memory", () => {
    const row = line("memory-f");
    expect(row.method).toBe("memory");
    expect(Number(row.method_quantity)).toBeCloseTo(2 * 1.073741824 * 10, 6);
    expect(row.warnings).toContain("F_MemorySize 2 GiB of SkuPriceDetails");
  });
});
