import { chooseEncoding } from "../compression.js";
import { htmlReply, jsonReply, type Reply } from "../reply.js";
import type { Answer } from "../route.js";
import type { Assets } from "./browserAssets.js";
import { type ProjectDocs, pagePathOf, renderDocPage } from "./projectDocs.js";

/*
 * What a browser reads: the start page, the REST docs page (Swagger UI) and the OpenAPI document
 * it shows, the project's documentation, and the pages' assets (served offline).
 */

/** The answer of a page known at start-up. */
function fixedPage(page: () => Reply): Answer {
  return async () => page();
}

/** An HTML page. */
export const htmlPage = (html: string): Answer => fixedPage(() => htmlReply(html));

/**
 * The OpenAPI document of the edition `?edition=` names, else of the service's default (memoized by
 * the caller); an edition the service does not serve is a 404 naming it.
 */
export function openApiAnswer(openApi: (edition: string | null) => string | null): Answer {
  return async ({ request }) => {
    const edition = new URL(request.url ?? "/", "http://service").searchParams.get("edition");
    const document = openApi(edition);
    if (document === null)
      return jsonReply(404, { detail: `no edition ${JSON.stringify(edition)} is served` });
    return { status: 200, headers: { "content-type": "application/json" }, body: document };
  };
}

/**
 * Each project document: its Markdown at its own path, its page at the path without `.md`; each
 * image and example it shows or links to at its path.
 */
export function projectDocPages(docs: ProjectDocs): { readonly path: string; readonly answer: Answer }[] {
  const served = new Set([...docs.documents.keys()].flatMap((path) => [path, pagePathOf(path)]));
  for (const path of docs.files.keys()) served.add(path);
  for (const path of [...docs.files.keys()].filter((file) => file.startsWith("/examples/"))) {
    // A folder of examples (`examples/`, `examples/billing/`) answers with its listing.
    for (let at = path.lastIndexOf("/"); at > 0; at = path.lastIndexOf("/", at - 1))
      served.add(path.slice(0, at + 1));
  }
  const pages = [...docs.documents].flatMap(([path, text]) => {
    const page = renderedOnFirstRequest(() => renderDocPage(path, text, (target) => served.has(target)));
    const markdown: Reply = {
      status: 200,
      headers: { "content-type": "text/markdown; charset=utf-8" },
      body: text,
    };
    return [
      { path, answer: fixedPage(() => markdown) },
      { path: pagePathOf(path), answer: page },
    ];
  });
  const files = [...docs.files].map(([path, file]) => ({
    path,
    answer: fixedPage(() => ({ status: 200, headers: { "content-type": file.type }, body: file.bytes })),
  }));
  const folders = [...served]
    .filter((path) => path.endsWith("/"))
    .map((folder) => ({ path: folder, answer: htmlPage(folderListing(folder, [...docs.files.keys()])) }));
  return [...pages, ...files, ...folders];
}

/**
 * A document's page rendered at its first request, then kept: rendering every document before the
 * listening line was about a sixth of a start's CPU, for pages most processes never serve.
 */
function renderedOnFirstRequest(render: () => string): Answer {
  let html: string | undefined;
  return fixedPage(() => {
    html ??= render();
    return htmlReply(html);
  });
}

/** A folder of served files: a list of links to its files and folders. */
function folderListing(folder: string, files: readonly string[]): string {
  const entries = [
    ...new Set(
      files
        .filter((path) => path.startsWith(folder))
        .map((path) => path.slice(folder.length).replace(/\/.*$/, "/")),
    ),
  ];
  const items = entries.map((name) => `<li><a href="${escapeHtml(name)}">${escapeHtml(name)}</a></li>`);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(folder)}</title><link rel="icon" href="data:,"></head>
<body style="font-family:system-ui,sans-serif;margin:2rem"><nav><a href="/">Start page</a></nav><h1>${escapeHtml(folder)}</h1><ul>${items.join("")}</ul></body></html>`;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A file of the pages' assets (GraphiQL, Swagger UI), compressed as the client accepts; 404 when none. */
export function assetAnswer(assets: Assets): Answer {
  return async ({ request, path }) =>
    (await assets.serve(path, chooseEncoding(request.headers["accept-encoding"]))) ??
    jsonReply(404, { detail: "Not Found" });
}
