/**
 * The report a team acts on, on the /evaluate page of the service as `npm start` runs it, in
 * headless Chromium (Debian's `chromium`, driven by playwright-core) at 390, 768 and 1280 px, for a
 * daily AWS CUR 2.0 (scripts/billing-exports.ts --wide --daily), the FinOps Foundation's FOCUS
 * sample and an inventory with periods and cloud rows: the impacts over time as its first chart,
 * the criterion switch (every figure and chart redrawn for another criterion), a grouping chosen
 * once the report is shown (no request leaves the page; the sums are the command's `--group-by`
 * ones), the what-if table, and no page scrolling sideways. With REPORT_SCREENSHOTS set, each width's
 * screenshot is written there (docs/'s were chosen from them). Every wait is on a page condition.
 * The service evaluates each file once for the file's tests (`answers`).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "csv-parse/sync";
import type { BrowserContext, FrameLocator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeBillingExport } from "../../scripts/billing-exports.js";
import { CLI_BUNDLE } from "../support/bundle.js";
import {
  checkedByClick,
  evaluatedOnce,
  evaluatedReport,
  headlessChromium,
  pageAt,
} from "../support/chromium.js";
import { portOf, startService } from "../support/process.js";
import { publicExport } from "../support/publicExports.js";

const WAIT_MS = 240_000;
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const WIDTHS = [390, 768, 1280] as const;
const SHOTS = process.env.REPORT_SCREENSHOTS;

let service: ReturnType<typeof startService>;
let url = "";
let browser: BrowserContext;
const work = mkdtempSync(join(tmpdir(), "evaluate-report-"));

/** An inventory over the first quarter of 2024: cloud rows in four providers' regions, a laptop fleet, a server. */
const INVENTORY = `team,site,kind,quantity,provider,instance_type,region,usage_location,period_start,period_end
platform,Paris,cloud,4,aws,m5.xlarge,eu-west-3,,2024-01-01,2024-04-01
platform,Dublin,cloud,2,aws,c5.2xlarge,eu-west-1,,2024-02-01,2024-03-01
data,Virginia,cloud,3,aws,r5.2xlarge,us-east-1,,2024-01-15,2024-03-15
data,Frankfurt,cloud,1,azure,Standard_D4s_v3,germanywestcentral,,2024-01-01,2024-03-31
web,Sydney,cloud,2,gcp,n1-standard-4,australia-southeast1,,2024-03-01,2024-04-01
sales,Paris,laptop,5,,,,FRA,2024-01-01,2024-04-01
sales,Lyon,server,1,,,,FRA,2024-01-01,2024-04-01
`;

const files: Record<string, string> = {};

beforeAll(async () => {
  service = startService({ TMPDIR: work, SOURCE_DATE_EPOCH: "1767225600" });
  const [listening] = await service.waitFor(/^listening on /);
  url = `http://127.0.0.1:${portOf(listening)}`;
  files.cur = join(work, "cur-daily.csv");
  await writeBillingExport("cur", 3_000, files.cur, "1.2", true, true);
  files.focus = publicExport("focus-1.0-finops-sample.csv");
  files.inventory = join(work, "inventory.csv");
  writeFileSync(files.inventory, INVENTORY);
  if (SHOTS !== undefined) mkdirSync(SHOTS, { recursive: true });
  browser = await headlessChromium();
}, WAIT_MS);

afterAll(async () => {
  await browser?.close();
  service?.killAll();
  rmSync(work, { recursive: true, force: true });
});

/**
 * Each file's answer from the service, kept at the file's first upload (whichever test comes first,
 * so that each passes alone) and handed to the page at its other uploads (`evaluatedOnce`): the
 * service runs the command once per file, not once per width (10 runs were 3,
 * bench/history/test-files.md).
 */
const answers = new Map<string, string>();

/** The page with a file evaluated in the edition for new work (its default), its report drawn in the frame. */
async function reported(
  file: string,
  width: number,
): Promise<{ page: Page; frame: FrameLocator; requests: string[] }> {
  const page = await pageAt(browser, width);
  const requests: string[] = [];
  // The "Try a change" panel asks the service itself once the frame tells it its rows (its own
  // tests check those requests); what the report does in the page is what is counted here.
  page.on("request", (request) => {
    if (!/cloudInstances?\(|cloudRegions\(/.test(request.postData() ?? "")) {
      requests.push(`${request.method()} ${request.url()}`);
    }
  });
  const frame = await evaluatedOnce(page, answers, file, async () => {
    await page.goto(`${url}/evaluate`);
    await page.setInputFiles("#file", file);
    return evaluatedReport(page, WAIT_MS);
  });
  return { page, frame, requests };
}

/** What the report's frame shows at a width: its charts, switch, first card, and whether it scrolls sideways. */
async function readReport(frame: FrameLocator) {
  return frame.locator("body").evaluate((body) => ({
    charts: [...body.querySelectorAll<HTMLElement>(".chart")].map((chart) => ({
      id: chart.id,
      marks: chart.querySelectorAll("svg path").length,
      text: chart.textContent ?? "",
    })),
    firstChart: body.querySelector(".chart")?.id ?? "",
    card:
      [...body.querySelectorAll<HTMLElement>(".card.total b")].find((b) => b.offsetParent !== null)
        ?.innerText ?? "",
    sideways: (document.scrollingElement?.scrollWidth ?? 0) - window.innerWidth,
    whatIf: [...body.querySelectorAll("table.what-if tbody tr")].map((row) => (row as HTMLElement).innerText),
  }));
}

/** Groups the report's lines by `by` (then `then`) in the page, and reads the table and the command it shows. */
async function grouped(frame: FrameLocator, by: string, then: string | null) {
  await frame.locator("#group-by").selectOption({ label: by });
  if (then !== null) await frame.locator("#group-then").selectOption({ label: then });
  return frame.locator("body").evaluate(() => {
    const table = document.getElementById("explorer-table") as HTMLTableElement;
    const headings = [...table.querySelectorAll("th")].map((th) => th.textContent ?? "");
    const rows = [...table.tBodies[0].rows].map((row) =>
      [...row.cells].map((cell) => ({ text: cell.textContent ?? "", value: cell.dataset.v })),
    );
    return { headings, rows, command: document.getElementById("group-command")?.textContent ?? "" };
  });
}

const CASES = [
  { name: "a daily CUR 2.0", file: "cur", grain: "day", by: "line_item_usage_account_id", thenBy: "method" },
  {
    name: "the FinOps Foundation's FOCUS sample",
    file: "focus",
    grain: "day",
    by: "ServiceName",
    thenBy: "RegionId",
  },
  { name: "an inventory with periods", file: "inventory", grain: "month", by: "team", thenBy: "kind" },
] as const;

describe.each(CASES)("the report of $name on the /evaluate page", ({ file, grain, by, thenBy }) => {
  it.each(WIDTHS)(
    "at %i px: over time first, the criterion switch, a grouping chosen in the page, the what-if table",
    async (width) => {
      const { page, frame, requests } = await reported(files[file], width);
      const read = await readReport(frame);
      // When: the first chart, per the input's own grain, drawn
      expect(read.firstChart).toBe("chart-time");
      expect(await frame.locator("h2", { hasText: `Impacts per ${grain}` }).count()).toBe(1);
      expect(read.charts.find((chart) => chart.id === "chart-time")?.marks).toBeGreaterThan(5);
      expect(read.card).toMatch(/CO2eq$/);
      expect(read.sideways).toBeLessThanOrEqual(0);
      expect(
        await page.evaluate(() => (document.scrollingElement?.scrollWidth ?? 0) - window.innerWidth),
      ).toBeLessThanOrEqual(0);
      // What to act on: changes that save gwp, ranked
      expect(read.whatIf.length).toBeGreaterThan(0);
      expect(read.whatIf.join("\n")).toMatch(/move to |current family/);
      // Another criterion: the cards and the time chart say it, no request made
      const before = requests.length;
      await checkedByClick(frame.locator('input[name="criterion"][value="1"]'));
      const switched = await readReport(frame);
      expect(switched.card).toMatch(/Sbeq$/);
      expect(switched.charts.find((chart) => chart.id === "chart-time")?.text).toContain("adp");
      await checkedByClick(frame.locator('input[name="criterion"][value="0"]'));
      // A grouping chosen once the report is shown: the table, the command that writes the same sums
      const groups = await grouped(frame, by, thenBy);
      expect(groups.headings.slice(0, 2)).toEqual([by, thenBy]);
      expect(groups.rows.length).toBeGreaterThan(0);
      // The command names its values shell-quoted: it runs as printed
      expect(groups.command).toContain(`--group-by '${by},${thenBy}'`);
      expect(requests.slice(before)).toEqual([]);
      if (SHOTS !== undefined) {
        await frame.locator("#chart-time").scrollIntoViewIfNeeded();
        await page.screenshot({ path: join(SHOTS, `${file}-${width}.png`), fullPage: false });
      }
      await page.close();
    },
    WAIT_MS,
  );
});

describe("a grouping chosen in the page", () => {
  it(
    "sums the FOCUS sample's lines by ServiceName as the command's --group-by ServiceName writes them",
    async () => {
      const { page, frame } = await reported(files.focus, 1280);
      const groups = await grouped(frame, "ServiceName", null);
      // The command's bundle, as the page's service runs it, with --group-by
      const dir = mkdtempSync(join(work, "groups-"));
      const run = spawnSync(
        process.execPath,
        [
          join(ROOT, CLI_BUNDLE),
          "evaluate",
          files.focus,
          "--edition",
          "2.5.0",
          "-o",
          join(dir, "out.csv"),
          "--group-by",
          "ServiceName",
        ],
        { encoding: "utf8" },
      );
      expect(run.status).toBe(0);
      const written = parse(readFileSync(join(dir, "out.groups.csv"), "utf8"), { columns: true }) as Record<
        string,
        string
      >[];
      const byService = new Map(written.map((row) => [row.ServiceName, row]));
      // The table: name, lines, cost, embedded, use, gwp total, kWh, intensity (its 50 largest, then the rest)
      const listed = groups.rows.filter((cells) => !/ more$/.test(cells[0].text));
      expect(listed.length).toBeGreaterThan(10);
      for (const cells of listed) {
        const row = byService.get(cells[0].text === "(none)" ? "" : cells[0].text);
        if (row === undefined) throw new Error(`${cells[0].text}: no group of the command's`);
        expect(Number(cells[1].value)).toBe(Number(row.lines));
        const total = Number(row.gwp_embedded_kgco2eq) + Number(row.gwp_use_kgco2eq);
        expect(Math.abs(Number(cells[5].value) - total)).toBeLessThanOrEqual(
          1e-9 * Math.max(1, Math.abs(total)),
        );
      }
      await page.close();
      expect(basename(files.focus)).toBe("focus-1.0-finops-sample.csv");
    },
    WAIT_MS,
  );
});
