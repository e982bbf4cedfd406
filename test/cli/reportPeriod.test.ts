/**
 * Issue 96's report, as the command's bundle writes it and headless Chromium draws it:
 * - the period as it is: OCI's public cost report (../shared/public-exports, read in place) with its
 *   hours moved to 2023-06-30 21:00 – 2023-07-01 13:00 (16 h over two months, both partial) is not
 *   drawn as a trend: its months are compared by daily rate, as bars, no sparkline; the header
 *   names the bill's period;
 * - every command the report shows runs as printed (three monthly CUR exports with a filter, one
 *   of its columns by a plain name, `region`, which the page opens as the file's
 *   product_region_code: the group command and the filter command run, `npx impact-service` as
 *   the bundle);
 * - at 390 px a table that scrolls sideways says so, no name breaks inside a token (`t3.large`),
 *   and a table downloads as CSV;
 * - a file of a header and no lines exits 2 saying so, no report written.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { parse } from "csv-parse/sync";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NO_LINES } from "../../src/support/namedFiles.js";
import { CLI_BUNDLE } from "../support/bundle.js";
import { headlessChromium, pageAt } from "../support/chromium.js";

const WAIT_MS = 240_000;
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const OCI = join(ROOT, "../shared/public-exports/oci-focus-converters-cost.csv.gz");
const MONTHS = ["2026-04", "2026-05", "2026-06"].map((month) =>
  join(ROOT, "test/fixtures/billing/months", `cur-${month}.csv`),
);
const work = mkdtempSync(join(tmpdir(), "report-period-"));
let browser: BrowserContext;

/** The command's bundle in `cwd`: its exit, stdout and stderr. */
function run(cwd: string, args: readonly string[]) {
  return spawnSync(process.execPath, [join(ROOT, CLI_BUNDLE), ...args], { cwd, encoding: "utf8" });
}

/** A CSV field written back as read. */
const field = (text: string) => (/[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);

/**
 * OCI's public report with its seven hours moved to 2023-06-30 21:00, then every 2.5 hours (each
 * line an hour): the last ends 2023-07-01 13:00. Written to the test's folder, never to the repository.
 */
function shiftedOci(): string {
  const rows = parse(gunzipSync(readFileSync(OCI)).toString("utf8"), { columns: true }) as Record<
    string,
    string
  >[];
  const header = Object.keys(rows[0]);
  const starts = [...new Set(rows.map((row) => row["lineItem/intervalUsageStart"]))].sort();
  const base = Date.UTC(2023, 5, 30, 21);
  const at = (start: string) => base + starts.indexOf(start) * 150 * 60_000;
  const minute = (ms: number) => `${new Date(ms).toISOString().slice(0, 16)}Z`;
  const lines = rows.map((row) => {
    const start = at(row["lineItem/intervalUsageStart"]);
    const shifted = {
      ...row,
      "lineItem/intervalUsageStart": minute(start),
      "lineItem/intervalUsageEnd": minute(start + 3_600_000).replace("Z", ":00Z"),
    };
    return header.map((column) => field(shifted[column as keyof typeof shifted] ?? "")).join(",");
  });
  const file = join(work, "oci-16h.csv");
  writeFileSync(file, `${header.map(field).join(",")}\n${lines.join("\n")}\n`);
  return file;
}

/** A report opened in Chromium at `width`, every chart drawn. */
async function opened(report: string, width: number): Promise<Page> {
  const page = await pageAt(browser, width);
  await page.goto(`file://${report}`);
  await page.waitForFunction(() => document.body.dataset.charts === document.body.dataset.wanted, null, {
    timeout: WAIT_MS,
  });
  return page;
}

beforeAll(async () => {
  browser = await headlessChromium(true);
}, WAIT_MS);

afterAll(async () => {
  await browser?.close();
  rmSync(work, { recursive: true, force: true });
});

describe("a bill's period as it is", () => {
  it(
    "16 hours over two months: both months partial, compared by daily rate as bars, the header's period",
    async () => {
      const dir = mkdtempSync(join(work, "oci-"));
      const done = run(dir, ["evaluate", shiftedOci(), "-o", "lines.csv", "--report", "report.html"]);
      expect(done.status, done.stderr).toBe(0);
      expect(done.stderr).toContain("2023-06: ");
      expect(done.stderr).toMatch(/2023-06: .*; partial, 2023-06-30 21:00 to 2023-07-01 00:00 UTC \(3 h\)/);
      expect(done.stderr).toMatch(/2023-07: .*; partial, 2023-07-01 02:00 to 2023-07-01 13:00 UTC \(11 h\)/);
      const html = readFileSync(join(dir, "report.html"), "utf8");
      expect(html).toContain("the bill's period: 2023-06-30 21:00 to 2023-07-01 13:00 UTC (16 h)");
      const page = await opened(join(dir, "report.html"), 1280);
      // No trend drawn between the partial months: no sparkline, the chart's series are bars
      expect(await page.locator("#months-table td.trend svg").count()).toBe(0);
      const types = await page.evaluate(() => {
        const chart = (
          window as unknown as {
            echarts: { getInstanceByDom(e: Element): { getOption(): { series: { type: string }[] } } };
          }
        ).echarts.getInstanceByDom(document.getElementById("chart-months") as Element);
        return chart.getOption().series.map((series) => series.type);
      });
      expect(types.length).toBeGreaterThan(0);
      expect(new Set(types)).toEqual(new Set(["bar"]));
      const headings = await page.locator("#months-totals thead th").allTextContents();
      expect(headings.some((text) => text.startsWith("cost per day"))).toBe(true);
      expect(headings.some((text) => text.startsWith("energy per day"))).toBe(true);
      expect(headings.some((text) => text.startsWith("gwp per day"))).toBe(true);
      expect(await page.locator("#months-totals tbody tr").allTextContents()).toEqual([
        expect.stringContaining("2023-06 (partial)"),
        expect.stringContaining("2023-07 (partial)"),
      ]);
      await page.close();
    },
    WAIT_MS,
  );

  it("a file of a header and no lines exits 2 saying so; no report is written", () => {
    const dir = mkdtempSync(join(work, "empty-"));
    const header = readFileSync(MONTHS[0], "utf8").split("\n")[0];
    writeFileSync(join(dir, "header.csv"), `${header}\n`);
    const done = run(dir, ["evaluate", "header.csv", "-o", "lines.csv", "--report", "report.html"]);
    expect(done.status).toBe(2);
    expect(done.stderr).toContain(`header.csv: ${NO_LINES}`);
    expect(existsSync(join(dir, "report.html"))).toBe(false);
    expect(existsSync(join(dir, "lines.csv"))).toBe(false);
  });
});

describe("three monthly exports' report at 390 px", () => {
  let page: Page;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(work, "months-"));
    const done = run(dir, [
      "evaluate",
      ...MONTHS,
      "-o",
      "lines.csv",
      "--report",
      "report.html",
      "--filter",
      "line_item_product_code=AmazonEC2",
      "--filter",
      "region=us-east-1",
    ]);
    expect(done.status, done.stderr).toBe(0);
    page = await opened(join(dir, "report.html"), 390);
  }, WAIT_MS);

  it(
    "every command the report shows runs as printed",
    async () => {
      const shown = [
        await page.locator("#filter-command").textContent(),
        await page.locator("#group-command").textContent(),
      ];
      for (const command of shown) {
        expect(command).toMatch(/^npx impact-service evaluate /);
        // The run's filter, its plain name opened as the file's column
        expect(command).toContain(
          " --filter line_item_product_code=AmazonEC2 --filter product_region_code=us-east-1",
        );
        // Every month's file named, none as "(and 2 more monthly files)"
        for (const file of MONTHS) expect(command).toContain(file);
        const cwd = mkdtempSync(join(work, "command-"));
        const done = spawnSync(
          "sh",
          [
            "-c",
            (command ?? "").replace(
              /^npx impact-service /,
              `"${process.execPath}" "${join(ROOT, CLI_BUNDLE)}" `,
            ),
          ],
          { cwd, encoding: "utf8" },
        );
        expect(done.status, `${command}\n${done.stderr}`).toBe(0);
        expect(existsSync(join(cwd, "impacts.csv"))).toBe(true);
      }
      // The group command's groups are the filter's: EC2's lines in us-east-1 alone
      const cwd = mkdtempSync(join(work, "groups-"));
      const group = (shown[1] ?? "").replace(
        /^npx impact-service /,
        `"${process.execPath}" "${join(ROOT, CLI_BUNDLE)}" `,
      );
      expect(spawnSync("sh", ["-c", group], { cwd, encoding: "utf8" }).status).toBe(0);
      const groups = parse(readFileSync(join(cwd, "impacts.groups.csv"), "utf8"), {
        columns: true,
      }) as Record<string, string>[];
      expect(groups.length).toBeGreaterThan(0);
    },
    WAIT_MS,
  );

  it("a table that scrolls sideways says so; no name breaks inside a token; a table downloads as CSV", async () => {
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const tables = await page.evaluate(() =>
      [...document.querySelectorAll("div.table")]
        .filter((box) => (box as HTMLElement).offsetParent !== null)
        .map((box) => ({
          overflows: box.scrollWidth > box.clientWidth + 1,
          hinted: box.classList.contains("scrolls"),
          hint: getComputedStyle(box, "::before").content,
        })),
    );
    const overflowing = tables.filter((table) => table.overflows);
    expect(overflowing.length).toBeGreaterThan(0);
    for (const table of overflowing) {
      expect(table.hinted).toBe(true);
      expect(table.hint).toContain("scrolls sideways");
    }
    // Each token of a visible name (between / : , and spaces) on one line
    const broken = await page.evaluate(() => {
      const found: string[] = [];
      for (const cell of document.querySelectorAll("td.name")) {
        if ((cell as HTMLElement).offsetParent === null) continue;
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
          for (const match of (node.textContent ?? "").matchAll(/[^/:, ]+/g)) {
            const range = document.createRange();
            range.setStart(node, match.index ?? 0);
            range.setEnd(node, (match.index ?? 0) + match[0].length);
            const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
            if (tops.size > 1) found.push(match[0]);
          }
        }
      }
      return found;
    });
    expect(broken).toEqual([]);
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.locator("#months-totals").locator("xpath=../following-sibling::a[1]").click(),
    ]);
    // Over the run's browser connection a download has no local path: its bytes are read as a stream
    const csv = Buffer.concat(await (await download.createReadStream()).toArray()).toString("utf8");
    const rows = parse(csv) as string[][];
    expect(rows[0][0]).toBe("month");
    expect(rows.slice(1).map((row) => row[0])).toEqual(["2026-04", "2026-05", "2026-06"]);
    // Exact values, not the page's rounding
    expect(rows.slice(1).every((row) => Number.isFinite(Number(row[2])))).toBe(true);
  });
});
