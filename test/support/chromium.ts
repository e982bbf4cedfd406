/**
 * Headless Chromium for the page tests: Debian's `chromium` (scripts/ensure-chromium.sh), driven
 * by playwright-core, in a profile folder of the test's own, without its network chatter, asking
 * pages for reduced motion: a page that scrolls itself then moves at once, never under a click.
 */
import { type BrowserContext, chromium } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";

/** A browser context on `profile`; `downloads`: the page's downloads kept for the test to read. */
export function headlessChromium(profile: string, downloads = false): Promise<BrowserContext> {
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
