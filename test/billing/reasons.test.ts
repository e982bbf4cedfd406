/**
 * What a run says of a line is true to that line (`main`, edition 2.4.1): a GPU model named anywhere
 * in a line's text, one the registry lacks named with its lines and cost; Oracle's `OCPU HOURS` and
 * `ONE GiB HOURS MEMORY`; a DTU tier named mid-text; an unused commitment's `NULL` unit; a line
 * without a region placed at the bill's only region, said; each service named by its product
 * code's own name. Fixtures: test/fixtures/billing/arrivals/oci-gpu-and-units.csv, focus-reasons.csv,
 * cur-2.0-one-region.csv.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluatedLines, type OutputRow, onlyLine } from "../support/cli.js";
import { namesAsText } from "../support/reportHtml.js";

const SLOW = { timeout: 180_000 };
const scratch = mkdtempSync(join(tmpdir(), "billing-reasons-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const fixture = (name: string) => `test/fixtures/billing/arrivals/${name}.csv`;

const runs: Record<string, { stderr: string; lines: OutputRow[] }> = {};
beforeAll(async () => {
  for (const name of ["oci-gpu-and-units", "focus-reasons", "cur-2.0-one-region"]) {
    runs[name] = await evaluatedLines(fixture(name), join(scratch, `${name}.csv`), [
      "--criteria",
      "gwp",
      "--report",
      join(scratch, `${name}.html`),
    ]);
  }
}, 180_000);

const close = (actual: string, expected: number) =>
  expect(Math.abs(Number(actual) - expected) / Math.abs(expected)).toBeLessThan(1e-9);

// Oracle is none of CCF's three providers: its PUE 1.185, its vCPU the mean of theirs
const PUE_OTHER = 1.185;
const GIB = 1.073741824;

describe("Oracle's GPU shapes and units", () => {
  const oci = (description: string) =>
    onlyLine(runs["oci-gpu-and-units"].lines, "product/Description", description);

  it("reads `Compute - GPU Standard - A10` as A10 GPU-hours, its board power's", SLOW, () => {
    const a10 = oci("Compute - GPU Standard - A10");
    // A10: 150 W at full load, idle at 35/306 of it (CCF's ratio), 50 % load halfway:
    // 150 × 35/306 = 17.157 W; 17.157 + 0.5 × (150 − 17.157) = 83.578 W; 24 h × 0.083578 kWh × 1.185
    const idle = (150 * 35) / 306;
    const kwh = (idle + 0.5 * (150 - idle)) / 1000;
    expect([a10.method, a10.method_unit, a10.method_quantity]).toEqual([
      "accelerator",
      "GPU-hours A10",
      "24",
    ]);
    close(a10.energy_kwh, 24 * kwh * PUE_OTHER);
    expect(a10.warnings).not.toContain("GPU model");
  });

  it("names a model the registry lacks on stderr with its lines and cost", SLOW, () => {
    const other = oci("Compute - GPU Standard - B9000");
    expect(other.warnings).toContain("GPU model b9000 not in the registry: the CCF average GPU");
    expect(runs["oci-gpu-and-units"].stderr).toContain(
      "GPU-hours of no model the registry lists, read as the CCF average GPU:\n  GPU model b9000 not in the registry: 1 row, cost 9 EUR\n",
    );
  });

  it("reads `OCPU HOURS` as two vCPUs an OCPU and `ONE GiB HOURS MEMORY` as GiB-hours", SLOW, () => {
    const ocpu = oci("Compute - Standard - E4 - OCPU");
    // 10 OCPU-hours × 2 vCPUs (x86) = 20 vCPU-hours; the mean of CCF's watts per vCPU:
    // min (0.74 + 0.71 + 0.78) / 3, max (3.5 + 4.26 + 3.76) / 3, at 50 % load
    const min = (0.74 + 0.71 + 0.78) / 3;
    const max = (3.5 + 4.26 + 3.76) / 3;
    expect([ocpu.method, ocpu.method_quantity]).toEqual(["per-vcpu", "20"]);
    close(ocpu.energy_kwh, (20 * (min + 0.5 * (max - min)) * PUE_OTHER) / 1000);
    const memory = oci("Compute - Standard - E4 - Memory");
    // 160 GiB-hours = 171.80 GB-hours × 0.392 Wh
    expect(memory.method).toBe("memory");
    close(memory.method_quantity, 160 * GIB);
    close(memory.energy_kwh, 160 * GIB * 0.000392 * PUE_OTHER);
  });
});

describe("reasons true to their lines (FOCUS without extension columns)", () => {
  const focus = (description: string) =>
    runs["focus-reasons"].lines.filter((row) => row.ChargeDescription === description);

  it("reads `S0 DTUs` named mid-text as the S0 tier's DTUs", SLOW, () => {
    const [dtus] = focus("SQL Database Single Standard - S0 DTUs");
    // S0: 10 DTUs, a vCore per 100 of Standard: 0.1 vCore × 24 h
    expect([dtus.status, dtus.method, dtus.method_quantity]).toEqual(["evaluated", "per-vcpu", "2.4"]);
  });

  it("names an unused commitment's line so, its `NULL` unit no unknown unit", SLOW, () => {
    const [unused] = focus("Reservation - D2s v3");
    expect(unused.status).toBe("not compute");
    const { stderr } = runs["focus-reasons"];
    expect(stderr).toContain("  an unused commitment (no hardware ran for it): 1 row, cost 5 EUR\n");
    expect(stderr).not.toContain("NULL");
    // The service's unestimated lines each under their own why
    expect(stderr).toContain(
      "  Virtual Machines: 6.3 EUR (29.6 %), 1 row (an unused commitment (no hardware ran for it)); 1 row (a tax)\n",
    );
  });

  it("places a line without a region at the bill's only region, and says so", SLOW, () => {
    const [placed, regionless] = focus("Virtual Machines Dsv3 Series - D2s v3 - EU West");
    expect(placed.warnings).toBe("");
    expect(regionless.warnings).toBe("no region: the bill's only region of its provider, westeurope");
    // The same type and place: per hour the same impacts, 6 h against 24 h
    close(regionless.gwp_use_kgco2eq, (Number(placed.gwp_use_kgco2eq) * 6) / 24);
  });
});

describe("a one-region CUR 2.0", () => {
  const cur = (id: string) => onlyLine(runs["cur-2.0-one-region"].lines, "identity_line_item_id", id);

  it("places a transfer at its source region, product_from_region_code", SLOW, () => {
    const transfer = cur("r2");
    expect([transfer.status, transfer.method_unit, transfer.warnings]).toEqual([
      "evaluated",
      "GB inter-region",
      "",
    ]);
  });

  it(
    "places a line naming no region at the bill's only one, said on the line and in the summary",
    SLOW,
    () => {
      expect(cur("r3").warnings).toBe("no region: the bill's only region of its provider, eu-west-3");
      expect(runs["cur-2.0-one-region"].stderr).toContain(
        "places other than the line's region:\n  no region: the bill's only region of its provider, eu-west-3: 1 row, cost 1.8 USD\n",
      );
    },
  );

  it("names each product code by its own name in the report, not a line's service code's", SLOW, () => {
    const html = namesAsText(readFileSync(join(scratch, "cur-2.0-one-region.html"), "utf8"));
    const [page, data] = html.split('<script type="application/json" id="report-data">');
    expect(page).toContain("Amazon Elastic Compute Cloud");
    expect(page).not.toContain("AWS Data Transfer");
    const model = JSON.parse(data.slice(0, data.indexOf("</script>"))) as {
      rankings: Record<string, { name: string }[]>;
      cube: { columns: { name: string; values: string[] }[] };
    };
    expect(model.rankings["chart-service"].map((row) => row.name)).not.toContain("AWS Data Transfer");
    // The grouping explorer offers the bill's own columns as they are: product_servicename's cell
    // on EC2's data-transfer line is AWS Data Transfer, a value to group by, not a service's name
    const column = model.cube.columns.find((offered) => offered.name === "product_servicename");
    expect(column?.values).toContain("AWS Data Transfer");
  });
});
