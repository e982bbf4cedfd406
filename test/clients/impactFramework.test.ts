/**
 * The Impact Framework 1.x plugins (src/if/plugins.ts) as IF's users run them: the package built
 * (`npm run build:if`) and found by IF's `require("impact-service/if")` as after
 * `npm install <checkout>` beside IF (here through NODE_PATH, without touching node_modules),
 * `if-run` (@grnsft/if 1.1.0) over every manifest of examples/if/, offline. Each output equals
 * what the running service answers for the same observation: the REST route's numbers with
 * `rounded: true`, GraphQL's `unrounded` values otherwise (the default). A day of hourly
 * observations through TimeSync and Sum adds up to the evaluation of the whole day; wrong config
 * and observations are one clear error naming the field (the plugin's, in this process; once
 * through if-run).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { EDITION_IDS } from "../../src/editions/index.js";
import { BoaviztaCloud, type BoaviztaConfig } from "../../src/if/plugins.js";
import { startTestServer, type TestServer } from "../support/httpServer.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const MANIFESTS = join(ROOT, "examples/if");

let server: TestServer;
let work: string;

beforeAll(async () => {
  execFileSync("npm", ["run", "--silent", "build:if"], { cwd: ROOT, stdio: "pipe" });
  work = mkdtempSync(join(tmpdir(), "impact-if-"));
  symlinkSync(ROOT, join(work, "impact-service"));
  server = await startTestServer({ LOG_LEVEL: "silent" });
}, 120_000);

afterAll(async () => {
  await server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

type Observation = Record<string, unknown>;
interface Manifest {
  initialize: {
    plugins: Record<
      string,
      {
        method: string;
        config?: { edition?: string; criteria?: string[]; archetype?: string; rounded?: boolean };
      }
    >;
  };
  tree: {
    children: Record<string, { inputs: Observation[]; outputs?: Observation[]; aggregated?: Observation }>;
    aggregated?: Observation;
  };
  execution?: { status: string; error?: string };
}

/** What the REST route answers for one observation (the plugin's mapping, written out here). */
async function restAnswer(
  method: string,
  observation: Observation,
  config: Manifest["initialize"]["plugins"][string]["config"],
) {
  const criteria = config?.criteria ?? ["gwp", "adp", "pe"];
  const query = new URLSearchParams({ verbose: "false" });
  for (const criterion of new Set(["gwp", ...criteria])) query.append("criteria", criterion);
  query.set("duration", String(Number(observation.duration) / 3600));
  // The archetype the evaluation starts from is the route's `archetype` query parameter (a body's
  // `model.archetype` completes nothing).
  const archetype = observation["server/archetype"] ?? config?.archetype;
  if (method === "BoaviztaServer" && archetype) query.set("archetype", String(archetype));
  if (config?.edition) query.set("edition", String(config.edition));
  const usage = { usage_location: observation.location, time_workload: observation["cpu/utilization"] };
  const [path, body] =
    method === "BoaviztaCloud"
      ? [
          "/v1/cloud/instance",
          { provider: observation["cloud/vendor"], instance_type: observation["cloud/instance-type"], usage },
        ]
      : method === "BoaviztaServer"
        ? [
            "/v1/server/",
            {
              configuration: { cpu: { name: observation["cpu/name"], units: observation["cpu/units"] } },
              usage,
            },
          ]
        : ["/v1/component/cpu", { name: observation["cpu/name"], usage }];
  const answer = await fetch(`${server.url}${path}?${query}`, {
    method: "POST",
    // A connection of its own: if-run ran for seconds since the last request, longer than the
    // server keeps an idle connection open.
    headers: { "content-type": "application/json", connection: "close" },
    body: JSON.stringify(body),
  });
  expect(answer.status).toBe(200);
  return {
    criteria,
    impacts: (
      (await answer.json()) as {
        impacts: Record<string, { embedded: { value: number }; use: { value: number } }>;
      }
    ).impacts,
  };
}

/** IF's YAML reader takes an unquoted ISO time for a date, which TimeSync's config refuses: texts are quoted. */
const YAML_TEXTS_QUOTED = { defaultStringType: "QUOTE_DOUBLE", defaultKeyType: "PLAIN" } as const;

type PluginConfig = Manifest["initialize"]["plugins"][string]["config"];

const GRAPHQL_FIELDS: Record<string, { variables: string; field: string }> = {
  BoaviztaCloud: {
    variables: "$provider: String, $instanceType: String, $usage: UsageInput",
    field:
      "cloudInstance(provider: $provider, instanceType: $instanceType, usage: $usage, edition: $edition)",
  },
  BoaviztaServer: {
    variables: "$archetype: String, $input: ServerInput",
    field: "server(archetype: $archetype, input: $input, edition: $edition)",
  },
  BoaviztaCpu: { variables: "$input: CpuInput", field: "cpu(input: $input, edition: $edition)" },
};

interface GraphqlPhase {
  value: number;
  unrounded: { value: number };
}

/** What GraphQL answers (rounded and unrounded) for one observation's asset over `hours` (the plugin's mapping, written out here). */
async function graphqlAnswer(method: string, observation: Observation, config: PluginConfig, hours: number) {
  const usage = {
    usageLocation: observation.location,
    timeWorkload: observation["cpu/utilization"],
    region: observation["cloud/region"],
  };
  const cpu = { name: observation["cpu/name"], units: observation["cpu/units"] };
  const variables =
    method === "BoaviztaCloud"
      ? { provider: observation["cloud/vendor"], instanceType: observation["cloud/instance-type"], usage }
      : method === "BoaviztaServer"
        ? {
            archetype: observation["server/archetype"] ?? config?.archetype,
            input: { configuration: observation["cpu/name"] ? { cpu } : undefined, usage },
          }
        : { input: { name: observation["cpu/name"], usage } };
  const { variables: declared, field } = GRAPHQL_FIELDS[method];
  const query = `query (${declared}, $criteria: [Criterion!], $duration: Float, $edition: Edition) {
    asset: ${field} {
      impacts(criteria: $criteria, duration: $duration) { criterion embedded { ...Phase } use { ...Phase } }
    }
  }
  fragment Phase on PhaseImpact { ... on Impact { value unrounded { value } } }`;
  const answer = await fetch(`${server.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", connection: "close" },
    body: JSON.stringify({
      query,
      variables: {
        ...variables,
        criteria: [...new Set(["gwp", ...(config?.criteria ?? ["gwp", "adp", "pe"])])],
        duration: hours,
        edition: config?.edition,
      },
    }),
  });
  const body = (await answer.json()) as {
    data: { asset: { impacts: { criterion: string; embedded: GraphqlPhase; use: GraphqlPhase }[] } };
  };
  return new Map(body.data.asset.impacts.map((impact) => [impact.criterion, impact]));
}

/** Runs if-run over a manifest file; the output manifest, parsed. */
/** IF's warnings (its logger writes them to stdout and stderr) of the last if-run. */
let ifLog = "";

function ifRun(manifest: string, output: string): Manifest {
  const run = spawnSync(
    join(ROOT, "node_modules/.bin/if-run"),
    ["--manifest", manifest, "--output", output],
    {
      cwd: work,
      env: { ...process.env, NODE_PATH: work },
      encoding: "utf8",
    },
  );
  ifLog = `${run.stdout}${run.stderr}`;
  return parse(readFileSync(`${output}.yaml`, "utf8")) as Manifest;
}

describe("Impact Framework 1.x (@grnsft/if 1.1.0, if-run)", () => {
  const manifests = readdirSync(MANIFESTS).filter((name) => name.endsWith(".yml"));

  it("examples/if/ holds a manifest per plugin", () => {
    expect(manifests.sort()).toEqual(["cloud.yml", "cpu.yml", "server.yml"]);
  });

  it.each(manifests)(
    "%s runs offline and its outputs equal the REST route's",
    async (name) => {
      const manifest = ifRun(join(MANIFESTS, name), join(work, name.replace(/\.yml$/, "")));
      expect(manifest.execution?.status).toBe("success");
      const [plugin] = Object.values(manifest.initialize.plugins);
      for (const component of Object.values(manifest.tree.children)) {
        expect(component.outputs).toHaveLength(component.inputs.length);
        for (const [index, observation] of component.inputs.entries()) {
          const outputs = component.outputs?.[index] ?? {};
          const { criteria, impacts } = await restAnswer(plugin.method, observation, plugin.config);
          const hours = Number(observation.duration) / 3600;
          const graphql = await graphqlAnswer(plugin.method, observation, plugin.config, hours);
          const rounded = plugin.config?.rounded === true;
          for (const criterion of criteria) {
            const answered = graphql.get(criterion);
            // GraphQL's rounded values are the route's.
            expect(answered?.embedded.value, criterion).toBe(impacts[criterion].embedded.value);
            expect(answered?.use.value, criterion).toBe(impacts[criterion].use.value);
            for (const phase of ["embedded", "use"] as const) {
              const expected = rounded ? answered?.[phase].value : answered?.[phase].unrounded.value;
              expect(outputs[`boavizta/${criterion}-${phase}`], `${criterion} ${phase}`).toBe(expected);
            }
          }
          const gwp = graphql.get("gwp")?.embedded;
          expect(outputs["carbon-embodied"]).toBeCloseTo(
            (rounded ? impacts.gwp.embedded.value : (gwp?.unrounded.value ?? Number.NaN)) * 1000,
            9,
          );
          expect(outputs.energy).toBeGreaterThan(0);
        }
      }
    },
    120_000,
  );
  describe("a day of hourly observations through TimeSync and Sum", () => {
    const START = Date.parse("2024-01-01T00:00:00Z");
    /** Each component's observation for an hour (constant load: 24 hours are one day's evaluation). */
    const COMPONENTS: Record<string, { method: string; observation: Observation }> = {
      "web-1": {
        method: "BoaviztaCloud",
        observation: {
          "cloud/vendor": "aws",
          "cloud/instance-type": "m5.xlarge",
          "cpu/utilization": 50,
          location: "FRA",
        },
      },
      "web-2": {
        method: "BoaviztaCloud",
        observation: {
          "cloud/vendor": "gcp",
          "cloud/instance-type": "n2-standard-4",
          "cloud/region": "europe-west1",
          "cpu/utilization": 30,
        },
      },
      database: {
        method: "BoaviztaServer",
        observation: { "server/archetype": "dellR740", "cpu/utilization": 35, location: "DEU" },
      },
    };
    const CONFIG = { edition: "2.4.1", criteria: ["gwp", "pe"] };
    const gwpMetadata = {
      description: "gwp, embedded and use",
      unit: "kgCO2eq",
      "aggregation-method": { time: "sum", component: "sum" },
    };
    const plugins = {
      "boavizta-cloud": { method: "BoaviztaCloud", path: "impact-service/if", config: CONFIG },
      "boavizta-server": { method: "BoaviztaServer", path: "impact-service/if", config: CONFIG },
      "gwp-sum": {
        method: "Sum",
        path: "builtin",
        config: {
          "input-parameters": ["boavizta/gwp-embedded", "boavizta/gwp-use"],
          "output-parameter": "boavizta/gwp",
        },
        "parameter-metadata": { outputs: { "boavizta/gwp": gwpMetadata } },
      },
      "six-hours": {
        method: "TimeSync",
        path: "builtin",
        config: {
          "start-time": "2024-01-01T00:00:00Z",
          "end-time": "2024-01-02T00:00:00Z",
          interval: 21600,
          "allow-padding": false,
          "upsampling-resolution": 3600,
        },
      },
    };
    const hourly = (observation: Observation) =>
      Array.from({ length: 24 }, (_, hour) => ({
        timestamp: new Date(START + hour * 3_600_000).toISOString().replace(".000", ""),
        duration: 3600,
        ...observation,
      }));
    const METRICS = [
      "carbon-embodied",
      "boavizta/gwp-embedded",
      "boavizta/gwp-use",
      "boavizta/pe-use",
      "boavizta/gwp",
    ];
    let manifest: Manifest;
    let dayLog: string;

    beforeAll(() => {
      const children = Object.fromEntries(
        Object.entries(COMPONENTS).map(([name, { method, observation }]) => [
          name,
          {
            pipeline: {
              compute: [
                method === "BoaviztaCloud" ? "boavizta-cloud" : "boavizta-server",
                "gwp-sum",
                "six-hours",
              ],
            },
            inputs: hourly(observation),
          },
        ]),
      );
      const file = join(work, "day.yml");
      writeFileSync(
        file,
        stringify(
          {
            name: "a day of two cloud instances and a server",
            initialize: { plugins },
            aggregation: { metrics: METRICS, type: "both" },
            tree: { children },
          },
          YAML_TEXTS_QUOTED,
        ),
      );
      manifest = ifRun(file, join(work, "day"));
      dayLog = ifLog;
    }, 120_000);

    it("IF knows how to aggregate every output (no 'Unknown parameter' warning)", () => {
      expect(dayLog).not.toContain("Unknown parameter");
    });

    it("runs, with four 6-hour windows per component", () => {
      expect(manifest.execution?.error).toBeUndefined();
      expect(manifest.execution?.status).toBe("success");
      for (const component of Object.values(manifest.tree.children))
        expect(component.outputs).toHaveLength(4);
    });

    it("each window, each component's day and the tree's total equal the evaluation of that period (to 1e-6)", async () => {
      const treeTotals: Record<string, number> = Object.fromEntries(METRICS.map((metric) => [metric, 0]));
      for (const [name, { method, observation }] of Object.entries(COMPONENTS)) {
        const component = manifest.tree.children[name];
        for (const [period, hours] of [
          ["window", 6],
          ["day", 24],
        ] as const) {
          const answered = await graphqlAnswer(method, observation, CONFIG, hours);
          const gwp = answered.get("gwp");
          const pe = answered.get("pe");
          const expected: Record<string, number | undefined> = {
            "carbon-embodied": (gwp?.embedded.unrounded.value ?? Number.NaN) * 1000,
            "boavizta/gwp-embedded": gwp?.embedded.unrounded.value,
            "boavizta/gwp-use": gwp?.use.unrounded.value,
            "boavizta/pe-use": pe?.use.unrounded.value,
            "boavizta/gwp":
              (gwp?.embedded.unrounded.value ?? Number.NaN) + (gwp?.use.unrounded.value ?? Number.NaN),
          };
          const sums = period === "day" ? [component.aggregated ?? {}] : (component.outputs ?? []);
          for (const sum of sums) {
            for (const metric of METRICS) {
              const value = Number(sum[metric]);
              const wanted = expected[metric] ?? Number.NaN;
              expect(Math.abs(value - wanted) / wanted, `${name} ${period} ${metric}`).toBeLessThan(1e-6);
              if (period === "day") treeTotals[metric] += wanted;
            }
          }
        }
      }
      for (const metric of METRICS) {
        const total = Number(manifest.tree.aggregated?.[metric]);
        expect(Math.abs(total - treeTotals[metric]) / treeTotals[metric], `tree ${metric}`).toBeLessThan(
          1e-6,
        );
      }
    });

    it("the region of a cloud instance sets its electricity (europe-west1 is not the default mix)", async () => {
      const { observation } = COMPONENTS["web-2"];
      const inRegion = await graphqlAnswer("BoaviztaCloud", observation, CONFIG, 1);
      const { "cloud/region": _region, ...withoutRegion } = observation;
      const byDefault = await graphqlAnswer("BoaviztaCloud", withoutRegion, CONFIG, 1);
      const first = manifest.tree.children["web-2"].outputs?.[0] ?? {};
      const gwpUse = Number(first["boavizta/gwp-use"]);
      expect(gwpUse / 6).toBeCloseTo(inRegion.get("gwp")?.use.unrounded.value ?? Number.NaN, 12);
      expect(gwpUse / 6).not.toBeCloseTo(byDefault.get("gwp")?.use.unrounded.value ?? Number.NaN, 6);
    });
  });

  describe("refusals and warnings", () => {
    /** The cloud observation the refusals change. */
    const ONE_HOUR = {
      timestamp: "2024-01-01T00:00:00Z",
      duration: 3600,
      "cloud/instance-type": "m5.xlarge",
    };

    /** A cloud observation through a plugin instance of its own: the instance's config and mapping. */
    interface Case {
      readonly config: unknown;
      readonly observation: Observation;
      readonly mapping?: Record<string, string>;
    }

    /**
     * if-run over a manifest where each case is a child of its own (named as the case), its one
     * observation through its own plugin instance (`cloud-<case>`): its status, error and output
     * manifest. IF runs each child through its own pipeline, so a child's outputs are those of a
     * manifest holding it alone; the run loads the plugins' data once for all of them.
     */
    function runCases(name: string, cases: Readonly<Record<string, Case>>) {
      const named = Object.entries(cases);
      const file = join(work, `${name}.yml`);
      writeFileSync(
        file,
        stringify({
          name,
          initialize: {
            plugins: Object.fromEntries(
              named.map(([child, { config, mapping }]) => [
                `cloud-${child}`,
                { method: "BoaviztaCloud", path: "impact-service/if", config, mapping },
              ]),
            ),
          },
          tree: {
            children: Object.fromEntries(
              named.map(([child, { observation }]) => [
                child,
                { pipeline: { compute: [`cloud-${child}`] }, inputs: [{ ...ONE_HOUR, ...observation }] },
              ]),
            ),
          },
        }),
      );
      const manifest = ifRun(file, join(work, name));
      return { status: manifest.execution?.status, error: manifest.execution?.error ?? "", manifest };
    }

    /** if-run over one cloud observation with `config` (a refusal ends a run: one per manifest). */
    const runOne = (name: string, config: unknown, observation: Observation) =>
      runCases(name, { one: { config, observation } });

    /** Regions an edition cannot use, and the warning each is told with. */
    const REGIONS = [
      ["2.4.1", "mars-1", "Region 'mars-1' not found for provider 'aws'"],
      [
        "1.2.4",
        "eu-west-3",
        "cloud/region 'eu-west-3' not used (Cloud regions are not part of this edition)",
      ],
    ] as const;
    const regionCase = (edition: string) => `region-${edition.replaceAll(".", "-")}`;
    const GRID = { edition: "2.4.1", criteria: ["gwp", "pe"] };
    const GRID_OBSERVATION = { location: "FRA", "cpu/utilization": 50 };
    const GWP_241 = { edition: "2.4.1", criteria: ["gwp"] };
    /** The observations whose outputs the tests below read: one if-run answers them all. */
    const ANSWERED: Record<string, Case> = {
      warned: {
        config: GWP_241,
        observation: { "cloud/instance-type": "m5.xlarg", location: "europe-west1" },
      },
      ...Object.fromEntries(
        REGIONS.map(([edition, region]) => [
          regionCase(edition),
          { config: { edition, criteria: ["gwp"] }, observation: { "cloud/region": region } },
        ]),
      ),
      "grid-plain": { config: GRID, observation: GRID_OBSERVATION },
      "grid-fed": { config: GRID, observation: { ...GRID_OBSERVATION, "grid/carbon-intensity": 300 } },
      unmapped: { config: GWP_241, observation: { "cpu/utilization": 80 } },
      mapped: {
        config: GWP_241,
        observation: { "cpu-util": 80 },
        mapping: { "cpu/utilization": "cpu-util", "carbon-embodied": "embodied-carbon" },
      },
    };
    let answered: ReturnType<typeof runCases>;

    beforeAll(() => {
      answered = runCases("answered", ANSWERED);
    }, 120_000);

    /** The output of a case of ANSWERED (its one observation's). */
    const outputOf = (name: string): Observation => answered.manifest.tree.children[name].outputs?.[0] ?? {};

    it.each([
      [
        "criteria-object",
        { criteria: { a: 1 } },
        {},
        'BoaviztaCloud config: criteria: expected a list of criteria, e.g. [gwp, pe] (given: {"a":1})',
      ],
      [
        "criteria-text",
        { criteria: "gwp" },
        {},
        'BoaviztaCloud config: criteria: expected a list of criteria, e.g. [gwp, pe] (given: "gwp")',
      ],
      [
        "edition-object",
        { edition: {} },
        {},
        "BoaviztaCloud config: edition: expected an edition id (text, as in the service's EDITION) (given: {})",
      ],
      [
        // Resolved once, at the config (not per observation): the one refusal names the config's field.
        "edition-unknown",
        { edition: "9.9" },
        {},
        `BoaviztaCloud config: edition: unknown edition "9.9"; allowed values: ${EDITION_IDS.join(", ")}`,
      ],
      [
        "criterion-unknown",
        { criteria: ["gwp", "co2"] },
        {},
        'BoaviztaCloud config: criteria.1: unknown criterion "co2"',
      ],
      [
        "load-list",
        {},
        { "cpu/utilization": [50] },
        "BoaviztaCloud observation 1: cpu/utilization: expected a number (given: [50])",
      ],
      ["load-high", {}, { "cpu/utilization": 150 }, "BoaviztaCloud observation 1: cpu/utilization: Too big"],
      [
        "instance-unknown",
        {},
        { "cloud/instance-type": "m5.nope" },
        "BoaviztaCloud observation 1: m5.nope at aws not found",
      ],
    ])(
      "%s: one error naming the field",
      // The plugin's own error, thrown in this process: if-run reports it as it is (the test below).
      async (_name, config, observation, message) => {
        await expect(
          (async () => BoaviztaCloud(config as BoaviztaConfig).execute([{ ...ONE_HOUR, ...observation }]))(),
        ).rejects.toThrow(message);
      },
      60_000,
    );

    it("a plugin's refusal fails if-run's execution with the plugin's words", () => {
      const { status, error } = runOne("criteria-object", { criteria: { a: 1 } }, {});
      expect(status).toBe("fail");
      expect(error).toContain(
        'BoaviztaCloud config: criteria: expected a list of criteria, e.g. [gwp, pe] (given: {"a":1})',
      );
    });

    it("an unknown location and an approximate instance name are warnings in the output, never silent", () => {
      const output = outputOf("warned");
      expect(String(output["boavizta/warnings"])).toContain("closest match 'm5.xlarge'");
      expect(String(output["boavizta/warnings"])).toContain("Location not found. Default value used.");
    });

    it.each(REGIONS)(
      "edition %s: a region %s the edition cannot use is a warning, never a silent default",
      (edition, _region, warning) => {
        expect(answered.status).toBe("success");
        expect(String(outputOf(regionCase(edition))["boavizta/warnings"])).toContain(warning);
      },
    );

    it("grid/carbon-intensity replaces the location's gwp factor: gwp use = energy × intensity, other criteria kept", () => {
      const plain = outputOf("grid-plain");
      expect(answered.status).toBe("success");
      const fed = outputOf("grid-fed");
      const energy = Number(plain.energy);
      expect(energy).toBeGreaterThan(0);
      // Without the series: the edition's FRA factor, 0.098 kgCO2eq/kWh (electricity_impact_factors.csv).
      expect(Number(plain["boavizta/gwp-use"]) / energy).toBeCloseTo(0.098, 6);
      expect(fed.energy).toBe(plain.energy);
      expect(Number(fed["boavizta/gwp-use"])).toBeCloseTo((energy * 300) / 1000, 9);
      expect(fed["boavizta/pe-use"]).toBe(plain["boavizta/pe-use"]);
      expect(fed["carbon-embodied"]).toBe(plain["carbon-embodied"]);
      expect(String(fed["boavizta/warnings"])).toContain("gwp use from grid/carbon-intensity (300 gCO2e/kWh");
      expect(String(plain["boavizta/warnings"] ?? "")).not.toContain("grid/carbon-intensity");
    });

    it("a negative grid/carbon-intensity is one error naming the field", () => {
      const { status, error } = runOne("grid-negative", {}, { "grid/carbon-intensity": -5 });
      expect(status).toBe("fail");
      expect(error).toContain("BoaviztaCloud observation 1: grid/carbon-intensity: Too small");
    }, 60_000);

    it("a manifest's mapping renames the parameters read and the outputs written", () => {
      const plain = outputOf("unmapped");
      expect(answered.status).toBe("success");
      const output = outputOf("mapped");
      expect(output["boavizta/gwp-use"]).toBe(plain["boavizta/gwp-use"]);
      expect(output["embodied-carbon"]).toBe(plain["carbon-embodied"]);
      expect(output).not.toHaveProperty("carbon-embodied");
      expect(output).not.toHaveProperty("cpu/utilization");
      expect(output["cpu-util"]).toBe(80);
    });
  });
});
