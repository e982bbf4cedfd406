/**
 * Two builds' REST handler and serialisation timed in one process, in alternated rounds
 * (`npx tsx bench/compareBuilds.ts <part of a scenario's name> <git revision> [<git revision>]`;
 * without a second revision, the working tree): each build is checked out in a git worktree (the
 * working tree as it is), its `bench/harness.ts` bundled with esbuild like the production bundle
 * (this tree's harness when the revision has none) and imported; the same varied requests
 * (bench/scenarios.ts) are then timed by each build in turn, `COMPARE_ROUNDS` rounds (default 16)
 * of `COMPARE_REQUESTS` requests (default 800), the order flipped every round, and the median and
 * minimum main-thread CPU µs per request printed (`process.threadCpuUsage`, whatever the build's
 * harness times: two copies of one build read a ratio of 1.151 in wall time on a loaded machine,
 * 0.983–1.002 in main-thread CPU; bench/log/2026.md, 2026-11-25 17:00).
 *
 * Both builds see the same moments of the machine, so a change of a few per cent can be read on a
 * shared machine whose speed moves by ±25 % within minutes (bench/README.md, "Judging a change"); a
 * served run (bench/run.ts, bench/profile.ts) then tells what it gives with HTTP around it. Both
 * builds share one V8 heap, hidden classes included: a change to how an answer's objects are built
 * (which keys, in which order, by which kind of store) can change the other build's objects too;
 * judge such a change in separate processes. Not a test.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { BUNDLE } from "../scripts/build.js";
import type { handlerTimer, TimedRound } from "./harness.js";
import { namedScenario, scenarioBodies } from "./scenarios.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const ROUNDS = Number(process.env.COMPARE_ROUNDS ?? 16);
const REQUESTS = Number(process.env.COMPARE_REQUESTS ?? 800);

interface Build {
  readonly label: string;
  readonly tree: string;
  /** Removes the worktree (nothing for the working tree). */
  readonly release: () => void;
}

function checkout(revision: string | undefined): Build {
  if (revision === undefined) return { label: "working tree", tree: root, release: () => {} };
  const tree = mkdtempSync(join(tmpdir(), "compare-builds-"));
  try {
    execFileSync("git", ["worktree", "add", "--detach", tree, revision], { cwd: root, stdio: "ignore" });
  } catch {
    rmSync(tree, { recursive: true, force: true });
    throw new Error(`git cannot check out ${revision}`);
  }
  symlinkSync(join(root, "node_modules"), join(tree, "node_modules"));
  const release = () => {
    execFileSync("git", ["worktree", "remove", "--force", tree], { cwd: root, stdio: "ignore" });
    rmSync(tree, { recursive: true, force: true });
  };
  return { label: revision, tree, release };
}

/**
 * The build's harness as a bundle at `dist/bench/` of its tree: the depth of `dist/bundle/`, so
 * the application finds its data (`data/`) and packages as the production bundle does.
 */
async function bundledHarness({ tree }: Build): Promise<typeof handlerTimer> {
  const entry = join(tree, "bench/harness.ts");
  if (!existsSync(entry)) copyFileSync(join(root, "bench/harness.ts"), entry);
  const outfile = join(tree, "dist/bench/harness.mjs");
  // The build's own options, on the other tree's harness (its entry and output are absolute paths).
  await build({ ...BUNDLE, entryPoints: [entry], outfile });
  const module = (await import(pathToFileURL(outfile).href)) as { handlerTimer: typeof handlerTimer };
  return module.handlerTimer;
}

/** `process.threadCpuUsage` (Node 23.9+; the pinned @types/node predates it). */
const threadCpuUsage = (
  process as NodeJS.Process & { threadCpuUsage(previous?: NodeJS.CpuUsage): NodeJS.CpuUsage }
).threadCpuUsage.bind(process);

const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main(): Promise<void> {
  const scenario = namedScenario("bench/compareBuilds.ts");
  const [, , , first, second] = process.argv;
  if (first === undefined) {
    console.error(
      "usage: tsx bench/compareBuilds.ts <part of a scenario's name> <git revision> [<git revision>]",
    );
    process.exit(2);
  }
  process.env.NODE_ENV = "production";
  const bodies = scenarioBodies(scenario, REQUESTS);
  const builds: Build[] = [];
  try {
    // One after the other, so that a failed checkout still releases the one made before it.
    for (const revision of [first, second]) builds.push(checkout(revision));
    const timed: { build: Build; round: TimedRound; times: number[] }[] = [];
    for (const build of builds) {
      const timer = await bundledHarness(build);
      timed.push({
        build,
        round: timer({ method: scenario.method, path: scenario.path, bodies }),
        times: [],
      });
    }
    // Warm-up: each build's code optimised and its lookups filled before the timed rounds.
    for (const { round } of timed) for (let i = 0; i < 2; i++) await round();
    for (let index = 0; index < ROUNDS; index++) {
      for (const entry of index % 2 === 0 ? timed : [...timed].reverse()) {
        const before = threadCpuUsage();
        await entry.round();
        const spent = threadCpuUsage(before);
        entry.times.push((spent.user + spent.system) / REQUESTS);
      }
    }
    console.log(`${scenario.name}, ${ROUNDS} alternated rounds of ${REQUESTS} requests:`);
    for (const { build, times } of timed) {
      console.log(
        `  ${build.label.padEnd(14)} median ${median(times).toFixed(1)} µs, min ${Math.min(...times).toFixed(1)} µs of main-thread CPU per request`,
      );
    }
    // Round by round, the second build against the first: a slow moment of the machine spans both.
    const [a, b] = timed;
    const ratio = median(a.times.map((time, index) => b.times[index] / time));
    console.log(`  ${b.build.label} / ${a.build.label}, median of the rounds' ratios: ${ratio.toFixed(3)}`);
  } finally {
    for (const build of builds) build.release();
  }
}

main();
