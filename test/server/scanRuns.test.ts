/**
 * The server's scan of an account run through the service's runner of commands
 * (src/evaluationProcess/scanProcess.ts, as src/app gives it to src/scan/schedule.ts), each bound
 * on a real child process: its heap, niceness and place first in the kernel's choice when memory
 * runs out; its time (SIGTERM, then SIGKILL); its resident memory; the bytes of its output. The
 * command is a stand-in script doing what each test needs of it; every wait is on its end.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MAX_SCAN_RESIDENT_BYTES, scanProcessStarter } from "../../src/evaluationProcess/scanProcess.js";
import { createScanSchedule, MAX_SCAN_OUTPUT_BYTES, scanArguments } from "../../src/scan/schedule.js";

const work = mkdtempSync(join(tmpdir(), "scan-runs-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const MiB = 1024 * 1024;

/** The stand-in command: what it does is its FAKE_ACTION's. */
const FAKE = join(work, "fake-scan.mjs");
writeFileSync(
  FAKE,
  `import { readFileSync } from "node:fs";
import { getPriority } from "node:os";
const action = process.env.FAKE_ACTION;
const hold = () => setInterval(() => {}, 1000);
if (action === "bounds") {
  const look = () => {
    const score = readFileSync("/proc/self/oom_score_adj", "utf8").trim();
    if (score !== "1000") return setTimeout(look, 20);
    process.stderr.write(JSON.stringify({ argv: process.argv.slice(2), execArgv: process.execArgv, nice: getPriority(), score, level: process.env.LOG_LEVEL }));
  };
  look();
}
if (action === "hang") { process.on("SIGTERM", () => { process.stderr.write("terminated\\n"); process.exit(143); }); process.stdout.write("ready"); hold(); }
if (action === "memory") { globalThis.kept = Buffer.alloc(${MAX_SCAN_RESIDENT_BYTES / MiB + 64} * 1024 * 1024, 1); hold(); }
if (action === "flood") {
  const chunk = "#".repeat(1024 * 1024);
  let written = 0;
  const more = () => { while (written < ${MAX_SCAN_OUTPUT_BYTES / MiB + 4}) { written += 1; if (!process.stdout.write(chunk)) return process.stdout.once("drain", more); } hold(); };
  more();
}
`,
);

const start = (action: string) => scanProcessStarter(FAKE, { FAKE_ACTION: action, LOG_LEVEL: "debug" });

/** A schedule of one scan started by `starter`, `say`'s lines gathered; stopped once its first run ended. */
async function scannedOnce(starter: ReturnType<typeof scanProcessStarter>): Promise<string[]> {
  const said: string[] = [];
  const schedule = createScanSchedule({
    start: starter,
    regions: ["eu-west-3"],
    filters: [],
    hours: 1,
    edition: null,
    intervalMs: 3_600_000,
    timeoutMs: 60_000,
    say: (line) => said.push(line),
  });
  await schedule.scanNow();
  schedule.stop();
  expect(schedule.latest()).toBeNull();
  return said;
}

describe("the scan's command, through the service's runner", () => {
  it("is started with the scan's arguments, its heap, niceness, kernel score and log level", async () => {
    const args = scanArguments({
      regions: ["eu-west-3"],
      filters: ["team=a"],
      hours: 2,
      edition: null,
      timeoutMs: 9_000,
    });
    const command = start("bounds")({ args, timeoutMs: 30_000, tookTooLong: "took more than 30 s" });
    const end = await command.ended;
    expect(end.stopped).toBeNull();
    expect(JSON.parse(end.stderr)).toEqual({
      argv: args,
      execArgv: ["--max-old-space-size=256"],
      nice: 10,
      score: "1000",
      level: "warn",
    });
  });

  it("is stopped past its time, in the schedule's words", async () => {
    const command = start("hang")({ args: [], timeoutMs: 300, tookTooLong: "took more than 0.3 s" });
    const end = await command.ended;
    expect(end.stopped).toBe("took more than 0.3 s");
    expect(end.exitCode).not.toBe(0);
  });

  it("is stopped by SIGTERM first: it may end on its own", async () => {
    const command = start("hang")({ args: [], timeoutMs: 60_000, tookTooLong: "took more than 60 s" });
    await new Promise((ready) => command.output?.once("data", ready));
    command.stop("was stopped with the service");
    const end = await command.ended;
    expect(end).toMatchObject({
      stopped: "was stopped with the service",
      exitCode: 143,
      stderr: "terminated\n",
    });
  });

  it("is stopped past its resident memory, the previous gauges kept", async () => {
    const said = await scannedOnce(start("memory"));
    expect(said.at(-1)).toMatch(
      /^scan of eu-west-3: stopped: it used \d+ MiB of memory, more than 384 MiB; the previous gauges kept$/,
    );
  });

  it("is stopped past the bytes of its output, the previous gauges kept", async () => {
    const said = await scannedOnce(start("flood"));
    expect(said.at(-1)).toBe(
      `scan of eu-west-3: stopped: it wrote more than ${MAX_SCAN_OUTPUT_BYTES / MiB} MiB; the previous gauges kept`,
    );
  });

  it("that cannot start is said, the previous gauges kept", async () => {
    const said = await scannedOnce(scanProcessStarter(join(work, "absent.mjs"), {}));
    // node starts and refuses the missing entry: its lines logged, then its exit
    expect(said.some((line) => line.startsWith("scan: ") && line.includes("absent.mjs"))).toBe(true);
    expect(said.at(-1)).toMatch(/^scan of eu-west-3: exit 1: .+; the previous gauges kept$/);
  });
});
