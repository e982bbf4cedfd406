/**
 * `--report r.html` in headless Chromium (Debian's `chromium`, driven by playwright-core): the
 * file alone draws its charts (no request leaves the page), shows the totals with their units
 * and ranges, the groups, and the rows that failed or carry warnings. Waits are on page
 * conditions, never on a duration.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";

const CHROMIUM = "/usr/bin/chromium";
const WAIT_MS = 120_000;
const dir = mkdtempSync(join(tmpdir(), "impact-report-"));
let browser: Browser;

const quiet = () =>
  new Writable({
    write(_chunk, _encoding, done) {
      done();
    },
  }) as unknown as NodeJS.WriteStream;

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing (scripts/ensure-chromium.sh installs it)`);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
}, WAIT_MS);

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the HTML report", () => {
  it(
    "draws its charts in Chromium from the file alone, with totals, groups, failed and warned rows",
    async () => {
      const inventory = join(dir, "inventory.csv");
      writeFileSync(
        inventory,
        `${readFileSync("examples/inventory.csv", "utf8")}sales,Paris,cloud,1,aws,no-such-type,,,FRA,8760,,,,,,,\nsales,Lyon,laptop,3,,,,pro,France,8760,,,,,,,\n`,
      );
      const report = join(dir, "r.html");
      const code = await main(
        ["evaluate", inventory, "--group-by", "team", "--report", report, "-o", join(dir, "r.ndjson")],
        {
          stdin: process.stdin,
          stdout: quiet(),
          stderr: quiet(),
        },
      );
      expect(code).toBe(0);

      const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      const elsewhere: string[] = [];
      page.on("request", (request) => {
        if (!request.url().startsWith("file:")) elsewhere.push(request.url());
      });
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      await page.goto(`file://${report}`);
      // Three charts: embedded against use, the largest contributors, the groups.
      await page.waitForFunction(() => document.body.dataset.charts === "3", null, { timeout: WAIT_MS });
      const drawn = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>(".chart")].map((chart) => ({
          id: chart.id,
          bars: chart.querySelectorAll("svg path").length,
          text: chart.textContent ?? "",
        })),
      );
      expect(drawn.map((chart) => chart.id)).toEqual(["chart-phases", "chart-contributors", "chart-groups"]);
      for (const chart of drawn) expect(chart.bars).toBeGreaterThan(5);
      expect(drawn[1].text).toContain("line 7: laptop pro");
      expect(drawn[2].text).toContain("platform");
      expect(elsewhere).toEqual([]);
      expect(errors).toEqual([]);

      const text = await page.evaluate(() => document.body.innerText);
      expect(text).toContain("21 rows");
      expect(text).toMatch(/gwp\s+embedded\s+[\d.]+\s+[\d.]+ – [\d.]+\s+kgCO2eq/);
      expect(text).toContain("404 no-such-type at aws not found");
      expect(text).toContain('usage_location "France" is not a location of edition 1.2.4');
      await page.close();
    },
    WAIT_MS,
  );
});
