/**
 * Headless Chromium for the page tests: a context of the run's one browser (test/support/
 * sharedChromium.ts, the `process` project's global set-up), driven by playwright-core, without
 * its network chatter, asking pages for reduced motion: a page that scrolls itself then moves at
 * once, never under a click. And the wait of the /evaluate page's tests for a report drawn in its
 * frame.
 */
import { type Browser, type BrowserContext, chromium, type FrameLocator, type Page } from "playwright-core";
import { expect, inject } from "vitest";
import { CHROMIUM } from "./sharedChromium.js";

/** This test process's connection to the run's browser, opened at its first context. */
let connection: Promise<Browser> | undefined;

/**
 * A context of its own in the run's browser (cookies, storage, viewport: as a browser of its own);
 * `downloads`: the page's downloads kept for the test to read (`download.createReadStream()`: over
 * the connection, a download has no path of this process). Closing it leaves the browser to the
 * other files.
 */
export async function headlessChromium(downloads = false): Promise<BrowserContext> {
  const endpoint = inject("chromiumEndpoint");
  if (endpoint === "")
    throw new Error(`${CHROMIUM} is missing: scripts/ensure-chromium.sh installs it (Debian's chromium)`);
  connection ??= chromium.connect(endpoint);
  const browser = await connection;
  return browser.newContext({ acceptDownloads: downloads, reducedMotion: "reduce" });
}

/** A new page of `browser`, `width` × `height` px. */
export async function pageAt(browser: BrowserContext, width: number, height = 900): Promise<Page> {
  const page = await browser.newPage();
  await page.setViewportSize({ width, height });
  return page;
}

/**
 * Clicks the /evaluate page's "Evaluate" and waits, `waitMs` at the most each, for the run to be
 * done and its report drawn: the frame `#report` has told its height (the page has placed it, at
 * once with motion reduced: nothing moves under a click) and has drawn every chart it wants.
 */
export async function evaluatedReport(page: Page, waitMs: number): Promise<FrameLocator> {
  await page.getByRole("button", { name: "Evaluate" }).click();
  await page.waitForFunction(() => /^Done/.test(document.getElementById("status")?.textContent ?? ""), null, {
    timeout: waitMs,
  });
  await page.waitForFunction(() => document.getElementById("report")?.style.height !== "", null, {
    timeout: waitMs,
  });
  const frame = page.frameLocator("#report");
  await expect
    .poll(() => frame.locator("body").evaluate((body) => body.dataset.charts === body.dataset.wanted), {
      timeout: waitMs,
    })
    .toBe(true);
  return frame;
}
