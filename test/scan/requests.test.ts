/**
 * A resource's request is described once (src/scan/requests.ts) and written twice: as the route's
 * body the estimate asks, and as the inventory row `evaluate` reads (src/scan/rows.ts). The row,
 * read by the inventory's own reading (rowLine), must ask the same route with the same body.
 */
import { describe, expect, it } from "vitest";
import { rowLine } from "../../src/cli/inventory/inventory.js";
import { intervalSeconds } from "../../src/scan/aws/cpu.js";
import { callFailure } from "../../src/scan/aws/failures.js";
import { resourceAsk, volumeMedium } from "../../src/scan/requests.js";
import { matchesFilters, type ScannedResource, tagFilterOf, tagsLabel } from "../../src/scan/resources.js";
import { scanRow } from "../../src/scan/rows.js";

const location = { aws_region: "eu-west-3", iso_country_code: "FRA" };
const instance = (load: number, loadUnknown = false): ScannedResource => ({
  resource: {
    provider: "AWS",
    id: "i-1",
    location,
    resource_details: {
      instance: { instance_type: "m5.xlarge", usage: { average_cpu_load: load, state: "running" } },
    },
    tags: [{ key: "team", value: "a" }],
  },
  hours: 0.7349,
  period: [Date.UTC(2026, 10, 1), Date.UTC(2026, 10, 1) + 0.7349 * 3_600_000],
  launched: "2026-11-01T00:00:00.000Z",
  ...(loadUnknown ? { loadUnknown } : {}),
});
const volume = (type: string, size: number | null = 100): ScannedResource => ({
  resource: {
    provider: "AWS",
    id: `vol-${type}`,
    location,
    resource_details: {
      block_storage: {
        storage_type: type,
        usage: size === null ? null : { size_gb: size },
        attached_instances: [{ instance_id: "i-1" }],
      },
    },
    tags: [],
  },
  hours: 3,
  period: null,
  launched: null,
});

describe("a resource's row asks what its request asks", () => {
  for (const [name, scanned] of [
    ["an instance with its CPU load", instance(37.25)],
    ["an instance without datapoints (the archetype's load)", instance(0, true)],
    ["an SSD volume", volume("gp3")],
    ["an HDD volume", volume("st1")],
    ["a magnetic volume", volume("standard")],
  ] as const) {
    it(name, () => {
      const ask = resourceAsk(scanned);
      const row = scanRow(scanned);
      if (!("request" in ask) || row === null) throw new Error("not evaluated");
      const line = rowLine(row);
      if (!("line" in line)) throw new Error(line.problem);
      const read = JSON.parse(line.line) as { path: string; body: unknown };
      expect(read.path.split("?")[0].replace(/\/$/, "")).toBe(ask.request.path);
      expect(read.body).toEqual(ask.request.body);
    });
  }

  it("what is not evaluated has no row and says why", () => {
    const stopped: ScannedResource = {
      ...instance(0),
      resource: {
        ...instance(0).resource,
        resource_details: {
          instance: { instance_type: "m5.xlarge", usage: { average_cpu_load: 0, state: "stopped" } },
        },
      },
    };
    const cases: [ScannedResource, string][] = [
      [stopped, "stopped: it runs nothing"],
      [volume("io9"), "volume type io9 is not one of EBS's (gp2, gp3, io1, io2, st1, sc1, standard)"],
      [volume("gp3", null), "its size is not given"],
      [
        { ...volume("gp3"), resource: { ...volume("gp3").resource, resource_details: "object_storage" } },
        "object storage is not evaluated",
      ],
      [
        { ...volume("gp3"), resource: { ...volume("gp3").resource, provider: "OVH" } },
        "provider OVH: only AWS is read",
      ],
    ];
    for (const [scanned, why] of cases) {
      expect(resourceAsk(scanned)).toEqual({ notEvaluated: why });
      expect(scanRow(scanned)).toBeNull();
    }
  });
});

describe("the scan's small rules", () => {
  it("EBS media: SSD-backed gp2, gp3, io1, io2; HDD-backed st1, sc1, standard; nothing else", () => {
    expect(["gp2", "gp3", "io1", "io2", "st1", "sc1", "standard", "io3"].map(volumeMedium)).toEqual([
      "ssd",
      "ssd",
      "ssd",
      "ssd",
      "hdd",
      "hdd",
      "hdd",
      null,
    ]);
  });

  it("tag filters: key=value (the first = splits), all must match; tags labelled as cloud-scanner labels them", () => {
    expect(tagFilterOf("env=a=b")).toEqual({ key: "env", value: "a=b" });
    expect(tagFilterOf("env")).toBeNull();
    expect(tagFilterOf("=x")).toBeNull();
    const tags = [
      { key: "team", value: "a" },
      { key: "env", value: null },
    ];
    expect(matchesFilters(tags, [{ key: "team", value: "a" }])).toBe(true);
    expect(
      matchesFilters(tags, [
        { key: "team", value: "a" },
        { key: "env", value: "prod" },
      ]),
    ).toBe(false);
    expect(tagsLabel(tags)).toBe("team:a;env:;");
  });

  it("CPU intervals: 5 minutes up to 5 days, whole hours beyond, at most 1,440 of them", () => {
    expect(intervalSeconds(3600)).toBe(300);
    expect(intervalSeconds(5 * 86_400)).toBe(300);
    expect(intervalSeconds(30 * 86_400)).toBe(3600 * 1);
    expect(intervalSeconds(366 * 86_400) / 3600).toBe(Math.ceil((366 * 86_400) / 1440 / 3600));
    expect((366 * 86_400) / intervalSeconds(366 * 86_400)).toBeLessThanOrEqual(1440);
  });

  it("a failure's words: its kind, never an access key id", () => {
    expect(callFailure({ name: "UnauthorizedOperation", message: "no" }).words).toBe(
      "denied (UnauthorizedOperation)",
    );
    expect(callFailure({ name: "Throttling", message: "x", $metadata: { attempts: 3 } }).words).toBe(
      "throttled (Throttling, 3 attempts)",
    );
    expect(callFailure({ name: "TimeoutError", code: "ETIMEDOUT" }).kind).toBe("not answering");
    expect(
      callFailure({
        name: "CredentialsProviderError",
        message: "Could not load credentials from any providers",
      }).kind,
    ).toBe("no credentials");
    const odd = callFailure({ name: "Odd", message: "key AKIAABCDEFGHIJKLMNOP refused" });
    expect(odd.words).toBe("failed (Odd: key <access key id> refused)");
  });
});
