/**
 * Issue 96's bill parts and issue 95's limits on the /evaluate page of the service as `npm start`
 * runs it, in headless Chromium (Debian's `chromium`, playwright-core):
 * - three Parquet months named so that their names' order is not the months' (April, June, May)
 *   chosen together: packed by the page as one ZIP in month order, read by the command as one
 *   bill's parts, the months side by side; at 390, 768 and 1280 px with no sideways scroll (with
 *   PAGE_SCREENSHOTS set, each width's screenshot written there: docs/evaluate-page*.png);
 * - one progress bar per run, its values (and the status line's figure) never going back, 0 to 1;
 * - a ZIP archive of the months dropped alone; one past the page's parts refused, naming the bound;
 * - more files than the page reads: refused in the page with a command line, which runs as shown;
 * - a file with a header and no line: said so, not "Done" with a report of zeros;
 * - "Try a change" at its largest (MAX_TRIED_ROWS rows, each usage and change a different
 *   instance, every setting moved) sent to the service and answered, within its GraphQL limits.
 * Every wait is on a page condition or an answer's end, never a duration.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DuckDBInstance } from "@duckdb/node-api";
import { parse, visit } from "graphql";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GRAPHQL_LIMITS } from "../../src/app/main.js";
import { MAX_TRIED_ROWS, TRY_FLEET_QUERY, TRY_REGIONS_QUERY } from "../../src/http/site/whatIfPanel.js";
import { MAX_BILL_PARTS } from "../../src/service/fileEvaluation.js";
import { NO_LINES } from "../../src/support/namedFiles.js";
import { CLI_BUNDLE } from "../support/bundle.js";
import { evaluatedReport, headlessChromium, pageAt } from "../support/chromium.js";
import { portOf, startService } from "../support/process.js";
import { zipFileIn } from "../support/zipFiles.js";

const WAIT_MS = 240_000;
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const MONTHS = [
  ["2026-04", "April"],
  ["2026-05", "May"],
  ["2026-06", "June"],
] as const;
const WIDTHS = [390, 768, 1280] as const;
const SHOTS = process.env.PAGE_SCREENSHOTS;

let service: ReturnType<typeof startService>;
let url = "";
let browser: BrowserContext;
const work = mkdtempSync(join(tmpdir(), "evaluate-parts-"));
const parts = join(work, "parts");
/** The three months as Parquet, named by their months' names. */
const parquetMonths = MONTHS.map(([, name]) => join(parts, `${name}.parquet`));

beforeAll(async () => {
  mkdirSync(parts);
  const db = await DuckDBInstance.create(":memory:");
  const connection = await db.connect();
  for (const [month, name] of MONTHS) {
    const csv = join(ROOT, "test/fixtures/billing/months", `cur-${month}.csv`);
    await connection.run(
      `COPY (SELECT * FROM read_csv('${csv}', all_varchar = true)) TO '${join(parts, `${name}.parquet`)}' (FORMAT parquet)`,
    );
  }
  connection.closeSync();
  service = startService({ TMPDIR: work, SOURCE_DATE_EPOCH: "1767225600" });
  const [listening] = await service.waitFor(/^listening on /);
  url = `http://127.0.0.1:${portOf(listening)}`;
  if (SHOTS !== undefined) mkdirSync(SHOTS, { recursive: true });
  browser = await headlessChromium();
}, WAIT_MS);

afterAll(async () => {
  await browser?.close();
  service?.killAll();
  rmSync(work, { recursive: true, force: true });
});

/** The page, its progress bar's values and the status line's figures recorded as they are set. */
async function recordedPage(width: number): Promise<Page> {
  const page = await pageAt(browser, width);
  await page.addInitScript(() => {
    const recorded = window as unknown as { shares: number[]; said: number[] };
    recorded.shares = [];
    recorded.said = [];
    document.addEventListener("DOMContentLoaded", () => {
      // Every value set, several set in one task included (a quick run's events arrive together):
      // the value a change set is the next change's old value, the last one's the bar's own
      const bar = document.getElementById("progress") as HTMLProgressElement;
      new MutationObserver((records) => {
        records.forEach((_, index) => {
          const next = records[index + 1];
          recorded.shares.push(next === undefined ? bar.value : Number(next.oldValue));
        });
      }).observe(bar, { attributes: true, attributeFilter: ["value"], attributeOldValue: true });
      const status = document.getElementById("status") as HTMLElement;
      const sayFigure = (text: string | null) => {
        const figure = /^(\d+) % · /.exec(text ?? "");
        if (figure !== null) recorded.said.push(Number(figure[1]));
      };
      new MutationObserver((records) => {
        for (const record of records) {
          if (record.type === "characterData") sayFigure(record.target.textContent);
          for (const node of record.addedNodes) sayFigure(node.textContent);
        }
      }).observe(status, { childList: true, characterData: true, subtree: true });
    });
  });
  await page.goto(`${url}/evaluate`);
  return page;
}

const recorded = (page: Page) =>
  page.evaluate(() => {
    const { shares, said } = window as unknown as { shares: number[]; said: number[] };
    return { shares, said };
  });

/** Never going back: each value at least the one before. */
function expectMonotonic(values: readonly number[], what: string) {
  for (let at = 1; at < values.length; at++) {
    expect(values[at], `${what}: ${values.slice(0, at + 1).join(", ")}`).toBeGreaterThanOrEqual(
      values[at - 1],
    );
  }
}

/** Sideways scroll of the page (px past the width; 0 or less: none). */
const sideways = (page: Page) =>
  page.evaluate(() => (document.scrollingElement?.scrollWidth ?? 0) - window.innerWidth);

describe.each(WIDTHS)("three Parquet months chosen together at %i px", (width) => {
  it(
    "are read as one bill's parts in month order, months side by side, one bar from 0 to 100 %",
    async () => {
      const page = await recordedPage(width);
      await page.setInputFiles("#file", parquetMonths);
      expect(await page.textContent("#chosen")).toContain(
        "3 files (April.parquet, May.parquet, June.parquet;",
      );
      await evaluatedReport(page, WAIT_MS);
      const summary = String(await page.textContent("#summary"));
      // Packed in month order (the names' order is April, June, May): numbered so
      expect(summary).toContain("its file 01-April.parquet");
      expect(summary).toContain("its file 02-May.parquet");
      expect(summary).toContain("its file 03-June.parquet");
      for (const [month] of MONTHS)
        expect(summary).toMatch(new RegExp(`\\n  ${month}: \\d+ of \\d+ lines estimated`));
      // One bar for the run: from 0, never back, to 1; the status line's figure alike
      const { shares, said } = await recorded(page);
      expect(shares[0]).toBe(0);
      expect(shares.at(-1)).toBe(1);
      expect(shares.some((share) => share > 0.2 && share < 0.9)).toBe(true);
      expectMonotonic(shares, "the bar");
      expect(said.length).toBeGreaterThan(2);
      expectMonotonic(said, "the status line");
      expect(await sideways(page)).toBeLessThanOrEqual(0);
      const frameSideways = await page
        .frameLocator("#report")
        .locator("body")
        .evaluate(() => (document.scrollingElement?.scrollWidth ?? 0) - window.innerWidth);
      expect(frameSideways).toBeLessThanOrEqual(0);
      if (SHOTS !== undefined) {
        await page.screenshot({ path: join(SHOTS, `evaluate-page-${width}.png`) });
        await page.frameLocator("#report").locator("#months").scrollIntoViewIfNeeded();
        await page.screenshot({ path: join(SHOTS, `evaluate-months-${width}.png`) });
      }
      await page.close();
    },
    WAIT_MS,
  );
});

describe("a bill's parts on the /evaluate page", () => {
  it(
    "reads a ZIP archive of the months dropped alone as one bill",
    async () => {
      const zip = await zipFileIn(
        work,
        "months.zip",
        Object.fromEntries(parquetMonths.map((file, at) => [`${MONTHS[at][0]}.parquet`, readFileSync(file)])),
      );
      const page = await recordedPage(1280);
      await page.setInputFiles("#file", zip);
      await evaluatedReport(page, WAIT_MS);
      const summary = String(await page.textContent("#summary"));
      expect(summary).toContain("months.zip: a ZIP archive; its file 2026-04.parquet");
      for (const [month] of MONTHS) expect(summary).toContain(`\n  ${month}: `);
      await page.close();
    },
    WAIT_MS,
  );

  it(
    "refuses an archive of more parts than the page reads, naming the bound, before any run",
    async () => {
      const entries: Record<string, Buffer> = {};
      for (let at = 0; at <= MAX_BILL_PARTS; at++)
        entries[`part-${at}.parquet`] = readFileSync(parquetMonths[0]);
      const zip = await zipFileIn(work, "many.zip", entries);
      const answer = await fetch(`${url}/v1/evaluate?name=many.zip`, {
        method: "POST",
        body: readFileSync(zip),
      });
      expect(answer.status).toBe(413);
      expect(await answer.json()).toEqual({
        detail: `the ZIP archive holds ${MAX_BILL_PARTS + 1} files; the page reads ${MAX_BILL_PARTS} files of one bill at most (the page's bound)`,
      });
    },
    WAIT_MS,
  );

  it(
    "past its parts, suggests a command line that runs as shown: the files in month order, quoted",
    async () => {
      // More files than the page reads, named as people name them (spaces, a quote)
      const folder = mkdtempSync(join(work, "many-"));
      const names: string[] = [];
      for (let at = 0; at <= MAX_BILL_PARTS; at++) {
        const name = `bill's part ${at + 1}.parquet`;
        copyFileSync(parquetMonths[at % 3], join(folder, name));
        names.push(name);
      }
      const page = await recordedPage(1280);
      await page.setInputFiles(
        "#file",
        [...names].reverse().map((name) => join(folder, name)),
      );
      await page.getByRole("button", { name: "Evaluate" }).click();
      await page.waitForSelector("#instead:not([hidden])");
      expect(await page.textContent("#status")).toBe(
        `Refused: ${MAX_BILL_PARTS + 1} files: the page reads ${MAX_BILL_PARTS} files of one bill at most (the page's bound); the command line reads more`,
      );
      const command = String(await page.textContent("#instead-command"));
      expect(command).toMatch(
        /^npx impact-service evaluate 'bill'\\''s part 1\.parquet' 'bill'\\''s part 2\.parquet' /,
      );
      // Run as shown, by a shell, the command's bundle in npx's place
      const run = spawnSync(
        "sh",
        ["-c", command.replace(/^npx impact-service /, `"${process.execPath}" "${join(ROOT, CLI_BUNDLE)}" `)],
        { cwd: folder, encoding: "utf8" },
      );
      expect(run.status, run.stderr).toBe(0);
      expect(run.stderr).toContain(`billing export bill's part 1.parquet (and ${MAX_BILL_PARTS} more parts)`);
      expect(readFileSync(join(folder, "bill's part 1-report.html"), "utf8")).toContain("<html");
      await page.close();
    },
    WAIT_MS,
  );

  it(
    "says a file with a header and no line has none: no report of zeros",
    async () => {
      const header = readFileSync(join(ROOT, "test/fixtures/billing/months/cur-2026-04.csv"), "utf8").split(
        "\n",
      )[0];
      const file = join(work, "no-lines.csv");
      writeFileSync(file, `${header}\n`);
      const page = await recordedPage(390);
      await page.setInputFiles("#file", file);
      await page.getByRole("button", { name: "Evaluate" }).click();
      await page.waitForFunction(
        () => /^Refused/.test(document.getElementById("status")?.textContent ?? ""),
        null,
        {
          timeout: WAIT_MS,
        },
      );
      // The command's own line, naming the file
      expect(await page.textContent("#status")).toMatch(/^Refused: .*no-lines\.csv/);
      expect(await page.textContent("#status")).toContain(NO_LINES);
      expect(await page.isHidden("#results")).toBe(true);
      await page.close();
      // An inventory's header alone, as the service answers it
      const answer = await fetch(`${url}/v1/evaluate?name=inventory.csv`, {
        method: "POST",
        body: "kind,provider,instance_type\n",
      });
      const events = (await answer.text())
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { event: string; message?: string });
      expect(events.at(-1)).toEqual({ event: "refused", message: NO_LINES });
    },
    WAIT_MS,
  );
});

/** What the tests read of an instance's hour. */
interface Hour {
  readonly impacts: unknown;
}

/** What the tests read of the GraphQL answers they ask. */
interface Answered {
  readonly cloudInstanceTypes: string[];
  readonly cloudRegions: { region: string }[];
  readonly cloudInstances: { items: Hour[] };
  readonly cloudInstance: Hour;
}

/** A request the page sent to /graphql. */
interface Sent {
  readonly query: string;
  readonly variables: { inputs?: { instanceType: string; usage?: unknown }[] };
}

/** A GraphQL request to the service. */
async function graphql(query: string, variables: Record<string, unknown> = {}) {
  const answer = await fetch(`${url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await answer.json()) as { data: Answered; errors?: unknown[] };
  return { status: answer.status, body };
}

describe("the page's GraphQL requests at their largest", () => {
  it("are one operation each with no alias, within every GraphQL limit", () => {
    for (const query of [TRY_FLEET_QUERY, TRY_REGIONS_QUERY]) {
      let aliases = 0;
      let depth = 0;
      let deepest = 0;
      visit(parse(query), {
        Field: {
          enter(field) {
            if (field.alias !== undefined) aliases += 1;
            depth += 1;
            deepest = Math.max(deepest, depth);
          },
          leave() {
            depth -= 1;
          },
        },
      });
      expect(aliases).toBe(0);
      expect(deepest).toBeLessThanOrEqual(GRAPHQL_LIMITS.maxDepth);
    }
  });

  it(
    "Try a change at its bound: every row a different instance, every setting moved, answered",
    async () => {
      const edition = "2.5.0";
      const types = (await graphql(`{ cloudInstanceTypes(edition: "${edition}", provider: "aws") }`)).body
        .data.cloudInstanceTypes;
      const regions = (await graphql(`{ cloudRegions(edition: "${edition}", provider: "aws") { region } }`))
        .body.data.cloudRegions;
      const changes = ["region", "family", "size"] as const;
      // Each row's usage and change a different instance at a different place: 2 × MAX_TRIED_ROWS items
      const rows = Array.from({ length: MAX_TRIED_ROWS }, (_, at) => ({
        provider: "aws",
        instanceType: types[at * 7],
        toInstanceType: types[at * 7 + 3],
        change: changes[at % 3],
        place: regions[at % regions.length].region,
        toPlace: regions[(at + 1) % regions.length].region,
        hours: 100 + at,
        from: { region: regions[at % regions.length].region },
        to: { region: regions[(at + 1) % regions.length].region },
        price: 1,
        toPrice: 0.5,
        gwp: 1,
        toGwp: 0.5,
      }));
      const page = await pageAt(browser, 1280);
      const sent: string[] = [];
      page.on("request", (request) => {
        if (request.url().endsWith("/graphql")) sent.push(request.postData() ?? "");
      });
      await page.goto(`${url}/evaluate`);
      // As the report's frame tells it once the report is shown (the panel is under it)
      await page.evaluate(
        ([told]) => {
          (document.getElementById("results") as HTMLElement).hidden = false;
          (window as unknown as { showWhatIf: (told: unknown) => void }).showWhatIf(told);
        },
        [{ edition, currency: "USD", load: null, rows }] as const,
      );
      await page.locator("#try summary").click();
      await page.waitForFunction(() => document.querySelectorAll("#try-region option").length > 1);
      await page.locator("#try-load").fill("80");
      await page.locator("#try-lifetime").fill("6");
      await page.locator("#try-region").selectOption({ index: 2 });
      await page.waitForFunction(
        () =>
          /"hoursLifeTime":52560/.test(document.getElementById("try-request")?.textContent ?? "") &&
          /^(Recomputed|The service refused)/.test(document.getElementById("try-status")?.textContent ?? ""),
      );
      expect(await page.textContent("#try-status")).toBe("Recomputed by the service for these settings.");
      expect(await page.locator("#try-table tbody tr").count()).toBe(MAX_TRIED_ROWS);
      // The largest request sent: the fleet of every row's two instances, sent again as is
      const bodies = sent.map((body) => JSON.parse(body) as Sent);
      const largest = bodies.find((body) => body.variables.inputs?.length === 2 * MAX_TRIED_ROWS) as Sent;
      expect(largest.query).toBe(TRY_FLEET_QUERY);
      const again = await graphql(largest.query, largest.variables);
      expect(again.status).toBe(200);
      expect(again.body.errors).toBeUndefined();
      expect(again.body.data.cloudInstances.items).toHaveLength(2 * MAX_TRIED_ROWS);
      // Each item the single field's figure (what the report's own requests ask)
      const [first] = largest.variables.inputs ?? [];
      const single = await graphql(
        `query ($edition: Edition, $type: String, $usage: UsageInput) { cloudInstance(edition: $edition, provider: "aws", instanceType: $type, usage: $usage) { impacts(criteria: [gwp], duration: 1) { embedded { ... on Impact { unrounded { value } } } use { ... on Impact { unrounded { value } } } } } }`,
        { edition, type: first.instanceType, usage: first.usage },
      );
      expect(again.body.data.cloudInstances.items[0].impacts).toEqual(single.body.data.cloudInstance.impacts);
      // The regions: every provider's in one field
      expect(bodies.filter((body) => body.query === TRY_REGIONS_QUERY)).toHaveLength(1);
      await page.close();
    },
    WAIT_MS,
  );
});
