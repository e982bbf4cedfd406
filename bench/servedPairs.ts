/**
 * Two built bundles served side by side and driven in turn, in alternated pairs
 * (`npx tsx bench/servedPairs.ts <part of a scenario's name> <bundle A> <bundle B>`): each bundle
 * is started as `npm start` runs it (bench/serviceCommand.ts: node's flags, `NODE_ENV=production`,
 * one process), both warmed up for `PAIRS_WARMUP` seconds (default 6), then `PAIRS` pairs (default
 * 10) of `PAIRS_SECONDS` seconds each (default 3), the order flipped every pair, at the scenario's
 * 10 connections. Each run's figure is the service's main-thread CPU per request
 * (`/proc/<pid>/task/<pid>/stat`), the one that moves least with a shared machine's load; the
 * median of B over A of the pairs is printed. `PAIRS_ENV_A`, `PAIRS_ENV_B` (`NAME=value,…`): settings
 * of one bundle only (e.g. `LOG_LEVEL=warn`, to weigh the request lines). A bundle must sit two folders below its tree
 * (`dist/<name>/server.mjs`), where it finds its data as `dist/bundle/` does. Not a test.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import autocannon from "autocannon";
import { namedScenario, type Scenario, scenarioRequests } from "./scenarios.js";
import { serviceArguments } from "./serviceCommand.js";

const PAIRS = Number(process.env.PAIRS ?? 10);
const SECONDS = Number(process.env.PAIRS_SECONDS ?? 3);
const WARMUP = Number(process.env.PAIRS_WARMUP ?? 6);
/** Clock ticks per second of /proc's CPU times (Linux's USER_HZ). */
const CLOCK_TICKS = 100;

function mainThreadCpuMicros(pid: number): number {
  // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
  const fields = readFileSync(`/proc/${pid}/task/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS;
}

interface Served {
  readonly label: string;
  readonly url: string;
  readonly child: ChildProcess;
}

/** `NAME=value,NAME=value` (PAIRS_ENV_A, PAIRS_ENV_B): a setting given to one bundle only. */
function settings(list: string | undefined): Record<string, string> {
  return Object.fromEntries(
    (list ?? "")
      .split(",")
      .filter(Boolean)
      .map((pair) => pair.split("=", 2)),
  );
}

async function start(bundle: string, port: number, own: Record<string, string>): Promise<Served> {
  const args = serviceArguments().map((part) => (part.endsWith(".mjs") ? resolve(bundle) : part));
  const child = spawn(process.execPath, args, {
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), WORKERS: "1", ...own },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    try {
      if ((await fetch(`${url}/v1/server/?verbose=false`)).ok) return { label: bundle, url, child };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** One run of the scenario against one bundle: main-thread µs per request and req/s. */
async function drive(served: Served, scenario: Scenario, seconds: number) {
  const pid = served.child.pid as number;
  const before = mainThreadCpuMicros(pid);
  const result = await autocannon({
    url: `${served.url}${scenario.path}`,
    connections: scenario.connections ?? 10,
    duration: seconds,
    requests: scenarioRequests(scenario),
  });
  const cpu = mainThreadCpuMicros(pid) - before;
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${served.label}: ${result.non2xx} non-2xx`);
  return { micros: cpu / result.requests.total, rps: result.requests.total / result.duration };
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];

async function main(): Promise<void> {
  const scenario = namedScenario("bench/servedPairs.ts");
  const [bundleA, bundleB] = process.argv.slice(3);
  if (!bundleA || !bundleB) {
    console.error("usage: tsx bench/servedPairs.ts <scenario> <bundle A> <bundle B>");
    process.exit(2);
  }
  const port = 20000 + Math.floor(Math.random() * 20000);
  const a = await start(bundleA, port, settings(process.env.PAIRS_ENV_A));
  const b = await start(bundleB, port + 1, settings(process.env.PAIRS_ENV_B));
  try {
    await drive(a, scenario, WARMUP);
    await drive(b, scenario, WARMUP);
    const ratios: number[] = [];
    const [microsA, microsB]: [number[], number[]] = [[], []];
    for (let pair = 0; pair < PAIRS; pair++) {
      const order = pair % 2 === 0 ? [a, b] : [b, a];
      const figures = new Map<Served, Awaited<ReturnType<typeof drive>>>();
      for (const served of order) figures.set(served, await drive(served, scenario, SECONDS));
      const [fa, fb] = [figures.get(a), figures.get(b)] as const;
      if (!fa || !fb) throw new Error("a run is missing");
      microsA.push(fa.micros);
      microsB.push(fb.micros);
      ratios.push(fb.micros / fa.micros);
      console.log(
        `pair ${pair + 1}: A ${fa.micros.toFixed(1)} µs (${Math.round(fa.rps)} req/s), ` +
          `B ${fb.micros.toFixed(1)} µs (${Math.round(fb.rps)} req/s), B/A ${(fb.micros / fa.micros).toFixed(3)}`,
      );
    }
    console.log(
      `${scenario.name}: median A ${median(microsA).toFixed(1)} µs, B ${median(microsB).toFixed(1)} µs, ` +
        `median B/A ${median(ratios).toFixed(3)} over ${PAIRS} pairs`,
    );
  } finally {
    a.child.kill();
    b.child.kill();
  }
}

await main();
