/**
 * A signal ends the command whatever its outputs are (issue 86): every output (-o, --report,
 * --what-if, the sums per group) named as a FIFO that no process reads, or that a process opened
 * and stopped reading, for a bill and an inventory. Before, the command opened such a FIFO in a
 * thread of libuv's pool that no signal reaches and the process's exit waits for: SIGINT, SIGTERM
 * and a second signal did nothing, only SIGKILL ended it. Each test waits for the command's own
 * word (its "waiting for a reader" line) or for the first bytes in the FIFO, then sends the
 * signal: the process ends within a second (past what a bare node process sent the same signal at
 * the same moment takes to end, on a machine other suites load), 130 or 143, no `.partial` file
 * and no temporary folder left, the FIFO still a FIFO. FIFOs are made in a temporary folder.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { constants, lstatSync, mkdtempSync, openSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CLI_BUNDLE, COMPILE_CACHE } from "../support/bundle.js";
import { writeManyDaysBill } from "../support/hostileBills.js";

const scratch = mkdtempSync(join(tmpdir(), "output-signals-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const BILL = "test/fixtures/billing/focus-1.0.csv";
const INVENTORY_HEADER = "kind,provider,instance_type,usage_location,hours\n";
const INVENTORY_ROW = "cloud,aws,m5.xlarge,FRA,8760\n";

const SIGNALS = [
  ["SIGINT", 130],
  ["SIGTERM", 143],
] as const;

/** A folder of its own for a run: its FIFO `name`, its TMPDIR. */
function runFolder(fifos: readonly string[]): { dir: string; temp: string } {
  const dir = mkdtempSync(join(scratch, "run-"));
  for (const fifo of fifos) execFileSync("mkfifo", [join(dir, fifo)]);
  const temp = join(dir, "tmp");
  execFileSync("mkdir", [temp]);
  return { dir, temp };
}

function start(args: readonly string[], temp: string): ChildProcess {
  return spawn(process.execPath, [CLI_BUNDLE, "evaluate", ...args], {
    env: { ...process.env, LOG_LEVEL: "silent", NODE_COMPILE_CACHE: COMPILE_CACHE, TMPDIR: temp },
    stdio: ["ignore", "ignore", "pipe"],
  });
}

/** Resolves once stderr holds `text` (the command's readiness; null: never), with what it holds. */
function told(child: ChildProcess, text: string | null): { ready: Promise<void>; stderr: () => string } {
  let said = "";
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (chunk: string) => {
    said += chunk;
  });
  const stderr = () => said;
  if (text === null) return { ready: Promise.resolve(), stderr };
  const ready = new Promise<void>((resolve, reject) => {
    child.stderr?.on("data", () => {
      if (said.includes(text)) resolve();
    });
    child.once("exit", () => reject(new Error(`ended before saying ${JSON.stringify(text)}: ${said}`)));
  });
  return { ready, stderr };
}

/**
 * Sends `signal` and measures the time to the exit; returns once the pipes are read to their end
 * too (`exit` may come before the last bytes the process wrote are read).
 */
async function exitAfter(
  child: ChildProcess,
  signal: NodeJS.Signals,
): Promise<{ code: number | null; ms: number }> {
  const exit = once(child, "exit") as Promise<[number | null]>;
  const closed = once(child, "close");
  const sent = performance.now();
  child.kill(signal);
  const [code] = await exit;
  const ms = performance.now() - sent;
  await closed;
  return { code, ms };
}

/** A node process that ends at once on `signal`, once it says it is ready. */
async function bareProcess(signal: NodeJS.Signals): Promise<ChildProcess> {
  const script = `process.on(${JSON.stringify(signal)}, () => process.exit(1)); setInterval(() => {}, 1000); console.log("ready")`;
  const bare = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "ignore"] });
  await once(bare.stdout as NodeJS.ReadableStream, "data");
  return bare;
}

/**
 * Sends `signal` to the command and, at the same moment, to a bare node process that ends at once
 * on it: the command's time to its exit past the bare process's (on the shared 2-core machine
 * under other suites, a process's end alone took up to a second of wall time) is what a second
 * is held to.
 */
async function stopped(
  child: ChildProcess,
  signal: NodeJS.Signals,
): Promise<{ code: number | null; ms: number }> {
  const bare = await bareProcess(signal);
  const [end, bareEnd] = await Promise.all([exitAfter(child, signal), exitAfter(bare, signal)]);
  return { code: end.code, ms: end.ms - bareEnd.ms };
}

/** What a run leaves: no `.partial`, nothing in its TMPDIR, each FIFO still a FIFO. */
function leftClean(dir: string, temp: string, fifos: readonly string[]): void {
  expect(readdirSync(dir).filter((name) => name.endsWith(".partial"))).toEqual([]);
  expect(readdirSync(temp)).toEqual([]);
  for (const fifo of fifos) expect(lstatSync(join(dir, fifo)).isFIFO()).toBe(true);
}

const inventory = join(scratch, "inventory.csv");
writeFileSync(inventory, INVENTORY_HEADER + INVENTORY_ROW.repeat(20));

/** Each output named as a FIFO nobody reads: the arguments, and the FIFO. */
const UNREAD: readonly {
  readonly what: string;
  readonly args: (dir: string) => string[];
  readonly fifo: string;
}[] = [
  { what: "a bill's -o", args: (dir) => [BILL, "-o", join(dir, "out.fifo")], fifo: "out.fifo" },
  {
    what: "a bill's --report",
    args: (dir) => [BILL, "-o", join(dir, "out.csv"), "--report", join(dir, "r.fifo")],
    fifo: "r.fifo",
  },
  {
    what: "a bill's --what-if",
    args: (dir) => [BILL, "-o", join(dir, "out.csv"), "--what-if", join(dir, "w.fifo")],
    fifo: "w.fifo",
  },
  {
    what: "a bill's sums per group",
    args: (dir) => [BILL, "-o", join(dir, "out.csv"), "--group-by", "tag:team"],
    fifo: "out.groups.csv",
  },
  { what: "an inventory's -o", args: (dir) => [inventory, "-o", join(dir, "out.fifo")], fifo: "out.fifo" },
  {
    what: "an inventory's --report",
    args: (dir) => [inventory, "-o", join(dir, "out.csv"), "--report", join(dir, "r.fifo")],
    fifo: "r.fifo",
  },
  {
    what: "an inventory's --what-if",
    args: (dir) => [inventory, "-o", join(dir, "out.csv"), "--what-if", join(dir, "w.fifo")],
    fifo: "w.fifo",
  },
  {
    what: "an inventory's sums per group",
    args: (dir) => [inventory, "-o", join(dir, "out.csv"), "--group-by", "provider"],
    fifo: "out.groups.csv",
  },
];

describe("a signal ends the command whatever its outputs are", () => {
  for (const { what, args, fifo } of UNREAD) {
    for (const [signal, code] of SIGNALS) {
      it(`${what} a FIFO nobody reads: waits saying so, ends on ${signal} within a second`, async () => {
        const { dir, temp } = runFolder([fifo]);
        const child = start(args(dir), temp);
        const { ready, stderr } = told(child, "a FIFO no process reads yet; waiting for a reader");
        await ready;
        const end = await stopped(child, signal);
        expect(end.code).toBe(code);
        expect(end.ms).toBeLessThan(1000);
        expect(stderr()).toMatch(/impact-service: .*interrupted/);
        expect(stderr()).not.toMatch(/\n\s+at /);
        leftClean(dir, temp, [fifo]);
      });
    }
  }

  // A reader that opened the FIFO and read its first bytes, then no more: the command's writes wait
  it("a bill's -o a FIFO whose reader stopped reading: ends on SIGINT within a second", async () => {
    const { dir, temp } = runFolder(["out.fifo"]);
    const bill = join(dir, "bill.csv");
    await writeManyDaysBill(bill, 3000);
    const reader = openSync(join(dir, "out.fifo"), constants.O_RDONLY | constants.O_NONBLOCK);
    const socket = new Socket({ fd: reader, readable: true, writable: false });
    try {
      const child = start([bill, "-o", join(dir, "out.fifo")], temp);
      const stderr = told(child, null).stderr;
      await once(socket, "data");
      socket.pause();
      const end = await stopped(child, "SIGINT");
      expect(end.code).toBe(130);
      expect(end.ms).toBeLessThan(1000);
      expect(stderr()).not.toMatch(/\n\s+at /);
      leftClean(dir, temp, ["out.fifo"]);
    } finally {
      socket.destroy();
    }
  });

  // A bill's query running: the stage the command tells on its stage descriptor is the readiness
  for (const [signal, code] of SIGNALS) {
    it(`a bill being written: its query interrupted on ${signal}, nothing left written in part`, async () => {
      const { dir, temp } = runFolder([]);
      const bill = join(dir, "bill.csv");
      await writeManyDaysBill(bill, 50_000);
      const output = join(dir, "out.csv");
      const child = spawn(
        process.execPath,
        [CLI_BUNDLE, "evaluate", bill, "-o", output, "--report", join(dir, "r.html")],
        {
          env: { ...process.env, NODE_COMPILE_CACHE: COMPILE_CACHE, TMPDIR: temp, IMPACT_STAGE_FD: "3" },
          stdio: ["ignore", "ignore", "pipe", "pipe"],
        },
      );
      const stderr = told(child, null).stderr;
      const stages = child.stdio[3] as NodeJS.ReadableStream;
      stages.setEncoding("utf8");
      let seen = "";
      await new Promise<void>((resolve) => {
        stages.on("data", (chunk: string) => {
          seen += chunk;
          if (seen.includes('"stage":"writing the lines')) resolve();
        });
      });
      const end = await stopped(child, signal);
      expect(end.code, stderr()).toBe(code);
      expect(end.ms).toBeLessThan(1000);
      expect(stderr()).toContain("impact-service: interrupted; no file was left written in part\n");
      expect(readdirSync(dir).sort()).toEqual(["bill.csv", "tmp"]);
      leftClean(dir, temp, []);
    });
  }

  it("an inventory's -o a FIFO whose reader stopped reading: ends on SIGTERM within a second", async () => {
    const { dir, temp } = runFolder(["out.fifo"]);
    const rows = join(dir, "rows.csv");
    writeFileSync(rows, INVENTORY_HEADER + INVENTORY_ROW.repeat(20_000));
    const reader = openSync(join(dir, "out.fifo"), constants.O_RDONLY | constants.O_NONBLOCK);
    const socket = new Socket({ fd: reader, readable: true, writable: false });
    try {
      const child = start([rows, "-o", join(dir, "out.fifo")], temp);
      const stderr = told(child, null).stderr;
      await once(socket, "data");
      socket.pause();
      const end = await stopped(child, "SIGTERM");
      expect(end.code).toBe(143);
      expect(end.ms).toBeLessThan(1000);
      expect(stderr()).toMatch(/impact-service: interrupted/);
      expect(stderr()).not.toMatch(/\n\s+at /);
      leftClean(dir, temp, ["out.fifo"]);
    } finally {
      socket.destroy();
    }
  });
});
