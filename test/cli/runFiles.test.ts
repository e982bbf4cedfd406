/**
 * Every file of a run known to one place (src/support/namedFiles.ts, src/billing/bill.ts), through the command's function
 * (`runMain`; the bin's process where the run reads EDITIONS_FILE from its environment): a file
 * an option writes that is a file the run reads (the grid series, the zones file, the export
 * inside --tables) or another file it writes is refused before anything is written, exit 2 and
 * one line; every file of the folder keeps its bytes.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli, runMain } from "../support/cli.js";

const SLOW = { timeout: 180_000 };
const scratch = mkdtempSync(join(tmpdir(), "cli-run-files-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let folders = 0;
/** A fresh folder holding the grid series, its zones file, an inventory and a bill. */
function folder(): string {
  const path = join(scratch, `case-${folders++}`);
  mkdirSync(path);
  copyFileSync("test/fixtures/grid/plain.csv", join(path, "grid.csv"));
  copyFileSync("test/fixtures/billing/grid/zones.csv", join(path, "zones.csv"));
  copyFileSync("test/fixtures/billing/grid/focus.csv", join(path, "bill.csv"));
  copyFileSync("examples/inventory.csv", join(path, "inventory.csv"));
  return path;
}

/** Every file under a folder, by its path, with its bytes. */
function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(path, readFileSync(path).toString("base64"));
  }
  return files;
}

/** Runs the command in a fresh folder; its exit code and stderr, and the folder's files unchanged. */
async function refused(args: (dir: string) => string[]): Promise<{ dir: string; stderr: string }> {
  const dir = folder();
  const argv = args(dir);
  const before = snapshot(dir);
  const { code, stdout, stderr } = await runMain(argv);
  expect(code, stderr).toBe(2);
  expect(stdout).toBe("");
  expect(stderr.split("\n")).toHaveLength(2);
  expect(snapshot(dir)).toEqual(before);
  return { dir, stderr };
}

const grid = (dir: string) => [
  "--edition",
  "2.4.1",
  "--criteria",
  "gwp",
  "--grid-intensity",
  join(dir, "grid.csv"),
  "--grid-zones",
  join(dir, "zones.csv"),
];

describe.concurrent("a written file that is a file the run reads", () => {
  for (const input of ["inventory.csv", "bill.csv"]) {
    it(`-o naming the grid series, ${input}: exit 2, nothing written`, SLOW, async () => {
      const { dir, stderr } = await refused((dir) => [
        "evaluate",
        join(dir, input),
        ...grid(dir),
        "-o",
        join(dir, "grid.csv"),
      ]);
      expect(stderr).toBe(
        `impact-service: --output ${join(dir, "grid.csv")} is the --grid-intensity file ${join(dir, "grid.csv")}: name another file; nothing written\n`,
      );
    });

    it(`--report naming the grid series, ${input}: exit 2, nothing written`, SLOW, async () => {
      const { stderr } = await refused((dir) => [
        "evaluate",
        join(dir, input),
        ...grid(dir),
        "--report",
        join(dir, ".", "grid.csv"),
      ]);
      expect(stderr).toMatch(/^impact-service: --report .*grid\.csv is the --grid-intensity file/);
    });

    it(`-o naming the zones file, ${input}: exit 2, nothing written`, SLOW, async () => {
      const { stderr } = await refused((dir) => [
        "evaluate",
        join(dir, input),
        ...grid(dir),
        "-o",
        join(dir, "zones.csv"),
      ]);
      expect(stderr).toMatch(/is the --grid-zones file .*zones\.csv: name another file; nothing written\n$/);
    });

    it(`-o and --report naming one file, ${input}: exit 2, nothing written`, SLOW, async () => {
      const { stderr } = await refused((dir) => [
        "evaluate",
        join(dir, input),
        "-o",
        join(dir, "out.csv"),
        "--report",
        join(dir, "out.csv"),
      ]);
      expect(stderr).toMatch(/^impact-service: --report .*out\.csv is also --output .*out\.csv/);
    });
  }

  it("--tables whose billing_places.csv is the export read: exit 2, the export kept", SLOW, async () => {
    const { stderr } = await refused((dir) => {
      mkdirSync(join(dir, "tables"));
      copyFileSync(join(dir, "bill.csv"), join(dir, "tables", "billing_places.csv"));
      return ["evaluate", join(dir, "tables", "billing_places.csv"), "--tables", join(dir, "tables")];
    });
    expect(stderr).toMatch(
      /^impact-service: --tables .*billing_places\.csv is the input .*: name another file/,
    );
  });

  it("-o inside --tables naming one of its tables: exit 2, one line, nothing written", SLOW, async () => {
    const { stderr } = await refused((dir) => {
      mkdirSync(join(dir, "tables"));
      return [
        "evaluate",
        join(dir, "bill.csv"),
        "-o",
        join(dir, "tables", "instance_matches.csv"),
        "--tables",
        join(dir, "tables"),
      ];
    });
    expect(stderr).toMatch(
      /^impact-service: --tables .*instance_matches\.csv is also --output .*instance_matches\.csv/,
    );
  });

  it("an export named as the output's partial file: exit 2, the export kept", SLOW, async () => {
    const { stderr } = await refused((dir) => {
      copyFileSync(join(dir, "bill.csv"), join(dir, "out.csv.partial"));
      return ["evaluate", join(dir, "out.csv.partial"), "-o", join(dir, "out.csv")];
    });
    expect(stderr).toMatch(/^impact-service: --output's partial file .*out\.csv\.partial is the input/);
  });

  it("an output named as the editions file (EDITIONS_FILE): exit 2, the file kept", SLOW, async () => {
    const dir = folder();
    const before = snapshot(dir);
    const editions = join(dir, "zones.csv");
    const { code, stderr } = await runCli(["evaluate", join(dir, "inventory.csv"), "-o", editions], {
      EDITIONS_FILE: editions,
    });
    expect(code).toBe(2);
    expect(stderr.split("\n")).toHaveLength(2);
    expect(snapshot(dir)).toEqual(before);
  });
});
