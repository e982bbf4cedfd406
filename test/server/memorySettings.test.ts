/**
 * The server's memory settings hold: node's flags have one description (package.json's `start`),
 * which the image runs word for word and the bench measures, with a heap bound that leaves the
 * container's limit (the Deployment's, compose.yaml's) a margin; node accepts them; and a modest,
 * bounded mixed load through a process started with them keeps its peak resident memory
 * (VmHWM) within 768 MB, three quarters of the 1 GiB container. The load is counted, not timed:
 * fleets, batches and singles, every answer checked; the figures of a sustained load are the
 * bench's (bench/mixedLoad.ts, bench/README.md "Memory under a mixed load").
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { serviceArguments, serviceEnvironment, serviceVariables } from "../../bench/serviceCommand.js";
import { SERVER_BUNDLE } from "../support/bundle.js";
import { graphqlCall, send } from "../support/http.js";
import { portOf, serviceStarter } from "../support/process.js";

const root = new URL("../../", import.meta.url);
const read = (file: string) => readFileSync(new URL(file, root), "utf8");

/** Node's flags as `npm start` gives them (the words between `exec node` and the bundle). */
function startFlags(): string[] {
  const start = JSON.parse(read("package.json")).scripts.start as string;
  const words = (/\bexec node (.+)$/.exec(start)?.[1] ?? "").split(" ").filter((word) => word !== "");
  return words.slice(0, -1);
}

/** The image's entry point, as an argument vector. */
function dockerEntryPoint(): string[] {
  const line = read("Dockerfile")
    .split("\n")
    .find((l) => l.startsWith("ENTRYPOINT "));
  return JSON.parse((line ?? "ENTRYPOINT []").slice("ENTRYPOINT ".length));
}

/** The variables the image's ENV sets (`NAME=value` words of its ENV instructions). */
function dockerVariables(): Record<string, string> {
  const text = read("Dockerfile").replace(/\\\n/g, " ");
  const words = text
    .split("\n")
    .filter((line) => line.startsWith("ENV "))
    .flatMap((line) => line.slice("ENV ".length).split(/\s+/))
    .filter((word) => word.includes("="));
  return Object.fromEntries(
    words.map((word) => [word.slice(0, word.indexOf("=")), word.slice(word.indexOf("=") + 1)]),
  );
}

/** The container memory limits the manifests give, in MiB. */
function containerLimitsMib(): { deployment: number; compose: number } {
  const deployment = parseYaml(read("deploy/deployment.yaml"));
  const compose = parseYaml(read("compose.yaml"));
  const [service] = Object.values(compose.services) as {
    deploy: { resources: { limits: { memory: string } } };
  }[];
  const mib = (text: string) => {
    const match = /^(\d+)(Mi|Gi|m|g)$/.exec(text);
    if (!match) throw new Error(`a memory limit not understood: ${text}`);
    return Number(match[1]) * (match[2].toLowerCase().startsWith("g") ? 1024 : 1);
  };
  return {
    deployment: mib(deployment.spec.template.spec.containers[0].resources.limits.memory),
    compose: mib(service.deploy.resources.limits.memory),
  };
}

const heapFlagMb = (flags: readonly string[]) =>
  Number(flags.find((flag) => flag.startsWith("--max-old-space-size="))?.split("=")[1]);

/** The bound on resident memory: three quarters of the container's limit (768 MB of 1 GiB). */
const RESIDENT_BOUND_MB = 0.75 * containerLimitsMib().deployment;

describe("node's flags: one description, the same everywhere", () => {
  it("the image and the bench run npm start's flags, word for word, a heap bound among them", () => {
    const flags = startFlags();
    expect(flags).toContain("--max-semi-space-size=16");
    expect(heapFlagMb(flags)).toBe(768);
    expect(dockerEntryPoint()).toEqual(["node", ...flags, "dist/bundle/server.mjs"]);
    expect(serviceArguments()).toEqual([...flags, "dist/bundle/server.mjs"]);
  });

  it("the image and the bench set npm start's variables: NODE_ENV and glibc's malloc bounds", () => {
    const variables = serviceVariables();
    expect(variables).toEqual({
      NODE_ENV: "production",
      MALLOC_ARENA_MAX: "2",
      MALLOC_MMAP_THRESHOLD_: "1048576",
    });
    expect(dockerVariables()).toMatchObject(variables);
    expect(serviceEnvironment(8080)).toMatchObject(variables);
  });

  it("the heap leaves the container a margin, in the Deployment and compose.yaml, and nothing overrides it", () => {
    const limits = containerLimitsMib();
    expect(limits).toEqual({ deployment: 1024, compose: 1024 });
    expect(heapFlagMb(startFlags())).toBeLessThanOrEqual(0.75 * limits.deployment);
    const deployment = parseYaml(read("deploy/deployment.yaml"));
    const env = deployment.spec.template.spec.containers[0].env as { name: string }[];
    expect(env.map((variable) => variable.name)).not.toContain("NODE_OPTIONS");
  });

  it("node accepts the flags and bounds its heap by them", () => {
    const run = spawnSync(process.execPath, [
      ...startFlags(),
      "-p",
      "require('node:v8').getHeapStatistics().heap_size_limit",
    ]);
    expect(run.status, String(run.stderr)).toBe(0);
    const limitMb = Number(String(run.stdout).trim()) / 2 ** 20;
    // The old generation's 768 MB and the young generation's semi-spaces (3 × 16 MB).
    expect(limitMb).toBeGreaterThanOrEqual(768);
    expect(limitMb).toBeLessThanOrEqual(768 + 3 * 16);
  });
});

const service = serviceStarter();

/** Peak resident memory of a process so far (VmHWM), in MB. */
function peakResidentMb(pid: number): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(match?.[1]) / 1024;
}

const FLEET =
  "query ($inputs: [ServerItemInput!]!) { servers(inputs: $inputs) { count items { impacts(criteria: [gwp]) { embedded { ... on Impact { value } } } } } }";
const fleet = (size: number) =>
  Array.from({ length: size }, (_, i) => ({
    configuration: {
      cpu: { units: 2, name: "Intel Xeon Gold 6134" },
      ram: [{ units: 1 + (i % 16), capacity: 32 }],
    },
  }));
const batchBody = (lines: number) =>
  Array.from(
    { length: lines },
    (_, i) =>
      `{"path": "/v1/cloud/instance?verbose=false&criteria=gwp", "body": {"provider": "aws", "instance_type": "${["m5.xlarge", "c5.large", "t3.micro"][i % 3]}"}}`,
  ).join("\n");

describe("a modest mixed load, counted not timed, with npm start's flags", () => {
  it("fleets, batches and singles at once: every answer right, peak resident memory within 768 MB", async () => {
    // The service as npm start runs it: its flags and a bundle (the suite's, built as `npm run build` builds).
    const started = service(serviceVariables(), [process.execPath, ...startFlags(), SERVER_BUNDLE]);
    const port = portOf((await started.waitFor(/^listening on http:\/\//))[0]);
    const pid = started.child.pid as number;
    const fleets = async (rounds: number) => {
      for (let round = 0; round < rounds; round++) {
        const answer = await send(port, graphqlCall(FLEET, { inputs: fleet(2000) }));
        expect(answer.json.data.servers.count).toBe(2000);
      }
    };
    const batch = async () => {
      const answer = await send(port, {
        path: "/v1/batch",
        headers: { "content-type": "application/x-ndjson" },
        body: batchBody(2000),
      });
      expect(answer.text.trim().split("\n").at(-1)).toContain('"lines":2000,"ok":2000,');
    };
    const singles = async (count: number) => {
      for (let n = 0; n < count; n++) {
        const answer = await send(port, { path: "/v1/server/?archetype=dellR740&verbose=true" });
        expect(answer.status).toBe(200);
      }
    };
    await Promise.all([fleets(4), fleets(4), fleets(4), batch(), batch(), singles(100), singles(100)]);
    expect(peakResidentMb(pid)).toBeLessThanOrEqual(RESIDENT_BOUND_MB);
    expect(started.errors).toEqual([]);
  }, 300_000);
});
