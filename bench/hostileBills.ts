/**
 * Bills whose counts make a report grow when it is not bounded (issue 86), each evaluated by the
 * command's bundle in a process of its own under GNU time: peak resident memory (its maximum
 * RSS), wall and CPU seconds, and the load average before. The bills are written by
 * test/support/hostileBills.ts (seeded) into a temporary folder, removed at the end:
 *
 * - 190,000 FOCUS lines each on a day of its own (50.4 MB: the page's 50 MiB and 200,000 lines),
 *   `-o out.csv.gz --report r.html` under the node flags the /evaluate page gives its runs
 *   (`--max-old-space-size=256 --max-semi-space-size=16`), as the page runs it: its bound is 512 MiB;
 * - 1,000,000 FOCUS lines each of its own resource, account and `team` tag (290 MB),
 *   `-o out.csv --group-by tag:team --report r.html` under the bundle's own flags: its bound 1 GiB.
 *
 *   npm run build && npx tsx bench/hostileBills.ts   (HOSTILE_DAYS, HOSTILE_NAMES: the lines, 0 skips)
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { COMMAND_BUNDLE } from "../src/evaluationProcess/commandEntry.js";
import { writeManyDaysBill, writeManyNamesBill } from "../test/support/hostileBills.js";

const BUNDLE = new URL(`../dist/bundle/${COMMAND_BUNDLE}`, import.meta.url).pathname;
const DAYS = Number(process.env.HOSTILE_DAYS ?? 190_000);
const NAMES = Number(process.env.HOSTILE_NAMES ?? 1_000_000);
/** The /evaluate page's node flags for its runs (src/evaluationProcess/command.ts). */
const PAGE_FLAGS = ["--max-old-space-size=256", "--max-semi-space-size=16"];

interface Measured {
  readonly code: number | null;
  readonly wall: number;
  readonly cpu: number;
  readonly peakMb: number;
  readonly last: string;
}

function timed(flags: readonly string[], args: readonly string[], cwd: string): Measured {
  const result = spawnSync(
    "/usr/bin/time",
    ["-f", "@@%e %U %S %M", process.execPath, ...flags, BUNDLE, ...args],
    {
      cwd,
      encoding: "utf8",
      maxBuffer: 256 * 1024 * 1024,
    },
  );
  const stderr = result.stderr ?? "";
  const [wall, user, system, kb] = (stderr.split("@@").at(-1) ?? "").trim().split(" ").map(Number);
  const said = stderr.split("@@")[0].trim().split("\n");
  return { code: result.status, wall, cpu: user + system, peakMb: kb / 1024, last: said.at(-1) ?? "" };
}

function line(name: string, size: number, run: Measured): string {
  return `| ${name} (${(size / 1e6).toFixed(1)} MB) | ${loadavg()[0].toFixed(1)} | ${run.code} | ${run.wall.toFixed(1)} | ${run.cpu.toFixed(1)} | **${Math.round(run.peakMb)} MB** |`;
}

const work = mkdtempSync(join(tmpdir(), "hostile-bills-"));
try {
  console.log("| bill | load before | exit | wall s | CPU s | peak RSS |\n|---|---:|---:|---:|---:|---:|");
  if (DAYS > 0) {
    const bill = join(work, "days.csv");
    await writeManyDaysBill(bill, DAYS);
    const load = loadavg()[0];
    const run = timed(PAGE_FLAGS, ["evaluate", "--output=out.csv.gz", "--report=r.html", "--", bill], work);
    console.log(
      line(`${DAYS.toLocaleString("en-US")} lines on as many days, page flags`, statSync(bill).size, run),
    );
    if (run.code !== 0) console.log(`  (load ${load.toFixed(1)}) ${run.last}`);
    rmSync(bill);
  }
  if (NAMES > 0) {
    const bill = join(work, "names.csv");
    await writeManyNamesBill(bill, NAMES);
    const run = timed(
      [],
      ["evaluate", bill, "-o", "out.csv", "--group-by", "tag:team", "--report", "r.html"],
      work,
    );
    console.log(
      line(
        `${NAMES.toLocaleString("en-US")} lines of as many resources, accounts, tags`,
        statSync(bill).size,
        run,
      ),
    );
    if (run.code !== 0) console.log(`  ${run.last}`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
