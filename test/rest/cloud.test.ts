/**
 * The v1 cloud routes through the REST shim (docs/methodology.md §8, §15, §16, §18.5, Appendix C).
 */
import { describe, expect, it } from "vitest";
import { sharedApp } from "../support/app.js";
import { ARCHETYPE_LIFETIME_HOURS } from "../support/fixtures.js";
import { END_OF_LIFE_WARNING as EOL, UNCERTAINTY_WARNING as UNCERTAINTY } from "../support/warnings.js";

const app = sharedApp();

// biome-ignore lint/suspicious/noExplicitAny: v1 JSON answers are checked field by field
type Json = any;

async function call(method: string, url: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const answer = await app.rest({ method, url, body: body === undefined ? "" : JSON.stringify(body) });
  return { status: answer.status, body: answer.body };
}

type Triple = readonly [number, number, number];

/** An embedded phase as the v1 API answers it: always the end-of-life warning. */
function embedded([value, min, max]: Triple) {
  return { value, min, max, warnings: [EOL] };
}

/** A use phase: no `warnings` key unless the uncertainty warning applies. */
function use([value, min, max]: Triple, uncertain = false) {
  return uncertain ? { value, min, max, warnings: [UNCERTAINTY] } : { value, min, max };
}

/** `actual` within `tolerance` (relative) of `expected`: for values rounded to 4 significant figures. */
function expectRelative(actual: number, expected: number, tolerance = 2e-3): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(tolerance * Math.abs(expected));
}

function attribute(verbose: Json, name: string): Json {
  expect(verbose, `verbose has ${name}`).toHaveProperty([name]);
  return verbose[name];
}

describe("§18.5: GET /v1/cloud/instance?provider=aws&instance_type=a1.4xlarge&verbose=false", () => {
  it("answers the worked example exactly", async () => {
    const { status, body } = await call(
      "GET",
      "/v1/cloud/instance?provider=aws&instance_type=a1.4xlarge&verbose=false",
    );
    expect(status).toBe(200);
    expect(body).toEqual({
      impacts: {
        gwp: {
          unit: "kgCO2eq",
          description: "Total climate change",
          embedded: embedded([460, 260.5, 635.6]),
          use: use([700, 37.73, 2475]),
        },
        adp: {
          unit: "kgSbeq",
          description: "Use of minerals and fossil ressources",
          embedded: embedded([0.099, 0.06512, 0.1414]),
          use: use([0.00012, 2.172e-5, 0.0005809]),
        },
        pe: {
          unit: "MJ",
          description: "Consumption of primary energy",
          embedded: embedded([6400, 3564, 8833]),
          use: use([20000, 21.33, 1024000], true),
        },
      },
    });
  });

  it("POST /v1/cloud/instance with {} defaults to aws / a1.4xlarge (same answer)", async () => {
    const get = await call("GET", "/v1/cloud/instance?provider=aws&instance_type=a1.4xlarge&verbose=false");
    const post = await call("POST", "/v1/cloud/instance?verbose=false", {});
    expect(post.status).toBe(200);
    expect(post.body).toEqual(get.body);
  });

  it("GET without provider nor instance type also defaults to aws / a1.4xlarge", async () => {
    const { status, body } = await call("GET", "/v1/cloud/instance?verbose=false");
    expect(status).toBe(200);
    expect(body.impacts.gwp.embedded).toEqual(embedded([460, 260.5, 635.6]));
  });
});

interface MatrixRow {
  readonly name: string;
  readonly method: "GET" | "POST";
  readonly url: string;
  readonly body?: unknown;
  readonly gwp: readonly [Triple, Triple];
  readonly adp: readonly [Triple, Triple];
  readonly pe: readonly [Triple, Triple];
  /** Phases carrying the uncertainty warning (use only, in these rows). */
  readonly uncertainUse?: readonly ("gwp" | "adp" | "pe")[];
}

const C5A_LIST = [
  { time_percentage: 50, load_percentage: 0 },
  { time_percentage: 25, load_percentage: 60 },
  { time_percentage: 25, load_percentage: 100 },
];

/** Appendix C, production columns (the original test inputs). */
const APPENDIX_C: readonly MatrixRow[] = [
  {
    name: "a1.2xlarge",
    method: "GET",
    url: "/v1/cloud/instance?provider=aws&instance_type=a1.2xlarge&verbose=false",
    gwp: [
      [230, 130.3, 317.8],
      [300, 18.87, 1238],
    ],
    adp: [
      [0.049, 0.03256, 0.07069],
      [6e-5, 1.086e-5, 0.0002905],
    ],
    pe: [
      [3200, 1782, 4416],
      [10000, 10.66, 512000],
    ],
  },
  {
    name: "m6g.xlarge",
    method: "GET",
    url: "/v1/cloud/instance?provider=aws&instance_type=m6g.xlarge&verbose=false",
    gwp: [
      [55, 31.52, 89.18],
      [200, 11.18, 733.3],
    ],
    adp: [
      [0.0075, 0.005075, 0.01088],
      [3e-5, 6.435e-6, 0.0001721],
    ],
    pe: [
      [730, 415.6, 1167],
      [10000, 6.318, 303400],
    ],
  },
  {
    name: "r5ad.12xlarge",
    method: "GET",
    url: "/v1/cloud/instance?provider=aws&instance_type=r5ad.12xlarge&verbose=false",
    gwp: [
      [1000, 554.4, 1878],
      [4000, 214, 14040],
    ],
    adp: [
      [0.086, 0.06296, 0.1252],
      [0.0007, 0.0001232, 0.003295],
    ],
    pe: [
      [13000, 7126, 23790],
      [100000, 121, 5808000],
    ],
  },
  {
    name: "c5a.24xlarge, time_workload list",
    method: "POST",
    url: "/v1/cloud/instance?verbose=false",
    body: { provider: "aws", instance_type: "c5a.24xlarge", usage: { time_workload: C5A_LIST } },
    gwp: [
      [810, 482.6, 1239],
      [4000, 193.2, 12680],
    ],
    adp: [
      [0.124, 0.08627, 0.1744],
      [0.0006, 0.0001112, 0.002975],
    ],
    pe: [
      [10800, 6434, 16400],
      [100000, 109.2, 5244000],
    ],
  },
  {
    name: "c5a.24xlarge, time_workload 100",
    method: "POST",
    url: "/v1/cloud/instance?verbose=false",
    body: { provider: "aws", instance_type: "c5a.24xlarge", usage: { time_workload: 100 } },
    gwp: [
      [810, 482.6, 1239],
      [6000, 329.2, 21590],
    ],
    adp: [
      [0.124, 0.08627, 0.1744],
      [0.001, 0.0001895, 0.005068],
    ],
    pe: [
      [10800, 6434, 16400],
      [200000, 186.1, 8934000],
    ],
  },
  {
    name: "c5a.24xlarge, duration=1",
    method: "GET",
    url: "/v1/cloud/instance?provider=aws&instance_type=c5a.24xlarge&duration=1&verbose=false",
    gwp: [
      [0.023, 0.01377, 0.03536],
      [0.13, 0.007287, 0.478],
    ],
    adp: [
      [3.5e-6, 2.462e-6, 4.977e-6],
      [2e-8, 4.195e-9, 1.122e-7],
    ],
    pe: [
      [0.31, 0.1836, 0.4681],
      [5, 0.004119, 197.8],
    ],
    uncertainUse: ["pe"],
  },
  {
    name: "a1.4xlarge, FRA, 50 % at 0 + 50 % at 50, duration=2",
    method: "POST",
    url: "/v1/cloud/instance?verbose=false&duration=2",
    body: {
      provider: "aws",
      instance_type: "a1.4xlarge",
      usage: {
        usage_location: "FRA",
        time_workload: [
          { time_percentage: 50, load_percentage: 0 },
          { time_percentage: 50, load_percentage: 50 },
        ],
      },
    },
    gwp: [
      [0.026, 0.01487, 0.03628],
      [0.0069, 0.006218, 0.008291],
    ],
    adp: [
      [5.6e-6, 3.717e-6, 8.07e-6],
      [3.4e-9, 3.082e-9, 4.11e-9],
    ],
    pe: [
      [0.36, 0.2034, 0.5041],
      [0.79, 0.7163, 0.955],
    ],
  },
];

describe("Appendix C cloud rows (production)", () => {
  it.each(APPENDIX_C)("$name", async (row) => {
    const { status, body } = await call(row.method, row.url, row.body);
    expect(status).toBe(200);
    for (const criterion of ["gwp", "adp", "pe"] as const) {
      const [emb, u] = row[criterion];
      expect(body.impacts[criterion].embedded, `${criterion} embedded`).toEqual(embedded(emb));
      expect(body.impacts[criterion].use, `${criterion} use`).toEqual(
        use(u, row.uncertainUse?.includes(criterion) ?? false),
      );
    }
  });
});

describe("POST /v1/cloud/instance with a usage", () => {
  it("usage_location FRA (criteria=gwp, verbose): the French factor and the instance power", async () => {
    const { status, body } = await call("POST", "/v1/cloud/instance?criteria=gwp", {
      provider: "aws",
      instance_type: "m5.xlarge",
      usage: { usage_location: "FRA" },
    });
    expect(status).toBe(200);
    expect(Object.keys(body.impacts)).toEqual(["gwp"]);
    expect(body.impacts.gwp.embedded).toEqual(embedded([48, 27.84, 80.11]));
    expect(body.impacts.gwp.use).toEqual(use([89, 80.38, 107.2]));
    const verbose = body.verbose;
    expect(attribute(verbose, "usage_location")).toEqual({
      value: "FRA",
      status: "INPUT",
      unit: "CodSP3 - NCS Country Codes - NATO",
    });
    const power = attribute(verbose, "avg_power");
    expect(power.status).toBe("COMPLETED");
    expect(power.unit).toBe("W");
    expect(power.value).toBeCloseTo(25.94475333333333, 9);
    expect(power.min).toBeCloseTo(23.4088, 9);
    expect(power.max).toBeCloseTo(31.21173333333333, 9);
    // The usage reaches the platform's components: CPU-1 reads the French factor too.
    const cpuFactor = verbose["CPU-1"].gwp_factor;
    expect(cpuFactor).toMatchObject({ value: 0.098, status: "COMPLETED", min: 0.098, max: 0.098 });
    expect(verbose["CPU-1"].usage_location).toMatchObject({ value: "FRA", status: "INPUT" });
  });

  it("use_time_ratio 0.5 is accepted (the reference's answer: the platform's ratio drives use)", async () => {
    const { status, body } = await call("POST", "/v1/cloud/instance?verbose=false", {
      provider: "aws",
      instance_type: "m5.xlarge",
      usage: { use_time_ratio: 0.5 },
    });
    expect(status).toBe(200);
    expect(body.impacts.gwp.embedded).toEqual(embedded([48, 27.84, 80.11]));
    expect(body.impacts.gwp.use).toEqual(use([170, 9.433, 618.8]));
    expect(body.impacts.pe.embedded).toEqual(embedded([630, 365.7, 1038]));
  });

  it("a time_workload list shows in verbose with the v1 spelling", async () => {
    const { status, body } = await call("POST", "/v1/cloud/instance", {
      provider: "aws",
      instance_type: "c5a.24xlarge",
      usage: { time_workload: C5A_LIST },
    });
    expect(status).toBe(200);
    expect(body.impacts.gwp.use).toEqual(use([4000, 193.2, 12680]));
    const workload = body.verbose["CPU-1"].time_workload;
    expect(workload.status).toBe("INPUT");
    expect(workload.value).toEqual(C5A_LIST);
  });

  it("a POST without instance_type defaults to a1.4xlarge; with another provider spelling fails 404", async () => {
    const defaulted = await call("POST", "/v1/cloud/instance?verbose=false", { provider: "aws" });
    expect(defaulted.status).toBe(200);
    expect(defaulted.body.impacts.gwp.embedded).toEqual(embedded([460, 260.5, 635.6]));
    const other = await call("POST", "/v1/cloud/instance?verbose=false", {
      provider: "gcp",
      instance_type: "a1.4xlarge",
    });
    expect(other.status).toBe(404);
    expect(other.body.detail).toContain("a1.4xlarge");
    expect(other.body.detail).toContain("gcp");
  });
});

describe("verbose", () => {
  it("a1.4xlarge: instance attributes, platform components and the power of §18.5", async () => {
    const { status, body } = await call("GET", "/v1/cloud/instance?provider=aws&instance_type=a1.4xlarge");
    expect(status).toBe(200);
    const verbose = body.verbose;
    expect(verbose.duration).toEqual({ value: ARCHETYPE_LIFETIME_HOURS, unit: "hours" });
    expect(attribute(verbose, "vcpu")).toEqual({ value: 16, status: "ARCHETYPE" });
    expect(attribute(verbose, "memory")).toEqual({ value: 32, status: "ARCHETYPE", unit: "GB" });
    expect(attribute(verbose, "units")).toEqual({ value: 1, status: "ARCHETYPE", min: 1, max: 1 });
    // a1.metal has no disk: neither storage attribute is read.
    expect(verbose.ssd_storage).toBeUndefined();
    expect(verbose.hdd_storage).toBeUndefined();
    for (const key of ["ASSEMBLY-1", "CPU-1", "RAM-1", "POWER_SUPPLY-1", "CASE-1", "MOTHERBOARD-1"]) {
      expect(verbose, key).toHaveProperty([key]);
    }
    expect(verbose["SSD-1"]).toBeUndefined();
    expect(verbose["HDD-1"]).toBeUndefined();
    const power = attribute(verbose, "avg_power");
    expect(power.value).toBeCloseTo(51.88995, 9);
    expect(power.min).toBeCloseTo(46.818, 9);
    expect(power.max).toBeCloseTo(62.424, 9);
    expect(attribute(verbose, "hours_life_time")).toMatchObject({
      value: ARCHETYPE_LIFETIME_HOURS,
      status: "COMPLETED",
      source: "from device",
    });
    // s_cpu = 16 / (16 × 1) = 1: CPU-1 is the whole host CPU (§18.5: 21.157, 13.1785, 46.767).
    const cpu = verbose["CPU-1"];
    expect(cpu.impacts.gwp.embedded).toEqual(embedded([21, 13.18, 46.77]));
    expect(cpu.name).toMatchObject({ value: "Annapurna Labs Graviton", status: "COMPLETED" });
    expect(cpu.tdp).toMatchObject({ value: 40 });
    expect(cpu.threads).toMatchObject({ value: 16 });
    expect(cpu.avg_power.value).toBeCloseTo(29.927, 9);
    // RAM 2 × 16 GB, s_ram = 1: 2 × (16 / 1.2443636 × 2.2 + 5.22) = 67.015102 (40.082105, 123.08).
    expect(verbose["RAM-1"].impacts.gwp.embedded).toEqual(embedded([67, 40.08, 123.1]));
    expect(verbose["RAM-1"].avg_power.value).toBeCloseTo(9.088, 9);
  });

  it("r5ad.12xlarge: components are the host's shares (CPU 48/128, RAM 384/768, SSD 1800/3600)", async () => {
    const cloud = await call("GET", "/v1/cloud/instance?provider=aws&instance_type=r5ad.12xlarge");
    const host = await call("GET", "/v1/server/?archetype=r5ad.24xlarge");
    expect(cloud.status).toBe(200);
    expect(host.status).toBe(200);
    const verbose = cloud.body.verbose;
    expect(attribute(verbose, "vcpu")).toEqual({ value: 48, status: "ARCHETYPE" });
    expect(attribute(verbose, "memory")).toEqual({ value: 384, status: "ARCHETYPE", unit: "GB" });
    expect(attribute(verbose, "ssd_storage")).toMatchObject({ value: 1800, status: "ARCHETYPE", unit: "GB" });
    const power = attribute(verbose, "avg_power");
    expect(power.value).toBeCloseTo(294.31038, 9);
    expect(power.min).toBeCloseTo(265.5432, 9);
    expect(power.max).toBeCloseTo(354.0576, 9);
    expect(verbose["CPU-1"].avg_power.value).toBeCloseTo(112.23, 9);
    expect(verbose["RAM-1"].avg_power.value).toBeCloseTo(109.056, 9);

    const shares = { "CPU-1": 48 / 128, "RAM-1": 384 / 768, "SSD-1": 1800 / 3600 } as const;
    for (const [key, share] of Object.entries(shares)) {
      for (const criterion of ["gwp", "adp", "pe"]) {
        const mine = verbose[key].impacts[criterion].embedded;
        const whole = host.body.verbose[key].impacts[criterion].embedded;
        // min and max are rounded to 4 significant figures on both sides.
        expectRelative(mine.min, whole.min * share);
        expectRelative(mine.max, whole.max * share);
      }
    }
    // Components without a share of their own take the CPU share (§8.3).
    for (const key of ["CASE-1", "MOTHERBOARD-1"]) {
      const mine = verbose[key].impacts.gwp.embedded;
      const whole = host.body.verbose[key].impacts.gwp.embedded;
      expectRelative(mine.min, whole.min * shares["CPU-1"]);
      expectRelative(mine.max, whole.max * shares["CPU-1"]);
    }
  });
});

describe("verbose HDD capacity (docs/methodology.md §4.5: min = max = the archetype default)", () => {
  it.each([
    ["d2.8xlarge", 24, 2000, 48000],
    ["d3en.2xlarge", 24, 14000, 56000],
  ])(
    "%s: the host HDD capacity read for the storage share shows its bounds",
    async (type, units, capacity, storage) => {
      const { status, body } = await call(
        "GET",
        `/v1/cloud/instance?provider=aws&instance_type=${type}&criteria=gwp`,
      );
      expect(status).toBe(200);
      expect(attribute(body.verbose, "hdd_storage")).toEqual({
        value: storage,
        status: "ARCHETYPE",
        unit: "GB",
      });
      expect(body.verbose["HDD-1"].capacity).toEqual({
        value: capacity,
        status: "ARCHETYPE",
        unit: "GB",
        min: capacity,
        max: capacity,
      });
      expect(body.verbose["HDD-1"].units).toMatchObject({ value: units, status: "ARCHETYPE" });
    },
  );

  it("the server route does not read the HDD capacity (not shown)", async () => {
    const { body } = await call("GET", "/v1/server/?archetype=platform_hddstorage_high&criteria=gwp");
    expect(body.verbose["HDD-1"].capacity).toBeUndefined();
  });
});

describe("listings", () => {
  it("all_providers", async () => {
    expect(await call("GET", "/v1/cloud/instance/all_providers")).toEqual({ status: 200, body: ["aws"] });
  });

  it("all_instances?provider=aws: 966 ids in file order", async () => {
    const { status, body } = await call("GET", "/v1/cloud/instance/all_instances?provider=aws");
    expect(status).toBe(200);
    expect(body).toHaveLength(966);
    expect(body.slice(0, 6)).toEqual([
      "a1.medium",
      "a1.large",
      "a1.xlarge",
      "a1.2xlarge",
      "a1.4xlarge",
      "a1.metal",
    ]);
    expect(new Set(body).size).toBe(966);
  });

  it("all_instances?provider=nope: 404 naming the provider", async () => {
    const { status, body } = await call("GET", "/v1/cloud/instance/all_instances?provider=nope");
    expect(status).toBe(404);
    expect(body).toEqual({ detail: "No available data for this cloud provider (nope)" });
  });

  it("instance_config: the parsed aws.csv row", async () => {
    const { status, body } = await call(
      "GET",
      "/v1/cloud/instance/instance_config?provider=aws&instance_type=a1.4xlarge",
    );
    expect(status).toBe(200);
    expect(body).toEqual({
      vcpu: { default: 16 },
      memory: { default: 32 },
      ssd_storage: { default: 0 },
      hdd_storage: { default: 0 },
      gpu_units: { default: 0 },
      platform: { default: "a1.metal" },
      source: {},
    });
    const c5 = await call("GET", "/v1/cloud/instance/instance_config?provider=aws&instance_type=c5.large");
    expect(c5.body.platform).toEqual({ default: "c5.18xlarge" });
    expect(c5.body.vcpu).toEqual({ default: 2 });
  });

  it("instance_config of an unknown instance: 404 naming instance and provider", async () => {
    const { status, body } = await call(
      "GET",
      "/v1/cloud/instance/instance_config?provider=aws&instance_type=zz.large",
    );
    expect(status).toBe(404);
    expect(body.detail).toContain("zz.large");
    expect(body.detail).toContain("aws");
  });
});

describe("errors and robustness", () => {
  it("unknown instance type: 404 naming instance and provider (GET and POST)", async () => {
    const get = await call("GET", "/v1/cloud/instance?provider=aws&instance_type=zz.large");
    expect(get.status).toBe(404);
    expect(get.body.detail).toContain("zz.large");
    expect(get.body.detail).toContain("aws");
    const post = await call("POST", "/v1/cloud/instance", { provider: "aws", instance_type: "zz.large" });
    expect(post.status).toBe(404);
    expect(post.body.detail).toContain("zz.large");
    expect(post.body.detail).toContain("aws");
  });

  it("GET /v1/cloud/aws?instance_type=m5.large: the provider from the path", async () => {
    const byPath = await call("GET", "/v1/cloud/aws?instance_type=m5.large&verbose=false");
    expect(byPath.status).toBe(200);
    expect(byPath.body.impacts.gwp.embedded).toEqual(embedded([24, 13.92, 40.05]));
    expect(byPath.body.impacts.gwp.use).toEqual(use([170, 9.433, 618.8]));
    const byQuery = await call("GET", "/v1/cloud/instance?provider=aws&instance_type=m5.large&verbose=false");
    expect(byPath.body).toEqual(byQuery.body);
    const unknown = await call("GET", "/v1/cloud/nope?instance_type=m5.large");
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toContain("nope");
  });

  // §8.6: the reference answers HTTP 500 for these (missing platform row, zero CPU units, zero HDD
  // capacity, CPU name without specs). The service may answer or refuse, but never fail.
  const REFERENCE_FAILURES = [
    "g3.4xlarge",
    "g3s.xlarge",
    "m1.small",
    "db.m1.small",
    "m7gd.large",
    "is4gen.xlarge",
    "ra3.4xlarge",
    "ra3.16xlarge",
    "mac2.metal",
  ];

  it.each(REFERENCE_FAILURES)("%s answers 200 or 4xx, never 5xx (GET and POST)", async (instance) => {
    const listed = await call("GET", "/v1/cloud/instance/all_instances?provider=aws");
    expect(listed.body).toContain(instance);
    const get = await call("GET", `/v1/cloud/instance?provider=aws&instance_type=${instance}&verbose=false`);
    const post = await call("POST", "/v1/cloud/instance", { provider: "aws", instance_type: instance });
    for (const answer of [get, post]) {
      expect(answer.status).toBeLessThan(500);
      if (answer.status !== 200) continue;
      for (const criterion of ["gwp", "adp", "pe"]) {
        for (const phase of ["embedded", "use"]) {
          const outcome = answer.body.impacts[criterion][phase];
          if (outcome === "not implemented") continue;
          expect([outcome.value, outcome.min, outcome.max].every(Number.isFinite)).toBe(true);
          expect(outcome.min).toBeLessThanOrEqual(outcome.max);
        }
      }
    }
  });

  it("every listed instance type answers 200 or 4xx with finite impacts", async () => {
    const { body: ids } = await call("GET", "/v1/cloud/instance/all_instances?provider=aws");
    const failures: string[] = [];
    for (const id of ids as string[]) {
      const url = `/v1/cloud/instance?provider=aws&instance_type=${encodeURIComponent(id)}&verbose=false&criteria=gwp`;
      const { status, body } = await call("GET", url);
      if (status >= 500) failures.push(`${id}: ${status}`);
      if (status !== 200) continue;
      for (const phase of ["embedded", "use"]) {
        const outcome = body.impacts.gwp[phase];
        if (
          outcome !== "not implemented" &&
          ![outcome.value, outcome.min, outcome.max].every(Number.isFinite)
        ) {
          failures.push(`${id}: non-finite gwp ${phase}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it("an invalid usage field is a 422 (like the server route, which names body.usage.<field>)", async () => {
    const server = await call("POST", "/v1/server/?verbose=false", { usage: { use_time_ratio: -1 } });
    expect(server.status).toBe(422);
    expect(server.body.detail[0].loc).toEqual(["body", "usage", "use_time_ratio"]);
    for (const usage of [{ use_time_ratio: "abc" }, { use_time_ratio: -1 }, { time_workload: 120 }]) {
      const cloud = await call("POST", "/v1/cloud/instance?verbose=false", {
        provider: "aws",
        instance_type: "a1.4xlarge",
        usage,
      });
      expect(cloud.status).toBe(422);
    }
  });

  // A 422 from the instance usage names the field under `usage`, as on the server and terminal routes.
  it.each([
    [{ use_time_ratio: "abc" }, ["body", "usage", "use_time_ratio"]],
    [{ use_time_ratio: -1 }, ["body", "usage", "use_time_ratio"]],
    [{ time_workload: 120 }, ["body", "usage", "time_workload"]],
  ])("an invalid cloud usage %j: the 422 loc names body.usage.<field>", async (usage, loc) => {
    const { status, body } = await call("POST", "/v1/cloud/instance?verbose=false", {
      provider: "aws",
      instance_type: "a1.4xlarge",
      usage,
    });
    expect(status).toBe(422);
    expect(body.detail[0].loc).toEqual(loc);
  });

  it("a body field of the wrong type (an object for a string) is a 422 naming it", async () => {
    const { status, body } = await call("POST", "/v1/cloud/instance", {
      provider: { name: "aws" },
      instance_type: "a1.4xlarge",
    });
    expect(status).toBe(422);
    expect(body.detail[0].loc).toEqual(["body", "provider"]);
  });
});

describe("the reference's fields a body declares and never reads (docs/DEVIATIONS.md, the OpenAPI document)", () => {
  const url = "/v1/cloud/instance?verbose=false&criteria=gwp&edition=2.5.0";
  const instance = { provider: "aws", instance_type: "m5.xlarge" };

  it("are accepted and change nothing: a cloud body's configuration and model, an HDD's model", async () => {
    const plain = await call("POST", url, instance);
    const given = await call("POST", url, {
      ...instance,
      model: { archetype: "dellR740", name: "x" },
      configuration: { cpu: { units: 8 }, ram: [{ units: 4, capacity: 32, model: "m" }] },
    });
    expect(given).toEqual(plain);
    expect(plain.status).toBe(200);
    const hdd = await call("POST", "/v1/component/hdd?verbose=false&criteria=gwp", { units: 2 });
    const described = await call("POST", "/v1/component/hdd?verbose=false&criteria=gwp", {
      units: 2,
      type: "hdd",
      manufacturer: "Seagate",
      model: "Exos",
      layers: 1,
      density: 1.5,
    });
    expect(described).toEqual(hdd);
  });

  it("are checked as the reference checks them: a wrong type is a 422 naming the field", async () => {
    const { status, body } = await call("POST", url, {
      ...instance,
      configuration: { cpu: { units: "x" } },
    });
    expect(status).toBe(422);
    expect(body.detail[0]).toMatchObject({
      type: "int_parsing",
      loc: ["body", "configuration", "cpu", "units"],
    });
    const profile = await call("POST", "/v1/consumption_profile/cpu?verbose=maybe", { cpu: {} });
    expect(profile.status).toBe(422);
    expect(profile.body.detail[0].loc).toEqual(["query", "verbose"]);
  });
});
