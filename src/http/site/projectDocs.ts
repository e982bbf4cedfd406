import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Marked, type Tokens } from "marked";
import { gfmHeadingId } from "marked-gfm-heading-id";

/*
 * The project's own documentation (README, changelog, docs/*.md), served from a machine without
 * access to another host: each file as Markdown at its own path (`/README.md`) and rendered as a
 * page beside it, without the extension (`/README`, `/docs/methodology`), with links between the
 * files pointing at the pages and headings carrying GitHub's anchors (`#command-line`). Read and
 * rendered once at start-up; a file missing from a deployment is simply not offered.
 */

/**
 * The project root: the nearest folder above this module holding package.json — the same in the
 * sources (src/http/site) and the bundle (dist/bundle), whatever their depth.
 */
function projectRoot(from: string): string {
  let dir = from;
  while (!existsSync(join(dir, "package.json"))) {
    const parent = dirname(dir);
    if (parent === dir) return from;
    dir = parent;
  }
  return dir;
}

const PROJECT_ROOT = projectRoot(dirname(fileURLToPath(import.meta.url)));

/** Served path of the Markdown (e.g. `/docs/methodology.md`) → its text. */
export type ProjectDocs = ReadonlyMap<string, string>;

export function loadProjectDocs(root: string = PROJECT_ROOT): ProjectDocs {
  const docs = new Map<string, string>();
  for (const name of ["README.md", "CHANGELOG.md"]) {
    const file = join(root, name);
    if (existsSync(file)) docs.set(`/${name}`, readFileSync(file, "utf8"));
  }
  const dir = join(root, "docs");
  if (existsSync(dir)) {
    for (const name of readdirSync(dir)
      .filter((n) => n.endsWith(".md"))
      .sort()) {
      docs.set(`/docs/${name}`, readFileSync(join(dir, name), "utf8"));
    }
  }
  return docs;
}

/** The page of a Markdown path: `/docs/methodology.md` → `/docs/methodology`. */
export const pagePathOf = (markdownPath: string): string => markdownPath.replace(/\.md$/, "");

/** A relative link to another Markdown file points at its page (`docs/methodology.md#s19` → `docs/methodology#s19`). */
function linkToPage(href: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith("#")) return href;
  const hash = href.indexOf("#");
  const path = hash < 0 ? href : href.slice(0, hash);
  return path.endsWith(".md") ? `${path.slice(0, -3)}${hash < 0 ? "" : href.slice(hash)}` : href;
}

const PAGE_STYLE =
  "body{font-family:system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#1d1d1d}" +
  "code{background:#f3f3f3;padding:0 .2em;border-radius:3px}pre{background:#f6f6f6;padding:.8rem;overflow-x:auto}" +
  "pre code{background:none;padding:0}table{border-collapse:collapse}th,td{border:1px solid #ccc;padding:.2rem .5rem;vertical-align:top}" +
  "nav{font-size:.9rem;margin-bottom:1rem}";

const escapeText = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** One Markdown file as a standalone HTML page. */
export function renderDocPage(markdownPath: string, markdown: string): string {
  // A parser per page: the heading-id extension numbers repeated headings within one document.
  const marked = new Marked(gfmHeadingId(), {
    gfm: true,
    walkTokens(token) {
      if (token.type === "link") (token as Tokens.Link).href = linkToPage((token as Tokens.Link).href);
    },
  });
  const body = marked.parse(markdown, { async: false });
  const title = escapeText(markdownPath.slice(1));
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title><link rel="icon" href="data:,">
<style>${PAGE_STYLE}</style></head><body>
<nav><a href="/">Start page</a> · <a href="${escapeText(markdownPath)}">Markdown source</a></nav>
${body}
</body></html>`;
}
