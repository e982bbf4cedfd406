/**
 * Lines decided by what they are, the same for every provider (KIND_RULES and CONTROL_PLANES, src/billing/registry/methods.ts): a
 * Kubernetes control plane's hours by the nodes behind it (EKS 5, published; a GKE zonal cluster
 * 1, a regional one 3; AKS and OKE 3, published by neither), an IP address, a DNS zone or its
 * queries and keys with a reason each, set aside as no hardware of their own, and logs a monitoring
 * service ingests as data carried. Before, EKS was estimated by its cost, OKE's `ONE HOURS CLUSTER`
 * was an unknown unit, and addresses, DNS and key management were unknown services.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluateBillingExport } from "../../src/billing/bill.js";
import { NO_HARDWARE_OF_THEIR_OWN } from "../../src/billing/registry/methods.js";
import { billingAccount } from "../../src/billing/report/runSummary.js";
import { addBilledUnits, createLineViews, createRegistryTables } from "../../src/billing/stages/classify.js";
import { readExport } from "../../src/billing/stages/read.js";
import type { BillingSummary } from "../../src/billing/stages/summarise.js";
import { openDatabase } from "../../src/duckdb/database.js";
import { billingFixture } from "../support/publicExports.js";
import { billingRequest, billingTermsOf } from "./support.js";

const scratch = mkdtempSync(join(tmpdir(), "billing-kinds-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const FIXTURE = billingFixture("arrivals/focus-kinds.csv");

/** Each line's reason as the command's views give it, by its ResourceId. */
async function reasons(): Promise<Map<string, string | null>> {
  const db = await openDatabase();
  try {
    const { connection } = db;
    const request = billingRequest(FIXTURE, join(scratch, "unused.csv"));
    const read = await readExport({ connection, request, terms: { impactColumnNames: [] } });
    await createRegistryTables(connection);
    await createLineViews(connection, read.views, true);
    await addBilledUnits(connection);
    const reader = await connection.runAndReadAll(
      "SELECT ResourceId, billing_method_warning FROM billing_methods WHERE billing_method IS NULL",
    );
    return new Map(
      reader.getRowObjects().map((row) => [String(row.ResourceId), row.billing_method_warning as string]),
    );
  } finally {
    db.close();
  }
}

type Line = Record<string, string>;
let lines: Map<string, Line>;
let summary: BillingSummary;
let why: Map<string, string | null>;

beforeAll(async () => {
  const output = join(scratch, "out.csv");
  summary = await evaluateBillingExport(
    billingTermsOf("2.4.1", { criteria: ["gwp"] }),
    billingRequest(FIXTURE, output),
  );
  const written = parse(readFileSync(output), { columns: true }) as Line[];
  lines = new Map(written.map((line) => [line.ResourceId, line]));
  why = await reasons();
}, 120_000);

const PROVIDERS = ["aws", "azure", "gcp", "oci"] as const;

describe("lines decided by their kind", () => {
  it.each([
    ["aws-control-plane", 5, "Amazon EKS"],
    ["azure-control-plane", 3, "AKS"],
    ["gcp-control-plane", 3, "GKE regional cluster"],
    ["gcp-zonal-control-plane", 1, "GKE zonal cluster"],
    ["oci-control-plane", 3, "OKE"],
  ] as const)("%s: a control plane's 720 hours are %i nodes' hours each", (id, nodes, name) => {
    const line = lines.get(id) as Line;
    expect([line.method, line.method_unit, line.status]).toEqual([
      "control-plane",
      "node-hours of a control plane",
      "evaluated",
    ]);
    expect(Number(line.method_quantity)).toBe(720 * nodes);
    expect(line.warnings).toContain(
      `control-plane: ${name}, ${nodes} node${nodes === 1 ? "" : "s"} an hour (`,
    );
    expect(line.warnings).toContain("each 2 vCPUs and 8 GiB: their size not published");
  });

  it("gives every provider's control plane the same energy a node-hour, its PUE aside", () => {
    const perNode = (id: string) => {
      const line = lines.get(id) as Line;
      return Number(line.energy_kwh) / Number(line.method_quantity);
    };
    // The vCPU-hour's watts are each provider's (CCF), the memory's alike: a node-hour is
    // 2 vCPU-hours and 8 GB-hours at its provider's figures
    const vcpu = { aws: [0.74, 3.5, 1.135], azure: [0.78, 3.76, 1.185], gcp: [0.71, 4.26, 1.1] } as const;
    for (const [provider, [min, max, pue]] of Object.entries(vcpu)) {
      const expected = ((2 * (min + 0.5 * (max - min))) / 1000 + 8 * 0.000392) * pue;
      expect(perNode(`${provider}-control-plane`), provider).toBeCloseTo(expected, 12);
    }
  });

  it.each(PROVIDERS)("%s: an address, DNS and keys are named by their kind, not estimated", (provider) => {
    const said = {
      address: "an IP address: a number the network routes to, no hardware of its own",
      dns: "DNS: a zone and its queries on the shared name servers of its provider, no hardware of their own",
      keys: "keys and secrets: held and used in the shared key stores of their provider, no hardware of their own",
    };
    for (const [kind, reason] of Object.entries(said)) {
      const id = `${provider}-${kind}`;
      expect([lines.get(id)?.method, lines.get(id)?.status], id).toEqual(["", "not compute"]);
      expect(why.get(id), id).toBe(reason);
    }
  });

  it.each(PROVIDERS.filter((provider) => provider !== "oci"))(
    "%s: logs ingested are data carried within the region",
    (provider) => {
      const line = lines.get(`${provider}-ingestion`) as Line;
      expect([line.method, line.status]).toEqual(["data-transfer", "evaluated"]);
      expect(line.method_unit).toBe("GB intra-region");
    },
  );

  it("sets them aside from the usage cost, names no unknown service, estimates nothing by cost", () => {
    const { text } = billingAccount(summary, null, null);
    expect(text).toContain(`${NO_HARDWARE_OF_THEIR_OWN} 17.93 (12 rows)`);
    expect(text).not.toContain("unknown services");
    expect(text).toContain("from its cost alone (by-cost, no quantity behind it): 0 (0.0 %)");
  });
});
