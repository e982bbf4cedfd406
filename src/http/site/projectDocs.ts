import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
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

/** A file the documents show or link to (an image, an example input), as served. */
export interface ProjectFile {
  readonly type: string;
  readonly bytes: Buffer;
}

/** What the service serves of the project's documentation. */
export interface ProjectDocs {
  /** Served path of each Markdown document (`/docs/methodology.md`) → its text. */
  readonly documents: ReadonlyMap<string, string>;
  /** Served path of each image of docs/ and each example input (`/examples/inventory.csv`) → the file. */
  readonly files: ReadonlyMap<string, ProjectFile>;
}

/** The types of the files served beside the documents (anything else is not served). */
const FILE_TYPES: Readonly<Record<string, string>> = {
  png: "image/png",
  svg: "image/svg+xml",
  csv: "text/csv; charset=utf-8",
  yml: "text/yaml; charset=utf-8",
};

/** An example larger than this is not served (the examples are a few kB; a page must stay light). */
const MAX_FILE_BYTES = 4 * 1024 * 1024;

const typeOf = (name: string) => FILE_TYPES[name.slice(name.lastIndexOf(".") + 1).toLowerCase()];

/** The files of `dir` (and its folders, when `deep`) of a served type, as `prefix/name`. */
function filesOf(root: string, dir: string, deep: boolean): string[] {
  if (!existsSync(join(root, dir))) return [];
  return readdirSync(join(root, dir), { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) return deep ? filesOf(root, path, deep) : [];
      return entry.isFile() &&
        typeOf(entry.name) !== undefined &&
        statSync(join(root, path)).size <= MAX_FILE_BYTES
        ? [path]
        : [];
    });
}

export function loadProjectDocs(root: string = PROJECT_ROOT): ProjectDocs {
  const documents = new Map<string, string>();
  const markdown = ["README.md", "CHANGELOG.md", "bench/README.md"].filter((name) =>
    existsSync(join(root, name)),
  );
  if (existsSync(join(root, "docs"))) {
    markdown.push(
      ...readdirSync(join(root, "docs"))
        .filter((n) => n.endsWith(".md"))
        .sort()
        .map((n) => `docs/${n}`),
    );
  }
  for (const name of markdown) documents.set(`/${name}`, readFileSync(join(root, name), "utf8"));
  const files = new Map<string, ProjectFile>();
  for (const path of [...filesOf(root, "docs", false), ...filesOf(root, "examples", true)]) {
    files.set(`/${path}`, { type: typeOf(path) as string, bytes: readFileSync(join(root, path)) });
  }
  return { documents, files };
}

/** The page of a Markdown path: `/docs/methodology.md` → `/docs/methodology`. */
export const pagePathOf = (markdownPath: string): string => markdownPath.replace(/\.md$/, "");

/** Whether `href` leaves the served documents: another host, a mail address, an anchor of the page. */
const isAbsolute = (href: string) =>
  /^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith("#") || href.startsWith("/");

/** A relative link to another Markdown file points at its page (`docs/methodology.md#s19` → `docs/methodology#s19`). */
function linkToPage(href: string): string {
  if (isAbsolute(href)) return href;
  const hash = href.indexOf("#");
  const path = hash < 0 ? href : href.slice(0, hash);
  return path.endsWith(".md") ? `${path.slice(0, -3)}${hash < 0 ? "" : href.slice(hash)}` : href;
}

/** The served path a relative link of `markdownPath` reaches (`../examples/a.csv` from `/docs/x.md` → `/examples/a.csv`). */
function servedPathOf(markdownPath: string, href: string): string {
  return new URL(href, `http://docs${markdownPath}`).pathname;
}

const PAGE_STYLE =
  "body{font-family:system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#1d1d1d}" +
  "code{background:#f3f3f3;padding:0 .2em;border-radius:3px}pre{background:#f6f6f6;padding:.8rem;overflow-x:auto;max-width:100%}" +
  "code{overflow-wrap:anywhere}pre code{background:none;padding:0;white-space:pre;overflow-wrap:normal}table{border-collapse:collapse;display:block;max-width:100%;overflow-x:auto}" +
  "th,td{border:1px solid #ccc;padding:.2rem .5rem;vertical-align:top}img{max-width:100%;height:auto}" +
  "nav{font-size:.9rem;margin-bottom:1rem}.source{border-bottom:1px dotted #888}";

const escapeText = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * One Markdown file as a standalone HTML page. A relative link or image whose file the service
 * does not serve (a source file, `sql/`) is shown as its text, marked as a file of the project's
 * sources, rather than a link that answers 404.
 */
export function renderDocPage(
  markdownPath: string,
  markdown: string,
  served: (path: string) => boolean,
): string {
  const reaches = (href: string) => isAbsolute(href) || served(servedPathOf(markdownPath, href));
  // A parser per page: the heading-id extension numbers repeated headings within one document.
  const marked = new Marked(gfmHeadingId(), {
    gfm: true,
    walkTokens(token) {
      if (token.type === "link") (token as Tokens.Link).href = linkToPage((token as Tokens.Link).href);
    },
    renderer: {
      link(token) {
        if (reaches(token.href)) return false;
        const where = escapeText(servedPathOf(markdownPath, token.href).slice(1));
        return `<span class="source" title="${where}: in the project's sources, not served">${this.parser.parseInline(token.tokens)}</span>`;
      },
      image(token) {
        return reaches(token.href) ? false : escapeText(token.text);
      },
    },
  });
  const body = marked.parse(markdown, { async: false });
  const title = escapeText(markdownPath.slice(1));
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title><link rel="icon" href="data:,">
<style>${PAGE_STYLE}</style></head><body>
<nav><a href="/">Start page</a> · <a href="${escapeText(markdownPath)}">Markdown source</a></nav>
${body}
</body></html>`;
}
