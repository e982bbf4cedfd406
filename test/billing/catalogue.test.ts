/**
 * Managed services read by what their provider sells (src/billing/registry/catalogue.ts), through
 * the command (`main`, edition 2.4.1), each estimate against the single route's evaluation of the
 * server standing for the size (routeRaw) × the hours the hand computation gives: a database's
 * hour (Azure PostgreSQL flexible B1ms), an app plan's hour (App Service B1, P1v3, the Free plan's
 * CPU quota), a cache's two nodes, a NAT gateway's hour; a size the catalogue lacks by its VM's
 * shape or named; a database's storage with its copies; a charge per vCPU of a database estimated
 * on its own lines named, not estimated twice. Fixtures: test/fixtures/billing/arrivals/
 * azure-managed-sizes.csv, cur-2.0-managed.csv.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATALOGUE } from "../../src/billing/registry/catalogue.js";
import { coefficientCriteria } from "../../src/service/coefficients.js";
import { evaluatedLines, type OutputRow, onlyLine } from "../support/cli.js";
import { editionContext, routeRaw } from "./support.js";

const SLOW = { timeout: 180_000 };
const scratch = mkdtempSync(join(tmpdir(), "billing-catalogue-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const fixture = (name: string) => `test/fixtures/billing/arrivals/${name}.csv`;

const runs: Record<string, { stderr: string; lines: OutputRow[] }> = {};
beforeAll(async () => {
  for (const name of ["azure-managed-sizes", "cur-2.0-managed"]) {
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
  it("names a server of the editions, of the size's vCPUs, for every size it lists", () => {
    for (const edition of ["2.4.1", "2.5.0"]) {
      const context = editionContext(edition);
      for (const service of CATALOGUE) {
        const table = context.service.data.cloudInstances.get(service.provider);
        for (const size of service.sizes) {
          const server = table?.byId.get(size.server);
          expect(server, `${edition} ${service.id} ${size.size}: ${size.server}`).toBeDefined();
          expect(Number(server?.cells.vcpu?.default), `${service.id} ${size.size}`).toBe(size.vcpus);
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
