/**
 * cloud-scanner's own files (../shared/public-exports/cloud-scanner/, SOURCES.md): its two sample
 * inventories evaluated by the REST route in its estimated-inventory shape, each resource's values
 * the single route's, what is not read named; its 0.x estimated sample evaluated by `evaluate`; the
 * inventory JSON a scan writes valid under its JSON schema; a body at odds with the schema a 422
 * naming the field.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { inventoryJson } from "../../src/scan/inventoryJson.js";
import { sharedApp } from "../support/app.js";
import { runMain } from "../support/cli.js";
import { PUBLIC_EXPORTS } from "../support/publicExports.js";

const app = sharedApp();
const FOLDER = join(PUBLIC_EXPORTS, "cloud-scanner");
const ROUTE = "/v1/cloud-scanner/impacts-from-arbitrary-inventory";
const sample = (name: string) => readFileSync(join(FOLDER, name), "utf8");

type Impacts = Record<string, { embedded: { value: number } | string; use: { value: number } | string }>;
const phaseValue = (phase: { value: number } | string) => (typeof phase === "string" ? 0 : phase.value);

/** The single route's answer by hand. */
async function instanceByHand(edition: string, body: unknown): Promise<Impacts> {
  const answer = await app.rest({
    method: "POST",
    url: `/v1/cloud/instance?edition=${edition}&verbose=false&criteria=gwp&criteria=adp&criteria=pe`,
    body: JSON.stringify(body),
  });
  expect(answer.status).toBe(200);
  return (answer.body as { impacts: Impacts }).impacts;
}

const sixValues = (impacts: Impacts) => ({
  gwp_manufacture_kgco2eq: phaseValue(impacts.gwp.embedded),
  gwp_use_kgco2eq: phaseValue(impacts.gwp.use),
  adp_manufacture_kgsbeq: phaseValue(impacts.adp.embedded),
  adp_use_kgsbeq: phaseValue(impacts.adp.use),
  pe_manufacture_megajoules: phaseValue(impacts.pe.embedded),
  pe_use_megajoules: phaseValue(impacts.pe.use),
  raw_data: null,
});

describe("cloud-scanner's sample inventories through the REST route", () => {
  for (const edition of ["1.2.4", "2.4.1", "2.5.0"]) {
    it(`AWS_INVENTORY.json in ${edition}: running instances evaluated as the single route, stopped ones named`, async () => {
      const answer = await app.rest({
        method: "POST",
        url: `${ROUTE}?edition=${edition}&use_duration_hours=3`,
        body: sample("AWS_INVENTORY.json"),
      });
      expect(answer.status).toBe(200);
      const body = answer.body as {
        metadata: { boavizta_api_version: string; not_read?: string[] };
        impacting_resources: {
          cloud_resource: {
            resource_details: {
              instance: { instance_type: string; usage: { average_cpu_load: number; state: string } };
            };
          };
          impacts_values: unknown;
          impacts_duration_hours: number;
          warnings?: string[];
        }[];
      };
      expect(body.metadata.boavizta_api_version).toBe(edition);
      expect(body.metadata.not_read).toEqual(["executionStatistics"]);
      expect(body.impacting_resources).toHaveLength(4);
      for (const item of body.impacting_resources) {
        const { instance_type, usage } = item.cloud_resource.resource_details.instance;
        expect(item.impacts_duration_hours).toBe(3);
        if (usage.state === "stopped") {
          expect(item.impacts_values).toBeNull();
          expect(item.warnings).toEqual(["not evaluated: stopped: it runs nothing"]);
          continue;
        }
        const hand = await instanceByHand(edition, {
          provider: "aws",
          instance_type,
          usage: {
            region: "eu-west-1",
            usage_location: "IRL",
            hours_use_time: 3,
            time_workload: usage.average_cpu_load,
          },
        });
        expect(item.impacts_values).toEqual(sixValues(hand));
      }
    });
  }

  it("AWS_INVENTORY_FORMATTED.json: its camelCase date named as not read", async () => {
    const answer = await app.rest({
      method: "POST",
      url: ROUTE,
      body: sample("AWS_INVENTORY_FORMATTED.json"),
    });
    expect(answer.status).toBe(200);
    expect((answer.body as { metadata: { not_read: string[] } }).metadata.not_read).toEqual([
      "metadata.inventoryDate",
    ]);
  });

  it("a body at odds with the schema, or a bad parameter: a 422 naming the field", async () => {
    const bad = JSON.parse(sample("AWS_INVENTORY.json"));
    bad.resources[1].resource_details.instance.usage.state = "hibernated";
    const answer = await app.rest({ method: "POST", url: ROUTE, body: JSON.stringify(bad) });
    expect(answer.status).toBe(422);
    const [detail] = (answer.body as { detail: { loc: unknown[] }[] }).detail;
    expect(detail.loc.slice(0, 3)).toEqual(["body", "resources", 1]);
    const none = await app.rest({ method: "POST", url: ROUTE, body: "{}" });
    expect(none.status).toBe(422);
    expect((none.body as { detail: { loc: unknown[] }[] }).detail[0].loc).toEqual(["body", "resources"]);
    const hours = await app.rest({
      method: "POST",
      url: `${ROUTE}?use_duration_hours=-2`,
      body: sample("AWS_INVENTORY.json"),
    });
    expect(hours.status).toBe(422);
    expect((hours.body as { detail: { loc: unknown[] }[] }).detail[0].loc).toEqual([
      "query",
      "use_duration_hours",
    ]);
  });
});

describe("cloud-scanner's files on the command line", () => {
  it("its 0.x estimated sample: each instance evaluated again from the usage it was asked, the rest named", async () => {
    const run = await runMain(["evaluate", join(FOLDER, "sample_result.json"), "--edition", "2.5.0"]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      "sample_result.json: not read: instances[].impacts (evaluated again from each instance's type and the usage its verbose was asked",
    );
    const estimate = JSON.parse(run.stdout);
    const [item] = estimate.impacting_resources;
    expect(item.impacts_duration_hours).toBe(2);
    expect(item.cloud_resource.resource_details.instance).toEqual({
      instance_type: "a1.4xlarge",
      usage: { average_cpu_load: 50, state: "running" },
    });
    const hand = await instanceByHand("2.5.0", {
      provider: "aws",
      instance_type: "a1.4xlarge",
      usage: { usage_location: "FRA", hours_use_time: 2, time_workload: 50 },
    });
    expect(item.impacts_values).toEqual(sixValues(hand));
  });

  it("its inventory, with --hours; a misused option refused", async () => {
    const run = await runMain([
      "evaluate",
      join(FOLDER, "AWS_INVENTORY.json"),
      "--hours",
      "24",
      "--edition",
      "1.2.4",
    ]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("AWS_INVENTORY.json: not read: executionStatistics");
    expect(run.stderr).toContain("i-033df52f12f30ca66: not evaluated: stopped: it runs nothing");
    expect(run.stderr).toContain("AWS_INVENTORY.json: 4 resources (2 evaluated, 2 not) in edition 1.2.4");
    expect(JSON.parse(run.stdout).impacting_resources[0].impacts_duration_hours).toBe(24);
    const misused = await runMain(["evaluate", join(FOLDER, "AWS_INVENTORY.json"), "--group-by", "team"]);
    expect(misused.code).toBe(2);
    expect(misused.stderr).toContain("--group-by is not for a cloud-scanner inventory");
  });

  it("the inventory JSON a scan writes is valid under cloud-scanner's own schema", () => {
    const schema = JSON.parse(sample("INVENTORY_JSON_SCHEMA.json"));
    const validate = new Ajv({ strict: false, validateFormats: false }).compile(schema);
    const written = inventoryJson(
      [
        {
          resource: {
            provider: "AWS",
            id: "i-1",
            location: { aws_region: "eu-west-3", iso_country_code: "FRA" },
            resource_details: {
              instance: { instance_type: "m5.xlarge", usage: { average_cpu_load: 12.5, state: "running" } },
            },
            tags: [{ key: "team", value: "a" }],
          },
          hours: 1,
          period: null,
          launched: null,
        },
        {
          resource: {
            provider: "AWS",
            id: "vol-1",
            location: { aws_region: "eu-west-3", iso_country_code: "FRA" },
            resource_details: {
              block_storage: {
                storage_type: "gp3",
                usage: { size_gb: 100 },
                attached_instances: [{ instance_id: "i-1" }],
              },
            },
            tags: [],
          },
          hours: 1,
          period: null,
          launched: null,
        },
      ],
      "impact-service 0.2.0",
      "2026-11-27T00:00:00.000Z",
    );
    expect(validate(JSON.parse(JSON.stringify(written))), JSON.stringify(validate.errors)).toBe(true);
  });
});
