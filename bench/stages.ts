/**
 * Where one served request's main-thread CPU goes, by stage of the request path
 * (`npx tsx bench/stages.ts [part of a scenario's name]`, default the varied verbose server POST;
 * `npm run build` first). The bare server of bench/ceiling.ts, then the built service as
 * `npm start` runs it (its node flags, NODE_ENV=production, WORKERS=1, the default log level), each
 * under `node --cpu-prof`, are driven in turn by autocannon at 10 connections (`STAGES_WARMUP`
 * seconds unrecorded, default 6, then `STAGES_SECONDS`, default 10). Each sample is given to the
 * stage of the innermost frame on its stack that belongs to one (node's code, V8's built-ins and
 * helper packages count for the stage that called them; a stack of node's alone, for HTTP), and each stage's sampled µs are divided by the requests
 * answered. The main thread's CPU from /proc over the same window is printed beside, for both.
 * `STAGES_BUNDLE=<file>`: another build's server.mjs. `STAGES_FUNCTIONS=<n>`: the n largest functions of each stage listed (default 8). `STAGES_ALLOCATIONS=all` (or `promoted`):
 * the service also runs V8's sampling heap profiler over the measured window (bench/heapSampler.mjs)
 * and the report adds the bytes each stage allocates per request (or those that outlived a young
 * collection), by the same attribution as the CPU samples; the sampler weighs on the CPU figures,
 * so compare such runs with each other. Prints a Markdown report (bench/history/ keeps them); not
 * a test.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { mainThreadCpuMicros, startCeiling, waitForAnswer } from "./ceiling.js";
import { forEachSample, framePlaces, type ProfileNode, readProfile } from "./cpuProfile.js";
import { loadAverage } from "./loadAverage.js";
import { SCENARIOS, type Scenario, scenarioRequests } from "./scenarios.js";
import { serviceArguments } from "./serviceCommand.js";

const root = new URL("..", import.meta.url);
const WARM_UP_SECONDS = Number(process.env.STAGES_WARMUP ?? 6);
const SECONDS = Number(process.env.STAGES_SECONDS ?? 10);
const BUNDLE = resolve(process.env.STAGES_BUNDLE ?? fileURLToPath(new URL("dist/bundle/server.mjs", root)));
const PROFILE_FLAGS = ["--cpu-prof", "--cpu-prof-interval=200"];
/** The largest functions shown for each stage. */
const FUNCTIONS_SHOWN = Number(process.env.STAGES_FUNCTIONS ?? 8);
/** `all`: every sampled allocation of the window; `promoted`: those that outlived a young collection. */
const ALLOCATIONS = process.env.STAGES_ALLOCATIONS as "all" | "promoted" | undefined;
const HEAP_SAMPLER = fileURLToPath(new URL("heapSampler.mjs", import.meta.url));

/** The stages of the issue's split, in the path's order; each place belongs to at most one. */
const STAGES: readonly { readonly name: string; readonly places: RegExp }[] = [
  {
    name: "logging and metrics",
    places:
      /^(pino|pino-std-serializers|sonic-boom|prom-client|src\/http\/(logging|metrics)\.ts|src\/support\/log\.ts)$/,
  },
  { name: "serialisation (answer to bytes)", places: /^src\/http\/reply\.ts$/ },
  {
    name: "JSON parse (bounds scan and parse)",
    places: /^src\/support\/(steppedJson|jsonScan|nesting|jsonObject)\.ts$/,
  },
  { name: "validation (zod, pydantic's words)", places: /^(zod|src\/rest\/validation\/.*)$/ },
  { name: "v1 layout", places: /^src\/(rest\/shape|schema\/v1Layout)\.ts$/ },
  { name: "REST routing (route, edition, target)", places: /^src\/rest\// },
  {
    name: "GraphQL operation (coercion, execution)",
    places: /^(graphql|graphql-jit|graphql-yoga|@pothos\/.*|@envelop\/.*|dataloader|src\/schema\/.*)$/,
  },
  { name: "completion and the engine", places: /^src\/(engine|service|data|editions|inputs)\// },
  { name: "HTTP, body read, event loop", places: /^src\/(http|app)\// },
  { name: "garbage collection", places: /^\(garbage collector\)$/ },
];
/**
 * A sample whose stack has no frame of a stage: node's own code (the socket's reads and writes,
 * the HTTP parser, timers) and V8's, under no handler of the service.
 */
const UNPLACED = "HTTP, body read, event loop";

/** The stage of a sample: that of the innermost frame of its stack that has one. */
function stageClassifier(
  nodes: readonly ProfileNode[],
  placeOf: (frame: ProfileNode["callFrame"]) => string,
): (leaf: ProfileNode) => string {
  const parents = new Map<number, ProfileNode>();
  for (const node of nodes) for (const child of node.children ?? []) parents.set(child, node);
  const known = new Map<number, string>();
  return (leaf: ProfileNode): string => {
    const cached = known.get(leaf.id);
    if (cached !== undefined) return cached;
    let stage = UNPLACED;
    for (let node: ProfileNode | undefined = leaf; node; node = parents.get(node.id)) {
      const place = placeOf(node.callFrame);
      const found = STAGES.find((candidate) => candidate.places.test(place));
      if (found) {
        stage = found.name;
        break;
      }
    }
    known.set(leaf.id, stage);
    return stage;
  };
}

/** V8's sampling heap profile (HeapProfiler.stopSampling): a tree of frames and the samples' sizes. */
interface HeapNode {
  readonly id: number;
  readonly callFrame: ProfileNode["callFrame"];
  readonly children: readonly HeapNode[];
}

interface HeapProfile {
  readonly head: HeapNode;
  readonly samples: readonly { readonly size: number; readonly nodeId: number }[];
}

/** Bytes allocated in the window, by stage and by function, as bench/heapSampler.mjs sampled them. */
interface Allocations {
  readonly bytes: number;
  readonly byStage: Map<string, number>;
  readonly byFunction: Map<string, Map<string, number>>;
}

/** The heap profile's frames as a CPU profile's nodes (ids and children's ids), for the classifier. */
function heapNodes(head: HeapNode): ProfileNode[] {
  const nodes: ProfileNode[] = [];
  const pending = [head];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    nodes.push({ id: node.id, callFrame: node.callFrame, children: node.children.map((child) => child.id) });
    pending.push(...node.children);
  }
  return nodes;
}

function allocationsOf(file: string, placeOf: (frame: ProfileNode["callFrame"]) => string): Allocations {
  const profile = JSON.parse(readFileSync(file, "utf8")) as HeapProfile;
  const nodes = heapNodes(profile.head);
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const stageOf = stageClassifier(nodes, placeOf);
  const byStage = new Map<string, number>();
  const byFunction = new Map<string, Map<string, number>>();
  let bytes = 0;
  for (const sample of profile.samples) {
    const node = byId.get(sample.nodeId);
    if (!node) continue;
    const stage = stageOf(node);
    byStage.set(stage, (byStage.get(stage) ?? 0) + sample.size);
    const functions = byFunction.get(stage) ?? new Map<string, number>();
    const name = `${node.callFrame.functionName || "(anonymous)"} [${placeOf(node.callFrame)}]`;
    functions.set(name, (functions.get(name) ?? 0) + sample.size);
    byFunction.set(stage, functions);
    bytes += sample.size;
  }
  return { bytes, byStage, byFunction };
}

/** Starts (first call) or stops and writes (second call) the service's heap sampler. */
async function toggleHeapSampler(pid: number, file: string, stopping: boolean): Promise<void> {
  process.kill(pid, "SIGUSR2");
  if (!stopping) {
    await sleep(200);
    return;
  }
  for (let waited = 0; !existsSync(file); waited += 100) {
    if (waited > 30_000) throw new Error("the heap sampler wrote no profile");
    await sleep(100);
  }
  await sleep(500); // the file is written at once, but give a large one time to land
}

interface Measured {
  readonly allocations?: Allocations;
  readonly requests: number;
  readonly requestsPerSecond: number;
  readonly p99Ms: number;
  readonly procMicrosPerRequest: number;
  readonly byStage: Map<string, number>;
  /** Self µs of each function, by stage, for the report's top functions. */
  readonly byFunction: Map<string, Map<string, number>>;
  readonly sampledMicros: number;
}

/** Drives `base` with `scenario`, warm-up then the measured window, profiling the process `pid`. */
async function measure(
  base: string,
  scenario: Scenario,
  pid: number,
  spawned: number,
  stop: () => Promise<void>,
  directory: string,
  bundle: string | null,
): Promise<Measured> {
  const drive = (seconds: number) =>
    autocannon({ url: base, connections: 10, duration: seconds, requests: scenarioRequests(scenario) });
  const heapFile = ALLOCATIONS && bundle !== null ? join(directory, "allocations.heapprofile") : null;
  await drive(WARM_UP_SECONDS);
  if (heapFile) await toggleHeapSampler(pid, heapFile, false);
  const from = (performance.now() - spawned) * 1000;
  const cpuBefore = mainThreadCpuMicros(pid);
  const result = await drive(SECONDS);
  const cpu = mainThreadCpuMicros(pid) - cpuBefore;
  const to = (performance.now() - spawned) * 1000;
  if (heapFile) await toggleHeapSampler(pid, heapFile, true);
  await stop();
  const profile = readProfile(directory);
  const placeOf =
    bundle === null
      ? (frame: ProfileNode["callFrame"]) => frame.url || frame.functionName
      : framePlaces(bundle);
  const stageOf = stageClassifier(profile.nodes, placeOf);
  const byStage = new Map<string, number>();
  const byFunction = new Map<string, Map<string, number>>();
  let sampledMicros = 0;
  forEachSample(profile, from, to, (node, delta) => {
    const stage = stageOf(node);
    byStage.set(stage, (byStage.get(stage) ?? 0) + delta);
    const functions = byFunction.get(stage) ?? new Map<string, number>();
    const name = `${node.callFrame.functionName || "(anonymous)"} [${placeOf(node.callFrame)}]`;
    functions.set(name, (functions.get(name) ?? 0) + delta);
    byFunction.set(stage, functions);
    sampledMicros += delta;
  });
  if (result.non2xx > 0) throw new Error(`${result.non2xx} answers were not 2xx`);
  return {
    allocations: heapFile ? allocationsOf(heapFile, placeOf) : undefined,
    requests: result.requests.total,
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    procMicrosPerRequest: cpu / result.requests.total,
    byStage,
    byFunction,
    sampledMicros,
  };
}

async function ceilingMeasured(): Promise<Measured> {
  const directory = mkdtempSync(join(tmpdir(), "stages-ceiling-"));
  const spawned = performance.now();
  const ceiling = await startCeiling([...PROFILE_FLAGS, `--cpu-prof-dir=${directory}`]);
  const bare = SCENARIOS.find((scenario) => scenario.target === "ceiling") as Scenario;
  return measure(
    `http://127.0.0.1:${ceiling.port}`,
    bare,
    ceiling.pid,
    spawned,
    ceiling.close,
    directory,
    null,
  );
}

async function serviceMeasured(scenario: Scenario): Promise<Measured> {
  const directory = mkdtempSync(join(tmpdir(), "stages-service-"));
  const port = 20000 + Math.floor(Math.random() * 12000);
  const flags = serviceArguments().filter((part) => part.startsWith("--"));
  const spawned = performance.now();
  const sampler = ALLOCATIONS ? ["--import", HEAP_SAMPLER] : [];
  const samplerEnv = ALLOCATIONS
    ? {
        HEAP_SAMPLER_FILE: join(directory, "allocations.heapprofile"),
        HEAP_SAMPLER_SURVIVORS: ALLOCATIONS === "promoted" ? "1" : "0",
      }
    : {};
  const child = spawn(
    process.execPath,
    [...flags, ...PROFILE_FLAGS, `--cpu-prof-dir=${directory}`, ...sampler, BUNDLE],
    {
      cwd: root,
      env: {
        ...process.env,
        ...samplerEnv,
        NODE_ENV: "production",
        PORT: String(port),
        HOST: "127.0.0.1",
        WORKERS: "1",
      },
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  const base = `http://127.0.0.1:${port}`;
  await waitForAnswer(`${base}/readyz`, spawned);
  const stop = () =>
    new Promise<void>((done) => {
      child.once("exit", () => done());
      child.kill("SIGTERM");
    });
  return measure(base, scenario, child.pid as number, spawned, stop, directory, BUNDLE);
}

const micros = (value: number) => value.toFixed(1);

function report(scenario: Scenario, service: Measured, ceiling: Measured, loads: readonly string[]): string {
  const lines = [
    `# Stages of \`${scenario.method} ${scenario.path}\` (${scenario.name})`,
    "",
    `Command: \`npx tsx bench/stages.ts "${scenario.name}"\` (bundle \`${BUNDLE.replace(fileURLToPath(root), "")}\`), ` +
      `${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, load ${loads.join(" → ")}; ` +
      `${WARM_UP_SECONDS} s warm-up, ${SECONDS} s measured, autocannon at 10 connections, \`--cpu-prof-interval=200\`.`,
    "",
    "| | service | bare server |",
    "|---|---:|---:|",
    `| requests measured | ${service.requests} | ${ceiling.requests} |`,
    `| req/s (under the profiler) | ${Math.round(service.requestsPerSecond)} | ${Math.round(ceiling.requestsPerSecond)} |`,
    `| p99 ms | ${service.p99Ms} | ${ceiling.p99Ms} |`,
    `| main-thread CPU µs per request (/proc) | ${micros(service.procMicrosPerRequest)} | ${micros(ceiling.procMicrosPerRequest)} |`,
    `| sampled CPU µs per request (profile, idle excluded) | ${micros(service.sampledMicros / service.requests)} | ${micros(ceiling.sampledMicros / ceiling.requests)} |`,
    `| ceiling's µs over the service's (/proc) | ${(ceiling.procMicrosPerRequest / service.procMicrosPerRequest).toFixed(3)} | |`,
    "",
    "| stage | service: share of the samples | µs per request (share × /proc) | bare server: share | µs per request |",
    "|---|---:|---:|---:|---:|",
  ];
  const names = [...new Set([...STAGES.map((stage) => stage.name), UNPLACED])];
  for (const name of names) {
    const cells = [service, ceiling].map((measured) => {
      const share = (measured.byStage.get(name) ?? 0) / measured.sampledMicros;
      return `${(100 * share).toFixed(1)} % | ${micros(share * measured.procMicrosPerRequest)}`;
    });
    lines.push(`| ${name} | ${cells.join(" | ")} |`);
  }
  lines.push(
    "",
    "A stage's µs are its share of the samples times the main thread's CPU per request from /proc: the sampler",
    "counts the moments a loaded machine holds the thread off its core too, so its own µs run high under load.",
    "",
    "The service's largest functions by self time, per stage (sampled µs per request):",
    "",
  );
  for (const name of names) {
    const functions = [...(service.byFunction.get(name) ?? new Map<string, number>())]
      .sort((a, b) => b[1] - a[1])
      .slice(0, FUNCTIONS_SHOWN);
    if (functions.length === 0) continue;
    lines.push(
      `- ${name}: ${functions.map(([fn, value]) => `${fn} ${micros(value / service.requests)}`).join("; ")}`,
    );
  }
  if (service.allocations) lines.push("", ...allocationLines(service.allocations, service.requests));
  return `${lines.join("\n")}\n`;
}

const kilobytes = (bytes: number) => (bytes / 1024).toFixed(1);

/** The report's allocation section: KB per request by stage, and each stage's largest allocators. */
function allocationLines(allocations: Allocations, requests: number): string[] {
  const what =
    ALLOCATIONS === "promoted"
      ? "outlived a young collection (promoted, or live at the window's end)"
      : "were allocated (collected or not)";
  const lines = [
    `Bytes that ${what} in the measured window, by stage (V8's sampling heap profiler, bench/heapSampler.mjs, one sample per 1 KB on average): **${kilobytes(allocations.bytes / requests)} KB per request**.`,
    "",
    "| stage | share of the bytes | KB per request |",
    "|---|---:|---:|",
  ];
  const names = [...new Set([...STAGES.map((stage) => stage.name), UNPLACED])];
  for (const name of names) {
    const bytes = allocations.byStage.get(name) ?? 0;
    lines.push(
      `| ${name} | ${((100 * bytes) / allocations.bytes).toFixed(1)} % | ${kilobytes(bytes / requests)} |`,
    );
  }
  lines.push("", "The largest allocating functions, per stage (KB per request):", "");
  for (const name of names) {
    const functions = [...(allocations.byFunction.get(name) ?? new Map<string, number>())]
      .sort((a, b) => b[1] - a[1])
      .slice(0, FUNCTIONS_SHOWN);
    if (functions.length === 0) continue;
    lines.push(
      `- ${name}: ${functions.map(([fn, bytes]) => `${fn} ${kilobytes(bytes / requests)}`).join("; ")}`,
    );
  }
  return lines;
}

async function main(): Promise<void> {
  const wanted = (process.argv[2] ?? "REST POST server verbose (varied)").toLowerCase();
  const scenario = SCENARIOS.find((s) => s.target === "service" && s.name.toLowerCase().includes(wanted));
  if (!scenario) {
    console.error(`usage: tsx bench/stages.ts <part of one of: ${SCENARIOS.map((s) => s.name).join(" | ")}>`);
    process.exit(2);
  }
  const loads = [loadAverage()];
  const ceiling = await ceilingMeasured();
  loads.push(loadAverage());
  const service = await serviceMeasured(scenario);
  loads.push(loadAverage());
  process.stdout.write(report(scenario, service, ceiling, loads));
}

await main();
