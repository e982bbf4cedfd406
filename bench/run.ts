/**
 * The project's benchmark (`npm run bench`): starts the service and a bare node:http server
 * answering a constant JSON body (the ceiling of one Node process on this machine), drives both
 * with autocannon at 10 connections, prints a table and writes bench/results.json.
 *
 * Not a test: it reports figures against the targets of bench/README.md.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import autocannon from "autocannon";
import { admissionWorstCase } from "./admission.js";
import {
  LOCATIONS,
  SCENARIOS,
  type Scenario,
  SERVERS_GQL,
  scenarioRequests,
  serverFleet,
} from "./scenarios.js";
import { serviceArguments } from "./serviceCommand.js";

const CONNECTIONS = 10;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const root = new URL("..", import.meta.url);

interface Row {
  scenario: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  ratioToCeiling: number | null;
  /**
   * CPU time of the service's main thread per measured request (µs): unlike req/s, it hardly
   * moves with what else runs on the machine (bench/README.md, "What each scenario measures"). Null for the
   * ceiling, which runs in this process beside autocannon.
   */
  mainThreadMicrosPerRequest: number | null;
  non2xx: number;
}

/** Clock ticks per second of /proc's CPU times. */
const CLOCK_TICKS = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;

/** CPU time (user + system, µs) of a process's main thread so far, from /proc. */
function mainThreadCpuMicros(pid: number): number {
  // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
  const fields = readFileSync(`/proc/${pid}/task/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS;
}

function startCeiling(): Promise<{ port: number; close: () => void }> {
  const body = JSON.stringify({ impacts: { gwp: { value: 1, min: 1, max: 1 } } });
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(body);
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () =>
      resolve({ port: (server.address() as AddressInfo).port, close: () => server.close() }),
    );
  });
}

async function waitForAnswer(url: string, started: number): Promise<number> {
  for (;;) {
    try {
      const response = await fetch(url);
      if (response.ok) return performance.now() - started;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** `npm start` builds the bundle, then runs it; the start-up measured is the service's own. */
function buildService(): void {
  execFileSync("npm", ["run", "build", "--silent"], { cwd: root, stdio: "inherit" });
}

async function startService(port: number): Promise<{ child: ChildProcess; startupMs: number }> {
  buildService();
  const started = performance.now();
  const child = spawn(process.execPath, serviceArguments(), {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), WORKERS: "1" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const startupMs = await waitForAnswer(`http://127.0.0.1:${port}/v1/server/?verbose=false`, started);
  return { child, startupMs };
}

function residentMemoryMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const match = /VmRSS:\s+(\d+) kB/.exec(status);
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

/**
 * Seconds of unrecorded load before each measured scenario, so the JIT has compiled the path and
 * the heap has reached its steady size: with 2 s, the first varied POST scenario of a run measures
 * its own warm-up (0.107–0.146 of the ceiling against 0.17–0.18 later in the run or after 6 s;
 * bench/README.md, "Six seconds of warm-up").
 */
const WARM_UP_SECONDS = Number(process.env.BENCH_WARMUP ?? 6);

async function drive(url: string, scenario: Scenario, measured = true): Promise<autocannon.Result> {
  return autocannon({
    url,
    connections: scenario.connections ?? CONNECTIONS,
    ...(scenario.amount
      ? { amount: measured ? scenario.amount : Math.ceil(scenario.amount / 4) }
      : { duration: measured ? SECONDS : WARM_UP_SECONDS }),
    requests: scenarioRequests(scenario),
  });
}

/** A 10,000-server fleet (gwp of each item and the total): long enough to show whether other clients wait. */
const bigFleetBody = JSON.stringify({
  query: SERVERS_GQL,
  variables: {
    inputs: Array.from({ length: 10_000 }, (_, i) => ({
      ...serverFleet[i % serverFleet.length],
      usage: { usageLocation: LOCATIONS[i % LOCATIONS.length] },
    })),
  },
});

/**
 * Single requests (one connection) while one 10,000-server fleet is evaluated: their latency is
 * what other clients pay for a fleet (fleets are evaluated in chunks that yield to them).
 */
async function singlesDuringFleet(port: number): Promise<{ row: Row; fleetMs: number }> {
  const base = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const fleet = fetch(`${base}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: bigFleetBody,
  }).then(async (response) => {
    await response.text();
    if (!response.ok) throw new Error(`fleet answered ${response.status}`);
    return performance.now() - started;
  });
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: base,
        connections: 1,
        duration: 600,
        requests: [{ method: "GET", path: "/v1/server/?archetype=dellR740&verbose=false" }],
      },
      (error, outcome) => (error ? reject(error) : resolve(outcome)),
    );
    fleet.then(
      () => instance.stop(),
      () => instance.stop(),
    );
  });
  return {
    fleetMs: await fleet,
    row: {
      scenario: "REST GET server archetype while a 10,000-server fleet runs",
      requestsPerSecond: Math.round(result.requests.average),
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      ratioToCeiling: null,
      mainThreadMicrosPerRequest: null,
      non2xx: result.non2xx,
    },
  };
}

/**
 * The memory worst case of the shipped deployment (bench/admission.ts), on a service of its own
 * started with the shipped heap (npm start's flags) and deploy/deployment.yaml's budgets. `BENCH_ONLY=admission` runs it alone.
 */
async function admission(): Promise<Awaited<ReturnType<typeof admissionWorstCase>>> {
  buildService();
  const figures = await admissionWorstCase(20000 + Math.floor(Math.random() * 12000));
  console.log("admission worst case (the shipped heap and deploy/deployment.yaml's budgets):");
  console.log(JSON.stringify(figures, null, 2));
  return figures;
}

/**
 * `BENCH_ONLY=admission`: the admission worst case alone. Any other value: the scenarios whose
 * name contains one of its comma-separated parts (case-insensitive; e.g. `BENCH_ONLY=varied,GET`),
 * with the ceiling, printed only (no fleet-while-singles, no admission, no results file).
 */
function selected(): readonly Scenario[] | null {
  const only = process.env.BENCH_ONLY;
  if (!only) return null;
  const parts = only
    .toLowerCase()
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "");
  return SCENARIOS.filter(
    (scenario) =>
      scenario.target === "ceiling" || parts.some((part) => scenario.name.toLowerCase().includes(part)),
  );
}

async function main(): Promise<void> {
  if (process.env.BENCH_ONLY === "admission") {
    const figures = await admission();
    writeFileSync(
      new URL("bench/results-admission.json", root),
      `${JSON.stringify({ date: new Date().toISOString(), node: process.version, ...figures }, null, 2)}\n`,
    );
    return;
  }
  const ceiling = await startCeiling();
  const port = 20000 + Math.floor(Math.random() * 20000);
  const service = await startService(port);
  // Idle memory with both editions loaded: after one answer of each edition, before any load.
  await waitForAnswer(`http://127.0.0.1:${port}/v1/server/?verbose=false&edition=2.4.1`, performance.now());
  const idleMemoryMb = residentMemoryMb(service.child.pid as number);
  const selection = selected();
  const rows: Row[] = [];
  let ceilingRps = Number.NaN;
  let fleetMs = Number.NaN;
  let memoryMb = Number.NaN;
  try {
    for (const scenario of selection ?? SCENARIOS) {
      const base =
        scenario.target === "ceiling" ? `http://127.0.0.1:${ceiling.port}` : `http://127.0.0.1:${port}`;
      await drive(base, scenario, false);
      const servicePid = service.child.pid as number;
      const cpuBefore = mainThreadCpuMicros(servicePid);
      const result = await drive(base, scenario);
      const cpu = mainThreadCpuMicros(servicePid) - cpuBefore;
      const rps = scenario.amount ? 1000 / result.latency.average : result.requests.average;
      if (scenario.target === "ceiling") ceilingRps = rps;
      rows.push({
        scenario: scenario.name,
        requestsPerSecond: Math.round(rps),
        p50Ms: result.latency.p50,
        p99Ms: result.latency.p99,
        ratioToCeiling: scenario.target === "ceiling" ? 1 : Math.round((rps / ceilingRps) * 1000) / 1000,
        mainThreadMicrosPerRequest:
          scenario.target === "ceiling" ? null : Math.round(cpu / (scenario.amount ?? result.requests.total)),
        non2xx: result.non2xx,
      });
    }
    if (selection) {
      ceiling.close();
      console.table(rows);
      return;
    }
    const during = await singlesDuringFleet(port);
    rows.push(during.row);
    fleetMs = Math.round(during.fleetMs);
  } finally {
    memoryMb = residentMemoryMb(service.child.pid as number);
    service.child.kill();
  }
  const worstCase = await admission();
  ceiling.close();
  const results = {
    date: new Date().toISOString(),
    node: process.version,
    connections: CONNECTIONS,
    secondsPerScenario: SECONDS,
    startupToFirstAnswerMs: Math.round(service.startupMs),
    idleResidentMemoryMb: Math.round(idleMemoryMb),
    residentMemoryAfterRunMb: Math.round(memoryMb),
    tenThousandServerFleetMs: fleetMs,
    scenarios: rows,
    admissionWorstCase: worstCase,
  };
  writeFileSync(new URL("bench/results.json", root), `${JSON.stringify(results, null, 2)}\n`);
  console.table(rows);
  console.log(`start-up to first answer (both editions loaded): ${results.startupToFirstAnswerMs} ms`);
  console.log(`idle resident memory (both editions): ${results.idleResidentMemoryMb} MB`);
  console.log(`resident memory after the run: ${results.residentMemoryAfterRunMb} MB`);
  console.log(`10,000-server fleet (while single requests ran): ${fleetMs} ms`);
}

await main();
