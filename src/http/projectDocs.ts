import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Reply } from "./reply.js";

/*
 * The project's own documentation (README, changelog, docs/*.md) served as Markdown text, so
 * the root page can link it from a machine without access to another host. Read once at start-up;
 * a file missing from a deployment is simply not offered.
 */

/** The project root: two levels above this module, in the sources (src/http) and the bundle (dist/bundle). */
const PROJECT_ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Served path (e.g. `/docs/methodology.md`) → Markdown text. */
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

export function projectDocRoutes(docs: ProjectDocs): [string, () => Reply][] {
  return [...docs].map(([path, text]) => [
    path,
    () => ({ status: 200, headers: { "content-type": "text/markdown; charset=utf-8" }, body: text }),
  ]);
}
