/**
 * The bounds of a run of the /evaluate page, each on a real child process (src/evaluationProcess/):
 * the command's arguments (every value after `=`, the file after `--`), its heap flags, its
 * file-size limit and its place first in the kernel's choice when memory runs out; the watch that
 * stops the runs past their memory or their folder's bytes; the folders a process gone left
 * behind. The command is a stand-in script doing what each test needs of it (allocating,
 * writing, telling what it was given); every wait is on what it tells or on its end.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type CommandStart, startCommand } from "../../src/evaluationProcess/command.js";
import { folderBytes, removeLeftFolders } from "../../src/evaluationProcess/runFolder.js";
import {
  createRunWatch,
  folderRefusal,
  memoryRefusal,
  ownResidentBytes,
} from "../../src/evaluationProcess/runWatch.js";
import { fileRequestOf } from "../../src/service/fileEvaluation/request.js";

const work = mkdtempSync(join(tmpdir(), "file-run-bounds-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const MiB = 1024 * 1024;

/** The stand-in command: what it does is its FAKE_ACTION's. */
const FAKE = join(work, "fake-command.mjs");
writeFileSync(
  FAKE,
  `import { readFileSync, writeFileSync } from "node:fs";
const action = process.env.FAKE_ACTION;
if (action === "arguments") process.stderr.write(JSON.stringify({ argv: process.argv.slice(2), execArgv: process.execArgv }));
if (action === "score") {
  const look = () => {
    const score = readFileSync("/proc/self/oom_score_adj", "utf8").trim();
    if (score === "1000") process.stderr.write(score);
    else setTimeout(look, 10);
  };
  look();
}
if (action === "write") writeFileSync("big", Buffer.alloc(2 * 1024 * 1024, 1));
if (action === "grow") {
  const held = [];
  setInterval(() => held.push(Buffer.alloc(16 * 1024 * 1024, 1)), 5);
}
if (action === "fill") {
  let n = 0;
  setInterval(() => writeFileSync("part-" + n++, Buffer.alloc(256 * 1024, 1)), 5);
}
`,
);

/** The stand-in started as a run's command, in a run folder of its own. */
function started(action: string, bounds: Partial<CommandStart["bounds"]> = {}) {
  const folder = mkdtempSync(join(work, "run-"));
  const child = startCommand({
    entry: FAKE,
    folder,
    input: "servers.csv",
    output: "out/servers-impacts.csv",
    request: { name: "servers.csv", edition: "2.4.1", criteria: ["gwp", "adp"], format: "csv" },
    environment: { ...process.env, FAKE_ACTION: action },
    bounds: { runFolderBytes: 1 * MiB, runsMemoryBytes: 64 * MiB, runHeapMb: 256, ...bounds },
  });
  return { child, folder };
}

async function stderrOf(child: ChildProcess): Promise<{ text: string; code: number | null }> {
  let text = "";
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (part: string) => {
    text += part;
  });
  const [code] = (await once(child, "close")) as [number | null];
  return { text, code };
}

describe("a run's command", () => {
  it("is given every value after `=`, the file after `--`, and the heap flags", async () => {
    const { text } = await stderrOf(started("arguments").child);
    const { argv, execArgv } = JSON.parse(text) as { argv: string[]; execArgv: string[] };
    expect(argv).toEqual([
      "evaluate",
      "--output=out/servers-impacts.csv",
      "--report=out/report.html",
      "--format=csv",
      "--edition=2.4.1",
      "--criteria=gwp,adp",
      "--",
      "servers.csv",
    ]);
    expect(execArgv).toEqual(["--max-old-space-size=256", "--max-semi-space-size=16"]);
  });

  it("is the first process the kernel stops when memory runs out (oom_score_adj 1000)", async () => {
    const { text } = await stderrOf(started("score").child);
    expect(text).toBe("1000");
  });

  it("cannot write a file past the run's bytes (RLIMIT_FSIZE): the write fails, EFBIG", async () => {
    const { text, code } = await stderrOf(started("write").child);
    expect(code).not.toBe(0);
    expect(text).toMatch(/EFBIG/);
  });
});

describe("a request's values", () => {
  const accepted = { editions: ["1.2.4", "2.4.1"], criteria: ["gwp", "adp", "pe"] };
  const request = (query: string) => () => fileRequestOf(new URLSearchParams(query), accepted);

  it.each([
    ["name=x.csv&edition=-h", 'edition: "-h" is not an edition this service serves (1.2.4, 2.4.1)'],
    ["name=x.csv&criteria=--help", 'criteria: "--help" is not a criterion this service knows'],
    ["name=x.csv&criteria=gwp,-o", 'criteria: "-o" is not a criterion this service knows'],
    ["name=x.csv&format=--report", 'format: csv, xlsx, parquet, not "--report"'],
  ])("refuses %s, naming the field", (query, message) => {
    expect(request(query)).toThrow(message);
  });

  it("takes exact values; the file's name is never an option", () => {
    expect(
      fileRequestOf(new URLSearchParams("name=--help.csv&edition=2.4.1&criteria=gwp,pe"), accepted),
    ).toEqual({ name: "--help.csv", edition: "2.4.1", criteria: ["gwp", "pe"], format: "csv" });
  });
});

describe("the watch of the runs", () => {
  it("stops a run past the runs' memory, saying so", async () => {
    const { child } = started("grow");
    const watch = createRunWatch({ runsMemoryBytes: 64 * MiB, runFolderBytes: 1024 * MiB });
    const reason = await new Promise<string>((resolve) =>
      watch.add({ pid: child.pid as number, folder: work, stop: resolve }),
    );
    child.kill("SIGKILL");
    expect(reason).toMatch(
      /^the run used \d+ MiB of memory, more than 64 MiB \(the page's bound\); the run was stopped$/,
    );
    expect(memoryRefusal({ runsMemoryBytes: 64 * MiB, runFolderBytes: 0 }, 100 * MiB, false)).toBe(
      "the runs at once used 100 MiB of memory, more than 64 MiB (the page's bound); the run was stopped",
    );
  });

  it("counts a run's own pages, not the files it maps (node's binary, DuckDB's library)", () => {
    // A billing run's peak, as /proc/<pid>/status read it: 488 MiB resident, 86 of them mapped files
    const status =
      "VmRSS:\t  500232 kB\nRssAnon:\t  412544 kB\nRssFile:\t   87688 kB\nRssShmem:\t       0 kB\n";
    expect(ownResidentBytes(status)).toBe(412_544 * 1024);
    expect(ownResidentBytes("VmRSS:\t  1000 kB\nRssAnon:\t 600 kB\nRssShmem:\t 50 kB\n")).toBe(650 * 1024);
    // A kernel without the split (before 4.5): the whole resident set
    expect(ownResidentBytes("VmRSS:\t  1000 kB\n")).toBe(1000 * 1024);
    expect(ownResidentBytes("Name:\tnode\n")).toBeNull();
  });

  it("stops a run whose folder passes its bytes, saying so", async () => {
    const { child, folder: runFolder } = started("fill", { runFolderBytes: 64 * MiB });
    const watch = createRunWatch({ runsMemoryBytes: 1024 * MiB, runFolderBytes: 4 * MiB });
    const reason = await new Promise<string>((resolve) =>
      watch.add({ pid: child.pid as number, folder: runFolder, stop: resolve }),
    );
    child.kill("SIGKILL");
    expect(reason).toBe(folderRefusal({ runsMemoryBytes: 0, runFolderBytes: 4 * MiB }));
    expect(await folderBytes(runFolder)).toBeGreaterThan(4 * MiB);
  });
});

describe("the run folders", () => {
  it("of a process gone, or of an earlier process of this id, are removed at start-up; a running one's kept", async () => {
    const root = mkdtempSync(join(work, "tmp-"));
    const gone = spawn(process.execPath, ["-e", ""]);
    await once(gone, "exit");
    const names = [
      `impact-evaluate-${gone.pid}-aaaaaa`,
      `impact-evaluate-${process.pid}-bbbbbb`,
      `impact-evaluate-${process.ppid}-cccccc`,
      "impact-billing-dddddd",
    ];
    for (const name of names) mkdirSync(join(root, name, "out"), { recursive: true });
    expect(removeLeftFolders(root).sort()).toEqual(names.slice(0, 2).sort());
    expect(readdirSync(root).sort()).toEqual(names.slice(2).sort());
    expect(existsSync(join(root, names[2], "out"))).toBe(true);
  });
});
