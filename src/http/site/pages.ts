import type { GraphiQLOptions } from "graphql-yoga";
import { assetUrl } from "./browserAssets.js";
import { pagePathOf } from "./projectDocs.js";

/*
 * The HTML pages of the service: the root page, GraphiQL and the OpenAPI docs (Swagger UI),
 * every script and style served by the service itself.
 */

export const SERVICE_TITLE = "IT equipment impacts";

/** The service's mark in GraphiQL: a chip with a leaf (IT equipment and its environmental impact). */
const LOGO =
  '<svg viewBox="0 0 32 32" width="32" height="32" aria-label="IT equipment impacts" role="img">' +
  '<rect x="6" y="6" width="20" height="20" rx="3" fill="none" stroke="#2f6f4e" stroke-width="2"/>' +
  '<path d="M10 2v4M16 2v4M22 2v4M10 26v4M16 26v4M22 26v4M2 10h4M2 16h4M2 22h4M26 10h4M26 16h4M26 22h4" stroke="#2f6f4e" stroke-width="2"/>' +
  '<path d="M11 21c0-6 4-10 10-10 0 6-4 10-10 10zm0 0 6-6" fill="#5fae7b" stroke="#2f6f4e" stroke-width="1.2"/></svg>';

/** An empty icon: browsers do not ask for /favicon.ico. */
const NO_FAVICON = '<link rel="icon" href="data:,">';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** JSON inside a `<script>`: `<` escaped so that no `</script>` can end it early. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");

interface RootPageInfo {
  readonly serviceVersion: string;
  readonly methodology: string;
  /** The edition of a file evaluated without choosing one (the page, the command line: newWorkEdition). */
  readonly fileEdition: string;
  /** Every edition (methodology version) served. */
  readonly editions: readonly string[];
  /** Paths of the project's documentation files served by the service. */
  readonly docs: readonly string[];
}

/** A documentation page of the project (its section when `anchor` is given), or plain text if it is not served. */
function docLink(info: RootPageInfo, markdownPath: string, text: string, anchor = ""): string {
  return info.docs.includes(markdownPath)
    ? `<a href="${escapeHtml(pagePathOf(markdownPath))}${anchor}">${text}</a>`
    : text;
}

export function rootPage(info: RootPageInfo): string {
  const docs = info.docs.map(
    (path) =>
      `<li><a href="${escapeHtml(pagePathOf(path))}">${escapeHtml(pagePathOf(path).slice(1))}</a> ` +
      `(<a href="${escapeHtml(path)}">Markdown</a>)</li>`,
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${SERVICE_TITLE}</title>${NO_FAVICON}
<style>body{font-family:system-ui,sans-serif;max-width:46rem;margin:3rem auto;padding:0 1rem;line-height:1.5}code{background:#f3f3f3;padding:0 .2em}</style>
</head><body>
<h1>Environmental impacts of IT equipment</h1>
<p>Servers, components, cloud instances, terminals, peripherals, IoT devices and CPU consumption profiles,
evaluated with the Boavizta methodology (service ${escapeHtml(info.serviceVersion)}; editions ${escapeHtml(info.editions.join(", "))}).
A file, on the page or the command line, is evaluated in ${escapeHtml(info.fileEdition)} unless you choose another; a REST or GraphQL request names its <code>edition</code>, else gets this service's ${escapeHtml(info.methodology)}, as the clients written against it expect (${docLink(info, "/docs/editions.md", "which edition?", "#which-edition")}).</p>
<h2>Ways in</h2>
<ul>
<li><a href="/evaluate"><strong>Evaluate a file</strong></a>: drop an inventory or a cloud billing export, see its report and download its impacts — no terminal needed.</li>
<li><a href="/graphql">GraphiQL</a>: the GraphQL API, with example queries per asset kind and a fleet example.</li>
<li><a href="/docs">REST API docs</a> (boaviztapi v1 compatible routes under <code>/v1/</code>) and their <a href="/openapi.json">OpenAPI description</a>.</li>
<li>The batch route, <code>POST /v1/batch</code>: many <code>/v1</code> requests as NDJSON lines, answered as they arrive (${docLink(info, "/docs/api.md", "how", "#batch")}).</li>
<li>The command line, <code>npx impact-service evaluate inventory.csv</code>: an inventory or a billing export evaluated without a server, as CSV, a workbook or a report (${docLink(info, "/docs/inventory.md", "how", "#command-line")}).</li>
<li>Operations: <a href="/healthz">/healthz</a>, <a href="/readyz">/readyz</a>, <a href="/metrics">/metrics</a>.</li>
</ul>
<h2>Documentation</h2>
${docs.length > 0 ? `<ul>\n${docs.join("\n")}\n</ul>` : "<p>README.md and docs/ in the project's repository.</p>"}
</body></html>`;
}

/**
 * The REST API's docs (Swagger UI): one OpenAPI document per served edition, chosen at the top
 * ("Select a definition"), the service's default first shown.
 */
export function docsPage(info: {
  readonly editions: readonly string[];
  readonly methodology: string;
}): string {
  const urls = info.editions.map((edition) => ({
    url: `/openapi.json?edition=${encodeURIComponent(edition)}`,
    name: `edition ${edition}${edition === info.methodology ? " (this service's default)" : ""}`,
  }));
  const primary = urls[info.editions.indexOf(info.methodology)]?.name;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${SERVICE_TITLE} — REST API</title>
<link rel="icon" href="${assetUrl("swagger-ui", "favicon-32x32.png")}">
<link rel="stylesheet" href="${assetUrl("swagger-ui", "swagger-ui.css")}">
</head><body>
<div id="swagger-ui"></div>
<script src="${assetUrl("swagger-ui", "swagger-ui-bundle.js")}"></script>
<script src="${assetUrl("swagger-ui", "swagger-ui-standalone-preset.js")}"></script>
<script>
window.ui = SwaggerUIBundle({
  urls: ${scriptJson(urls)},
  "urls.primaryName": ${scriptJson(primary)},
  dom_id: "#swagger-ui",
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: "StandaloneLayout",
  // No call to the public validator service: the page works offline.
  validatorUrl: null,
  deepLinking: true,
});
</script>
</body></html>`;
}

/** Options of every GraphiQL editor: long lines wrapped, continued one level further in. */
const EDITOR_OPTIONS = { wordWrap: "on", wrappingIndent: "indent" };

const GRAPHIQL_WORKERS = {
  editorWorkerService: assetUrl("graphiql", "dist/monacoeditorwork/editor.worker.bundle.js"),
  json: assetUrl("graphiql", "dist/monacoeditorwork/json.worker.bundle.js"),
  graphql: assetUrl("graphiql", "dist/monacoeditorwork/graphql.worker..bundle.js"),
};

/**
 * GraphiQL's panes sit side by side (editor, results, documentation): under 640 px its logo covers
 * the tabs and the editor wraps every few characters. There, the page says so first and offers
 * what works on a phone; GraphiQL stays behind it, one press away.
 */
const NARROW_WIDTH = 640;
const NARROW_STYLE = `#narrow{display:none}
@media (max-width:${NARROW_WIDTH - 1}px){#narrow:not([hidden]){display:block;position:fixed;inset:0;z-index:100;overflow:auto;background:#fff;color:#1d1d1d;font:16px/1.5 system-ui,sans-serif;padding:1.2rem}
#narrow h1{font-size:1.3rem;margin:0 0 .6rem}#narrow li{margin:.3rem 0}#narrow button{font:inherit;font-weight:600;padding:.5rem 1rem;border-radius:6px;border:1px solid #2f6f4e;background:#fff;color:#2f6f4e}}`;
const NARROW_NOTICE = `<section id="narrow" role="dialog" aria-labelledby="narrow-title">
<h1 id="narrow-title">GraphiQL needs a wider screen</h1>
<p>Its query editor, results and documentation sit side by side: use a screen at least ${NARROW_WIDTH} px wide, or turn your phone sideways. Meanwhile:</p>
<ul><li><a href="/evaluate">Evaluate a file</a> (an inventory or a billing export) works on a phone;</li>
<li><a href="/docs">the documentation</a> lists the API's queries and the REST routes;</li>
<li>any HTTP client can send a query: <code>POST /graphql</code> with <code>{"query": "…"}</code>.</li></ul>
<p><button type="button" onclick="document.getElementById('narrow').hidden = true">Open GraphiQL anyway</button></p>
</section>`;

/**
 * GraphiQL's header at any width it is used at (a tablet's 768 px, a desktop's 1280): its logo's
 * title wrapped over two or three lines, cut at the top, and its tab strip cut after four to eight
 * of the examples' tabs, its scrollbar hidden. The mark stands alone (its title stays its label)
 * and the tabs wrap onto a second row, each one whole and in view.
 */
const HEADER_STYLE = `.graphiql-container .graphiql-logo span{display:none}
.graphiql-container .graphiql-logo{flex:none}
.graphiql-container .graphiql-session-header{height:auto;min-height:var(--session-header-height);align-items:flex-start}
.graphiql-container .graphiql-tabs{flex-wrap:wrap;row-gap:4px;overflow:visible}`;

/**
 * GraphiQL (yoga's build of it) with its scripts, styles and editor workers served locally;
 * replaces yoga's page, which loads them from a CDN. The workers are fetched and started from
 * blobs as yoga's own page does.
 */
export function graphiqlPage(options: GraphiQLOptions): string {
  const title = escapeHtml(options.title ?? SERVICE_TITLE);
  // yoga's GraphiQL opens on `query` (else on its welcome text): the first tab's query.
  const yogaOptions = { ...options, query: options.defaultQuery, logo: options.logo ?? LOGO };
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title>${NO_FAVICON}
<link rel="stylesheet" href="${assetUrl("graphiql", "dist/graphiql.css")}">
<style>${NARROW_STYLE}
${HEADER_STYLE}</style>
</head><body id="body" class="no-focus-outline">
${NARROW_NOTICE}
<noscript>You need to enable JavaScript to run GraphiQL.</noscript>
<div id="root">Loading ${title}…</div>
<script>
const workerUrls = ${scriptJson(GRAPHIQL_WORKERS)};
const workers = {};
function prepareWorkers() {
  return Promise.all(Object.entries(workerUrls).map(async ([name, url]) => {
    const code = await (await fetch(url)).text();
    workers[name] = URL.createObjectURL(new Blob([code], { type: "application/javascript" }));
  }));
}
self.MonacoEnvironment = {
  // The editor API as a global (monaco), for the options below.
  globalAPI: true,
  getWorkerUrl: (_id, label) => workers[label] ?? workers.editorWorkerService,
};
</script>
<script src="${assetUrl("graphiql", "dist/yoga-graphiql.umd.js")}"></script>
<script>
// A press on an example tab keeps the focus where it is (the click still selects the tab):
// focusing the tab's button re-renders GraphiQL's reorderable tab strip, which moves the pressed
// tab away before the release, so the click lands elsewhere and a first click did nothing.
document.addEventListener("mousedown", (event) => {
  if (event.button === 0 && event.target instanceof Element && event.target.closest(".graphiql-tab-button")) {
    event.preventDefault();
  }
}, true);
// GraphiQL's query, variables and headers editors do not wrap: a long line is cut at the
// editor's right edge (it is about 58 characters wide in a 1400 px window). Wrapped instead.
self.monaco?.editor.onDidCreateEditor((editor) => editor.updateOptions(${scriptJson(EDITOR_OPTIONS)}));
prepareWorkers().finally(() => YogaGraphiQL.renderYogaGraphiQL(root, ${scriptJson(yogaOptions)}));
</script>
</body></html>`;
}
