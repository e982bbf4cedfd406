/**
 * Single requests while fleets run (`npx tsx bench/fleetProbes.ts`, after `npm run build`): the
 * built service as `npm start` runs it, one client asking a kept GET answer back to back on one
 * connection (the probe) while another sends 10,000-server fleets one after the other, for
 * `BENCH_PROBES_RUNS` runs (default 5) of `BENCH_PROBES_FLEETS` fleets (default 3); and the same
 * probe alone, for as long, first (the machine's own latency at its load). Each run's probe
 * latencies: p50, p99, max; and the event loop's longest iterations during the run in main-thread
 * CPU ms (bench/longTasks.mjs, preloaded): what a probe waits behind on a quiet machine, measured
 * whatever the load. `BENCH_PROBES_PROFILE=1` also runs the service under `--cpu-prof` and prints
 * the iterations of `BENCH_PROBES_LONG_MS` (default 20) or more, most CPU first, each with the
 * stacks sampled inside it.
 *
 * Not a test: bench/README.md ("Single requests during fleets") records its figures; the result
 * is written to bench/results-probes.json. `BENCH_PROBES_BUNDLE=<server.mjs>` runs another build
 * (the tree before a change, built in a folder of its own beside its data/).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { listening } from "./admission.js";
import { latencySummary } from "./latencies.js";
import { LOCATIONS, SERVERS_GQL, serverFleet } from "./scenarios.js";
import { serviceArguments, serviceEnvironment } from "./serviceCommand.js";

const RUNS = Number(process.env.BENCH_PROBES_RUNS ?? 5);
const FLEETS = Number(process.env.BENCH_PROBES_FLEETS ?? 3);
const PROFILE = process.env.BENCH_PROBES_PROFILE === "1";
/** Stretches of the main thread without a turn at least this long are listed. */
const LONG_MS = Number(process.env.BENCH_PROBES_LONG_MS ?? 20);
const root = new URL("..", import.meta.url);
/** Another build's bundle (the tree before a change: `BENCH_PROBES_BUNDLE=<its server.mjs>`). */
const BUNDLE = process.env.BENCH_PROBES_BUNDLE;

const fleetBody = JSON.stringify({
  query: SERVERS_GQL,
  variables: {
    inputs: Array.from({ length: 10_000 }, (_, i) => ({
      ...serverFleet[i % serverFleet.length],
      usage: { usageLocation: LOCATIONS[i % LOCATIONS.length] },
    })),
  },
});

const PROBE = "/v1/server/?archetype=dellR740&verbose=false";

/** The probe's latencies (ms), asked back to back until `until` resolves. */
async function probes(base: string, until: Promise<unknown>): Promise<number[]> {
  let done = false;
  void until.finally(() => {
    done = true;
  });
  const latencies: number[] = [];
  while (!done) {
    const started = performance.now();
    const answer = await fetch(`${base}${PROBE}`);
    await answer.arrayBuffer();
    if (!answer.ok) throw new Error(`the probe answered ${answer.status}`);
    latencies.push(performance.now() - started);
  }
  return latencies;
}

/** `count` fleets, one after the other; the time each took (ms). */
async function fleets(base: string, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const started = performance.now();
    const answer = await fetch(`${base}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: fleetBody,
    });
    await answer.arrayBuffer();
    if (!answer.ok) throw new Error(`a fleet answered ${answer.status}`);
    times.push(performance.now() - started);
  }
  return times;
}

function summary(latencies: readonly number[]) {
  const { count, ...figures } = latencySummary(latencies);
  return { probes: count, ...figures };
}

interface CpuProfile {
  readonly startTime: number;
  readonly nodes: readonly {
    readonly id: number;
    readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
    readonly children?: readonly number[];
  }[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** The `// src/…` module of each line of the bundle (esbuild's markers). */
function moduleOfLine(bundle: string): (line: number) => string {
  const markers: { line: number; file: string }[] = [];
  bundle.split("\n").forEach((text, line) => {
    const marker = /^\/\/ (src\/\S+|node_modules\/\S+)$/.exec(text);
    if (marker) markers.push({ line, file: marker[1] });
  });
  return (line) => {
    let found = "(bundle)";
    for (const marker of markers) {
      if (marker.line > line) break;
      found = marker.file;
    }
    return found;
  };
}

/** A time the event loop did not come back (bench/longTasks.mjs), µs on the monotonic clock. */
interface Gap {
  readonly start: number;
  readonly end: number;
  /** The main thread's CPU time in it. */
  readonly cpuMs?: number;
}

/**
 * The event loop's longest iterations within a run, in main-thread CPU ms (what a probe waits
 * behind on a quiet machine, whatever the machine's load): the three longest, and how many took
 * 20 ms or more.
 */
function loopsIn(gaps: readonly Gap[], window: Gap) {
  const cpu = gaps
    .filter((gap) => gap.start >= window.start && gap.end <= window.end)
    .map((gap) => gap.cpuMs ?? 0)
    .sort((a, b) => b - a);
  return {
    longestLoopsCpuMs: cpu.slice(0, 3).map((ms) => Math.round(ms)),
    loopsOf20CpuMs: cpu.filter((ms) => ms >= 20).length,
  };
}

/**
 * The gaps of the event loop, longest first, each with the stacks the profile sampled inside it
 * (their three innermost frames of the project or its packages) and the time each took there.
 */
function heldGaps(profile: CpuProfile, gaps: readonly Gap[], bundlePath: string) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const moduleOf = moduleOfLine(readFileSync(bundlePath, "utf8"));
  const frameName = (id: number) => {
    const { functionName, url, lineNumber } = (byId.get(id) as CpuProfile["nodes"][number]).callFrame;
    const where = url.endsWith("server.mjs") ? moduleOf(lineNumber) : url.replace(/^.*node_modules\//, "");
    return `${functionName || "(anonymous)"} ${where}`;
  };
  const stackOf = (id: number) => {
    const frames: string[] = [];
    for (let at: number | undefined = id; at !== undefined && frames.length < 3; at = parent.get(at)) {
      const name = frameName(at);
      if (!name.startsWith("(") || frames.length === 0) frames.push(name);
    }
    return frames.join(" < ");
  };
  const samples: { at: number; stack: string; ms: number }[] = [];
  let at = profile.startTime;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    at += delta;
    samples.push({ at, stack: stackOf(id), ms: delta / 1000 });
  });
  return [...gaps]
    .sort((a, b) => b.end - b.start - (a.end - a.start))
    .map((gap) => {
      const held = new Map<string, number>();
      for (const sample of samples) {
        if (sample.at < gap.start || sample.at > gap.end) continue;
        held.set(sample.stack, (held.get(sample.stack) ?? 0) + sample.ms);
      }
      return {
        ms: (gap.end - gap.start) / 1000,
        cpuMs: gap.cpuMs ?? 0,
        top: [...held].sort((a, b) => b[1] - a[1]).slice(0, 5),
      };
    })
    .sort((a, b) => b.cpuMs - a.cpuMs);
}

async function main(): Promise<void> {
  const port = 21000 + Math.floor(Math.random() * 9000);
  const base = `http://127.0.0.1:${port}`;
  const profileDir = mkdtempSync(join(tmpdir(), "fleet-probes-"));
  const shipped = serviceArguments();
  const args = BUNDLE === undefined ? shipped : [...shipped.slice(0, -1), BUNDLE];
  const gapsFile = join(profileDir, "gaps.json");
  const profiling = ["--cpu-prof", `--cpu-prof-dir=${profileDir}`];
  const child = spawn(
    process.execPath,
    [...(PROFILE ? profiling : []), "--import", "./bench/longTasks.mjs", ...args],
    {
      cwd: root,
      env: { ...serviceEnvironment(port), BENCH_LONG_TASKS: gapsFile, BENCH_LONG_MS: String(LONG_MS) },
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  await listening(`${base}/readyz`);
  // Warm-up: the fleet's path and the probe's compiled, the kept answer made.
  await fleets(base, 2);
  await probes(base, new Promise((resolve) => setTimeout(resolve, 2000)));
  const load = () =>
    loadavg()
      .map((value) => value.toFixed(1))
      .join(" ");
  const loadBefore = load();
  const runs: (ReturnType<typeof summary> & { fleetMs: number[]; window: Gap })[] = [];
  const alone: number[] = [];
  const clock = () => Number(process.hrtime.bigint() / 1000n);
  for (let run = 0; run < RUNS; run += 1) {
    const started = performance.now();
    const from = clock();
    const fleetTimes = fleets(base, FLEETS);
    const latencies = await probes(base, fleetTimes);
    const times = await fleetTimes;
    runs.push({
      ...summary(latencies),
      fleetMs: times.map(Math.round),
      window: { start: from, end: clock() },
    });
    // The probe alone for as long: the machine's latency at its load, between the runs.
    const elapsed = performance.now() - started;
    alone.push(...(await probes(base, new Promise((resolve) => setTimeout(resolve, elapsed / RUNS)))));
  }
  child.kill("SIGINT");
  await new Promise((resolve) => child.once("exit", resolve));
  const gaps = JSON.parse(readFileSync(gapsFile, "utf8")) as Gap[];
  const result = {
    when: new Date().toISOString(),
    load: { before: loadBefore, after: load() },
    aloneProbes: summary(alone),
    runs: runs.map(({ window, ...run }) => ({ ...run, ...loopsIn(gaps, window) })),
    p99RangeMs: [Math.min(...runs.map((run) => run.p99Ms)), Math.max(...runs.map((run) => run.p99Ms))],
  };
  console.log(JSON.stringify(result, null, 2));
  writeFileSync(new URL("bench/results-probes.json", root), `${JSON.stringify(result, null, 2)}\n`);
  if (!PROFILE) return;
  const [file] = readdirSync(profileDir).filter((name) => name.endsWith(".cpuprofile"));
  const profile = JSON.parse(readFileSync(join(profileDir, file), "utf8")) as CpuProfile;
  const held = heldGaps(profile, gaps, BUNDLE ?? new URL(args.at(-1) as string, root).pathname);
  console.log(`times the event loop did not come back for ${LONG_MS} ms or more: ${held.length}`);
  for (const gap of held.slice(0, 20)) {
    console.log(`${gap.ms.toFixed(1)} ms (main-thread CPU ${gap.cpuMs.toFixed(1)} ms)`);
    for (const [stack, ms] of gap.top) console.log(`    ${ms.toFixed(1)} ms  ${stack}`);
  }
}

await main();
