/**
 * The command's start (`npx tsx bench/commandStart.ts`; bench/README.md, "The command's start"):
 * the CPU seconds of `--help` as a user runs it — `npx impact-service --help` from the checkout
 * (npm's exec, then the bin, then the bundle's usage) — beside the bin alone (`node
 * bin/impact-service.mjs --help`, the bundle), the sources through tsx (`node src/cli/tsxEntry.mjs`:
 * what the bin runs in a checkout without a bundle) and a run's start (`--version` through npx;
 * `evaluate` of the example inventory through the bin). Each variant `BENCH_START_RUNS` times
 * (default 15), in turn, so that the machine's load moves them alike; the CPU seconds are those of
 * the whole process tree (this process's children's user and system ticks, /proc/self/stat), the
 * load average is printed before and after. Run after `npm ci` (its prepare step builds the bundle
 * and links the command).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const RUNS = Number(process.env.BENCH_START_RUNS ?? 15);
/** Linux's clock ticks a second (sysconf(_SC_CLK_TCK), 100 on Linux's usual builds). */
const TICKS = 100;

/** This process's waited-for children's CPU seconds, user and system (fields 16 and 17). */
function childrenCpu(): number {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
  return (Number(fields[13]) + Number(fields[14])) / TICKS;
}

const loadAverage = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

/** The PATH of a user's shell: npm's own additions (node_modules/.bin) left out, as a terminal has it. */
const shellPath = (process.env.PATH ?? "")
  .split(delimiter)
  .filter((folder) => !folder.endsWith(join("node_modules", ".bin")))
  .join(delimiter);
const node = join(ROOT, "node_modules/.bin/node");

const VARIANTS: readonly { name: string; command: string; args: string[] }[] = [
  { name: "npx impact-service --help", command: "npx", args: ["impact-service", "--help"] },
  {
    name: "node bin/impact-service.mjs --help (the bundle)",
    command: node,
    args: ["bin/impact-service.mjs", "--help"],
  },
  { name: "node src/cli/tsxEntry.mjs --help (tsx)", command: node, args: ["src/cli/tsxEntry.mjs", "--help"] },
  { name: "npx impact-service --version", command: "npx", args: ["impact-service", "--version"] },
  {
    name: "node bin/impact-service.mjs evaluate examples/inventory.csv",
    command: node,
    args: ["bin/impact-service.mjs", "evaluate", "examples/inventory.csv", "-o", "/dev/null"],
  },
];

for (const needed of ["dist/bundle/cli.mjs", "node_modules/.bin/impact-service"]) {
  if (!existsSync(join(ROOT, needed))) {
    process.stderr.write(`commandStart: ${needed} is missing; run npm ci (its prepare step makes it)\n`);
    process.exit(2);
  }
}

const seconds = new Map(VARIANTS.map(({ name }) => [name, [] as number[]]));
const before = loadAverage();
for (let run = 0; run < RUNS; run += 1) {
  for (const { name, command, args } of VARIANTS) {
    const start = childrenCpu();
    const ran = spawnSync(command, args, {
      cwd: ROOT,
      env: { ...process.env, PATH: shellPath, LOG_LEVEL: "silent" },
      stdio: ["ignore", "ignore", "pipe"],
    });
    if (ran.status !== 0) throw new Error(`${name}: exit ${ran.status}: ${ran.stderr}`);
    seconds.get(name)?.push(childrenCpu() - start);
  }
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
process.stdout.write(`load average before ${before}, after ${loadAverage()}; ${RUNS} runs each\n`);
process.stdout.write("| command | median CPU s | min | max |\n|---|---:|---:|---:|\n");
for (const [name, values] of seconds) {
  process.stdout.write(
    `| \`${name}\` | ${median(values).toFixed(2)} | ${Math.min(...values).toFixed(2)} | ${Math.max(...values).toFixed(2)} |\n`,
  );
}
