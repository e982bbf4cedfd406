/**
 * `npm run docs`: writes the documentation's tables from their one description in the sources,
 * between marker comments of the Markdown pages:
 *
 *     <!-- generated:settings -->
 *     | variable | default | meaning |
 *     …
 *     <!-- /generated -->
 *
 * The text between the markers is the script's; the rest of the page is written by hand.
 * test/docs/generated.test.ts fails when a page's table is not the one this script writes.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { relationTable } from "../src/billing/formats/format.js";
import { columnTable } from "../src/cli/inventory/inventory.js";
import { configurationTable } from "../src/config/environment.js";

/** Each generated table: the page it stands in and the function that makes it. */
export const GENERATED_TABLES: Readonly<
  Record<string, { readonly page: string; readonly table: () => string }>
> = {
  settings: { page: "docs/operations.md", table: configurationTable },
  "inventory-columns": { page: "docs/inventory.md", table: columnTable },
  "line-relation": { page: "docs/billing-code.md", table: relationTable },
};

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** A marked block: its opening comment naming the table, its text, the closing comment. */
const BLOCK = /<!-- generated:([a-z-]+) -->\n.*?<!-- \/generated -->/gs;

/**
 * A page's text with each marked block holding its table (`tables`: name → table). A block of
 * an unknown name, or a table of the page missing, is an error naming it.
 */
export function withTables(text: string, tables: Readonly<Record<string, string>>): string {
  const found = new Set<string>();
  const written = text.replace(BLOCK, (_block, name: string) => {
    const table = tables[name];
    if (table === undefined) throw new Error(`unknown generated table "${name}"`);
    found.add(name);
    return `<!-- generated:${name} -->\n${table}\n<!-- /generated -->`;
  });
  const missing = Object.keys(tables).filter((name) => !found.has(name));
  if (missing.length > 0)
    throw new Error(`no <!-- generated:${missing.join(" -->, <!-- generated:")} --> block`);
  return written;
}

/** Every page holding a generated table: its path, its text now and its text with fresh tables. */
export function generatedPages(root = ROOT): { page: string; current: string; fresh: string }[] {
  const byPage = new Map<string, Record<string, string>>();
  for (const [name, { page, table }] of Object.entries(GENERATED_TABLES)) {
    byPage.set(page, { ...byPage.get(page), [name]: table() });
  }
  return [...byPage].map(([page, tables]) => {
    const current = readFileSync(`${root}/${page}`, "utf8");
    return { page, current, fresh: withTables(current, tables) };
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const { page, current, fresh } of generatedPages()) {
    if (fresh === current) continue;
    writeFileSync(`${ROOT}/${page}`, fresh);
    console.log(`wrote ${page}`);
  }
}
