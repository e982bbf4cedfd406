/**
 * IMPACT_STAGE_FD, the descriptor the /evaluate page's child writes its stages to
 * (src/support/runStage.ts), is used only if it was handed to the command: checked once before
 * anything is read, else one line naming the variable, exit 2, nothing written and the input
 * intact. Before, a descriptor of libuv's own (8, 13, 14, 18, 19) ended the command with SIGSEGV
 * and no message, standard output took the stages into the CSV, and the input opened read-write
 * was overwritten by them. In the command's own process (the bundle), its descriptors set as a
 * shell's redirections would.
 */
import { spawn } from "node:child_process";
import { closeSync, copyFileSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { CLI_BUNDLE, COMPILE_CACHE } from "../support/bundle.js";

const FOCUS = fileURLToPath(new URL("../fixtures/billing/focus-1.0.csv", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "stage-fd-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Ended {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** What descriptor 3 received, when it is a pipe of the test's. */
  readonly stages: string;
}

/** The command on `args` with IMPACT_STAGE_FD=`value` and descriptors 3 and up as `more` sets them. */
function run(args: readonly string[], value: string, more: ("pipe" | "ignore" | number)[]): Promise<Ended> {
  const child = spawn(process.execPath, [CLI_BUNDLE, ...args], {
    env: { ...process.env, LOG_LEVEL: "silent", NODE_COMPILE_CACHE: COMPILE_CACHE, IMPACT_STAGE_FD: value },
    stdio: ["ignore", "pipe", "pipe", ...more],
  });
  const read = (index: number) => {
    const chunks: Buffer[] = [];
    const stream = child.stdio[index];
    if (stream !== null && stream !== undefined && "on" in stream)
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    return () => Buffer.concat(chunks).toString("utf8");
  };
  const [stdout, stderr, stages] = [read(1), read(2), read(3)];
  return new Promise((resolve) =>
    child.once("close", (code, signal) =>
      resolve({ code, signal, stdout: stdout(), stderr: stderr(), stages: stages() }),
    ),
  );
}

/** A bill of its own (a FOCUS export of 31 lines), to be read and perhaps written over. */
function ownBill(name: string): string {
  const path = join(work, name);
  copyFileSync(FOCUS, path);
  return path;
}

describe("IMPACT_STAGE_FD names a descriptor handed to the command, or the command refuses it", () => {
  it.each(["8", "13", "14", "18", "19"])(
    "%s, a descriptor of the process's own (libuv's): one line naming the variable, exit 2, no signal",
    async (fd) => {
      const bill = ownBill(`own-${fd}.csv`);
      const output = join(work, `own-${fd}-out.csv`);
      const ended = await run(["evaluate", bill, "-o", output], fd, []);
      expect(ended.signal).toBe(null);
      expect(ended.code).toBe(2);
      expect(ended.stderr).toMatch(
        new RegExp(
          `^impact-service: IMPACT_STAGE_FD=${fd}: descriptor ${fd} (is not open|was not handed to the command|is not a pipe or a file)`,
        ),
      );
      expect(ended.stderr.trim().split("\n")).toHaveLength(1);
      expect(existsSync(output)).toBe(false);
    },
  );

  it("1, standard output: refused, nothing on standard output", async () => {
    const ended = await run(["evaluate", ownBill("stdout.csv")], "1", []);
    expect(ended.code).toBe(2);
    expect(ended.stderr).toContain("IMPACT_STAGE_FD=1: descriptor 1 is the command's standard output");
    expect(ended.stdout).toBe("");
  });

  it("the input opened read-write: refused, the input intact", async () => {
    const bill = ownBill("input.csv");
    const before = readFileSync(bill);
    const fd = openSync(bill, "r+");
    try {
      const ended = await run(["evaluate", bill, "-o", join(work, "input-out.csv")], "5", [
        "ignore",
        "ignore",
        fd,
      ]);
      expect(ended.code).toBe(2);
      expect(ended.stderr).toContain(`IMPACT_STAGE_FD=5: descriptor 5 is the input ${bill}`);
    } finally {
      closeSync(fd);
    }
    expect(readFileSync(bill)).toEqual(before);
  });

  it("an output, a file open for reading only, a value that is no number: each refused", async () => {
    const bill = ownBill("outputs.csv");
    const output = join(work, "outputs-out.csv");
    copyFileSync(bill, output);
    const written = openSync(output, "a");
    const readOnly = openSync(bill, "r");
    try {
      const asOutput = await run(["evaluate", bill, "-o", output], "3", [written]);
      expect(asOutput.stderr).toContain(`IMPACT_STAGE_FD=3: descriptor 3 is --output ${output}`);
      const forReading = await run(["evaluate", bill], "3", [readOnly]);
      expect(forReading.stderr).toContain("IMPACT_STAGE_FD=3: descriptor 3 is not open for writing");
      const notANumber = await run(["evaluate", bill], "3x", []);
      expect(notANumber.stderr).toContain("IMPACT_STAGE_FD=3x: not a descriptor's number");
      for (const ended of [asOutput, forReading, notANumber]) expect(ended.code).toBe(2);
    } finally {
      closeSync(written);
      closeSync(readOnly);
    }
    expect(readFileSync(output)).toEqual(readFileSync(bill));
  });

  it("a pipe handed as descriptor 3 (the page's child): the run's stages, one JSON line each", async () => {
    const output = join(work, "piped-out.csv");
    const ended = await run(["evaluate", ownBill("piped.csv"), "-o", output], "3", ["pipe"]);
    expect(ended.code).toBe(0);
    const stages = ended.stages
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as { stage: string }).stage);
    expect(stages).toEqual([
      "reading the export",
      "telling its lines apart",
      "looking up their impacts",
      "writing the lines",
    ]);
    expect(existsSync(output)).toBe(true);
  });
});
