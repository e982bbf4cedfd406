/**
 * The memory worst case of the shipped deployment (`npm run bench`, or alone with
 * `npx tsx bench/admission.ts`): the service runs with the shipped heap (npm start's and the
 * image's `--max-old-space-size=768`) and deploy/deployment.yaml's admission budgets, and
 * receives at once the largest legal
 * requests — 10,000-server fleets with the shim's verbose selection (an answer of about 100 MB
 * each), more of them than the budget admits and the queue holds —, while /healthz is asked
 * continuously. It reports the peak resident memory against the container's limit (1 GiB), the
 * answers by status, /healthz's slowest answer and whether the process survived.
 *
 * Not a test: bench/README.md records its figures.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import { serviceArguments, shippedHeapMb } from "./serviceCommand.js";

const root = new URL("..", import.meta.url);

interface Deployment {
  spec: {
    template: {
      spec: {
        containers: {
          env: { name: string; value: string }[];
          resources: { limits: { memory: string } };
        }[];
      };
    };
  };
}

/** The environment and memory limit of the shipped Deployment. */
export function shippedDeployment(): { env: Record<string, string>; limitMb: number } {
  const deployment = parseYaml(readFileSync(new URL("deploy/deployment.yaml", root), "utf8")) as Deployment;
  const [container] = deployment.spec.template.spec.containers;
  const env = Object.fromEntries(container.env.map(({ name, value }) => [name, value]));
  const memory = /^(\d+)(Mi|Gi)$/.exec(container.resources.limits.memory);
  const limitMb = memory ? Number(memory[1]) * (memory[2] === "Gi" ? 1024 : 1) : Number.NaN;
  return { env, limitMb };
}

const CPU_NAMES = [
  "Intel Xeon Gold 6134",
  "Intel Xeon Platinum 8280",
  "AMD EPYC 7763",
  "Intel Xeon Silver 4214",
];
const LOCATIONS = ["EEE", "FRA", "DEU", "USA", "CHN", "IRL", "SWE", "GBR"];

/** The largest legal fleet: MAX_FLEET_ITEMS servers, the shim's verbose selection (v1 layouts). */
export function largestFleetBody(items: number): string {
  return JSON.stringify({
    query:
      "query ($inputs: [ServerItemInput!]!) { servers(inputs: $inputs) { count items { verbose { v1 } impacts { criterion v1 } } } }",
    variables: {
      inputs: Array.from({ length: items }, (_, i) => ({
        configuration: {
          cpu: { units: 2, name: CPU_NAMES[i % CPU_NAMES.length] },
          ram: [{ units: 1 + (i % 16), capacity: 32 }],
          disk: [{ units: 2, type: "ssd", capacity: 960 }],
        },
        usage: { usageLocation: LOCATIONS[i % LOCATIONS.length], timeWorkload: i % 100 },
      })),
    },
  });
}

export function residentMemoryMb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN; // the process is gone
  }
}

export async function listening(url: string): Promise<void> {
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not yet
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

interface Answer {
  readonly status: number;
  readonly bytes: number;
  /** The limit a refusal names. */
  readonly limit?: string;
}

/** A request's status and the bytes of its answer, read as they come (not kept). */
async function post(url: string, body: string): Promise<Answer> {
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    if (response.status !== 200) {
      const refusal = (await response.json()) as { errors?: { extensions?: { limit?: string } }[] };
      return { status: response.status, bytes: 0, limit: refusal.errors?.[0]?.extensions?.limit };
    }
    let bytes = 0;
    for await (const chunk of response.body ?? []) bytes += (chunk as Uint8Array).byteLength;
    return { status: response.status, bytes };
  } catch {
    return { status: 0, bytes: 0 }; // connection reset: the process died
  }
}

interface AdmissionFigures {
  readonly concurrentRequests: number;
  readonly fleetItemsEach: number;
  readonly statuses: Record<string, number>;
  readonly largestAnswerMb: number;
  readonly oneFleetPeakResidentMb: number;
  readonly oneFleetSeconds: number;
  readonly peakResidentMb: number;
  readonly containerLimitMb: number;
  readonly heapLimitMb: number;
  readonly slowestHealthzMs: number;
  readonly survived: boolean;
  readonly seconds: number;
}

/**
 * A running process watched: its resident memory sampled every 20 ms (the peak) and `/healthz`
 * probed every 50 ms (the slowest answer), until `stop`.
 */
export function processSampler(pid: number, base: string, signal?: AbortSignal) {
  let peak = residentMemoryMb(pid);
  const sampler = setInterval(() => {
    peak = Math.max(peak, residentMemoryMb(pid) || 0);
  }, 20);
  let slowestHealthz = 0;
  let probing = true;
  const probe = (async () => {
    while (probing) {
      const started = performance.now();
      try {
        await fetch(`${base}/healthz`, { signal });
      } catch {
        break;
      }
      slowestHealthz = Math.max(slowestHealthz, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return {
    peakMb: () => peak,
    async stop() {
      probing = false;
      await probe;
      clearInterval(sampler);
      return { peakResidentMb: Math.round(peak), slowestHealthzMs: Math.round(slowestHealthz) };
    },
  };
}

/**
 * The built service as the deployment runs it (its heap, its environment, npm start's flags) on
 * `port` of the loopback, warnings on this process's stderr; and the container's memory limit.
 */
export function spawnShippedService(port: number): {
  child: ChildProcess;
  env: Record<string, string>;
  limitMb: number;
} {
  const { env, limitMb } = shippedDeployment();
  const child = spawn(process.execPath, serviceArguments(), {
    cwd: root,
    env: {
      ...process.env,
      ...env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  return { child, env, limitMb };
}

/** Runs the worst case against a fresh build (dist/bundle/server.mjs, built by the caller). */
export async function admissionWorstCase(port: number): Promise<AdmissionFigures> {
  const { child, env, limitMb } = spawnShippedService(port);
  const pid = child.pid as number;
  let exited = false;
  child.once("exit", () => {
    exited = true;
  });
  const base = `http://127.0.0.1:${port}`;
  await listening(`${base}/healthz`);
  const items = Number(env.MAX_FLEET_ITEMS ?? 10_000);
  const body = largestFleetBody(items);
  const budget = Number(env.MAX_CONCURRENT_FLEET_ITEMS ?? 10_000);
  const queue = Number(env.ADMISSION_QUEUE_LENGTH ?? 8);
  // As many as the budget admits, the queue holds, and two more (refused).
  const concurrent = Math.max(1, Math.floor(budget / items)) + queue + 2;

  const sampler = processSampler(pid, base);

  const started = performance.now();
  // One fleet alone first: the peak of the largest legal request.
  const alone = await post(`${base}/graphql`, body);
  const oneFleetSeconds = (performance.now() - started) / 1000;
  const oneFleetPeak = sampler.peakMb();
  const answers = await Promise.all(Array.from({ length: concurrent }, () => post(`${base}/graphql`, body)));
  const seconds = (performance.now() - started) / 1000;
  const { peakResidentMb, slowestHealthzMs } = await sampler.stop();
  const survived = !exited;
  child.kill();
  const statuses: Record<string, number> = {};
  for (const { status, limit } of [alone, ...answers] as Answer[]) {
    const key = limit ? `${status} ${limit}` : String(status);
    statuses[key] = (statuses[key] ?? 0) + 1;
  }
  return {
    concurrentRequests: concurrent,
    fleetItemsEach: items,
    statuses,
    largestAnswerMb: Math.round(Math.max(alone.bytes, ...answers.map((a) => a.bytes)) / 1e5) / 10,
    oneFleetPeakResidentMb: Math.round(oneFleetPeak),
    oneFleetSeconds: Math.round(oneFleetSeconds * 10) / 10,
    peakResidentMb,
    containerLimitMb: limitMb,
    heapLimitMb: shippedHeapMb(),
    slowestHealthzMs,
    survived,
    seconds: Math.round(seconds * 10) / 10,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await admissionWorstCase(20000 + Math.floor(Math.random() * 12000));
  console.log(JSON.stringify(figures, null, 2));
}
