/**
 * Providers added as the recipe says (docs/architecture.md, "Add a billing provider": a module,
 * test/support/acmeProvider.ts, and its place in PROVIDERS). One that declares no FOCUS rules of its
 * own (Acme, `focusLines: null`) has its FOCUS lines read by the standard's columns, as a producer
 * no module names: a VM's SkuPriceDetails `F_CoreCount` × hours as vCPU-hours, memory's
 * `F_MemorySize`. One that declares them as data (Acme Metal) has its VM lines read as instance
 * hours by them, sql/ untouched. The registry here is the tree's providers and both: every module
 * reading PROVIDERS, and the SQL spliced from it, sees them as it would once they join index.ts.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PROVIDERS, providerOf } from "../../src/billing/providers/index.js";
import { sqlQuery } from "../../src/billing/queries.js";
import { focusExportText, type WrittenLine, writtenLinesById, writtenRun } from "../support/focusLines.js";

vi.mock("../../src/billing/providers/index.js", async (importOriginal) => {
  const tree = await importOriginal<typeof import("../../src/billing/providers/index.js")>();
  const { ACME, ACME_METAL } = await import("../support/acmeProvider.js");
  const providers = [...tree.PROVIDERS, ACME, ACME_METAL];
  const byId = new Map(providers.map((provider) => [provider.id as string, provider]));
  return {
    ...tree,
    PROVIDERS: providers,
    providerOf: (id: string | null) => byId.get(id ?? "") ?? null,
    isProvider: (id: string) => byId.has(id),
    focusProvidersSql: (indent: string, name: string) => tree.focusProvidersSql(indent, name, providers),
    ownFocusRulesSql: (column: string) => tree.ownFocusRulesSql(column, providers),
    focusLineKindsSql: (indent: string, alias: string, fees: readonly string[]) =>
      tree.focusLineKindsSql(indent, alias, fees, providers),
    focusInstanceTypesSql: (indent: string, alias: string) =>
      tree.focusInstanceTypesSql(indent, alias, providers),
    focusNamedTypesSql: (indent: string, alias: string) => tree.focusNamedTypesSql(indent, alias, providers),
  };
});

const SLOW = { timeout: 180_000 };
const scratch = mkdtempSync(join(tmpdir(), "billing-focus-new-provider-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The same lines from Acme and from a producer no module names; the VM first. */
const PRODUCERS = { acme: "Acme Cloud", unnamed: "Example Sovereign Cloud" } as const;
const LINES = [
  { id: "vm", type: "Virtual Machine", hours: 24, sku: { F_CoreCount: 4, F_MemorySize: 16 } },
  { id: "memory", type: "Memory", hours: 10, sku: { F_MemorySize: 2 } },
] as const;

function exportText(): string {
  return focusExportText(
    Object.entries(PRODUCERS).flatMap(([key, producer]) =>
      LINES.map((line) => ({
        ...line,
        provider: producer,
        service: "Elastic Compute",
        category: "Compute",
        id: `${key}-${line.id}`,
        region: key === "acme" ? "acme-fra-1" : "eu-central-1",
      })),
    ),
  );
}

type Row = WrittenLine;
let line: (id: string) => Row = () => {
  throw new Error("the export is not evaluated yet");
};

beforeAll(async () => {
  line = await writtenLinesById(scratch, "focus-acme.csv", exportText());
}, SLOW.timeout);

/** Acme's line read as the unnamed producer's: the same method, quantity and energy; its place named besides. */
function expectReadAlike(acme: Row, unnamed: Row): void {
  for (const column of ["status", "method", "method_quantity", "method_unit", "energy_kwh"])
    expect(acme[column], column).toBe(unnamed[column]);
  expect(acme.warnings).toBe(
    `${unnamed.warnings}; region acme-fra-1 is not in the edition: its country DEU's factor`,
  );
}

describe("a provider the registry names, with no FOCUS rules of its own", () => {
  it("is in the registry, and out of the condition of providers with their own rules", () => {
    expect(providerOf("acme")?.focusLines).toBeNull();
    expect(
      PROVIDERS.filter((provider) => provider.focusLines !== null).map((provider) => provider.id),
    ).toEqual(["aws", "azure", "gcp", "oracle", "acme-metal"]);
    const focus = sqlQuery("classify/billing_lines_focus.sql");
    expect(focus).toContain("THEN 'acme'");
    const usage = sqlQuery("classify/billing_usage_focus.sql");
    expect(usage).toContain(
      "CASE WHEN l.billing_provider IN ('aws', 'azure', 'gcp', 'oracle', 'acme-metal') OR ",
    );
    expect(usage).not.toContain("'acme'");
    expect(usage).not.toContain("IS NOT NULL OR");
  });

  it("reads a VM's F_CoreCount × hours as vCPU-hours, as for an unnamed producer", () => {
    const acme = line("acme-vm");
    expect(acme.status).toBe("evaluated");
    expect(acme.method).toBe("per-vcpu");
    expect(Number(acme.method_quantity)).toBe(4 * 24);
    expect(acme.method_unit).toBe("vCPU-hours");
    expect(acme.warnings).toContain("F_CoreCount 4 of SkuPriceDetails");
    // Its memory is read, and named as what the vCPU-hours leave out
    expect(acme.warnings).toContain("F_MemorySize and F_DiskSpace not read");
    const unnamed = line("unnamed-vm");
    expectReadAlike(acme, unnamed);
  });

  it("reads memory's F_MemorySize (GiB) × hours as GB-hours of memory, as for an unnamed producer", () => {
    const acme = line("acme-memory");
    expect(acme.method).toBe("memory");
    expect(Number(acme.method_quantity)).toBeCloseTo(2 * 1.073741824 * 10, 6);
    expect(acme.warnings).toContain("F_MemorySize 2 GiB of SkuPriceDetails");
    const unnamed = line("unnamed-memory");
    expectReadAlike(acme, unnamed);
  });
});

describe("a provider the registry names, with FOCUS rules of its own as data", () => {
  /** Acme Metal's lines: a VM's hours its description names the type of, the same VM's disk by GB-months, a VM naming none. */
  const METAL_LINES = [
    { id: "vm", type: "Virtual Machine", unit: "Hours", quantity: 24, description: "AM1.Large VM per hour" },
    { id: "disk", type: "Virtual Machine", unit: "GB-Mo", quantity: 50, description: "am1.large boot disk" },
    { id: "unnamed", type: "Virtual Machine", unit: "Hours", quantity: 5, description: "a virtual machine" },
  ] as const;
  const columns = [
    "ServiceProviderName",
    "ChargeCategory",
    "ServiceName",
    "ResourceType",
    "ResourceId",
    "RegionId",
  ];
  const header = [...columns, "ConsumedQuantity", "ConsumedUnit", "BilledCost", "ChargeDescription"];
  let metal: (id: string) => Row = () => {
    throw new Error("the export is not evaluated yet");
  };
  let summary = "";

  beforeAll(async () => {
    const rows = METAL_LINES.map((row) =>
      [
        "Acme Metal",
        "Usage",
        "Metal Compute",
        row.type,
        `metal-${row.id}`,
        "metal-fra-1",
        row.quantity,
        row.unit,
        "2",
        row.description,
      ].join(","),
    );
    const run = await writtenRun(
      scratch,
      "focus-acme-metal.csv",
      `${[header.join(","), ...rows].join("\n")}\n`,
    );
    metal = run.line;
    summary = run.summary;
  }, SLOW.timeout);

  it("writes its rules into the FOCUS query, its skeleton naming no provider", () => {
    const focus = sqlQuery("classify/billing_lines_focus.sql");
    expect(focus).toContain("WHEN p.billing_provider = 'acme-metal'");
    expect(focus).toContain("END AS billing_acme_metal_flavor_type,");
    const skeleton = readFileSync("sql/classify/billing_lines_focus.sql", "utf8");
    for (const provider of PROVIDERS) expect(skeleton).not.toContain(`'${provider.id}'`);
  });

  it("reads its VM's hours as an instance's, of the type its description names", () => {
    const vm = metal("metal-vm");
    expect(vm.status).toBe("unknown instance type");
    expect(vm.hours).toBe("24");
    // The editions list no type of Acme Metal's: it is named as what the tool does not recognise
    expect(summary).toMatch(/unknown instance types:\n {2}acme-metal am1\.large: 1 row, 24 h/);
  });

  it("reads its lines its rules do not mark as not an instance's hours", () => {
    for (const id of ["metal-disk", "metal-unnamed"]) {
      expect(metal(id).status, id).toBe("not compute");
      expect(metal(id).hours, id).toBe("");
    }
  });
});
