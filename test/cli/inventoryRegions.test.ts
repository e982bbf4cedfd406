/**
 * An inventory's cloud regions the edition lacks (`impact-service evaluate <inventory>`): each
 * evaluated at its country's electricity factor, the billing registry's
 * (src/billing/registry/regions.ts), with a warning naming both — not at the default mix in
 * silence; a region no one knows at the default, said. The REST route still answers what the
 * reference answers for such a region (the default mix).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, describe, expect, it } from "vitest";
import { sharedApp } from "../support/app.js";
import { runMain } from "../support/cli.js";

const SLOW = { timeout: 180_000 };
const scratch = mkdtempSync(join(tmpdir(), "inventory-regions-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** AWS regions edition 2.4.1 lacks, and their countries. */
const LACKED = [
  ["eu-south-2", "ESP"],
  ["ap-south-2", "IND"],
  ["il-central-1", "ISR"],
  ["me-central-1", "ARE"],
  ["ca-west-1", "CAN"],
  ["ap-southeast-4", "AUS"],
] as const;

describe("cloud regions the edition lacks (impact-service evaluate <inventory>)", () => {
  it(
    "evaluates each at its country, as if the row named that location, with a warning naming both",
    SLOW,
    async () => {
      const lines = ["kind,provider,instance_type,region,usage_location,hours"];
      for (const [region, country] of LACKED) {
        lines.push(`cloud,aws,m5.xlarge,${region},,8760`, `cloud,aws,m5.xlarge,,${country},8760`);
      }
      lines.push(
        "cloud,aws,m5.xlarge,mars-1,,8760",
        "cloud,aws,m5.xlarge,,,8760",
        "cloud,aws,m5.xlarge,eu-west-3,,8760",
      );
      const input = join(scratch, "regions.csv");
      const output = join(scratch, "regions.out.csv");
      writeFileSync(input, `${lines.join("\n")}\n`);
      const run = await runMain(["evaluate", input, "--edition", "2.4.1", "--ranges", "-o", output]);
      expect(run.code, run.stderr).toBe(0);
      const rows = parse(readFileSync(output), { columns: true }) as Record<string, string>[];
      const impacts = (row: Record<string, string>) =>
        Object.entries(row).filter(
          ([column]) => /_(kgco2eq|kgsbeq|mj)/.test(column) || column === "energy_kwh",
        );
      for (const [index, [region, country]] of LACKED.entries()) {
        const [byRegion, byCountry] = [rows[2 * index], rows[2 * index + 1]];
        expect(byRegion.status).toBe("evaluated");
        expect(impacts(byRegion), region).toEqual(impacts(byCountry));
        expect(byRegion.warnings).toBe(
          `region ${region} is not in the edition: its country ${country}'s factor`,
        );
      }
      const [unknown, none, known] = rows.slice(-3);
      // A region no one knows: the default mix, as a row without one, said
      expect(impacts(unknown)).toEqual(impacts(none));
      expect(unknown.warnings).toBe("region mars-1 is not known: the edition's default location");
      expect(known.warnings).toBe("");
      expect(impacts(rows[0])).not.toEqual(impacts(none));
      expect(run.stderr).toContain(
        "line 2: warning: region eu-south-2 is not in the edition: its country ESP's factor",
      );
    },
  );

  it("leaves the REST route's answer for such a region as the reference's (the default mix)", async () => {
    const app = sharedApp();
    const answer = async (usage: Record<string, string>) =>
      (
        await app.rest({
          method: "POST",
          url: "/v1/cloud/instance",
          body: JSON.stringify({ provider: "aws", instance_type: "m5.xlarge", usage }),
        })
      ).body as { impacts: { gwp: { use: unknown } } };
    const lacked = await answer({ region: "eu-south-2" });
    const fallback = await answer({});
    expect(lacked.impacts.gwp.use).toEqual(fallback.impacts.gwp.use);
  });
});
