/**
 * Where one scenario's CPU goes (`npx tsx bench/profile.ts <part of a scenario's name>`): starts
 * the built bundle (`dist/bundle/server.mjs`, `npm run build` first) under `node --cpu-prof` with
 * NODE_ENV=production, drives the scenario of bench/scenarios.ts with autocannon (10 connections,
 * `PROFILE_WARMUP` seconds unrecorded, default 2, then `PROFILE_SECONDS`, default 8), stops the
 * service and prints the self time of the measured window (start-up and warm-up excluded) by
 * source file (the bundle's `// src/…` markers), by package and by function.
 *
 * Self-time shares do not depend much on what else runs on the machine, unlike req/s: a change
 * is judged by them on a shared machine (bench/README.md, "Judging a change"). `PROFILE_BUNDLE=<file>`
 * profiles another build (e.g. the commit before a change, built from a `git archive`; kept at the
 * depth of dist/bundle/, e.g. dist/before/server.mjs, so that it finds data/). Not a test.
 */
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { forEachSample, framePlaces, readProfile } from "./cpuProfile.js";
import { namedScenario, scenarioRequests } from "./scenarios.js";

const root = new URL("..", import.meta.url);
const WARM_UP_SECONDS = Number(process.env.PROFILE_WARMUP ?? 2);
const SECONDS = Number(process.env.PROFILE_SECONDS ?? 8);
const TOP = Number(process.env.PROFILE_TOP ?? 30);
// Absolute, as the profile's frames name it (a relative PROFILE_BUNDLE would match no frame).
const BUNDLE = resolve(process.env.PROFILE_BUNDLE ?? fileURLToPath(new URL("dist/bundle/server.mjs", root)));
/**
 * `PROFILE_ANCHORS=<function>,<function>,…`: functions a change does not touch. Their share of the
 * sampled time is printed, and the whole's time as a multiple of theirs: unlike µs per request, the
 * multiple hardly moves with the machine's speed, so two builds profiled in turn can be compared
 * on a machine whose speed moves by ±25 % within minutes (bench/README.md, "Judging a change").
 */
const ANCHORS = new Set(
  (process.env.PROFILE_ANCHORS ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== ""),
);

function table(title: string, shares: Map<string, number>, total: number): void {
  console.log(`\n${title}`);
  const rows = [...shares].sort((a, b) => b[1] - a[1]).slice(0, TOP);
  for (const [name, micros] of rows) {
    console.log(`${((100 * micros) / total).toFixed(1).padStart(6)} %  ${name}`);
  }
}

async function main(): Promise<void> {
  const scenario = namedScenario("bench/profile.ts");
  const directory = mkdtempSync(join(tmpdir(), "profile-"));
  const port = 20000 + Math.floor(Math.random() * 12000);
  const child = spawn(
    process.execPath,
    ["--cpu-prof", `--cpu-prof-dir=${directory}`, "--cpu-prof-interval=200", BUNDLE],
    {
      cwd: root,
      env: { ...process.env, NODE_ENV: "production", PORT: String(port), WORKERS: "1", LOG_LEVEL: "info" },
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  const spawned = performance.now();
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    const ready = await fetch(`${base}/readyz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const drive = (seconds: number) =>
    autocannon({
      url: base,
      connections: scenario.connections ?? 10,
      duration: seconds,
      requests: scenarioRequests(scenario),
    });
  await drive(WARM_UP_SECONDS);
  const from = (performance.now() - spawned) * 1000;
  const result = await drive(SECONDS);
  const to = (performance.now() - spawned) * 1000;
  await new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
  const profile = readProfile(directory);
  const placeOf = framePlaces(BUNDLE);
  const byPlace = new Map<string, number>();
  const byFunction = new Map<string, number>();
  // The profile's clock starts about when the process does: the window is taken from the spawn.
  let total = 0;
  let anchored = 0;
  forEachSample(profile, from, to, ({ callFrame: frame }, delta) => {
    const place = placeOf(frame);
    byPlace.set(place, (byPlace.get(place) ?? 0) + delta);
    const name = `${frame.functionName || "(anonymous)"}  [${place}]`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + delta);
    if (ANCHORS.has(frame.functionName)) anchored += delta;
    total += delta;
  });
  console.log(
    `${scenario.name}: ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms, ` +
      `${result.requests.total} requests; ${(total / 1000).toFixed(0)} ms of CPU sampled (idle excluded), ` +
      `${(total / result.requests.total).toFixed(1)} µs per request`,
  );
  if (ANCHORS.size > 0) {
    console.log(
      anchored === 0
        ? `anchors (${ANCHORS.size} functions): none sampled`
        : `anchors (${ANCHORS.size} functions): ${((100 * anchored) / total).toFixed(1)} % of the sampled time; ` +
            `the whole is ${(total / anchored).toFixed(3)}× the anchors`,
    );
  }
  table("self time by place", byPlace, total);
  table("self time by function", byFunction, total);
}

await main();
