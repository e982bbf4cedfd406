/**
 * The runner of file evaluations alone (src/evaluationProcess/processRunner.ts, the port of
 * src/service/fileEvaluation/runner.ts), on real child processes: the slots it admits, the
 * private place of each file, the options reaching the command, each way a run ends as the use
 * case reads it (ran, refused in the page's words, stopped by a bound), the progress the command
 * tells, the files it wrote, and the place removed and the slot given back when a run is closed.
 * The command is a stand-in script doing what each test needs of it; every wait is on its end.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import type { Readable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { createProcessRunner } from "../../src/evaluationProcess/processRunner.js";
import {
  FILE_EVALUATION_BOUNDS,
  type FileRefusal,
  type FileRunner,
  type Slot,
} from "../../src/service/fileEvaluation.js";

const work = mkdtempSync(join(tmpdir(), "process-runner-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The stand-in command: what it does is its FAKE_ACTION's. */
const FAKE = join(work, "fake-command.mjs");
writeFileSync(
  FAKE,
  `import { mkdirSync, writeFileSync, writeSync } from "node:fs";
import { dirname } from "node:path";
const action = process.env.FAKE_ACTION;
const option = (name) => process.argv.find((arg) => arg.startsWith("--" + name + "="))?.slice(name.length + 3);
const write = (path, text) => { mkdirSync(dirname(path), { recursive: true }); writeFileSync(path, text); };
if (action === "ran" || action === "rows failed") {
  writeSync(3, JSON.stringify({ stage: "reading", lines: 2 }) + "\\n");
  writeSync(3, "not a stage line\\n" + JSON.stringify({ stage: "writing", lines: 3, done: 0.75 }) + "\\n");
  write(option("output"), JSON.stringify(process.argv.slice(2)));
  write(option("report"), "<html>report</html>");
  process.stderr.write(action === "ran" ? "bill.csv: 3 lines\\n" : "bill.csv: every row failed\\n");
  process.exitCode = action === "ran" ? 0 : 1;
}
if (action === "misuse") {
  process.stderr.write("impact-service: --criteria: gwpp is not a criterion of edition 2.5.0 (--input focus)\\n");
  process.exitCode = 2;
}
if (action === "efbig") {
  process.stderr.write("impact-service: EFBIG: file too large, write\\n");
  process.exitCode = 1;
}
if (action === "silent") process.exitCode = 3;
if (action === "hang") setInterval(() => {}, 1000);
`,
);

/** A runner of the stand-in, doing `action`, its folders in a root of their own. */
function runnerOf(action: string, timeoutMs = FILE_EVALUATION_BOUNDS.timeoutMs) {
  const root = mkdtempSync(join(work, "root-"));
  const runner = createProcessRunner(
    {
      environment: { ...process.env, FAKE_ACTION: action },
      entry: { path: FAKE, description: "the stand-in" },
      root,
    },
    { ...FILE_EVALUATION_BOUNDS, timeoutMs },
  );
  return { runner, root };
}

const admitted = (runner: FileRunner, client = "client"): Slot => {
  const slot = runner.admit(client);
  if ("status" in slot) throw slot;
  return slot;
};

const REQUEST = { name: "bill.csv", edition: "2.5.0", criteria: ["gwp", "pe"], format: "csv" } as const;

/** A run of the stand-in on a file: its place, its run, its slot. */
async function started(action: string, timeoutMs?: number) {
  const { runner, root } = runnerOf(action, timeoutMs);
  const slot = admitted(runner);
  const place = await runner.open("bill.csv");
  writeFileSync(place.file, "a,b\n1,2\n");
  const client = new AbortController();
  const run = place.start(
    { output: "bill-impacts.csv.gz", request: REQUEST },
    { signal: client.signal, slot },
  );
  return { runner, root, place, run, client };
}

async function textOf(read: Readable | null): Promise<string | null> {
  if (read === null) return null;
  const parts: Buffer[] = [];
  for await (const part of read) parts.push(part as Buffer);
  return Buffer.concat(parts).toString("utf8");
}

describe("the runner's admission", () => {
  it("admits a file per client and two at once, refusing past them (503) until a slot is given back", () => {
    const { runner } = runnerOf("ran");
    const first = admitted(runner, "a");
    const refusal = (client: string) => {
      const slot = runner.admit(client);
      return "status" in slot ? [(slot as FileRefusal).status, slot.message] : null;
    };
    expect(refusal("a")).toEqual([
      503,
      "this client has a file being evaluated already (the page's bound, 1 at once per client): wait for its answer",
    ]);
    admitted(runner, "b");
    expect(refusal("c")).toEqual([
      503,
      "as many files as the service evaluates at once are running: try again in a minute",
    ]);
    first.release();
    first.release();
    admitted(runner, "c");
    expect(refusal("d")?.[0]).toBe(503);
  });

  it("names the command it runs, or refuses every file (503) when the command is missing", async () => {
    expect(runnerOf("ran").runner.command).toBe("the stand-in");
    const missing = createProcessRunner({ environment: {}, entry: { missing: "/nowhere/cli.mjs" } });
    expect(missing.command).toBe("/evaluate refuses every file: /nowhere/cli.mjs is missing");
    await expect(missing.open("bill.csv")).rejects.toMatchObject({
      status: 503,
      message: "the command line is not installed beside this service",
    });
  });
});

describe("a run's place", () => {
  it("is a private folder of its own, the file at its name, removed when no run starts", async () => {
    const { runner, root } = runnerOf("ran");
    const place = await runner.open("bill.csv");
    expect(basename(place.file)).toBe("bill.csv");
    expect(dirname(dirname(place.file))).toBe(root);
    expect(basename(dirname(place.file))).toMatch(new RegExp(`^impact-evaluate-${process.pid}-`));
    expect(readdirSync(dirname(place.file))).toEqual(["out"]);
    await place.remove();
    expect(readdirSync(root)).toEqual([]);
  });
});

describe("a run", () => {
  it("gives the command the request's options; ran: its summary, its progress, its files", async () => {
    const { run, root, runner } = await started("ran");
    expect(await run.outcome).toEqual({ ended: "ran", exitCode: 0, summary: "bill.csv: 3 lines\n" });
    expect(run.progress()).toEqual({ stage: "writing", lines: 3, done: 0.75 });
    expect(JSON.parse((await textOf(await run.written("output", 1024))) ?? "")).toEqual([
      "evaluate",
      "--output=out/bill-impacts.csv.gz",
      "--report=out/report.html",
      "--format=csv",
      "--edition=2.5.0",
      "--criteria=gwp,pe",
      "--",
      "bill.csv",
    ]);
    expect(await textOf(await run.written("report", 1024))).toBe("<html>report</html>");
    await run.close();
    expect(readdirSync(root)).toEqual([]);
    // The slot went back with the run: the client is admitted again.
    expect("release" in runner.admit("client")).toBe(true);
  });

  it("ran when the command wrote its output, whatever its exit code (every row failed: 1)", async () => {
    const { run } = await started("rows failed");
    expect(await run.outcome).toEqual({ ended: "ran", exitCode: 1, summary: "bill.csv: every row failed\n" });
    await run.close();
  });

  it.each([
    ["misuse", "the criteria: gwpp is not a criterion of edition 2.5.0"],
    ["silent", "the command could not run"],
  ])(
    "is refused when the command wrote nothing (%s): its last line in the page's words",
    async (action, said) => {
      const { run } = await started(action);
      expect(await run.outcome).toEqual({ ended: "refused", refusal: said });
      expect(await run.written("output", 1024)).toBeNull();
      await run.close();
    },
  );

  it("is stopped by the run's bytes when a write failed past them (EFBIG)", async () => {
    const { run } = await started("efbig");
    expect(await run.outcome).toEqual({
      ended: "stopped",
      refusal:
        "the run's files (the file, its output, report and temporary files) passed 160 MiB (the page's bound); the run was stopped",
    });
    await run.close();
  });

  it("is stopped past its time, saying so", async () => {
    const { run } = await started("hang", 300);
    expect(await run.outcome).toEqual({
      ended: "stopped",
      refusal: "the run took longer than 0.3 s (the page's bound) and was stopped",
    });
    await run.close();
  });

  it("ends when its signal aborts: the command killed, its place removed, its slot given back", async () => {
    const { run, client, root, runner, place } = await started("hang");
    client.abort();
    await run.close();
    await run.outcome;
    expect(existsSync(place.file)).toBe(false);
    expect(readdirSync(root)).toEqual([]);
    expect("release" in runner.admit("client")).toBe(true);
  });
});
