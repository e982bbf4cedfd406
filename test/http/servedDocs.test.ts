/**
 * The project's documents as the service serves them (/README, /docs/...): every image and every
 * relative link of every page answers 200 (each fetched once), and every anchor a link names is a
 * heading id of its page. Links to other hosts are not followed (the service runs offline).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/httpServer.js";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ LOG_LEVEL: "silent" });
});

afterAll(async () => {
  await server?.close();
});

/** The `href` and `src` values of a page (marked writes them double-quoted). */
function targetsOf(html: string): string[] {
  return [...html.matchAll(/\s(?:href|src)="([^"]*)"/g)].map((m) => m[1].replace(/&amp;/g, "&"));
}

const idsOf = (html: string) => new Set([...html.matchAll(/\sid="([^"]*)"/g)].map((m) => m[1]));

describe("the served documents", () => {
  it("answer every image and relative link they hold, anchors included", async () => {
    const pages = ["/README"];
    const root = await (await fetch(`${server.url}/`)).text();
    for (const href of targetsOf(root)) {
      const path = href.replace(/#.*/, "");
      if (/^\/(README|CHANGELOG|bench\/README|docs\/)[^.]*$/.test(path)) pages.push(path);
    }
    expect(pages).toEqual(
      expect.arrayContaining([
        "/README",
        "/docs/inventory",
        "/docs/billing",
        "/docs/limits",
        "/bench/README",
      ]),
    );
    const html = new Map<string, string>();
    const pageOf = async (path: string) => {
      if (!html.has(path)) html.set(path, await (await fetch(`${server.url}${path}`)).text());
      return html.get(path) as string;
    };
    const broken: string[] = [];
    const checked = new Set<string>();
    for (const page of new Set(pages)) {
      for (const target of targetsOf(await pageOf(page))) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//")) continue;
        const url = new URL(target, `${server.url}${page}`);
        const key = `${url.pathname}${url.hash}`;
        if (checked.has(key)) continue;
        checked.add(key);
        const status = (await fetch(new URL(url.pathname + url.search, server.url))).status;
        if (status !== 200) {
          broken.push(`${page}: ${target} → ${status}`);
          continue;
        }
        const anchor = decodeURIComponent(url.hash.slice(1));
        const isPage =
          !/\.[a-z]+$/i.test(url.pathname) && url.pathname.startsWith("/") && url.pathname !== "/";
        if (anchor !== "" && isPage && !idsOf(await pageOf(url.pathname)).has(anchor)) {
          broken.push(`${page}: ${target} → no heading #${anchor}`);
        }
      }
    }
    expect(broken).toEqual([]);
    expect(checked.size).toBeGreaterThan(50);
  });

  it("shows a link to a source file it does not serve as that file's name, not a link that fails", async () => {
    const page = await (await fetch(`${server.url}/docs/testing`)).text();
    expect(page).toContain(
      '<span class="source" title="vitest.config.ts: in the project\'s sources, not served">vitest projects</span>',
    );
    expect(page).not.toContain('href="../vitest.config.ts"');
    const readme = await (await fetch(`${server.url}/README`)).text();
    expect(readme).toContain('<img src="docs/bill-report.png"');
    const image = await fetch(`${server.url}/docs/bill-report.png`);
    expect(image.headers.get("content-type")).toBe("image/png");
    expect(
      Buffer.from(await image.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe("PNG");
    const examples = await (await fetch(`${server.url}/examples/`)).text();
    expect(examples).toContain('<a href="billing/">billing/</a>');
    expect(examples).toContain('<a href="inventory.csv">inventory.csv</a>');
  });
});
