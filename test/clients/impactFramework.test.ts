/**
 * The Impact Framework 1.x plugins (src/if/plugins.ts) as IF's users run them: the package built
 * (`npm run build:if`) and found by IF's `require("impact-service/if")` as after
 * `npm install <checkout>` beside IF (here through NODE_PATH, without touching node_modules),
 * `if-run` (@grnsft/if 1.1.0) over every manifest of examples/if/, offline. Each output equals
 * what the running service's REST route answers for the same observation.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
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
      { method: string; config?: { edition?: string; criteria?: string[]; archetype?: string } }
    >;
  };
  tree: { children: Record<string, { inputs: Observation[]; outputs?: Observation[] }> };
  execution?: { status: string };
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
              model: { archetype: observation["server/archetype"] ?? config?.archetype },
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

describe("Impact Framework 1.x (@grnsft/if 1.1.0, if-run)", () => {
  const manifests = readdirSync(MANIFESTS).filter((name) => name.endsWith(".yml"));

  it("examples/if/ holds a manifest per plugin", () => {
    expect(manifests.sort()).toEqual(["cloud.yml", "cpu.yml", "server.yml"]);
  });

  it.each(manifests)(
    "%s runs offline and its outputs equal the REST route's",
    async (name) => {
      const output = join(work, name.replace(/\.yml$/, ""));
      execFileSync(
        join(ROOT, "node_modules/.bin/if-run"),
        ["--manifest", join(MANIFESTS, name), "--output", output],
        {
          cwd: work,
          env: { ...process.env, NODE_PATH: work },
          stdio: "pipe",
        },
      );
      const manifest = parse(readFileSync(`${output}.yaml`, "utf8")) as Manifest;
      expect(manifest.execution?.status).toBe("success");
      const [plugin] = Object.values(manifest.initialize.plugins);
      for (const component of Object.values(manifest.tree.children)) {
        expect(component.outputs).toHaveLength(component.inputs.length);
        for (const [index, observation] of component.inputs.entries()) {
          const outputs = component.outputs?.[index] ?? {};
          const { criteria, impacts } = await restAnswer(plugin.method, observation, plugin.config);
          for (const criterion of criteria) {
            expect(outputs[`boavizta/${criterion}-embedded`], criterion).toBe(
              impacts[criterion].embedded.value,
            );
            expect(outputs[`boavizta/${criterion}-use`], criterion).toBe(impacts[criterion].use.value);
          }
          expect(outputs["carbon-embodied"]).toBeCloseTo(impacts.gwp.embedded.value * 1000, 9);
          expect(outputs.energy).toBeGreaterThan(0);
        }
      }
    },
    120_000,
  );
});
