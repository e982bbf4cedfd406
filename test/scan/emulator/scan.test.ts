/**
 * `impact-service scan aws` against a real emulator (moto, scripts/ensure-moto.sh): 3 regions, 20
 * instances of 8 types with tags, their volumes and an unattached one, CPU series put through the
 * same SDK. The scan's inventory CSV, its evaluation by `evaluate`, its estimated inventory and its
 * Prometheus gauges must each equal the hand evaluation of the same assets through the existing
 * single routes (`POST /v1/cloud/instance`, `/v1/component/{ssd,hdd}`), value by value, in the
 * edition asked; and a failing account (denied, throttled, a region that never answers, no
 * credentials) is named in one line each with what was not read, the rest evaluated.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../../src/app/main.js";
import { testConfig } from "../../support/app.js";
import { runCli, runMain } from "../../support/cli.js";
import {
  createVolume,
  EMULATOR_CREDENTIALS,
  faultProxy,
  type HeldInstance,
  type HeldVolume,
  type Moto,
  runInstance,
  startMoto,
} from "../../support/moto.js";
import { ensured, INSTALL_MS } from "../../support/testTools.js";

const EDITION = "2.4.1";
const REGIONS = ["eu-west-3", "us-east-1", "eu-central-1"] as const;
const COUNTRIES: Record<string, string> = { "eu-west-3": "FRA", "us-east-1": "USA", "eu-central-1": "DEU" };
const TYPES = [
  "m5.xlarge",
  "c5.2xlarge",
  "t3.medium",
  "r5.large",
  "m6g.xlarge",
  "c5.xlarge",
  "t2.micro",
  "m5.large",
];
const VOLUMES = [
  { type: "gp3", size: 100 },
  { type: "st1", size: 500 },
  { type: "gp2", size: 50 },
  { type: "sc1", size: 1000 },
  { type: "standard", size: 20 },
];
const HOUR_MS = 3_600_000;

let moto: Moto;
let folder: string;
const instances: HeldInstance[] = [];
const volumes: HeldVolume[] = [];
let period: [number, number];
const app = createApp(testConfig());
const saved = { ...process.env };

// moto installed (npm test installs it while the unit files run), within the install's bound
beforeAll(() => ensured("ensure-moto.sh"), INSTALL_MS);

beforeAll(async () => {
  Object.assign(process.env, EMULATOR_CREDENTIALS, { AWS_EC2_METADATA_DISABLED: "true" });
  moto = await startMoto();
  folder = mkdtempSync(join(tmpdir(), "scan-test-"));
  const now = Date.now();
  // Three datapoints 10 minutes apart, each in an interval of its own; whole percents (exact sums).
  const at = [now - 50 * 60_000, now - 40 * 60_000, now - 30 * 60_000];
  for (let k = 0; k < 20; k++) {
    const region = REGIONS[k % 3];
    const spec = {
      type: TYPES[k % 8],
      tags: { team: k % 2 === 0 ? "a" : "b", env: k % 3 === 2 ? "dev" : "prod", Name: `app-${k}` },
      ...(k % 4 === 0 ? { volume: VOLUMES[(k / 4) % 5] } : {}),
      cpu: k === 6 ? [] : [10 + k, 20 + 2 * k, 60 - k],
    };
    const held = await runInstance(moto.url, region, spec, at);
    instances.push(held.instance);
    volumes.push(...held.volumes);
  }
  volumes.push(
    await createVolume(moto.url, "eu-west-3", { type: "gp2", size: 30, tags: { team: "a", env: "prod" } }),
  );
  volumes.push(await createVolume(moto.url, "us-east-1", { type: "gp3", size: 40, tags: { team: "b" } }));
  period = [now - HOUR_MS, Date.now()];
}, 180_000);

afterAll(async () => {
  await moto?.stop();
  if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
  for (const key of Object.keys(EMULATOR_CREDENTIALS)) delete process.env[key];
  Object.assign(process.env, saved);
});

const periodText = () => period.map((time) => new Date(time).toISOString()).join("/");
const matches = (tags: Readonly<Record<string, string>>) => tags.team === "a" && tags.env === "prod";
const hoursFrom = (began: number) => (period[1] - Math.max(period[0], began)) / HOUR_MS;
const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

/** The assets the filters keep, and each one's hand request to its single route. */
function expected() {
  const kept = instances.filter((instance) => matches(instance.tags));
  const keptIds = new Set(kept.map((instance) => instance.id));
  const keptVolumes = volumes.filter(
    (volume) => (volume.attachedTo !== null && keptIds.has(volume.attachedTo)) || matches(volume.tags),
  );
  const asks = new Map<string, { path: string; body: Record<string, unknown> }>();
  for (const instance of kept) {
    const usage: Record<string, unknown> = {
      region: instance.region,
      usage_location: COUNTRIES[instance.region],
      hours_use_time: hoursFrom(instance.launch),
    };
    if (instance.cpu.length > 0) usage.time_workload = mean(instance.cpu);
    asks.set(instance.id, {
      path: "/v1/cloud/instance",
      body: { provider: "aws", instance_type: instance.type, usage },
    });
  }
  for (const volume of keptVolumes) {
    const medium = ["st1", "sc1", "standard"].includes(volume.type) ? "hdd" : "ssd";
    asks.set(volume.id, {
      path: `/v1/component/${medium}`,
      body: {
        capacity: volume.size,
        usage: {
          region: volume.region,
          usage_location: COUNTRIES[volume.region],
          hours_use_time: hoursFrom(volume.created),
        },
      },
    });
  }
  return { kept, keptVolumes, asks };
}

/** The single route's answer by hand, in the edition asked. */
async function byHand(ask: { path: string; body: Record<string, unknown> }) {
  const answer = await app.rest({
    method: "POST",
    url: `${ask.path}?edition=${EDITION}&verbose=false&criteria=gwp&criteria=adp&criteria=pe`,
    body: JSON.stringify(ask.body),
  });
  expect(answer.status).toBe(200);
  return (
    answer.body as {
      impacts: Record<string, { embedded: { value: number } | string; use: { value: number } | string }>;
    }
  ).impacts;
}

const phaseValue = (phase: { value: number } | string) => (typeof phase === "string" ? 0 : phase.value);

describe("scan aws against moto: 3 regions, 20 instances of 8 types, 2 tag filters, volumes, CPU series", () => {
  let run: Awaited<ReturnType<typeof runMain>>;
  const out = (name: string) => join(folder, name);

  beforeAll(async () => {
    run = await runMain([
      "scan",
      "aws",
      "--region",
      REGIONS.join(","),
      "--filter-tag",
      "team=a",
      "--filter-tag",
      "env=prod",
      "--endpoint",
      moto.url,
      "--period",
      periodText(),
      "--edition",
      EDITION,
      "--inventory",
      out("inventory.csv"),
      "--json",
      out("inventory.json"),
      "--estimated",
      out("estimated.json"),
      "--metrics",
      out("metrics.prom"),
    ]);
  }, 120_000);

  it("reads every matching instance and volume, and says what it read", () => {
    expect(run.stderr).toContain(
      `impact-service: aws: ${expected().kept.length} running instances and ${expected().keptVolumes.length} volumes in eu-west-3, us-east-1, eu-central-1`,
    );
    expect(run.code).toBe(0);
    expect(expected().kept.length).toBeGreaterThanOrEqual(5);
    expect(new Set(expected().kept.map((instance) => instance.type)).size).toBeGreaterThanOrEqual(3);
  });

  it("the inventory CSV holds each asset's request: type, place, hours from its launch, mean CPU load", () => {
    const rows = parse(readFileSync(out("inventory.csv")), { columns: true }) as Record<string, string>[];
    const { asks } = expected();
    expect(rows.map((row) => row.resource_id).sort()).toEqual([...asks.keys()].sort());
    for (const row of rows) {
      const { body } = asks.get(row.resource_id) as unknown as { body: { usage: Record<string, unknown> } };
      expect(Number(row.hours)).toBe(body.usage.hours_use_time);
      expect(row.usage_location).toBe(body.usage.usage_location);
      expect(row.time_workload === "" ? undefined : Number(row.time_workload)).toBe(body.usage.time_workload);
    }
    // The instance without datapoints keeps the archetype's load, and the stderr says nothing false of it.
    const silent = instances[6];
    if (matches(silent.tags))
      expect(rows.find((row) => row.resource_id === silent.id)?.time_workload).toBe("");
  });

  it("the CSV evaluated by `evaluate` equals the hand evaluation, value by value", async () => {
    const evaluated = await runMain([
      "evaluate",
      out("inventory.csv"),
      "--edition",
      EDITION,
      "--criteria",
      "gwp,adp,pe",
      "--format",
      "ndjson",
    ]);
    expect(evaluated.code).toBe(0);
    const lines = evaluated.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line))
      .filter((line) => "line" in line);
    const { asks } = expected();
    expect(lines).toHaveLength(asks.size);
    for (const line of lines) {
      const hand = await byHand(
        asks.get(line.columns.resource_id) as { path: string; body: Record<string, unknown> },
      );
      expect(line.body.impacts).toEqual(hand);
    }
  });

  it("the estimated inventory equals the hand evaluation, value by value, in the edition asked", async () => {
    const estimate = JSON.parse(readFileSync(out("estimated.json"), "utf8"));
    expect(estimate.metadata.boavizta_api_version).toBe(EDITION);
    const { asks } = expected();
    expect(estimate.impacting_resources).toHaveLength(asks.size);
    for (const item of estimate.impacting_resources) {
      const ask = asks.get(item.cloud_resource.id) as unknown as {
        path: string;
        body: { usage: { hours_use_time: number } };
      };
      const hand = await byHand(ask);
      expect(item.impacts_duration_hours).toBe(ask.body.usage.hours_use_time);
      expect(item.impacts_values).toEqual({
        gwp_manufacture_kgco2eq: phaseValue(hand.gwp.embedded),
        gwp_use_kgco2eq: phaseValue(hand.gwp.use),
        adp_manufacture_kgsbeq: phaseValue(hand.adp.embedded),
        adp_use_kgsbeq: phaseValue(hand.adp.use),
        pe_manufacture_megajoules: phaseValue(hand.pe.embedded),
        pe_use_megajoules: phaseValue(hand.pe.use),
        raw_data: null,
      });
    }
    const inventory = JSON.parse(readFileSync(out("inventory.json"), "utf8"));
    expect(inventory.resources.map((resource: { id: string }) => resource.id).sort()).toEqual(
      [...asks.keys()].sort(),
    );
  });

  it("the gauges carry cloud-scanner's names and labels, each value the hand one, each region's sums", async () => {
    const text = readFileSync(out("metrics.prom"), "utf8");
    const { kept, keptVolumes, asks } = expected();
    const rowsRegion = new Map([...kept, ...keptVolumes].map((asset) => [asset.id, asset.region]));
    const sums = new Map<string, number>();
    for (const [id, ask] of asks) {
      const hand = await byHand(ask);
      const series = text
        .split("\n")
        .find(
          (line) =>
            line.startsWith("boavizta_resource_gwp_use_kgco2eq{") && line.includes(`resource_id="${id}"`),
        );
      expect(series, id).toBeDefined();
      expect(Number(series?.slice(series.lastIndexOf(" ") + 1))).toBe(phaseValue(hand.gwp.use));
      if (ask.path === "/v1/cloud/instance") expect(series).toContain('tag_team="a",tag_env="prod"');
      const region = rowsRegion.get(id) as string;
      sums.set(region, (sums.get(region) ?? 0) + phaseValue(hand.gwp.embedded));
    }
    for (const region of REGIONS) {
      const series = text
        .split("\n")
        .find((line) => line.startsWith(`boavizta_gwp_manufacture_kgco2eq{awsregion="${region}"`));
      expect(Number(series?.slice(series.lastIndexOf(" ") + 1)), region).toBe(sums.get(region) ?? 0);
    }
    const load = kept.find((instance) => instance.cpu.length > 0) as HeldInstance;
    const loadLine = text
      .split("\n")
      .find((line) => line.startsWith("boavizta_resource_cpu_load{") && line.includes(load.id));
    expect(Number(loadLine?.slice(loadLine.lastIndexOf(" ") + 1))).toBe(mean(load.cpu));
    expect(loadLine).toContain(`instance_type="${load.type}"`);
  });
});

describe("a failing account: each failure named in one line, the rest evaluated, nothing retried forever", () => {
  it("denied, throttled and silent regions: three lines, the answering parts read", async () => {
    const proxy = await faultProxy(moto.url, {
      "eu-west-3": { DescribeVolumes: "denied" },
      "us-east-1": { GetMetricData: "throttled" },
      "eu-central-1": { "*": "silent" },
    });
    try {
      const started = Date.now();
      const run = await runMain([
        "scan",
        "aws",
        "--region",
        REGIONS.join(","),
        "--endpoint",
        proxy.url,
        "--period",
        periodText(),
        "--timeout",
        "24",
        "--edition",
        EDITION,
        "--estimated",
        "-",
      ]);
      expect(Date.now() - started).toBeLessThan(24_000);
      expect(run.stderr).toContain(
        "impact-service: eu-west-3: DescribeVolumes denied (UnauthorizedOperation): no volume of eu-west-3 read",
      );
      expect(run.stderr).toMatch(
        /impact-service: us-east-1: GetMetricData \(CloudWatch\) throttled \(Throttling, 3 attempts\): the CPU load of \d+ instances not read: the archetype's load instead/,
      );
      expect(run.stderr).toMatch(
        /impact-service: eu-central-1: DescribeInstances did not answer \(\w+(, 3 attempts)?\): nothing of eu-central-1 read/,
      );
      expect(run.code).toBe(0);
      const estimate = JSON.parse(run.stdout);
      const regions = estimate.impacting_resources.map(
        (item: { cloud_resource: { location: { aws_region: string } } }) =>
          item.cloud_resource.location.aws_region,
      );
      expect(regions.filter((region: string) => region === "eu-west-3")).toHaveLength(
        instances.filter((i) => i.region === "eu-west-3").length,
      );
      expect(regions.filter((region: string) => region === "us-east-1").length).toBeGreaterThanOrEqual(
        instances.filter((i) => i.region === "us-east-1").length,
      );
      expect(regions).not.toContain("eu-central-1");
      expect(estimate.scan.problems).toHaveLength(3);
      expect(run.stderr).not.toContain("testing");
    } finally {
      await proxy.close();
    }
  }, 60_000);

  it("no credentials: one line per region, nothing read, exit 1, no key printed", async () => {
    const empty = mkdtempSync(join(tmpdir(), "scan-home-"));
    try {
      const run = await runCli(
        ["scan", "aws", "--region", "eu-west-3", "--endpoint", moto.url, "--hours", "1", "--timeout", "10"],
        {
          AWS_ACCESS_KEY_ID: "",
          AWS_SECRET_ACCESS_KEY: "",
          AWS_PROFILE: "",
          HOME: empty,
          AWS_CONFIG_FILE: join(empty, "config"),
          AWS_SHARED_CREDENTIALS_FILE: join(empty, "credentials"),
          AWS_EC2_METADATA_DISABLED: "true",
        },
      );
      expect(run.stderr).toContain(
        "impact-service: eu-west-3: DescribeInstances no credentials (the SDK's chain found none: environment, profile, instance role): nothing of eu-west-3 read",
      );
      expect(run.code).toBe(1);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  }, 60_000);
});
