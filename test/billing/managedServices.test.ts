/**
 * Managed services read by what their provider sells (src/billing/registry/managedServices.ts), through
 * the command (`main`, edition 2.4.1), each estimate against the single route's evaluation of the
 * server standing for the size (routeRaw) × the hours the hand computation gives: a database's
 * hour (Azure PostgreSQL flexible B1ms), an app plan's hour (App Service B1, P1v3, the Free plan's
 * CPU quota), a cache's two nodes, a NAT gateway's hour; a size the catalogue lacks by its VM's
 * shape or named; a database's storage with its copies; a charge per vCPU of a database estimated
 * on its own lines named, not estimated twice; warehouses (Redshift's RA3 nodes the editions lack
 * as their part of a ra3.4xlarge, Serverless RPUs as vCPUs), search domains' and notebooks' instance
 * types, and what is named, not guessed (OpenSearch Serverless, Synapse, Azure AI Search, Oracle's
 * HeatWave and APEX hours). Fixtures: test/fixtures/billing/arrivals/ azure-managed-sizes.csv,
 * cur-2.0-managed.csv, cur-2.0-warehouses-search.csv, azure-warehouses-search.csv,
 * oci-heatwave-apex.csv.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATALOGUE } from "../../src/billing/registry/managedServices.js";
import { coefficientCriteria } from "../../src/service/coefficients.js";
import { evaluatedLines, type OutputRow, onlyLine } from "../support/cli.js";
import { editionContext, routeRaw } from "./support.js";

const SLOW = { timeout: 180_000 };
const scratch = mkdtempSync(join(tmpdir(), "billing-catalogue-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const fixture = (name: string) => `test/fixtures/billing/arrivals/${name}.csv`;

const runs: Record<string, { stderr: string; lines: OutputRow[] }> = {};
beforeAll(async () => {
  for (const name of [
    "azure-managed-sizes",
    "cur-2.0-managed",
    "cur-2.0-warehouses-search",
    "azure-warehouses-search",
    "oci-heatwave-apex",
  ]) {
    runs[name] = await evaluatedLines(fixture(name), join(scratch, `${name}.csv`), ["--criteria", "gwp"]);
  }
}, 180_000);

const close = (actual: string | number, expected: number) =>
  expect(Math.abs(Number(actual) - expected) / Math.abs(expected)).toBeLessThan(1e-9);

/** The route's gwp, embedded and use, of `hours` hours of `type` at `region`, unrounded. */
async function route(provider: string, type: string, region: string, hours: number) {
  const criteria = coefficientCriteria(editionContext("2.4.1"), ["gwp"]);
  const [gwp] = await routeRaw(
    "2.4.1",
    provider,
    type,
    { region, usageLocation: null },
    null,
    hours,
    criteria,
  );
  return { embedded: gwp.embedded?.value ?? Number.NaN, use: gwp.use?.value ?? Number.NaN };
}

/** A line's gwp equals the route's for its server over `hours` server-hours. */
async function expectServerHours(line: OutputRow, provider: string, server: string, hours: number) {
  expect([line.status, line.method, line.matched_instance_type]).toEqual([
    "evaluated",
    "managed-size",
    server,
  ]);
  close(line.method_quantity, hours);
  const expected = await route(provider, server, line.ResourceLocation ?? line.product_region_code, hours);
  close(line.gwp_embedded_kgco2eq, expected.embedded);
  close(line.gwp_use_kgco2eq, expected.use);
}

describe("the catalogue, as data", () => {
  it("names a server of the editions, of the size's vCPUs or of which the size is a part, for every size", () => {
    for (const edition of ["2.4.1", "2.5.0"]) {
      const context = editionContext(edition);
      for (const service of CATALOGUE) {
        const table = context.service.data.cloudInstances.get(service.provider);
        for (const size of service.sizes) {
          const server = table?.byId.get(size.server);
          const named = `${edition} ${service.id} ${size.size}: ${size.server}`;
          expect(server, named).toBeDefined();
          const vcpus = Number(server?.cells.vcpu?.default);
          if (vcpus === size.vcpus) continue;
          // A part of a larger server: its vCPUs and its memory that share of the server's
          expect(vcpus * size.share, named).toBeCloseTo(size.vcpus, 9);
          expect(Number(server?.cells.memory?.default) * size.share, named).toBeCloseTo(size.memoryGib, 9);
        }
      }
    }
  });

  it("cites a source for every service and keeps its keys unique", () => {
    const ids = CATALOGUE.map((service) => service.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const service of CATALOGUE) {
      expect(service.source.length, service.id).toBeGreaterThan(20);
      const sizes = service.sizes.map((size) => size.size);
      expect(new Set(sizes).size, service.id).toBe(sizes.length);
    }
  });
});

describe("Azure's managed sizes (impact-service evaluate)", () => {
  const azure = (meter: string) => onlyLine(runs["azure-managed-sizes"].lines, "MeterName", meter);

  it("estimates a PostgreSQL flexible server's B1ms hour as the B1ms VM's", SLOW, async () => {
    // 24 hours of B1ms (1 vCPU, 2 GiB): the Burstable tier's servers are B-series VMs
    const line = azure("B1MS");
    await expectServerHours(line, "azure", "standard_b1ms", 24);
    expect(line.warnings).toContain(
      "managed-size: Azure Database for PostgreSQL or MySQL flexible server, Burstable B1MS: 1 vCPU, 2 GiB",
    );
  });

  it("estimates a size the catalogue lacks as its provider's VM of that name, said", SLOW, async () => {
    const line = azure("B1LS");
    await expectServerHours(line, "azure", "standard_b1ls", 24);
    expect(line.warnings).toMatch(/^managed-size by shape: .* B1LS is not in the catalogue/);
  });

  it(
    "estimates App Service plans' hours as their A-series and Dsv4 servers, a Free plan as its CPU quota",
    SLOW,
    async () => {
      await expectServerHours(azure("B1"), "azure", "standard_a1_v2", 24);
      await expectServerHours(azure("P1 v3"), "azure", "d2s_v4", 48);
      // F1: 60 CPU minutes a day of a shared VM: 24 h × 60 / 1440 = 1 server-hour
      await expectServerHours(azure("F1"), "azure", "standard_a1_v2", 1);
    },
  );

  it("counts a Standard cache's primary and replica", SLOW, async () => {
    // C1: 1 vCPU; Standard: 2 nodes; 24 h × 2
    await expectServerHours(azure("C1 Cache"), "azure", "standard_a1_v2", 48);
  });

  it("names a plan the catalogue does not list with its lines and cost, never another plan", SLOW, () => {
    expect(azure("P9 v3").status).toBe(
      "not evaluated: managed-size: Azure App Service plan P9V3 is not in the catalogue",
    );
    expect(runs["azure-managed-sizes"].stderr).toContain(
      "not evaluated:\n  managed-size: Azure App Service plan P9V3 is not in the catalogue: 1 row, cost 20 EUR\n",
    );
  });

  it("reads a PostgreSQL server's storage as its SSD, three copies (LRS)", SLOW, () => {
    const storage = azure("Storage Data Stored");
    // 32 GB-months × 730 h × 3 copies = 70,080 GB-hours of SSD; × 1.2 Wh/TB-h × PUE 1.185
    expect([storage.method, storage.method_unit]).toEqual(["block-storage", "GB-hours SSD x3"]);
    close(storage.method_quantity, 32 * 730 * 3);
    close(storage.energy_kwh, 32 * 730 * 3 * 1.2e-6 * 1.185);
  });
});

describe("AWS's managed lines (impact-service evaluate)", () => {
  const cur = (id: string) => onlyLine(runs["cur-2.0-managed"].lines, "identity_line_item_id", id);

  it(
    "estimates a NAT gateway's and a load balancer's hours as a node's, said to be the catalogue's assumption",
    SLOW,
    async () => {
      for (const id of ["c5", "c7"]) {
        const line = cur(id);
        await expectServerHours(line, "aws", "m5.large", 720);
        expect(line.warnings).toContain("its size not published: the catalogue's assumption");
      }
    },
  );

  it("estimates a Redshift node's hours as the edition's node type", SLOW, () => {
    const node = cur("c9");
    expect([node.method, node.matched_instance_type, node.hours]).toEqual(["instance", "dc2.large", "720"]);
  });

  it("reads provisioned IOPS as the SSD delivering them, with the deployment's copies", SLOW, () => {
    const iops = cur("c3");
    // 3,000 IOPS-months at 3 IOPS a GiB: 1,000 GiB-months = 1,073.74 GB × 730 h × 2 (Multi-AZ)
    expect([iops.method, iops.method_unit]).toEqual(["block-storage", "GB-hours SSD x2"]);
    close(iops.method_quantity, (3000 / 3) * 1.073741824 * 730 * 2);
    expect(iops.warnings).toBe(
      "provisioned IOPS as the SSD capacity delivering them: 3 IOPS a GiB (gp2 baseline)",
    );
  });

  it(
    "names Database Insights per vCPU of a database the bill estimates, and does not estimate it twice",
    SLOW,
    () => {
      const instance = cur("c1");
      const insights = cur("c4");
      expect([instance.status, instance.matched_instance_type, instance.hours]).toEqual([
        "evaluated",
        "db.r5.large",
        "1440",
      ]);
      expect([insights.status, insights.method, insights.energy_kwh]).toEqual(["not compute", "", ""]);
      expect(runs["cur-2.0-managed"].stderr).toContain(
        "  billed per unit of another resource estimated on its own lines (the vCPUs of a database): 1 row, cost 18 USD\n",
      );
    },
  );
});

describe("warehouses, search and notebooks (impact-service evaluate)", () => {
  const cur = (id: string) => onlyLine(runs["cur-2.0-warehouses-search"].lines, "identity_line_item_id", id);

  it("estimates Redshift's RA3 nodes the editions lack as their part of a ra3.4xlarge", SLOW, async () => {
    // ra3.xlplus: 4 vCPUs and 32 GiB of ra3.4xlarge's 12 and 96 (a third): 720 h ÷ 3
    const xlplus = cur("w1");
    await expectServerHours(xlplus, "aws", "ra3.4xlarge", (720 * 4) / 12);
    expect(xlplus.warnings).toContain(
      "managed-size: Amazon Redshift RA3 node ra3.xlplus: 4 vCPUs, 32 GiB (Amazon Redshift Management Guide",
    );
    expect(xlplus.warnings).toContain("estimated as ra3.4xlarge, 33.3 % of it");
    // ra3.large, billed as an instance's hours: 2 vCPUs and 16 GiB, a sixth: 720 h ÷ 6
    await expectServerHours(cur("w2"), "aws", "ra3.4xlarge", (720 * 2) / 12);
    // A node the editions list stays its own instance hours
    expect([cur("w3").method, cur("w3").matched_instance_type, cur("w3").hours]).toEqual([
      "instance",
      "ra3.4xlarge",
      "720",
    ]);
  });

  it(
    "reads Redshift Serverless's RPU-hours as two vCPU-hours each, Aurora's ACU-hours as a quarter",
    SLOW,
    () => {
      // An RPU is 16 GB (AWS), RA3's nodes 8 GiB a vCPU: 100 RPU-hours are 200 vCPU-hours; AWS's
      // watts per vCPU at 50 % load, 0.74 + (3.5 - 0.74) / 2 W, and its PUE 1.135
      const rpu = cur("w4");
      const kwhPerVcpuHour = ((0.74 + 0.5 * (3.5 - 0.74)) / 1000) * 1.135;
      expect([rpu.status, rpu.method, rpu.method_unit]).toEqual(["evaluated", "per-vcpu", "vCPU-hours"]);
      close(rpu.method_quantity, 100 * 2);
      close(rpu.energy_kwh, 100 * 2 * kwhPerVcpuHour);
      // An ACU about 2 GiB, Aurora's db.r 8 GiB a vCPU: 100 ACU-hours are 25 vCPU-hours
      const acu = cur("w9");
      close(acu.method_quantity, 100 * 0.25);
      close(acu.energy_kwh, 100 * 0.25 * kwhPerVcpuHour);
    },
  );

  it("estimates search domains' and notebooks' instance types as the EC2 type they name", SLOW, async () => {
    for (const [id, type, hours] of [
      ["w5", "r6g.large.elasticsearch", 720],
      ["w6", "m5.large.elasticsearch", 720],
      ["w7", "t3.medium", 50],
      ["w8", "m5.xlarge", 50],
    ] as const) {
      const line = cur(id);
      expect([line.status, line.method, line.matched_instance_type], id).toEqual([
        "evaluated",
        "instance",
        type,
      ]);
      close(line.hours, hours);
      const expected = await route("aws", type, "eu-west-3", hours);
      close(line.gwp_embedded_kgco2eq, expected.embedded);
      close(line.gwp_use_kgco2eq, expected.use);
    }
  });

  it("names what no provider publishes hardware for, with its lines and cost, never a guess", SLOW, () => {
    // OpenSearch Serverless: 6 GiB an OCU and "corresponding" vCPUs, OpenSearch's instances
    // ranging from 2 to 8 GiB a vCPU; OR1, whose sizes the editions lack
    expect(cur("w10").status).toBe("not evaluated: unknown unit OCU-hours");
    expect(cur("w11").status).toBe("unknown instance type");
    expect(runs["cur-2.0-warehouses-search"].stderr).toContain(
      "  aws or1.large.search: 1 row, 720 h, cost 121 USD\n",
    );
    // Synapse's DWUs (memory per DWU published, no vCPUs or servers), Azure AI Search's units
    const azure = runs["azure-warehouses-search"];
    const meter = (name: string) => onlyLine(azure.lines, "MeterName", name);
    expect([meter("cDWU").status, meter("Standard S1 Unit").status]).toEqual(["not compute", "not compute"]);
    expect(azure.stderr).toContain("  azure Azure Synapse Analytics: 1 row, cost 2.9 EUR\n");
    expect(azure.stderr).toContain("  azure Azure Cognitive Search: 1 row, cost 6.53 EUR\n");
    // Oracle's HeatWave node and APEX hours (`1 NONE HOURS INSTANCE`): no shape named; the
    // database's storage beside them is estimated
    const oracle = runs["oci-heatwave-apex"];
    for (const sku of ["B92024", "B92911"]) {
      const line = onlyLine(oracle.lines, "cost/productSku", sku);
      expect([line.status, line.method], sku).toEqual(["not compute", ""]);
    }
    expect(onlyLine(oracle.lines, "cost/productSku", "B92426").method).toBe("block-storage");
    expect(oracle.stderr).toContain(
      "  no method reads its text (hour in 1 NONE HOURS INSTANCE): 2 rows, cost 0.37 EUR\n",
    );
  });

  it("reads an Azure SQL serverless database's vCore-hours as vCPU-hours", SLOW, () => {
    // Billed per vCore-second, exported in hours of one vCore: 37.5 vCPU-hours
    const serverless = onlyLine(runs["azure-warehouses-search"].lines, "MeterName", "vCore");
    expect([serverless.status, serverless.method]).toEqual(["evaluated", "per-vcpu"]);
    close(serverless.method_quantity, 37.5);
  });
});
