/**
 * The project's benchmark (`npm run bench`): starts the service and a bare node:http server
 * (its own process) answering a constant JSON body (the ceiling of one Node process on this
 * machine), drives both with autocannon at 10 connections, and the reference boaviztapi when one
 * is named (bench/reference.ts), prints a table and writes bench/results.json.
 *
 * Not a test: it reports figures against the targets of bench/README.md.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import autocannon from "autocannon";
import { admissionWorstCase } from "./admission.js";
import { mainThreadCpuMicros, startCeiling, waitForAnswer } from "./ceiling.js";
import { configuredReferences, processCpuMicros, type Reference, referenceOf } from "./reference.js";
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
   * moves with what else runs on the machine (bench/README.md, "What each scenario measures"); the
   * ceiling's too, so that `cpuRatioToCeiling` compares the two.
   */
  mainThreadMicrosPerRequest: number | null;
  /** The ceiling's main-thread CPU per request over this scenario's: the steady form of the ratio. */
  cpuRatioToCeiling: number | null;
  non2xx: number;
  /** The reference of the scenario's edition (bench/reference.ts), when one is named. */
  reference?: ReferenceFigures;
}

interface ReferenceFigures {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Our req/s over the reference's, in the same run. */
  ratio: number;
  /** The reference's CPU time per request, every thread of its process (µs); null without its pid. */
  cpuMicrosPerRequest: number | null;
  non2xx: number;
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

/**
 * A scenario against the reference of its edition, right after the service's measure: the same
 * path, body generator, connections, warm-up and measured seconds.
 */
async function measureReference(
  reference: Reference,
  scenario: Scenario,
  serviceRps: number,
): Promise<ReferenceFigures> {
  await drive(reference.url, scenario, false);
  const cpuBefore = reference.pid === null ? 0 : processCpuMicros(reference.pid);
  const result = await drive(reference.url, scenario);
  const cpu = reference.pid === null ? null : processCpuMicros(reference.pid) - cpuBefore;
  // Counted over the whole window: autocannon's per-second samples read 0 for a server answering
  // a few requests a second when a measure is short.
  const rps = result.requests.total / result.duration;
  return {
    requestsPerSecond: Math.round(rps * 10) / 10,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    ratio: Math.round((serviceRps / rps) * 10) / 10,
    cpuMicrosPerRequest: cpu === null ? null : Math.round(cpu / result.requests.total),
    non2xx: result.non2xx,
  };
}

/** The table of a run, a scenario's reference figures beside its own. */
function printRows(rows: readonly Row[]): void {
  console.table(
    rows.map(({ reference, ...row }) => ({
      ...row,
      ...(reference
        ? {
            "reference req/s": reference.requestsPerSecond,
            "reference p99": reference.p99Ms,
            "reference CPU µs": reference.cpuMicrosPerRequest,
            "× reference": reference.ratio,
            "× reference CPU":
              reference.cpuMicrosPerRequest && row.mainThreadMicrosPerRequest
                ? Math.round(reference.cpuMicrosPerRequest / row.mainThreadMicrosPerRequest)
                : null,
          }
        : {}),
    })),
  );
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
      cpuRatioToCeiling: null,
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
  const references = configuredReferences();
  const rows: Row[] = [];
  let ceilingRps = Number.NaN;
  let ceilingCpuPerRequest = Number.NaN;
  let fleetMs = Number.NaN;
  let memoryMb = Number.NaN;
  try {
    for (const scenario of selection ?? SCENARIOS) {
      const base =
        scenario.target === "ceiling" ? `http://127.0.0.1:${ceiling.port}` : `http://127.0.0.1:${port}`;
      await drive(base, scenario, false);
      const measuredPid = scenario.target === "ceiling" ? ceiling.pid : (service.child.pid as number);
      const cpuBefore = mainThreadCpuMicros(measuredPid);
      const result = await drive(base, scenario);
      const cpuPerRequest =
        (mainThreadCpuMicros(measuredPid) - cpuBefore) / (scenario.amount ?? result.requests.total);
      const rps = scenario.amount ? 1000 / result.latency.average : result.requests.average;
      if (scenario.target === "ceiling") {
        ceilingRps = rps;
        ceilingCpuPerRequest = cpuPerRequest;
      }
      const reference = referenceOf(scenario, references);
      rows.push({
        scenario: scenario.name,
        requestsPerSecond: Math.round(rps),
        p50Ms: result.latency.p50,
        p99Ms: result.latency.p99,
        ratioToCeiling: Math.round((rps / ceilingRps) * 1000) / 1000,
        mainThreadMicrosPerRequest: Math.round(cpuPerRequest),
        // A fleet's request is a thousand evaluations: no quotient with one bare answer.
        cpuRatioToCeiling: scenario.amount
          ? null
          : Math.round((ceilingCpuPerRequest / cpuPerRequest) * 1000) / 1000,
        non2xx: result.non2xx,
        ...(reference ? { reference: await measureReference(reference, scenario, rps) } : {}),
      });
    }
    if (selection) {
      printRows(rows);
      writeFileSync(
        new URL("bench/results-selection.json", root),
        `${JSON.stringify({ date: new Date().toISOString(), node: process.version, scenarios: rows }, null, 2)}\n`,
      );
      return;
    }
    const during = await singlesDuringFleet(port);
    rows.push(during.row);
    fleetMs = Math.round(during.fleetMs);
  } finally {
    memoryMb = residentMemoryMb(service.child.pid as number);
    service.child.kill();
    await ceiling.close();
  }
  const worstCase = await admission();
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
  printRows(rows);
  console.log(`start-up to first answer (both editions loaded): ${results.startupToFirstAnswerMs} ms`);
  console.log(`idle resident memory (both editions): ${results.idleResidentMemoryMb} MB`);
  console.log(`resident memory after the run: ${results.residentMemoryAfterRunMb} MB`);
  console.log(`10,000-server fleet (while single requests ran): ${fleetMs} ms`);
}

await main();
