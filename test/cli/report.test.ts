/**
 * `--report r.html`, written by the command (its function, `runMain`), in headless Chromium
 * (Debian's `chromium`, driven by playwright-core): the file alone draws its charts (no request
 * leaves the page), shows the totals with their units, ranges and meaning, the groups largest
 * first, the rows by the user's own columns, the rows that failed or carry warnings, every number
 * in one format, and says what embedded means in the edition shown. Waits are on page
 * conditions, never on a duration.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { headlessChromium, pageAt } from "../support/chromium.js";
import { runMain, runOnce } from "../support/cli.js";
import { ALLOCATING } from "../support/editions.js";
import { unreadable } from "../support/readableFigures.js";

const WAIT_MS = 120_000;
const dir = mkdtempSync(join(tmpdir(), "impact-report-"));
let browser: BrowserContext;

beforeAll(async () => {
  browser = await headlessChromium();
}, WAIT_MS);

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The example inventory with a row that fails and one whose location the edition lacks. */
function inventory(): string {
  const path = join(dir, "inventory.csv");
  writeFileSync(
    path,
    `${readFileSync("examples/inventory.csv", "utf8")}sales,Paris,cloud,1,aws,no-such-type,,,FRA,8760,,,,,,,\nsales,Lyon,laptop,3,,,,pro,France,8760,,,,,,,\n`,
  );
  return path;
}

/**
 * The report of `edition` (`more` options after its own), opened in Chromium once its three charts
 * drew: written and opened once for the tests that read it (one page, which they only read; the
 * browser closes it).
 */
const openReport = (edition: string, more: readonly string[] = []) =>
  reportPage([edition, ...more].join(" "));

const reportPage = runOnce(async (key: string) => {
  const [edition, ...more] = key.split(" ");
  const report = join(dir, `r-${edition}.html`);
  const { code } = await runMain([
    "evaluate",
    inventory(),
    "--edition",
    edition,
    "--group-by",
    "team",
    "--report",
    report,
    "-o",
    join(dir, `r-${edition}.csv`),
    ...more,
  ]);
  expect(code).toBe(0);
  // Its charts: the largest contributors, the groups, the page's own grouping, embedded against use.
  return openPage(report, "wanted");
});

/** A report opened in Chromium once its `charts` charts drew: requests leaving the page and errors noted. */
async function openPage(report: string, charts: number | "wanted", viewport = { width: 1200, height: 900 }) {
  const page = await pageAt(browser, viewport.width, viewport.height);
  const elsewhere: string[] = [];
  page.on("request", (request) => {
    if (!request.url().startsWith("file:")) elsewhere.push(request.url());
  });
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(`file://${report}`);
  // A number of charts, or as many as the page says it draws (a bill's: document.body.dataset.wanted)
  await page.waitForFunction(
    (count) =>
      document.body.dataset.charts === (count === "wanted" ? document.body.dataset.wanted : String(count)),
    charts,
    { timeout: WAIT_MS },
  );
  return { page, elsewhere, errors };
}

/** A number as the page writes it: thousands separated, at most 4 significant digits. */
const FIGURE = /^-?\d{1,3}(,\d{3})*(\.\d+)?$/;
/** Significant digits of a figure (an integer's trailing zeros are not: `21,860` has 4). */
const significant = (figure: string) =>
  (figure.includes(".") ? figure : figure.replace(/0+$/, "")).replace(/[-,.]/g, "").replace(/^0+/, "").length;

describe("the HTML report", () => {
  it(
    "draws its charts in Chromium from the file alone, with totals, groups, failed and warned rows",
    async () => {
      const { page, elsewhere, errors } = await openReport("1.2.4");
      const drawn = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>(".chart")].map((chart) => ({
          id: chart.id,
          bars: chart.querySelectorAll("svg path").length,
          text: chart.textContent ?? "",
        })),
      );
      // Where the impact comes from first (contributors, groups), then the share of each phase.
      expect(drawn.map((chart) => chart.id)).toEqual([
        "chart-contributors",
        "chart-groups",
        "chart-explorer",
        "chart-phases",
      ]);
      for (const chart of drawn) expect(chart.bars).toBeGreaterThan(5);
      expect(elsewhere).toEqual([]);
      expect(errors).toEqual([]);

      const text = await page.evaluate(() => document.body.innerText);
      expect(text).toContain("21 rows");
      expect(text).toContain("bad row: 404 no-such-type at aws not found");
      expect(text).toContain('usage_location "France" is not a location of edition 1.2.4');
    },
    WAIT_MS,
  );

  it(
    "reads like a report: one number format, rows by the user's columns, groups largest first, criteria explained",
    async () => {
      const { page } = await openReport("1.2.4");
      const read = await page.evaluate(() => ({
        cards: [...document.querySelectorAll(".card b")].map((cell) => cell.textContent ?? ""),
        // A figure too small for its column's scale is written in its own, its unit beside it (`own`)
        cells: [...document.querySelectorAll("td.n")].map((cell) =>
          cell.classList.contains("own") ? (cell.textContent ?? "").split(" ")[0] : (cell.textContent ?? ""),
        ),
        axes: [...document.querySelectorAll("#chart-contributors text, #chart-groups text")].map(
          (label) => label.textContent ?? "",
        ),
        totals: [...document.querySelectorAll("table")][0].innerText,
        groups: [...document.querySelectorAll("table")][1].innerText,
      }));
      // Cards, tables (ranges split at their dash) and chart axes: one format.
      // A card's figure carries its unit (`26.61 tCO2eq`): the figure is before it.
      const figures = [
        ...read.cards.map((card) => card.split(" ")[0]),
        ...read.cells.flatMap((cell) => cell.split(" – ")),
        ...read.axes.filter((label) => /^[\d,.]+$/.test(label)),
      ];
      expect(figures.length).toBeGreaterThan(40);
      for (const figure of figures) {
        expect(figure).toMatch(FIGURE);
        expect(significant(figure)).toBeLessThanOrEqual(4);
      }
      // The headline is the output's column summed, in that format.
      const [names, ...lines] = readFileSync(join(dir, "r-1.2.4.csv"), "utf8").trim().split("\n");
      const at = names.split(",").indexOf("gwp_embedded_kgco2eq");
      const sum = lines.reduce((total, line) => total + Number(line.split(",")[at] || 0), 0);
      // 1.2.4's example inventory: over a tonne, written in tonnes.
      expect(sum).toBeGreaterThan(1000);
      expect(read.cards).toContain(
        `${(sum / 1000).toLocaleString("en-US", { maximumSignificantDigits: 4 })} tCO2eq`,
      );
      // The user's own columns name a row, not its line.
      const contributors = read.axes.join("\n");
      expect(contributors).toContain("sales · Paris · laptop pro");
      expect(contributors).not.toMatch(/line \d+/);
      // Groups by their gwp (embedded + use), largest first.
      const sums = read.groups
        .split("\n")
        .slice(1)
        .map((line) => line.split("\t"))
        .map(
          (cells) =>
            [cells[0], Number(cells[3].replaceAll(",", "")) + Number(cells[4].replaceAll(",", ""))] as const,
        );
      expect(sums.map(([team]) => team)).toEqual(["sales", "platform", "data"]);
      expect([...sums].sort((a, b) => b[1] - a[1])).toEqual(sums);
      // Each criterion in a line: its own description.
      expect(read.totals).toContain("Total climate change");
      expect(read.totals).toContain("Use of minerals and fossil ressources");
      expect(read.totals).toContain("Consumption of primary energy");
    },
    WAIT_MS,
  );

  it(
    "says what embedded is in the edition it shows: terminals whole in 1.2.4 (their rows warned), all allocated in 2.4.1",
    async () => {
      const texts: Record<string, string> = {};
      for (const edition of ["1.2.4", "2.4.1"]) {
        // 2.4.1 with a PEF criterion: its meaning says so.
        const { page } = await openReport(edition, edition === "2.4.1" ? ["--criteria", "gwp,ir"] : []);
        texts[edition] = await page.evaluate(() => document.body.innerText);
      }
      expect(texts["1.2.4"]).toContain(
        `for terminals and peripherals, edition 1.2.4 counts the whole manufacturing impact whatever the hours; editions ${ALLOCATING} allocate it over the lifetime`,
      );
      expect(texts["1.2.4"]).toContain(
        "embedded not allocated: edition 1.2.4 counts the whole manufacturing impact of each laptop whatever the hours (8760 h here)",
      );
      expect(texts["2.4.1"]).toContain(
        "Embedded is each asset's manufacturing impact allocated over the hours evaluated (their share of its lifetime).",
      );
      expect(texts["2.4.1"]).not.toContain("embedded not allocated");
      expect(texts["2.4.1"]).toContain("Emissions of radionizing substances (PEF)");
    },
    WAIT_MS,
  );

  it(
    "with a grid series, draws the gwp use by hour of day and by month",
    async () => {
      const series = join(dir, "grid.csv");
      const hours = Array.from({ length: 48 }, (_, h) => {
        const start = new Date(Date.UTC(2024, 0, 31) + h * 3_600_000).toISOString();
        return `FR,${start},${40 + 2 * (h % 24)}`;
      });
      writeFileSync(series, `zone,start,gco2_per_kwh\n${hours.join("\n")}\n`);
      const rows = join(dir, "grid-inventory.csv");
      writeFileSync(
        rows,
        "team,kind,usage_location,period_start,period_end\nsales,server,FRA,2024-01-31,2024-02-02\ndata,server,DEU,2024-01-31,2024-02-02\n",
      );
      const report = join(dir, "r-grid.html");
      const run = ["evaluate", rows, "--edition", "2.4.1", "--grid-intensity", series, "--report", report];
      expect((await runMain([...run, "-o", join(dir, "r-grid.csv")])).code).toBe(0);
      // The rows over time, the largest contributors, the page's grouping, embedded against use, use
      // by hour of day and by month.
      const { page, elsewhere, errors } = await openPage(report, "wanted");
      const charts = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>(".chart")].map((chart) => ({
          id: chart.id,
          labels: [...chart.querySelectorAll("text")].map((label) => label.textContent ?? ""),
        })),
      );
      expect(charts.map((chart) => chart.id)).toEqual([
        "chart-time",
        "chart-contributors",
        "chart-explorer",
        "chart-phases",
        "chart-grid-hours",
        "chart-grid-months",
      ]);
      const [, , , , byHour, byMonth] = charts.map((chart) => chart.labels);
      expect(byHour).toContain("hour of day (UTC)");
      expect(byHour).toContain("12:00");
      expect(byMonth).toEqual(expect.arrayContaining(["month", "2024-01", "2024-02"]));
      expect(await page.evaluate(() => document.body.innerText)).toContain("1 of 2 rows (50 %), zone FRA");
      expect(elsewhere).toEqual([]);
      expect(errors).toEqual([]);
      await page.close();
    },
    WAIT_MS,
  );
});
/** Pairs of text labels of `chart` whose boxes intersect (labels that overlap on screen). */
async function overlappingLabels(page: import("playwright-core").Page, chart: string): Promise<string[]> {
  return page.evaluate((id) => {
    const boxes = [...document.querySelectorAll(`#${id} text`)]
      .map((label) => ({ text: label.textContent ?? "", box: label.getBoundingClientRect() }))
      .filter(({ text, box }) => text.trim() !== "" && box.width > 0);
    const found: string[] = [];
    boxes.forEach((a, i) => {
      for (const b of boxes.slice(i + 1)) {
        const apart =
          a.box.right <= b.box.left + 0.5 ||
          b.box.right <= a.box.left + 0.5 ||
          a.box.bottom <= b.box.top + 0.5 ||
          b.box.bottom <= a.box.top + 0.5;
        if (!apart) found.push(`${a.text} / ${b.text}`);
      }
    });
    return found;
  }, chart);
}

describe("the inventory report at a phone's width", () => {
  it(
    "opens on the total and the largest contributors, never scrolls sideways, no chart label over another",
    async () => {
      const report = join(dir, "r-phone.html");
      const run = ["evaluate", inventory(), "--edition", "2.4.1", "--group-by", "team", "--report", report];
      expect((await runMain([...run, "-o", join(dir, "r-phone.csv")])).code).toBe(0);
      for (const width of [1366, 390]) {
        const { page, errors } = await openPage(report, "wanted", {
          width,
          height: width === 390 ? 844 : 900,
        });
        const read = await page.evaluate(() => ({
          scroll: document.scrollingElement?.scrollWidth ?? 0,
          total:
            document.querySelector(".card.total")?.getBoundingClientRect().bottom ?? Number.POSITIVE_INFINITY,
          contributors: document.getElementById("chart-contributors")?.getBoundingClientRect().top ?? 0,
          card: (document.querySelector(".card.total b") as HTMLElement | null)?.innerText ?? "",
        }));
        expect(read.scroll).toBeLessThanOrEqual(width);
        expect(read.total).toBeLessThan(width === 390 ? 844 : 900);
        // Where from: the contributors right after the cards (on the first screen of a desktop).
        if (width === 1366) expect(read.contributors).toBeLessThan(900);
        expect(read.card).toMatch(/^[\d,.]+ (t|kg|g|mg)CO2eq$/);
        for (const chart of ["chart-contributors", "chart-groups", "chart-phases"]) {
          expect(await overlappingLabels(page, chart), `${chart} at ${width} px`).toEqual([]);
        }
        expect(errors).toEqual([]);
        await page.close();
      }
    },
    WAIT_MS,
  );
});

describe("the bill's report", () => {
  it(
    "answers how much and where from on its first screen, in the bill's currency, accounts by name, at 1366 and 390 px",
    async () => {
      const report = join(dir, "bill.html");
      const lines = join(dir, "bill.csv");
      const run = [
        "evaluate",
        "test/fixtures/billing/focus-whole-bill.csv",
        "--edition",
        "2.4.1",
        "--criteria",
        "gwp",
      ];
      expect((await runMain([...run, "-o", lines, "--report", report])).code).toBe(0);
      // The total is the output's gwp columns summed (98.44 kg: README, "A cloud bill").
      const [names, ...rows] = readFileSync(lines, "utf8").trim().split("\n");
      const header = names.split(",");
      const column = (name: string) => header.indexOf(name);
      const sum = rows
        .map((row) => row.split(","))
        .filter((cells) => cells.length === header.length)
        .reduce(
          (total, cells) =>
            total +
            Number(cells[column("gwp_embedded_kgco2eq")] || 0) +
            Number(cells[column("gwp_use_kgco2eq")] || 0),
          0,
        );
      const expected = `${sum.toLocaleString("en-US", { maximumSignificantDigits: 4 })} kgCO2eq`;
      for (const width of [1366, 390]) {
        const { page, errors } = await openPage(report, "wanted", {
          width,
          height: width === 390 ? 844 : 900,
        });
        const firstScreen = await page.evaluate(() =>
          [...document.querySelectorAll("h2, .card, td")]
            .filter((element) => element.getBoundingClientRect().top < window.innerHeight)
            .map((element) => (element as HTMLElement).innerText)
            .join("\n"),
        );
        expect(firstScreen).toContain(expected);
        expect(firstScreen).toContain("Largest services");
        if (width === 1366) {
          expect(firstScreen).toContain("Largest regions");
          expect(firstScreen).toContain("Compute Engine");
        }
        const text = await page.evaluate(() => document.body.innerText);
        // Whole units from 1,000 up (1,186.57 of 1,236.97 USD), exact on hover
        expect(text).toContain("of the positive cost estimated (1,187 of 1,237 USD)");
        expect(text).toContain("cost (USD)");
        expect(text).toContain("Every cost below, its totals and shares: amortised cost, as EffectiveCost");
        // SubAccountName over SubAccountId; ResourceName over the resource's path.
        expect(text).toContain("team-od");
        expect(text).not.toContain("shop-prod");
        expect(text).toContain("vm-1");
        expect(text).not.toContain("/subscriptions/sub-1/resourceGroups");
        // Small values scaled: no figure with more than one zero after the decimal mark, nor more
        // than four significant figures (counts of lines apart: they are exact).
        expect(text).not.toMatch(/\b0\.00\d/);
        expect(unreadable(text)).toEqual([]);
        expect(await page.evaluate(() => document.scrollingElement?.scrollWidth)).toBeLessThanOrEqual(width);
        for (const chart of ["chart-service", "chart-region", "chart-account", "chart-method"]) {
          expect(await overlappingLabels(page, chart), `${chart} at ${width} px`).toEqual([]);
        }
        expect(errors).toEqual([]);
        await page.close();
      }
    },
    WAIT_MS,
  );

  it(
    "names a service by its code where the bill gives no product name (a CUR 2.0 without the product map)",
    async () => {
      const report = join(dir, "cur-codes.html");
      const run = ["evaluate", "test/fixtures/billing/cur-whole-bill.csv", "--edition", "2.4.1"];
      expect((await runMain([...run, "-o", join(dir, "cur-codes.csv"), "--report", report])).code).toBe(0);
      const html = readFileSync(report, "utf8");
      const services = html.slice(
        html.indexOf("Largest services</h2>"),
        html.indexOf("Largest regions</h2>"),
      );
      // A name's parts are spans of their own (a line never breaks inside one)
      const names = [...services.matchAll(/<td class="name"[^>]*>(.*?)<\/td>/g)].map((match) =>
        match[1].replaceAll(/<[^>]*>/g, ""),
      );
      // The fixture's line_item_product_code, largest gwp first.
      expect(names.slice(0, 3)).toEqual(["AmazonEC2", "AmazonEKS", "AWSELB"]);
      expect(names).not.toContain("(none)");
    },
    WAIT_MS,
  );

  it(
    "bounds a grid report by its rows and intervals: periods over years 1000–9999 are summed by century",
    async () => {
      const rows = join(dir, "centuries.csv");
      const body = Array.from(
        { length: 50 },
        (_, i) => `server,FRA,${1000 + i}-01-01T00:00:00Z,9999-01-01T00:00:00Z`,
      );
      writeFileSync(rows, `kind,usage_location,period_start,period_end\n${body.join("\n")}\n`);
      const series = join(dir, "centuries-grid.csv");
      writeFileSync(
        series,
        "zone,start,gco2_per_kwh\nFR,2024-01-01T00:00:00Z,40\nFR,2024-01-01T01:00:00Z,50\n",
      );
      const report = join(dir, "r-centuries.html");
      const run = ["evaluate", rows, "--edition", "2.4.1", "--criteria", "gwp", "--grid-intensity", series];
      expect((await runMain([...run, "-o", join(dir, "centuries-out.csv"), "--report", report])).code).toBe(
        0,
      );
      const html = readFileSync(report, "utf8");
      const data = JSON.parse(html.split('id="report-data">')[1].split("</script>")[0]);
      const axis = data.grid.timeAxis as string;
      const bars = data.grid.byMonth as [string, number][];
      expect(axis).toBe("century");
      expect(bars.map(([label]) => label).slice(0, 2)).toEqual(["1000–1099", "1100–1199"]);
      expect(bars.at(-1)?.[0]).toBe("9900–9999");
      // Every row's use is in the bars: their sum is the hours' sum.
      const byHour = data.grid.byHour as number[];
      const total = (values: number[]) => values.reduce((a, b) => a + b, 0);
      const relative = Math.abs(total(bars.map(([, kg]) => kg)) / total(byHour) - 1);
      expect(relative).toBeLessThan(1e-12);
      // The page holds its bars, not the 107,976 months of the span.
      expect(html.length).toBeLessThan(1_000_000);
    },
    WAIT_MS,
  );
});
