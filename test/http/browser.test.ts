/**
 * GraphiQL and /docs in headless Chromium (Debian's `chromium`, driven by playwright-core; no
 * browser download): both load with no request to another host, GraphiQL runs its default query
 * and shows the data. Every wait is on a selector or a page condition, never on a duration.
 */
import type { BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { headlessChromium } from "../support/chromium.js";
import { startTestServer, type TestServer } from "../support/httpServer.js";

/** Generous: the machine may be loaded; the waits end as soon as their condition holds. */
const WAIT_MS = 120_000;

let server: TestServer;
let browser: BrowserContext;

beforeAll(async () => {
  server = await startTestServer({ LOG_LEVEL: "silent" });
  browser = await headlessChromium();
}, WAIT_MS);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** The part of Monaco's global API the tests read (GraphiQL's page exposes it as `monaco`). */
interface MonacoApi {
  editor: {
    EditorOption: { wordWrap: number };
    getEditors(): {
      getDomNode(): HTMLElement | null;
      setValue(text: string): void;
      getOption(option: number): unknown;
    }[];
  };
}

/**
 * A person's click on an element: the pointer moved to its centre, pressed, released there —
 * each a real input event (a synthetic `click` never sees what the press changes on the page).
 */
async function pressAndRelease(page: Page, locator: Locator): Promise<void> {
  const box = await locator.boundingBox();
  if (!box) throw new Error("the element is not visible");
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.up();
}

/** Whether GraphiQL's query editor shows `query <operation>`. */
function editorShows(page: Page, operation: string) {
  return page.waitForFunction(
    // Monaco renders spaces as no-break spaces.
    (name) =>
      (document.querySelector(".graphiql-query-editor")?.textContent ?? "")
        .replace(/\s+/g, " ")
        .includes(`query ${name}`),
    operation,
    { timeout: WAIT_MS },
  );
}

/** GraphiQL in a 1400 × 900 window, once its tabs and query editor are drawn. */
async function graphiqlAt1400(): Promise<Page> {
  const page = await browser.newPage();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(`${server.url}/graphql`);
  await page.waitForSelector(".graphiql-tab-button", { timeout: WAIT_MS });
  await page.waitForSelector(".graphiql-query-editor .view-lines", { timeout: WAIT_MS });
  return page;
}

/** A page whose every request is recorded. */
async function recordedPage(): Promise<{ page: Page; requests: string[] }> {
  const page = await browser.newPage();
  const requests: string[] = [];
  page.on("request", (request) => requests.push(request.url()));
  return { page, requests };
}

/**
 * A page loaded once for the tests that read it, by the first of them (each load of GraphiQL or
 * /docs is seconds of Chromium's CPU); closed with the browser.
 */
function loadedOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => {
    loaded ??= load();
    return loaded;
  };
}

/** GraphiQL at 1400 px, as it opens: the tests at that width read it in turn. */
const graphiql1400 = loadedOnce(graphiqlAt1400);

/** /docs, each of its requests recorded: the tests of /docs read it in turn. */
const docs = loadedOnce(async () => {
  const recorded = await recordedPage();
  await recorded.page.goto(`${server.url}/docs`);
  return recorded;
});

/** Requests to another host than the service (blob: and data: URLs are the page's own). */
function foreign(requests: readonly string[]): string[] {
  const own = new URL(server.url).host;
  return requests.filter((url) => {
    const parsed = new URL(url);
    if (parsed.protocol === "data:") return false;
    if (parsed.protocol === "blob:") return new URL(parsed.pathname).host !== own;
    return parsed.host !== own;
  });
}

describe("in a browser", () => {
  it(
    "GraphiQL loads offline, opens on the examples, runs the default query and shows the data",
    async () => {
      const { page, requests } = await recordedPage();
      await page.goto(`${server.url}/graphql`);
      await page.waitForSelector(".graphiql-execute-button", { timeout: WAIT_MS });
      expect(await page.title()).toBe("IT equipment impacts");
      expect(await page.locator(".graphiql-tab").count()).toBeGreaterThanOrEqual(8);
      await page.waitForFunction(
        // Monaco renders spaces as no-break spaces.
        () =>
          (document.querySelector(".graphiql-query-editor")?.textContent ?? "")
            .replace(/\s+/g, " ")
            .includes("query Server"),
        null,
        { timeout: WAIT_MS },
      );
      await page.click(".graphiql-execute-button");
      await page.waitForFunction(
        () => document.querySelector(".result-window")?.textContent?.includes("kgCO2eq"),
        null,
        { timeout: WAIT_MS },
      );
      const result = (await page.locator(".result-window .view-lines").innerText()).replace(/\s+/g, " ");
      expect(result).toContain('"criterion": "gwp"');
      expect(result).not.toContain('"errors"');
      // The fleet example opens with its variables.
      await pressAndRelease(
        page,
        page.locator(".graphiql-tab", { hasText: "Fleet" }).first().locator(".graphiql-tab-button"),
      );
      await page.waitForFunction(
        () =>
          (document.querySelector(".graphiql-query-editor")?.textContent ?? "")
            .replace(/\s+/g, " ")
            .includes("query Fleet") && (document.body.textContent ?? "").includes("instanceType"),
        null,
        { timeout: WAIT_MS },
      );
      expect(foreign(requests)).toEqual([]);
      await page.close();
    },
    WAIT_MS * 2,
  );

  it(
    "one press and release on an example tab opens it, the tab staying under the pointer",
    async () => {
      const page = await graphiql1400();
      await editorShows(page, "Server");
      // Each tab once, away from the open one: the first click on it must open it.
      for (const name of ["Component", "Peripheral", "Fleet", "Version", "Server"]) {
        const button = page
          .locator(".graphiql-tab", { hasText: name })
          .first()
          .locator(".graphiql-tab-button");
        const before = await button.boundingBox();
        await page.mouse.move(
          (before?.x ?? 0) + (before?.width ?? 0) / 2,
          (before?.y ?? 0) + (before?.height ?? 0) / 2,
        );
        await page.mouse.down();
        // The press moves nothing: the release lands on the same tab.
        expect((await button.boundingBox())?.x, name).toBe(before?.x);
        await page.mouse.up();
        await editorShows(page, name);
      }
    },
    WAIT_MS * 2,
  );

  it(
    "at 1400 px, no example line is cut at the editor's right edge; a longer line wraps",
    async () => {
      // After the tabs' test, if it ran: each tab is opened again below, whichever is open.
      const page = await graphiql1400();
      /** How far the query editor's widest line reaches past its visible width (px; ≤ 0: none cut). */
      const overflow = () =>
        page.evaluate(() => {
          const editor = document.querySelector(".graphiql-query-editor .monaco-editor");
          const visible = editor?.querySelector(".monaco-scrollable-element.editor-scrollable");
          const lines = editor?.querySelector(".view-lines");
          if (!visible || !lines) return Number.POSITIVE_INFINITY;
          const spans = [...lines.querySelectorAll(".view-line > span")];
          const right = Math.max(...spans.map((span) => span.getBoundingClientRect().right));
          return Math.max(
            lines.scrollWidth - visible.clientWidth,
            right - visible.getBoundingClientRect().right,
          );
        });
      const tabs = page.locator(".graphiql-tab");
      const count = await tabs.count();
      expect(count).toBeGreaterThanOrEqual(8);
      for (let index = 0; index < count; index += 1) {
        const name = (await tabs.nth(index).innerText()).trim();
        await pressAndRelease(page, tabs.nth(index).locator(".graphiql-tab-button"));
        await editorShows(page, name);
        expect(await overflow(), name).toBeLessThanOrEqual(0);
      }
      // A line typed longer than the editor is wrapped, not cut (every editor wraps).
      const wrapped = await page.evaluate(() => {
        const api = (globalThis as { monaco?: MonacoApi }).monaco;
        const editors = api?.editor.getEditors() ?? [];
        const query = editors.find((editor) => editor.getDomNode()?.closest(".graphiql-query-editor"));
        query?.setValue(`# ${"a long comment ".repeat(20)}\n{ version { service } }`);
        return editors.map((editor) => editor.getOption(api?.editor.EditorOption.wordWrap ?? -1));
      });
      expect(wrapped.length).toBeGreaterThanOrEqual(2);
      expect(new Set(wrapped)).toEqual(new Set(["on"]));
      await page.waitForFunction(
        () =>
          (document.querySelector(".graphiql-query-editor")?.textContent ?? "")
            .replace(/\s+/g, " ")
            .includes("a long comment"),
        null,
        { timeout: WAIT_MS },
      );
      expect(await overflow()).toBeLessThanOrEqual(0);
      // The last test at this width: Monaco's cursor would blink on until the browser closes.
      await page.close();
    },
    WAIT_MS * 2,
  );

  it(
    "/docs shows the REST routes from /openapi.json?edition=…, offline",
    async () => {
      const { page, requests } = await docs();
      await page.waitForSelector(".swagger-ui .info .title", { timeout: WAIT_MS });
      expect(await page.locator(".swagger-ui .info .title").innerText()).toContain("IT equipment impacts");
      await page.waitForSelector('.opblock-summary-path[data-path="/v1/server"]', { timeout: WAIT_MS });
      // The service's default edition's document first.
      expect(requests.some((url) => url.endsWith("/openapi.json?edition=1.2.4"))).toBe(true);
      expect(foreign(requests)).toEqual([]);
    },
    WAIT_MS * 2,
  );

  /**
   * Swagger's "Try it out" on an operation of /docs: opened, tried with its example, executed;
   * `opened` checks the form before it is tried. The operation's block once answered (status 200).
   * Each test tries another operation, on the page loaded once (an operation's block is its own).
   */
  async function triedOut(operationId: string, opened?: (operation: Locator) => Promise<void>) {
    const { page } = await docs();
    const operation = page.locator(`#operations-${operationId}`);
    await operation.waitFor({ timeout: WAIT_MS });
    // Playwright's click: a real press and release, once the element is still.
    await operation.locator(".opblock-summary-control").click();
    await operation.locator(".try-out__btn").waitFor({ timeout: WAIT_MS });
    await opened?.(operation);
    await operation.locator(".try-out__btn").click();
    await operation.locator(".execute").click();
    const status = operation.locator(".live-responses-table tbody .response-col_status").first();
    await status.waitFor({ timeout: WAIT_MS });
    expect((await status.innerText()).trim()).toBe("200");
    return operation;
  }

  it(
    "/docs: Try it out on POST /v1/server sends the example body and is answered 200",
    async () => {
      const operation = await triedOut("server-post_v1_server");
      expect(await operation.locator(".live-responses-table").innerText()).toContain("kgCO2eq");
    },
    WAIT_MS * 2,
  );

  it(
    "/docs: Try it out on POST /v1/cloud/instance sends the body's instance alone (no query instance_type)",
    async () => {
      const operation = await triedOut("cloud-post_v1_cloud_instance", async (opened) => {
        // No query field for the instance: the body's is the only one.
        expect(await opened.locator("input[placeholder='instance_type']").count()).toBe(0);
      });
      expect(await operation.locator(".body-param__text").inputValue()).toContain('"m5.xlarge"');
      const url = await operation.locator(".request-url pre").innerText();
      expect(url).toContain("/v1/cloud/instance");
      expect(url).not.toContain("instance_type");
    },
    WAIT_MS * 2,
  );

  it(
    "GraphiQL at a tablet's 768 px and a desktop's 1280: every tab whole and in view, the mark whole, none over the editor",
    async () => {
      for (const width of [768, 1280]) {
        const page = await browser.newPage();
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`${server.url}/graphql`);
        await page.waitForSelector(".graphiql-tab-button", { timeout: WAIT_MS });
        await page.waitForSelector(".graphiql-query-editor .view-lines", { timeout: WAIT_MS });
        const cut = await page.evaluate(() => {
          const found: string[] = [];
          const inView = (box: DOMRect) => box.left >= 0 && box.top >= 0 && box.right <= innerWidth;
          const editor = (document.querySelector(".graphiql-editors") as HTMLElement).getBoundingClientRect();
          for (const tab of document.querySelectorAll<HTMLElement>(".graphiql-tab")) {
            const box = tab.getBoundingClientRect();
            const strip = (tab.closest(".graphiql-tabs") as HTMLElement).getBoundingClientRect();
            if (!inView(box) || box.right > strip.right + 1 || box.bottom > editor.top + 1)
              found.push(`tab ${tab.textContent}: ${Math.round(box.left)}–${Math.round(box.right)}`);
          }
          const logo = (document.querySelector(".graphiql-logo") as HTMLElement).getBoundingClientRect();
          if (!inView(logo) || logo.height > 48) found.push(`logo ${logo.top}, ${logo.height} px tall`);
          return found;
        });
        expect(cut, `${width} px`).toEqual([]);
        expect(await page.locator(".graphiql-tab").count()).toBeGreaterThanOrEqual(8);
        await page.close();
      }
    },
    WAIT_MS * 2,
  );

  it(
    "/docs names every edition's document and opens on the service's default",
    async () => {
      const { page } = await docs();
      const select = page.locator(".topbar select");
      await select.waitFor({ timeout: WAIT_MS });
      expect(await select.locator("option").allInnerTexts()).toEqual([
        "edition 1.2.4 (this service's default)",
        "edition 2.4.1",
        "edition 2.5.0",
      ]);
      await page.waitForFunction(
        () => /edition 1\.2\.4/.test(document.querySelector(".info .title")?.textContent ?? ""),
        null,
        {
          timeout: WAIT_MS,
        },
      );
    },
    WAIT_MS,
  );
});
