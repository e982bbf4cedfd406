/**
 * The request path's figures side by side in one run, driven by wrk (`npx tsx bench/wrkSideBySide.ts`;
 * `npm run build` first; wrk from the system's packages, `apt-get install -y wrk`). The bare server
 * (bench/ceiling.ts) is measured right before each scenario, so every ratio is read against a
 * ceiling of the same moments; the built service runs as `npm start` runs it (its node flags,
 * NODE_ENV=production) with `WRK_WORKERS` workers (default 1; `WRK_WORKERS=1,2,4` measures each
 * count in turn: the scaling). Each scenario: `WRK_WARMUP` seconds unrecorded (default 4), then
 * `WRK_SECONDS` (default 5), wrk at 10 connections on 2 threads; the varied bodies are
 * bench/scenarios.ts's fixed-seed generator's, `WRK_BODIES` of them (default 2,000) cycled by a
 * Lua script. The service's main-thread CPU per request (/proc; with workers, their main threads'
 * and the primary's together) is printed beside the ceiling's, and with one worker the mark-compacts
 * its collector ran in the window (the service's /metrics): a process serves in one of two regimes,
 * with and without them, whose p99s differ threefold (bench/README.md, "The collector's two
 * regimes"). `WRK_ONLY=<part,part>`: the scenarios whose name contains one of the parts;
 * `WRK_BUNDLE=<file>`: another build's server.mjs. `WRK_REFERENCE=<url>`:
 * a boaviztapi, driven with the same REST scenarios (its edition's only: `WRK_REFERENCE_EDITION`,
 * default 1.2.4). Prints a Markdown table; not a test.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { get } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { mainThreadCpuMicros, startCeiling, waitForAnswer } from "./ceiling.js";
import { loadAverage } from "./loadAverage.js";
import { SCENARIOS, type Scenario, scenarioBodies } from "./scenarios.js";
import { serviceArguments } from "./serviceCommand.js";

const root = new URL("..", import.meta.url);
const WARM_UP_SECONDS = Number(process.env.WRK_WARMUP ?? 4);
const SECONDS = Number(process.env.WRK_SECONDS ?? 5);
const BODIES = Number(process.env.WRK_BODIES ?? 2000);
const WORKER_COUNTS = (process.env.WRK_WORKERS ?? "1").split(",").map(Number);
const BUNDLE = resolve(process.env.WRK_BUNDLE ?? fileURLToPath(new URL("dist/bundle/server.mjs", root)));
const ONLY = (process.env.WRK_ONLY ?? "varied,archetype").toLowerCase().split(",");
const REFERENCE = process.env.WRK_REFERENCE;
const REFERENCE_EDITION = process.env.WRK_REFERENCE_EDITION ?? "1.2.4";
const scratch = mkdtempSync(join(tmpdir(), "wrk-"));

interface Driven {
  readonly requests: number;
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly non2xx: number;
}

/** A Lua script sending the scenario's requests, the varied bodies in turn (each wrk thread from its own start). */
function luaScript(scenario: Scenario, path: string): string {
  const file = join(scratch, `${scenario.name.replace(/\W+/g, "-")}.lua`);
  const bodies = scenario.body ? scenarioBodies(scenario, BODIES) : [];
  const quoted = bodies.map((body) => `[==[${body}]==]`).join(",\n");
  writeFileSync(
    file,
    `local bodies = {${quoted}}
local i = 0
local headers = { ["content-type"] = "application/json" }
request = function()
  if #bodies == 0 then return wrk.format("${scenario.method}", "${path}", headers) end
  i = i % #bodies + 1
  return wrk.format("${scenario.method}", "${path}", headers, bodies[i])
end
`,
  );
  return file;
}

function milliseconds(text: string): number {
  const match = /^([\d.]+)(us|ms|s)$/.exec(text);
  if (!match) return Number.NaN;
  const value = Number(match[1]);
  return match[2] === "us" ? value / 1000 : match[2] === "s" ? value * 1000 : value;
}

function wrk(base: string, scenario: Scenario, seconds: number, path = scenario.path): Driven {
  const output = execFileSync(
    "wrk",
    ["-t2", "-c10", `-d${seconds}s`, "--latency", "-s", luaScript(scenario, path), `${base}${path}`],
    { encoding: "utf8" },
  );
  const requests = Number(/(\d+) requests in/.exec(output)?.[1]);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0);
  return {
    requests,
    requestsPerSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1]),
    p50Ms: milliseconds(/ 50%\s+(\S+)/.exec(output)?.[1] ?? ""),
    p99Ms: milliseconds(/ 99%\s+(\S+)/.exec(output)?.[1] ?? ""),
    non2xx,
  };
}

/** The process and its workers (node:cluster forks them as its children). */
function processTree(pid: number): number[] {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  return [pid, ...children.map(Number)];
}

/** The main threads' CPU of `pids` together (µs). */
const treeCpuMicros = (pids: readonly number[]) =>
  pids.reduce((sum, pid) => sum + mainThreadCpuMicros(pid), 0);

/**
 * Warm-up, then the measured window, with the main-thread CPU per request of the process `pid` and
 * its workers when given (with workers, the primary's share is its own: it accepts nothing).
 */
async function measured(
  base: string,
  scenario: Scenario,
  pid: number | null,
  { path, compacts = async () => Number.NaN }: { path?: string; compacts?: () => Promise<number> } = {},
) {
  wrk(base, scenario, WARM_UP_SECONDS, path);
  const pids = pid === null ? [] : processTree(pid);
  const compactsBefore = await compacts();
  const before = treeCpuMicros(pids);
  const driven = wrk(base, scenario, SECONDS, path);
  const cpu = pid === null ? Number.NaN : (treeCpuMicros(pids) - before) / driven.requests;
  return { ...driven, cpu, compacts: (await compacts()) - compactsBefore };
}

/** A page's text on a connection of its own (the service closes idle kept-alive ones between scrapes). */
function scraped(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        text += chunk;
      });
      response.on("end", () => resolve(text));
      response.on("error", reject);
    }).on("error", reject);
  });
}

/**
 * Mark-compacts the service has run so far, by its own /metrics (prom-client's GC histogram, kind
 * `major`). With workers each scrape is one worker's, so none is read.
 */
async function markCompacts(base: string, workers: number): Promise<number> {
  if (workers !== 1) return Number.NaN;
  const text = await scraped(`${base}/metrics`);
  return Number(/^nodejs_gc_duration_seconds_count\{kind="major"\} (\d+)$/m.exec(text)?.[1] ?? 0);
}

async function startService(workers: number): Promise<{ child: ChildProcess; base: string }> {
  const port = 20000 + Math.floor(Math.random() * 12000);
  const args = serviceArguments().map((part) => (part.endsWith(".mjs") ? BUNDLE : part));
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      WORKERS: String(workers),
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const base = `http://127.0.0.1:${port}`;
  await waitForAnswer(`${base}/readyz`, performance.now());
  return { child, base };
}

const fixed = (value: number, digits = 0) => (Number.isNaN(value) ? "" : value.toFixed(digits));

async function main(): Promise<void> {
  const scenarios = SCENARIOS.filter(
    (scenario) =>
      scenario.target === "service" && ONLY.some((part) => scenario.name.toLowerCase().includes(part)),
  );
  const bare = SCENARIOS.find((scenario) => scenario.target === "ceiling") as Scenario;
  const ceiling = await startCeiling();
  console.log(
    `wrk, 10 connections, 2 threads; ${WARM_UP_SECONDS} s warm-up, ${SECONDS} s measured; ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC; bundle ${BUNDLE.replace(fileURLToPath(root), "")}\n`,
  );
  console.log(
    "| workers | scenario | load (1 min) | req/s | p50 ms | p99 ms | mark-compacts | bare server req/s | ratio | main-thread µs/request | bare µs/request | CPU ratio |",
  );
  console.log("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  try {
    for (const workers of WORKER_COUNTS) {
      const service = await startService(workers);
      try {
        for (const scenario of scenarios) {
          const load = loadAverage().split(" ")[0];
          const top = await measured(`http://127.0.0.1:${ceiling.port}`, bare, ceiling.pid);
          const ours = await measured(service.base, scenario, service.child.pid as number, {
            compacts: () => markCompacts(service.base, workers),
          });
          if (ours.non2xx > 0) throw new Error(`${scenario.name}: ${ours.non2xx} answers not 2xx`);
          console.log(
            `| ${workers} | ${scenario.name} | ${load} | ${fixed(ours.requestsPerSecond)} | ${fixed(ours.p50Ms, 2)} | ${fixed(ours.p99Ms, 2)} | ${fixed(ours.compacts)} | ${fixed(top.requestsPerSecond)} | ${fixed(ours.requestsPerSecond / top.requestsPerSecond, 3)} | ${fixed(ours.cpu, 1)} | ${fixed(top.cpu, 1)} | ${fixed(top.cpu / ours.cpu, 3)} |`,
          );
        }
      } finally {
        await new Promise<void>((done) => {
          service.child.once("exit", () => done());
          service.child.kill("SIGTERM");
        });
      }
    }
    if (REFERENCE) {
      for (const scenario of scenarios.filter(
        (s) => s.path.startsWith("/v1/") && !s.path.includes("edition="),
      )) {
        const load = loadAverage().split(" ")[0];
        const ours = await measured(REFERENCE, scenario, null);
        console.log(
          `| reference ${REFERENCE_EDITION} | ${scenario.name} | ${load} | ${fixed(ours.requestsPerSecond)} | ${fixed(ours.p50Ms, 2)} | ${fixed(ours.p99Ms, 2)} | | | | | | |`,
        );
      }
    }
  } finally {
    await ceiling.close();
  }
}

await main();
