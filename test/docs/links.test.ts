/**
 * The documentation is one link away from the README: every relative link of README.md and
 * docs/*.md names a file that exists and, for a Markdown file, a heading (GitHub's anchor, as the
 * served pages make them, src/http/site/projectDocs.ts) or an `<a id>` that it has. Sources, tests and
 * scripts that point at a section (`docs/limits.md#admission`, README "Configuration") name one
 * that exists too.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { Marked } from "marked";
import { getHeadingList, gfmHeadingId } from "marked-gfm-heading-id";
import { describe, expect, it } from "vitest";

const root = new URL("../../", import.meta.url).pathname;
const read = (file: string) => readFileSync(join(root, file), "utf8");

const documents = [
  "README.md",
  ...readdirSync(join(root, "docs"))
    .filter((n) => n.endsWith(".md"))
    .map((n) => `docs/${n}`),
];

/** The anchors of a Markdown file: its headings' ids and its `<a id="…">` elements. */
function anchorsOf(file: string): Set<string> {
  const text = read(file);
  new Marked(gfmHeadingId()).parse(text, { async: false });
  return new Set([
    ...getHeadingList().map((heading) => heading.id),
    ...[...text.matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1]),
  ]);
}

/** The texts of a Markdown file's headings. */
function headingsOf(file: string): string[] {
  const text = read(file);
  new Marked(gfmHeadingId()).parse(text, { async: false });
  return getHeadingList().map((heading) => heading.text);
}

/** Every link of a Markdown file: inline links and images, outside code. */
function linksOf(file: string): string[] {
  const links: string[] = [];
  new Marked({
    walkTokens(token) {
      if (token.type === "link" || token.type === "image") links.push(token.href);
    },
  }).parse(read(file), { async: false });
  return links;
}

/** What is wrong with a relative link of `from`, or undefined when it resolves. */
function brokenLink(from: string, href: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href)) return undefined;
  const hash = href.indexOf("#");
  const path = hash < 0 ? href : href.slice(0, hash);
  const anchor = hash < 0 ? "" : href.slice(hash + 1);
  const target = path === "" ? from : normalize(join(dirname(from), path));
  if (!existsSync(join(root, target))) return `${href}: no file ${target}`;
  if (anchor === "" || !target.endsWith(".md")) return undefined;
  return anchorsOf(target).has(anchor) ? undefined : `${href}: no anchor #${anchor} in ${target}`;
}

function filesUnder(folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, encoding: "utf8" })
    .map((entry) => `${folder}/${entry}`)
    .filter((file) => /\.(ts|graphql)$/.test(file) && statSync(join(root, file)).isFile());
}

const codeFiles = ["src", "test", "scripts", "bench"]
  .flatMap(filesUnder)
  .filter((file) => file !== "test/docs/links.test.ts");

/** A file's text with its comments' line breaks and leading `*` or `//` read as spaces. */
const joinedLines = (text: string) => text.replace(/\n\s*(?:\*(?!\/)|\/\/)?\s*/g, " ");

describe("the documentation's links", () => {
  it("finds a broken link or anchor", () => {
    expect(brokenLink("README.md", "docs/nothing.md")).toBe("docs/nothing.md: no file docs/nothing.md");
    expect(brokenLink("docs/api.md", "limits.md#nothing")).toBe(
      "limits.md#nothing: no anchor #nothing in docs/limits.md",
    );
    expect(brokenLink("docs/api.md", "../README.md#set-up-two-commands")).toBeUndefined();
    expect(brokenLink("docs/editions.md", "methodology.md#s19")).toBeUndefined();
  });

  it.each(documents)("every relative link of %s resolves", (file) => {
    const broken = linksOf(file).flatMap((href) => brokenLink(file, href) ?? []);
    expect(broken).toEqual([]);
  });

  it("every section a source, test or script points at exists", () => {
    const broken = codeFiles.flatMap((file) => {
      const text = joinedLines(read(file));
      const anchored = [...text.matchAll(/\b((?:docs\/)?[A-Za-z-]+\.md)#([\w-]+)/g)].flatMap(
        ([, doc, anchor]) => {
          const target = doc.includes("/") || doc === "README.md" ? doc : `docs/${doc}`;
          return existsSync(join(root, target)) && anchorsOf(target).has(anchor)
            ? []
            : [`${file}: ${doc}#${anchor}`];
        },
      );
      const named = [...text.matchAll(/\bREADME,? "([^"]+)"/g)].flatMap(([, heading]) =>
        headingsOf("README.md").includes(heading) ? [] : [`${file}: README "${heading}"`],
      );
      return [...anchored, ...named];
    });
    expect(broken).toEqual([]);
  });
});
