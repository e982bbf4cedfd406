/**
 * The /evaluate page on a large bill, as a person sees it: a generated CUR 2.0 of 124,340 lines (as
 * wide as a real one: scripts/billing-exports.ts --wide; Parquet, 368 KB) chosen on the page of a
 * built service (`npm start`'s bundle, from the folder given, default this one) in headless
 * Chromium at 1280 px, timed from the press on Evaluate to the report shown and to "Done", with
 * the longest time the status line stood unchanged; and the command line alone on the same file.
 *
 *   npm run build && npx tsx bench/evaluatePage.ts [project folder] [port]
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";
import { writeBillingExport } from "../scripts/billing-exports.js";

const folder = resolve(process.argv[2] ?? ".");
const port = process.argv[3] ?? "18470";
const LINES = 124_340;
const RUNS = 2;

const work = mkdtempSync(join(tmpdir(), "bench-evaluate-page-"));
const file = join(work, "cur.parquet");
await writeBillingExport("cur", LINES, file, "1.2", true);
const server = spawn(
  process.execPath,
  ["--max-old-space-size=768", "--max-semi-space-size=16", "dist/bundle/server.mjs"],
  {
    cwd: folder,
    env: { ...process.env, PORT: port, NODE_ENV: "production", LOG_LEVEL: "warn" },
    stdio: "ignore",
  },
);
try {
  for (;;) {
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (answer) => answer.status === 200,
      () => false,
    );
    if (ready) break;
    await new Promise((wake) => setTimeout(wake, 300));
  }
  const started = Date.now();
  const cli = join(folder, "dist/bundle/cli.mjs");
  const out = ["-o", join(work, "out.csv"), "--report", join(work, "r.html"), "--edition", "2.5.0"];
  spawnSync(process.execPath, [cli, "evaluate", file, ...out], { stdio: "ignore" });
  const command = (Date.now() - started) / 1000;
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu"],
  });
  for (let run = 1; run <= RUNS; run++) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`http://127.0.0.1:${port}/evaluate`);
    await page.selectOption("select[name=edition]", "2.5.0");
    await page.setInputFiles("#file", file);
    const pressed = Date.now();
    await page.click("button[name=run]");
    let report: number | null = null;
    let unchanged = 0;
    let status = "";
    let changed = Date.now();
    for (;;) {
      const now = (await page.textContent("#status")) ?? "";
      if (now !== status) {
        unchanged = Math.max(unchanged, Date.now() - changed);
        [status, changed] = [now, Date.now()];
      }
      if (report === null && (await page.evaluate(() => !document.getElementById("results")?.hidden))) {
        report = (Date.now() - pressed) / 1000;
      }
      if (/^Done|Refused/.test(now)) break;
      await page.waitForTimeout(100);
    }
    const done = (Date.now() - pressed) / 1000;
    console.log(
      JSON.stringify({ run, command, report, done, status, longestUnchangedStatusS: unchanged / 1000 }),
    );
    await page.close();
  }
  await browser.close();
} finally {
  server.kill();
  rmSync(work, { recursive: true, force: true });
}
