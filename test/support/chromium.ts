/**
 * Headless Chromium for the page tests: Debian's `chromium` (scripts/ensure-chromium.sh), driven
 * by playwright-core, in a profile folder of the test's own, without its network chatter, asking
 * pages for reduced motion: a page that scrolls itself then moves at once, never under a click.
 */
import { existsSync } from "node:fs";
import { type BrowserContext, chromium, type Page } from "playwright-core";

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
