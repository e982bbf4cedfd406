/**
 * Issue 88's "done when", on the /evaluate page of the service as `npm start` runs it, in headless
 * Chromium (Debian's `chromium`, playwright-core) at 390, 768 and 1280 px: three monthly exports of
 * one account (test/fixtures/billing/months/, an AWS CUR 2.0 each) dropped together and shown side
 * by side with a trend; a filter of two services and one region applied in the page without a
 * request, its totals the command's `--filter` on the same files; a what-if row whose cost is read
 * from the bill; the load slider of "Try a change" recomputing through the service's GraphQL,
 * equal to the command's `--load` figure; no sideways scroll; no request shown with `\x0a`. Every
 * wait is on a page condition. With REPORT_SCREENSHOTS set, each width's screenshots are written
 * there.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "csv-parse/sync";
import type { BrowserContext, FrameLocator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_BUNDLE } from "../support/bundle.js";
import {
  checkedByClick,
  evaluatedOnce,
  evaluatedReport,
  headlessChromium,
  pageAt,
} from "../support/chromium.js";
import { portOf, startService } from "../support/process.js";

const WAIT_MS = 240_000;
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const MONTHS = ["2026-04", "2026-05", "2026-06"];
const FILES = MONTHS.map((month) => join(ROOT, "test/fixtures/billing/months", `cur-${month}.csv`));
const WIDTHS = [390, 768, 1280] as const;
const SHOTS = process.env.REPORT_SCREENSHOTS;
/** The filter: two services (by their product code) and one region. */
const SERVICES = ["AmazonEC2", "AmazonRDS"];
const REGION = "us-east-1";

let service: ReturnType<typeof startService>;
let url = "";
let browser: BrowserContext;
const work = mkdtempSync(join(tmpdir(), "evaluate-months-"));

type Row = Record<string, string>;

/** The command's bundle, as the page's service runs it, on the three files; its groups' and what-if's rows. */
function command(args: readonly string[]): { groups: Row[]; whatIf: Row[]; stderr: string } {
  const dir = mkdtempSync(join(work, "command-"));
  const run = spawnSync(
    process.execPath,
    [
      join(ROOT, CLI_BUNDLE),
      "evaluate",
      ...FILES,
      "-o",
      join(dir, "lines.csv"),
      "--what-if",
      join(dir, "what-if.csv"),
      ...args,
    ],
    { encoding: "utf8" },
  );
  if (run.status !== 0) throw new Error(run.stderr);
  const rows = (name: string) => {
    try {
      return parse(readFileSync(join(dir, name), "utf8"), { columns: true }) as Row[];
    } catch {
      return [];
    }
  };
  return { groups: rows("lines.groups.csv"), whatIf: rows("what-if.csv"), stderr: run.stderr };
}

let filtered: ReturnType<typeof command>;
let loaded: ReturnType<typeof command>;

beforeAll(async () => {
  service = startService({ TMPDIR: work, SOURCE_DATE_EPOCH: "1767225600" });
  const [listening] = await service.waitFor(/^listening on /);
  url = `http://127.0.0.1:${portOf(listening)}`;
  if (SHOTS !== undefined) mkdirSync(SHOTS, { recursive: true });
  browser = await headlessChromium();
  filtered = command([
    ...SERVICES.flatMap((code) => ["--filter", `line_item_product_code=${code}`]),
    "--filter",
    `product_region_code=${REGION}`,
    "--group-by",
    "product_region_code",
  ]);
  loaded = command(["--load", "80"]);
}, WAIT_MS);

afterAll(async () => {
  await browser?.close();
  service?.killAll();
  rmSync(work, { recursive: true, force: true });
});

/**
 * The service's answer to the three months' upload, kept at the first width's and handed to the
 * page at the others (`evaluatedOnce`): one run of the command for the three widths.
 */
const answers = new Map<string, string>();

/** The page with the three months dropped together, evaluated, its report drawn in the frame. */
async function reported(width: number): Promise<{ page: Page; frame: FrameLocator; requests: string[] }> {
  const page = await pageAt(browser, width);
  const requests: string[] = [];
  page.on("request", (request) => requests.push(`${request.method()} ${request.url()}`));
  const frame = await evaluatedOnce(page, answers, "three months", async () => {
    await page.goto(`${url}/evaluate`);
    await page.setInputFiles("#file", FILES);
    expect(await page.textContent("#chosen")).toContain("3 files");
    return evaluatedReport(page, WAIT_MS);
  });
  return { page, frame, requests };
}

/** Sideways scroll of the page and of the report's frame (px past the width; 0 or less: none). */
async function sideways(page: Page, frame: FrameLocator): Promise<number[]> {
  return [
    await page.evaluate(() => (document.scrollingElement?.scrollWidth ?? 0) - window.innerWidth),
    await frame
      .locator("body")
      .evaluate(() => (document.scrollingElement?.scrollWidth ?? 0) - window.innerWidth),
  ];
}

/** Checks the values of a column of the report's filter. */
async function filterBy(frame: FrameLocator, column: string, values: readonly string[]): Promise<void> {
  const add = frame.locator("#filter-add");
  if ((await add.getAttribute("open")) === null) await add.locator("summary").click();
  await frame.locator("#filter-column-search").fill(column);
  await frame.locator("#filter-column").selectOption({ label: column });
  for (const value of values)
    await checkedByClick(frame.locator("#filter-values label", { hasText: value }).locator("input"));
}

const close = (a: number, b: number, what: string) =>
  expect(Math.abs(a - b), `${what}: ${a} against ${b}`).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(b)));

describe.each(WIDTHS)("three monthly exports on the /evaluate page at %i px", (width) => {
  it(
    "side by side with a trend; filtered in the page as the command's --filter; a what-if read from the bill; a slider through GraphQL",
    async () => {
      const { page, frame, requests } = await reported(width);
      // Months side by side: a column a month, each row's trend, the largest changes, each month's coverage
      const months = await frame.locator("#months-table thead th").allTextContents();
      for (const month of MONTHS) expect(months.some((heading) => heading.startsWith(month))).toBe(true);
      expect(await frame.locator("#months-table tbody tr td.trend svg polyline").count()).toBeGreaterThan(2);
      expect(await frame.locator("#months-changes tbody tr").count()).toBeGreaterThan(2);
      expect(await frame.locator("#chart-months svg path").count()).toBeGreaterThan(3);
      expect(await frame.getByText("Each month's coverage").count()).toBe(1);
      if (SHOTS !== undefined) {
        await frame.locator("#months").scrollIntoViewIfNeeded();
        await page.screenshot({ path: join(SHOTS, `months-${width}.png`) });
      }
      // What to act on: a cost read from the bill; the requests' line breaks kept
      expect(await frame.locator('table.what-if td[data-read="bill"]').count()).toBeGreaterThan(0);
      const requestsText = await frame
        .locator("table.what-if pre")
        .first()
        .evaluate((pre) => pre.textContent ?? "");
      expect(requestsText).not.toContain("\\x0a");
      expect(requestsText.split("\n").length).toBeGreaterThan(3);
      await frame
        .locator("table.what-if details")
        .first()
        .evaluate((details) => {
          (details as HTMLDetailsElement).open = true;
        });
      expect(await sideways(page, frame)).toEqual([expect.any(Number), expect.any(Number)]);
      for (const past of await sideways(page, frame)) expect(past).toBeLessThanOrEqual(0);
      // The filter, in the page: no request
      const before = requests.length;
      await filterBy(frame, "line_item_product_code", SERVICES);
      await filterBy(frame, "product_region_code", [REGION]);
      expect(requests.slice(before)).toEqual([]);
      const said = await frame
        .locator("#filter-said b[data-v]")
        .evaluateAll((cells) => cells.map((cell) => Number((cell as HTMLElement).dataset.v)));
      const [group] = filtered.groups;
      close(said[0], Number(group.gwp_embedded_kgco2eq) + Number(group.gwp_use_kgco2eq), "gwp");
      close(said[1], Number(group.cost), "cost");
      close(said[2], Number(group.energy_kwh), "kWh");
      expect(await frame.locator("#filter-command").textContent()).toContain(
        "--filter line_item_product_code=AmazonEC2 --filter line_item_product_code=AmazonRDS --filter product_region_code=us-east-1",
      );
      // The tables follow: the filtered table by service holds the two services only
      const services = await frame.locator('[data-ranked="service"] tbody td.name').allTextContents();
      expect(services.sort()).toEqual(["Amazon Elastic Compute Cloud", "Amazon Relational Database Service"]);
      for (const past of await sideways(page, frame)) expect(past).toBeLessThanOrEqual(0);
      if (SHOTS !== undefined) {
        await frame.locator("#filters").scrollIntoViewIfNeeded();
        await page.screenshot({ path: join(SHOTS, `filter-${width}.png`) });
      }
      // Try a change: the load slider, recomputed by the service's GraphQL, as the command's --load 80
      await page.locator("#try summary").click();
      await page.waitForFunction(() =>
        /Recomputed/.test(document.getElementById("try-status")?.textContent ?? ""),
      );
      const asked = requests.length;
      await page.locator("#try-load").fill("80");
      await page.waitForFunction(
        () =>
          document.getElementById("try-load-said")?.textContent === "80 %" &&
          /"timeWorkload":80/.test(document.getElementById("try-request")?.textContent ?? "") &&
          /Recomputed/.test(document.getElementById("try-status")?.textContent ?? ""),
      );
      expect(requests.slice(asked)).toContain(`POST ${url}/graphql`);
      const size = page.locator('#try-table tbody tr[data-change="size"]', {
        hasText: "m5.2xlarge · us-east-1",
      });
      const changed = Number(await size.locator("td").nth(3).getAttribute("data-v"));
      const line = loaded.whatIf.find(
        (row) => row.change === "size" && row.instance_type === "m5.2xlarge" && row.place === "us-east-1",
      ) as Row;
      close(changed, Number(line.to_gwp_kgco2eq), "m5.xlarge at 80 % load, the page's against the command's");
      expect(await size.locator('td[data-read="bill"]').count()).toBe(1);
      for (const past of await sideways(page, frame)) expect(past).toBeLessThanOrEqual(0);
      if (SHOTS !== undefined) {
        await page.locator("#try").scrollIntoViewIfNeeded();
        await page.screenshot({ path: join(SHOTS, `try-${width}.png`) });
      }
      await page.close();
    },
    WAIT_MS,
  );
});
