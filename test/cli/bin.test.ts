/**
 * The shipped bin (bin/impact-service.mjs, what `npx impact-service` and `npm run dev`'s
 * /evaluate page run): the TypeScript sources through tsx, its pool's worker too
 * (src/cli/worker.mjs). The other process tests run the command's bundle (scripts/build.ts,
 * test/support/bundle.ts), which the bundled service's /evaluate page runs: both are the same
 * command, byte for byte.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { CLI_BUNDLE } from "../support/bundle.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const BIN = join(ROOT, "bin/impact-service.mjs");
const INVENTORY = join(ROOT, "examples/inventory.csv");
const work = mkdtempSync(join(tmpdir(), "impact-bin-"));

afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Run {
  readonly code: number;
  readonly stderr: string;
  readonly output: string;
}

/** `evaluate` of the example inventory on two worker threads by `entry`, its output in a folder of its own. */
async function evaluateBy(entry: string, args: readonly string[]): Promise<Run> {
  const out = mkdtempSync(join(work, "run-"));
  mkdirSync(join(out, "out"));
  const output = join(out, "out/impacts.csv");
  const ran = await promisify(execFile)(process.execPath, [entry, "evaluate", ...args, "-o", output], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: "silent" },
  }).then(
    ({ stderr }) => ({ code: 0, stderr }),
    (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
  );
  let written = "";
  try {
    written = readFileSync(output, "utf8");
  } catch {
    // nothing written: a misuse
  }
  return { ...ran, output: written };
}

/** The summary without its timing (`in 0.1 s, 183 rows/s` differs between two runs). */
const untimed = (summary: string) => summary.replace(/ in [\d.]+ s, [\d.]+ rows\/s/g, "");

describe("the shipped bin through tsx", () => {
  it("evaluates on worker threads what the command's bundle evaluates, byte for byte", async () => {
    const args = [INVENTORY, "--workers", "2", "--criteria", "gwp,pe"];
    const [bin, bundled] = await Promise.all([
      evaluateBy(BIN, args),
      evaluateBy(join(ROOT, CLI_BUNDLE), args),
    ]);
    expect(bin.code).toBe(0);
    // examples/inventory.csv: 19 assets, one row each, plus the header.
    expect(bin.output.trim().split("\n")).toHaveLength(1 + 19);
    expect(untimed(bin.stderr)).toContain("inventory.csv: 19 rows (19 ok, 0 errors");
    expect(bin.output).toBe(bundled.output);
    expect(untimed(bin.stderr)).toBe(untimed(bundled.stderr));
  });

  it("refuses a misuse with exit 2 and one line naming it, as the bundle does", async () => {
    const bin = await evaluateBy(BIN, [join(work, "absent.csv")]);
    expect(bin.code).toBe(2);
    expect(bin.stderr).toContain("absent.csv");
    expect(bin.output).toBe("");
    expect(await evaluateBy(join(ROOT, CLI_BUNDLE), [join(work, "absent.csv")])).toEqual(bin);
  });
});
