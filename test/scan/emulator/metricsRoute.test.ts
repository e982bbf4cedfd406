/**
 * The service's `/metrics` with an AWS account scanned (SCAN_AWS_REGIONS): the scan runs as the
 * command line in a child process against moto, and the route serves its gauges — cloud-scanner's
 * names, each value the hand evaluation's through the single routes, in SCAN_EDITION —, one
 * region's alone with `?aws_region=`, and answers at once while a scan waits on a region that
 * never answers.
 */
import { once } from "node:events";
import { createServer, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { send } from "../../support/http.js";
import { startTestServer, type TestServer } from "../../support/httpServer.js";
import {
  EMULATOR_CREDENTIALS,
  type HeldInstance,
  type Moto,
  runInstance,
  startMoto,
} from "../../support/moto.js";
import { ensured, INSTALL_MS } from "../../support/testTools.js";

const EDITION = "1.2.4";
const HOUR_MS = 3_600_000;
const saved = { ...process.env };
let moto: Moto;
let served: TestServer;
/** When the first scan was asked (its period ends after). */
let scanStarted: number;
const instances: HeldInstance[] = [];

/** A gauge's value in a scrape, by its name and a label's text. */
function gauge(text: string, name: string, label: string): number | undefined {
  const line = text.split("\n").find((one) => one.startsWith(`${name}{`) && one.includes(label));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(" ") + 1));
}

// moto installed (npm test installs it while the unit files run), within the install's bound
beforeAll(() => ensured("ensure-moto.sh"), INSTALL_MS);

beforeAll(async () => {
  moto = await startMoto();
  Object.assign(process.env, EMULATOR_CREDENTIALS, {
    AWS_ENDPOINT_URL: moto.url,
    AWS_EC2_METADATA_DISABLED: "true",
  });
  const now = Date.now();
  const at = [now - 20 * 60_000, now - 10 * 60_000];
  const specs = [
    { region: "eu-west-3", type: "m5.xlarge", team: "a", cpu: [40, 60] },
    { region: "eu-west-3", type: "c5.xlarge", team: "a", cpu: [10, 30] },
    { region: "eu-west-3", type: "t3.medium", team: "b", cpu: [5, 5] },
    { region: "us-east-1", type: "r5.large", team: "a", cpu: [70, 90] },
  ];
  for (const spec of specs) {
    const held = await runInstance(
      moto.url,
      spec.region,
      { type: spec.type, tags: { team: spec.team }, cpu: spec.cpu },
      at,
    );
    instances.push(held.instance);
  }
  scanStarted = Date.now();
  served = await startTestServer({
    SCAN_AWS_REGIONS: "eu-west-3,us-east-1",
    SCAN_FILTER_TAGS: "team=a",
    SCAN_EDITION: EDITION,
    SCAN_INTERVAL_SECONDS: 3600,
    SCAN_HOURS: 1,
    SCAN_TIMEOUT_SECONDS: 60,
  });
  // The first scan starts with the service; its end is the gauges' readiness.
  await served.app.scan?.scanNow();
}, 180_000);

afterAll(async () => {
  served?.app.scan?.stop();
  await served?.close();
  await moto?.stop();
  for (const key of [...Object.keys(EMULATOR_CREDENTIALS), "AWS_ENDPOINT_URL", "AWS_EC2_METADATA_DISABLED"])
    delete process.env[key];
  Object.assign(process.env, saved);
});

describe("/metrics with an account scanned", () => {
  it("serves each running instance's gauges, the hand evaluation's values in SCAN_EDITION", async () => {
    expect(served.app.scan?.latest()?.regions).toEqual(["eu-west-3", "us-east-1"]);
    const answer = await send(served.port, { path: "/metrics?aws_region=eu-west-3" });
    expect(answer.status).toBe(200);
    expect(answer.text).not.toContain("nodejs_");
    expect(answer.text).toContain(`boaviztapi_version="${EDITION}"`);
    const kept = instances.filter((instance) => instance.tags.team === "a");
    for (const instance of kept.filter((one) => one.region === "eu-west-3")) {
      const id = `resource_id="${instance.id}"`;
      // Launched 20 and 10 minutes before the scan's hour ended: the part of the hour it ran.
      const hours = gauge(answer.text, "boavizta_resource_duration_of_use_hours", id) ?? Number.NaN;
      const scannedAt =
        (gauge(answer.text, "impact_scan_timestamp_seconds", 'awsregion="eu-west-3"') ?? 0) * 1000;
      expect(hours).toBeGreaterThan((scanStarted - instance.launch) / HOUR_MS);
      expect(hours).toBeLessThanOrEqual((scannedAt - instance.launch) / HOUR_MS);
      const body = {
        provider: "aws",
        instance_type: instance.type,
        usage: {
          region: "eu-west-3",
          usage_location: "FRA",
          hours_use_time: hours,
          time_workload: (instance.cpu[0] + instance.cpu[1]) / 2,
        },
      };
      const hand = await served.app.rest({
        method: "POST",
        url: `/v1/cloud/instance?edition=${EDITION}&verbose=false&criteria=gwp&criteria=adp&criteria=pe`,
        body: JSON.stringify(body),
      });
      const impacts = (
        hand.body as { impacts: { gwp: { embedded: { value: number }; use: { value: number } } } }
      ).impacts;
      expect(gauge(answer.text, "boavizta_resource_gwp_embodied_kgco2eq", id)).toBe(
        impacts.gwp.embedded.value,
      );
      expect(gauge(answer.text, "boavizta_resource_gwp_use_kgco2eq", id)).toBe(impacts.gwp.use.value);
      expect(gauge(answer.text, "boavizta_resource_cpu_load", id)).toBe(body.usage.time_workload);
    }
    // The filtered-out instance and the other region's are not in this region's scrape.
    expect(answer.text).not.toContain(instances[2].id);
    expect(answer.text).not.toContain(instances[3].id);
    // Two instances of team a, and the root volume moto gives each.
    expect(gauge(answer.text, "boavizta_number_of_resources_total", 'awsregion="eu-west-3"')).toBe(4);
    const whole = await send(served.port, { path: "/metrics" });
    expect(whole.text).toContain("nodejs_");
    expect(whole.text).toContain(instances[3].id);
  });

  it("refuses a region it does not scan, naming the parameter", async () => {
    const answer = await send(served.port, { path: "/metrics?aws_region=eu-north-1" });
    expect(answer.status).toBe(400);
    expect(answer.json.detail).toBe(
      "aws_region eu-north-1: not a region scanned; the regions scanned are eu-west-3, us-east-1",
    );
  });

  it("answers within its bound while a scan waits on a region that never answers", async () => {
    const sockets: Socket[] = [];
    const silent: Server = createServer((socket) => sockets.push(socket));
    silent.listen(0, "127.0.0.1");
    await once(silent, "listening");
    process.env.AWS_ENDPOINT_URL = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
    const waiting = once(silent, "connection");
    const scanning = served.app.scan?.scanNow();
    process.env.AWS_ENDPOINT_URL = moto.url;
    try {
      // The readiness signal: the scan's command is connected and waiting on "AWS".
      await waiting;
      expect(served.app.scan?.running()).toBe(true);
      const started = performance.now();
      const answer = await send(served.port, { path: "/metrics?aws_region=us-east-1" });
      const took = performance.now() - started;
      expect(answer.status).toBe(200);
      expect(took).toBeLessThan(1_000);
      expect(served.app.scan?.running()).toBe(true);
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
      await scanning;
    }
  }, 120_000);
});
