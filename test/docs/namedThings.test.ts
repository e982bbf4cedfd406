/**
 * What the docs name exists: every file a doc or a source comment names in backticks (`routes.ts`,
 * `src/rest/routes/server.ts`, `sql/lookup/billing_keys.sql`, `src/rest/operations/<domain>.graphql`)
 * is a file of the repository, and every symbol a doc names in backticks (`BILLING_USAGE`,
 * `editionOf`, `EditionContext`) is written somewhere in the code. A file moved or a constant
 * renamed then fails here instead of leaving the docs pointing at nothing.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { bundleFiles, RELEASE_FOLDER } from "../../scripts/build.js";

const root = new URL("../../", import.meta.url).pathname;
const read = (file: string) => readFileSync(join(root, file), "utf8");

const tracked = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
  cwd: root,
  encoding: "utf8",
})
  .split("\n")
  .filter((file) => file !== "");
const baseNames = new Set(tracked.map((file) => basename(file)));

/** Pages whose names are checked; docs/billing.md is being rewritten with the billing stages. */
const PAGES = ["README.md", ...tracked.filter((f) => /^docs\/[^/]+\.md$/.test(f) && f !== "docs/billing.md")];
const SOURCES = tracked.filter(
  (f) => f.startsWith("src/") && f.endsWith(".ts") && !f.includes("/generated/"),
);

/** Words of the code a symbol is looked for in. */
const CODE = tracked
  .filter(
    (f) =>
      /^(src|scripts|bench|sql|test|schema)\//.test(f) ||
      ["package.json", "vitest.config.ts", "codegen.ts"].includes(f),
  )
  .filter((f) => !f.startsWith("test/docs/"))
  .filter((f) => /\.(ts|mjs|cjs|sql|graphql|json|py|yml)$/.test(f))
  .map(read)
  .join("\n");

const FILE = /^([A-Za-z0-9_.<>*/-]+\.(?:ts|mjs|sql|graphql|cjs|py))(?::\d+)?$/;
/** camelCase, PascalCase with a second capital, or SCREAMING_SNAKE with an underscore. */
const SYMBOL =
  /^([a-z][a-z0-9]*[A-Z][A-Za-z0-9]*|[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*|[A-Z][A-Z0-9]*_[A-Z0-9_]+)(?:\(\))?$/;

/** A named file exists: a path from the root or from src/, a placeholder matching one, or a bare name. */
function fileExists(path: string): boolean {
  if (path.startsWith("../")) return true; // the shared specification, outside the repository
  // A build output: `npm run build`'s (scripts/build.ts) or another script's of package.json.
  if (path.startsWith("dist/"))
    return bundleFiles(RELEASE_FOLDER).includes(path) || read("package.json").includes(path);
  if (path.includes("<") || path.includes("*")) {
    const pattern = path
      .split(/(<[^>]*>|\*)/)
      .map((part) =>
        part.startsWith("<") || part === "*" ? "[^/]+" : part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"),
      )
      .join("");
    const full = new RegExp(`^(src/)?${pattern}$`);
    return tracked.some((file) => full.test(file));
  }
  if (!path.includes("/")) return baseNames.has(path);
  return tracked.some((file) => file === path || file === `src/${path}` || file.endsWith(`/${path}`));
}

const named = (file: string) =>
  read(file)
    .split("\n")
    .flatMap((line, index) =>
      [...line.matchAll(/`([^`\n]+)`/g)].map((m) => ({ where: `${file}:${index + 1}`, name: m[1] })),
    );

describe("names in the docs", () => {
  it("every file a doc names exists", () => {
    const missing = PAGES.flatMap(named).filter(
      ({ name }) => FILE.test(name) && !fileExists(FILE.exec(name)?.[1] ?? name),
    );
    expect(missing.map(({ where, name }) => `${where} ${name}`)).toEqual([]);
  });

  it("every file a source comment names exists", () => {
    const missing = SOURCES.flatMap(named).filter(
      ({ name }) => FILE.test(name) && !fileExists(FILE.exec(name)?.[1] ?? name),
    );
    expect(missing.map(({ where, name }) => `${where} ${name}`)).toEqual([]);
  });

  it("every symbol a doc names is in the code", () => {
    const missing = PAGES.flatMap(named).filter(({ name }) => {
      const symbol = SYMBOL.exec(name)?.[1];
      return symbol !== undefined && !new RegExp(`\\b${symbol}\\b`).test(CODE);
    });
    expect(missing.map(({ where, name }) => `${where} ${name}`)).toEqual([]);
  });

  it("catches a moved file and a renamed constant", () => {
    expect(fileExists("src/rest/routes/server.ts")).toBe(true);
    expect(fileExists("src/rest/server.ts")).toBe(false);
    expect(fileExists("src/rest/operations/<domain>.graphql")).toBe(true);
    expect(fileExists("src/rest/nothing/<domain>.ts")).toBe(false);
    expect(SYMBOL.test("BILLING_USAGE") && !/\bBILLING_USAGE\b/.test(CODE)).toBe(true);
  });
});
