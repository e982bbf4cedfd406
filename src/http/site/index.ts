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

/** The OpenAPI document, serialized (memoized by the caller). */
export function openApiAnswer(openApi: () => string): Answer {
  return fixedPage(() => ({ status: 200, headers: { "content-type": "application/json" }, body: openApi() }));
}

/** Each project document: its Markdown at its path, its page at the path without `.md`. */
export function projectDocPages(docs: ProjectDocs): { readonly path: string; readonly answer: Answer }[] {
  return [...docs].flatMap(([path, text]) => {
    const page = renderDocPage(path, text);
    const markdown: Reply = {
      status: 200,
      headers: { "content-type": "text/markdown; charset=utf-8" },
      body: text,
    };
    return [
      { path, answer: fixedPage(() => markdown) },
      { path: pagePathOf(path), answer: htmlPage(page) },
    ];
  });
}

/** A file of the pages' assets (GraphiQL, Swagger UI), compressed as the client accepts; 404 when none. */
export function assetAnswer(assets: Assets): Answer {
  return async ({ request, path }) =>
    (await assets.serve(path, chooseEncoding(request.headers["accept-encoding"]))) ??
    jsonReply(404, { detail: "Not Found" });
}
