/**
 * The package's bin (bin/impact-service.mjs, what `npx impact-service` runs, linked into
 * node_modules/.bin by `npm ci`'s prepare step: scripts/prepare.ts): the command's bundle
 * (dist/bundle/cli.mjs) where the build wrote one, else — a checkout without a bundle — its
 * TypeScript sources through tsx (src/cli/tsxEntry.mjs), its pool's worker too (src/cli/worker.mjs).
 * Both are the same command, byte for byte. The other process tests run the suite's own build of
 * the bundle (test/support/bundle.ts).
 */
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildInto } from "../../scripts/build.js";
import { CLI_BUNDLE } from "../support/bundle.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const INVENTORY = join(ROOT, "examples/inventory.csv");
const work = mkdtempSync(join(tmpdir(), "impact-bin-"));

afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * A checkout of the project in `work`, its bin copied, the data, SQL and packages linked: `built`,
 * with a bundle (dist/bundle) and no sources at all, as the image has it; else with its sources and
 * no bundle.
 */
async function checkout(name: string, built: boolean): Promise<string> {
  const root = join(work, name);
  mkdirSync(root);
  cpSync(join(ROOT, "bin"), join(root, "bin"), { recursive: true });
  if (!built) cpSync(join(ROOT, "src"), join(root, "src"), { recursive: true });
  for (const shared of ["data", "sql", "node_modules", "package.json", "tsconfig.json"]) {
    symlinkSync(join(ROOT, shared), join(root, shared));
  }
  if (built) await buildInto(join(root, "dist/bundle"));
  return root;
}

let built: string;
let bare: string;
beforeAll(async () => {
  [built, bare] = await Promise.all([checkout("built", true), checkout("bare", false)]);
}, 120_000);

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

describe("the shipped bin", () => {
  const args = [INVENTORY, "--workers", "2", "--criteria", "gwp,pe"];

  it("runs the bundle where one is built, the sources through tsx where none is: the same bytes", async () => {
    // The built checkout has no sources: its run is the bundle's. The bare one has no bundle.
    const [bundled, sources, suite] = await Promise.all([
      evaluateBy(join(built, "bin/impact-service.mjs"), args),
      evaluateBy(join(bare, "bin/impact-service.mjs"), args),
      evaluateBy(join(ROOT, CLI_BUNDLE), args),
    ]);
    expect(bundled.code, bundled.stderr).toBe(0);
    // examples/inventory.csv: 19 assets, one row each, plus the header.
    expect(bundled.output.trim().split("\n")).toHaveLength(1 + 19);
    expect(untimed(bundled.stderr)).toContain("inventory.csv: 19 rows (19 ok, 0 errors");
    for (const run of [sources, suite]) {
      expect(run.output).toBe(bundled.output);
      expect(untimed(run.stderr)).toBe(untimed(bundled.stderr));
    }
  });

  it("refuses a misuse with exit 2 and one line naming it, bundled or not", async () => {
    const bin = await evaluateBy(join(built, "bin/impact-service.mjs"), [join(work, "absent.csv")]);
    expect(bin.code).toBe(2);
    expect(bin.stderr).toBe(`impact-service: ${join(work, "absent.csv")}: no such file or folder\n`);
    expect(bin.output).toBe("");
    expect(await evaluateBy(join(bare, "bin/impact-service.mjs"), [join(work, "absent.csv")])).toEqual(bin);
  });
});
