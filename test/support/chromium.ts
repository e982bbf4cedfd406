/**
 * Headless Chromium for the page tests: Debian's `chromium` (scripts/ensure-chromium.sh), driven
 * by playwright-core, in a profile folder of the test's own, without its network chatter, asking
 * pages for reduced motion: a page that scrolls itself then moves at once, never under a click.
 * And the wait of the /evaluate page's tests for a report drawn in its frame.
 */
import { existsSync } from "node:fs";
import { type BrowserContext, chromium, type FrameLocator, type Page } from "playwright-core";
import { expect } from "vitest";

const CHROMIUM = "/usr/bin/chromium";

/** A browser context on `profile`; `downloads`: the page's downloads kept for the test to read. */
export function headlessChromium(profile: string, downloads = false): Promise<BrowserContext> {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: scripts/ensure-chromium.sh installs it (Debian's chromium)`);
  return chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    acceptDownloads: downloads,
    reducedMotion: "reduce",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
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
