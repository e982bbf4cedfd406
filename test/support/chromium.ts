/**
 * Headless Chromium for the page tests: a context of the run's one browser (test/support/
 * sharedChromium.ts, the `process` project's global set-up), driven by playwright-core, without
 * its network chatter, asking pages for reduced motion: a page that scrolls itself then moves at
 * once, never under a click. And the wait of the /evaluate page's tests for a report drawn in its
 * frame.
 */
import {
  type Browser,
  type BrowserContext,
  chromium,
  type FrameLocator,
  type Locator,
  type Page,
} from "playwright-core";
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
 * Checks a checkbox as a person does, by a click at its centre, and taps again once if the click
 * left it as it was. The mouse's press and its release are two events, and the click goes to what
 * both hit: on a loaded machine a layout moved between them (the page still placing what it drew
 * last) once took the release off the box. Any other failure, or a second miss, fails the test.
 */
export async function checkedByClick(box: Locator): Promise<void> {
  try {
    await box.check();
  } catch (error) {
    if (!String(error).includes("did not change its state")) throw error;
    await box.check();
  }
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

/** Where the page's own script (added by `evaluatedOnce`) puts the answer of its POST /v1/evaluate. */
const KEPT_ANSWER = "__evaluateAnswer";

/**
 * The /evaluate page's run (`evaluate`: its upload and wait, on `page` before its `goto`), the
 * service asked once per `key` of `answers` (the same files, edition and settings: a run is
 * deterministic under SOURCE_DATE_EPOCH). The first run of a key is the service's, read by the
 * page as it arrives; the page's XMLHttpRequest is watched for its answer, which is kept (a 200's
 * NDJSON text). At each later run of that key the page's POST is handed the kept answer
 * (playwright's interception), whole: the page reads and shows it as it did, with no run of the
 * command. Every other request reaches the service.
 */
export async function evaluatedOnce<T>(
  page: Page,
  answers: Map<string, string>,
  key: string,
  evaluate: () => Promise<T>,
): Promise<T> {
  const kept = answers.get(key);
  if (kept !== undefined) {
    await page.route(
      (address) => address.pathname === "/v1/evaluate",
      (route) =>
        route.request().method() === "POST"
          ? route.fulfill({ status: 200, contentType: "application/x-ndjson", body: kept })
          : route.continue(),
    );
    return evaluate();
  }
  await page.addInitScript((name) => {
    const send = XMLHttpRequest.prototype.send;
    XMLHttpRequest.prototype.send = function (this: XMLHttpRequest, body) {
      this.addEventListener("loadend", () => {
        if (this.status === 200 && new URL(this.responseURL).pathname === "/v1/evaluate")
          (window as unknown as Record<string, string>)[name] = this.responseText;
      });
      return send.call(this, body);
    };
  }, KEPT_ANSWER);
  const result = await evaluate();
  await page.waitForFunction(
    (name) => typeof (window as unknown as Record<string, unknown>)[name] === "string",
    KEPT_ANSWER,
  );
  answers.set(
    key,
    await page.evaluate((name) => (window as unknown as Record<string, string>)[name], KEPT_ANSWER),
  );
  return result;
}
