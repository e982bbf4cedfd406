/**
 * Requests beside one client sending the heaviest legal body back to back (`npx tsx
 * bench/heavyBodies.ts`, after `npm run build`): the built service as `npm start` runs it, one
 * client posting an 8 MiB body to `/graphql` one after the other — one 8 MB string inside 62
 * levels of nesting (`BENCH_HEAVY_SHAPE=string`, the default), or 2.8 million empty records
 * (`records`) — for `BENCH_HEAVY_SECONDS` (default 30); beside it, one client asking a light GET
 * back to back (a kept answer) and one asking `/healthz` every 100 ms (the Deployment's liveness
 * probe, its timeout 3 s). Then the light GET alone for as long: the machine's own latency at its
 * load. Figures: the light GET's p50/p99/max with and without the heavy client, `/healthz`'s
 * slowest, the heavy bodies answered, and the event loop's longest iterations in main-thread CPU
 * ms (bench/longTasks.mjs, preloaded): what a request waits behind on a quiet machine, measured
 * whatever the load.
 *
 * Not a test: bench/README.md ("Heavy bodies") records its figures; the result is written to
 * bench/results-heavy.json. `BENCH_HEAVY_BUNDLE=<server.mjs>` runs another build (the tree before a
 * change, built in a folder of its own beside its data/).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { listening } from "./admission.js";
import { latencySummary } from "./latencies.js";
import { serviceArguments, serviceEnvironment } from "./serviceCommand.js";

const SECONDS = Number(process.env.BENCH_HEAVY_SECONDS ?? 30);
const SHAPE = process.env.BENCH_HEAVY_SHAPE ?? "string";
const BUNDLE = process.env.BENCH_HEAVY_BUNDLE;
const root = new URL("..", import.meta.url);
const LIGHT = "/v1/server/?archetype=dellR740&verbose=false";
/** Connections reset under the light requests and the probes. */
const resets = { count: 0 };

/** `inner` nested `depth` levels deep, lists and records alternating. */
function nested(inner: string, depth: number): string {
  let text = inner;
  for (let level = 0; level < depth; level++) text = level % 2 === 0 ? `[${text}]` : `{"k":${text}}`;
  return text;
}

/** The body: 8 MiB less a little, inside `{"query":…,"variables":{"v":…}}` (2 levels of its own). */
function heavyBody(): string {
  const room = 8 * 1024 * 1024 - 4096;
  const value =
    SHAPE === "records"
      ? `[${new Array(Math.floor(room / 3)).fill("{}").join(",")}]`
      : nested(`"${"x".repeat(room)}"`, 60);
  return `{"query":"{ __typename }","variables":{"v":${value}}}`;
}

/** Latencies (ms) of `path` asked back to back, or every `everyMs`, until `until` resolves. */
async function asked(base: string, path: string, until: Promise<unknown>, everyMs = 0): Promise<number[]> {
  let done = false;
  void until.finally(() => {
    done = true;
  });
  const latencies: number[] = [];
  while (!done) {
    const started = performance.now();
    // A connection reset (a keep-alive closed by a service whose loop came back late) is counted
    // as its time, and tried again on a new connection
    await fetch(`${base}${path}`).then(
      async (answer) => {
        await answer.arrayBuffer();
        if (!answer.ok) throw new Error(`${path} answered ${answer.status}`);
      },
      () => {
        resets.count += 1;
      },
    );
    const took = performance.now() - started;
    latencies.push(took);
    if (everyMs > took) await new Promise((resolve) => setTimeout(resolve, everyMs - took));
  }
  return latencies;
}

/** The heavy body posted back to back for `seconds`: the time each took (ms), the statuses not 200. */
async function heavy(
  base: string,
  body: string,
  seconds: number,
): Promise<{ times: number[]; notOk: number[] }> {
  const times: number[] = [];
  const notOk: number[] = [];
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    const started = performance.now();
    // A build that cannot answer it within EXECUTION_TIMEOUT_MS answers 422, or is disconnected
    // past BODY_TIMEOUT_MS: counted (0 for a connection reset), not fatal
    try {
      const answer = await fetch(`${base}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      await answer.arrayBuffer();
      if (!answer.ok) notOk.push(answer.status);
    } catch {
      notOk.push(0);
    }
    times.push(performance.now() - started);
  }
  return { times, notOk };
}

/** A time the event loop did not come back (bench/longTasks.mjs), µs on the monotonic clock. */
interface Gap {
  readonly start: number;
  readonly end: number;
  readonly cpuMs?: number;
}

async function main(): Promise<void> {
  const port = 21000 + Math.floor(Math.random() * 9000);
  const base = `http://127.0.0.1:${port}`;
  const gapsFile = join(mkdtempSync(join(tmpdir(), "heavy-bodies-")), "gaps.json");
  const shipped = serviceArguments();
  const args = BUNDLE === undefined ? shipped : [...shipped.slice(0, -1), BUNDLE];
  const child = spawn(process.execPath, ["--import", "./bench/longTasks.mjs", ...args], {
    cwd: root,
    env: { ...serviceEnvironment(port), BENCH_LONG_TASKS: gapsFile, BENCH_LONG_MS: "20" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  await listening(`${base}/readyz`);
  const body = heavyBody();
  // Warm-up: each path compiled, the kept answer made
  await heavy(base, body, 2);
  await asked(base, LIGHT, new Promise((resolve) => setTimeout(resolve, 1000)));
  const load = () =>
    loadavg()
      .map((value) => value.toFixed(1))
      .join(" ");
  const loadBefore = load();
  const clock = () => Number(process.hrtime.bigint() / 1000n);
  const from = clock();
  const heavyTimes = heavy(base, body, SECONDS);
  const [light, health] = await Promise.all([
    asked(base, LIGHT, heavyTimes),
    asked(base, "/healthz", heavyTimes, 100),
  ]);
  const { times, notOk } = await heavyTimes;
  const window = { start: from, end: clock() };
  const alone = await asked(base, LIGHT, new Promise((resolve) => setTimeout(resolve, SECONDS * 1000)));
  child.kill("SIGINT");
  await new Promise((resolve) => child.once("exit", resolve));
  const gaps = (JSON.parse(readFileSync(gapsFile, "utf8")) as Gap[])
    .filter((gap) => gap.start >= window.start && gap.end <= window.end)
    .map((gap) => gap.cpuMs ?? 0)
    .sort((a, b) => b - a);
  const result = {
    when: new Date().toISOString(),
    shape: SHAPE,
    bodyBytes: Buffer.byteLength(body),
    seconds: SECONDS,
    load: { before: loadBefore, after: load() },
    heavy: { answered: times.length, notOk, ...latencySummary(times) },
    lightBesideHeavy: latencySummary(light),
    lightAlone: latencySummary(alone),
    healthz: latencySummary(health),
    connectionsReset: resets.count,
    longestLoopsCpuMs: gaps.slice(0, 5).map((ms) => Math.round(ms)),
    loopsOf20CpuMs: gaps.filter((ms) => ms >= 20).length,
  };
  console.log(JSON.stringify(result, null, 2));
  writeFileSync(new URL("bench/results-heavy.json", root), `${JSON.stringify(result, null, 2)}\n`);
}

await main();
