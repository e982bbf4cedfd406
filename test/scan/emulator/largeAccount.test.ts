/**
 * The service's periodic scan (SCAN_AWS_REGIONS) in the 1 GiB box as deployed (issue 95, item 6):
 * the server's bundle with `npm start`'s node flags and deploy/deployment.yaml's environment, in a
 * memory cgroup of compose.yaml's 1 GiB, `TMPDIR` on a tmpfs of its `/tmp` size
 * (test/support/containerLimits.ts), scanning 5 regions of a local fake endpoint
 * (test/support/fakeAws.ts, in this process, outside the box):
 * - 20,000 running instances a region, 100,000 in all, served in pages of 1,000 with their CPU
 *   series (the service was killed by the cgroup's OOM killer before it ever served the scan);
 * - a DescribeInstances whose answer never ends (it took the box to 793 MiB);
 * - a DescribeInstances that never answers.
 * While each scan runs, a client asks `/metrics`, `/healthz` and a small REST request back to back:
 * every one is answered, the 99th percentile under 250 ms; nothing of the box is killed for memory.
 * Every wait is on a line the service logs or an answer, never a duration.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { shippedDeployment } from "../../../bench/admission.js";
import { serviceArguments } from "../../../bench/serviceCommand.js";
import { REGION_COUNTRIES } from "../../../src/billing/registry/regions.js";
import { MAX_ANSWER_BYTES } from "../../../src/scan/aws/clients.js";
import { MAX_RESOURCE_SERIES } from "../../../src/scan/scanGauges.js";
import { sharedApp } from "../../support/app.js";
import { SERVER_BUNDLE } from "../../support/bundle.js";
import { type Contained, containerLimits } from "../../support/containerLimits.js";
import {
  FAKE_TYPES,
  type FakeAws,
  type FakeAwsOptions,
  fakeLoad,
  startFakeAws,
} from "../../support/fakeAws.js";
import { send } from "../../support/http.js";
import { EMULATOR_CREDENTIALS } from "../../support/moto.js";
import { portOf, startService } from "../../support/process.js";

const WAIT_MS = 900_000;
const REGIONS = ["eu-west-3", "us-east-1", "eu-central-1", "eu-west-1", "us-west-2"];
const PER_REGION = 20_000;
const MiB = 1024 * 1024;
/** The light requests' 99th percentile, at most (issue 95). */
const P99_MS = 250;

/** npm start's node flags (package.json, the image's entry point), on the tests' build of the bundle. */
const SHIPPED = [
  process.execPath,
  ...serviceArguments().filter((part) => part.startsWith("--")),
  SERVER_BUNDLE,
];

/** A scan's end in the service's log: its summary, or why it was stopped. */
const SCAN_ENDED = /^scan: aws: \d+ running instances|^scan of .*: (stopped|exit)/;

interface LightFigures {
  readonly answered: number;
  readonly failed: string[];
  readonly p99Ms: number;
  readonly metricsP99Ms: number;
}

const p99 = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? Number.NaN);
};

const LIGHT_CALLS = [
  { path: "/metrics" },
  { path: "/healthz" },
  { path: "/v1/server/?verbose=false", body: { model: { archetype: "dellR740" } } },
];

/**
 * `/metrics`, `/healthz` and a small REST request in turn, back to back, until `done` settles; each
 * asked once before, unmeasured (a fresh process's first answer of a kind compiles its code).
 */
async function lightClient(port: number, done: Promise<unknown>): Promise<LightFigures> {
  let finished = false;
  void done.finally(() => {
    finished = true;
  });
  for (const call of LIGHT_CALLS) await send(port, call);
  const times: number[] = [];
  const metricsTimes: number[] = [];
  const failed: string[] = [];
  const calls = LIGHT_CALLS;
  for (let turn = 0; !finished; turn += 1) {
    const call = calls[turn % calls.length];
    const started = performance.now();
    const answer = await send(port, call).catch((error: Error) => ({ status: 0, text: error.message }));
    const took = performance.now() - started;
    times.push(took);
    if (call.path === "/metrics") metricsTimes.push(took);
    if (answer.status !== 200) failed.push(`${call.path}: ${answer.status} ${answer.text.slice(0, 120)}`);
  }
  return { answered: times.length, failed, p99Ms: p99(times), metricsP99Ms: p99(metricsTimes) };
}

/** A gauge's value in a scrape, by its name and a label's text. */
function gauge(text: string, name: string, label: string): number | undefined {
  const line = text.split("\n").find((one) => one.startsWith(`${name}{`) && one.includes(label));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(" ") + 1));
}

/**
 * A region's gwp of use summed by hand as the scan sums it, instance by instance in the order read:
 * each instance's value the single route's (`POST /v1/cloud/instance`) for its type and load, for
 * the period's hour, in `edition` (its type and load repeat every 180 instances: 180 requests).
 */
async function handGwpUse(region: string, edition: string): Promise<number> {
  const cycle = 180;
  const values: number[] = [];
  for (let n = 0; n < cycle; n += 1) {
    const body = {
      provider: "aws",
      instance_type: FAKE_TYPES[n % FAKE_TYPES.length],
      usage: {
        region,
        usage_location: REGION_COUNTRIES.aws[region],
        hours_use_time: 1,
        time_workload: fakeLoad(n),
      },
    };
    const answer = await sharedApp().rest({
      method: "POST",
      url: `/v1/cloud/instance?edition=${edition}&verbose=false&criteria=gwp&criteria=adp&criteria=pe`,
      body: JSON.stringify(body),
    });
    values.push((answer.body as { impacts: { gwp: { use: { value: number } } } }).impacts.gwp.use.value);
  }
  let sum = 0;
  for (let n = 0; n < PER_REGION; n += 1) sum += values[n % cycle];
  return sum;
}

describe("the periodic scan in the 1 GiB box: the service answers, nothing is killed", () => {
  let fake: FakeAws | undefined;
  let limits: Contained | undefined;
  let service: ReturnType<typeof startService> | undefined;

  afterEach(async () => {
    service?.killAll();
    await service?.exited;
    if (limits) await vi.waitFor(() => limits?.release(), { timeout: WAIT_MS, interval: 50 });
    await fake?.close();
    service = undefined;
    limits = undefined;
    fake = undefined;
  }, WAIT_MS);

  /** The service in the box scanning the fake endpoint; the light figures of its first scan. */
  async function scanInTheBox(options: FakeAwsOptions, scanTimeoutSeconds: number) {
    fake = await startFakeAws(options);
    limits = containerLimits("tmpfs");
    service = startService(
      {
        ...shippedDeployment().env,
        TMPDIR: limits.tmp,
        ...EMULATOR_CREDENTIALS,
        AWS_EC2_METADATA_DISABLED: "true",
        AWS_ENDPOINT_URL: fake.url,
        SCAN_AWS_REGIONS: REGIONS.join(","),
        SCAN_INTERVAL_SECONDS: "86400",
        SCAN_TIMEOUT_SECONDS: String(scanTimeoutSeconds),
      },
      limits.command(SHIPPED),
    );
    const port = portOf((await service.waitFor(/^listening on /))[0]);
    const light = await lightClient(port, service.waitFor(SCAN_ENDED));
    const scrape = await send(port, { path: "/metrics" });
    // Printed for the report: what each case costs the box.
    console.info(
      `${options.instances ?? "pages"}: ${light.answered} light requests, p99 ${light.p99Ms} ms (/metrics ${light.metricsP99Ms} ms), the box's peak ${Math.round(limits.peakBytes() / MiB)} MiB`,
    );
    expect(light.failed).toEqual([]);
    expect(light.answered).toBeGreaterThan(0);
    expect(light.p99Ms).toBeLessThan(P99_MS);
    expect(light.metricsP99Ms).toBeLessThan(P99_MS);
    expect(limits.oomKills()).toBe(0);
    expect(service.child.exitCode).toBeNull();
    expect(scrape.status).toBe(200);
    return { scrape: scrape.text, lines: service.lines };
  }

  it(
    "100,000 running instances over 5 regions: served, the series bounded, /metrics answered meanwhile",
    async () => {
      const { scrape, lines } = await scanInTheBox({ instancesPerRegion: PER_REGION }, 900);
      expect(lines).toContain(
        `scan: aws: ${REGIONS.length * PER_REGION} running instances and 0 volumes in ${REGIONS.join(", ")}, ${lines
          .find((line) => line.startsWith("scan: aws: "))
          ?.split(", ")
          .at(-1)}`,
      );
      const share = MAX_RESOURCE_SERIES / REGIONS.length;
      for (const region of REGIONS) {
        const label = `awsregion="${region}"`;
        expect(gauge(scrape, "boavizta_number_of_resources_total", label)).toBe(PER_REGION);
        expect(gauge(scrape, "boavizta_number_of_resources_assessed", label)).toBe(PER_REGION);
        expect(gauge(scrape, "impact_scan_resources_not_exported", label)).toBe(PER_REGION - share);
      }
      const edition = /boaviztapi_version="([^"]+)"/.exec(scrape)?.[1] ?? "";
      for (const region of REGIONS)
        expect(gauge(scrape, "boavizta_gwp_use_kgco2eq", `awsregion="${region}"`), region).toBe(
          await handGwpUse(region, edition),
        );
      const series = scrape
        .split("\n")
        .filter((line) => line.startsWith("boavizta_resource_gwp_use_kgco2eq{"));
      expect(series.length).toBe(MAX_RESOURCE_SERIES);
    },
    WAIT_MS,
  );

  it(
    "an answer that never ends: cut at its bound in each region, said, the box's memory bounded",
    async () => {
      const { scrape, lines } = await scanInTheBox(
        { instancesPerRegion: PER_REGION, instances: "endless" },
        120,
      );
      for (const region of REGIONS) {
        expect(lines).toContain(
          `scan: ${region}: DescribeInstances answered too much (the answer passed ${MAX_ANSWER_BYTES / MiB} MiB, cut): nothing of ${region} read`,
        );
        expect(gauge(scrape, "impact_scan_problems", `awsregion="${region}"`)).toBe(1);
      }
      // What the endpoint wrote before each region's answer was cut: its bound, and the sockets' buffers.
      expect(fake?.endlessBytes()).toBeLessThan(REGIONS.length * (MAX_ANSWER_BYTES + 8 * MiB));
    },
    WAIT_MS,
  );

  it(
    "an endpoint that never answers: each region given up within the scan's time, said",
    async () => {
      const { lines } = await scanInTheBox({ instancesPerRegion: PER_REGION, instances: "silent" }, 30);
      for (const region of REGIONS)
        expect(lines).toContainEqual(
          expect.stringMatching(
            new RegExp(
              `^scan: ${region}: DescribeInstances did not answer \\(\\w+(, 3 attempts)?\\): nothing of ${region} read$`,
            ),
          ),
        );
    },
    WAIT_MS,
  );
});
