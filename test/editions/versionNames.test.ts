/**
 * An edition is described once, in src/editions (one file per edition). Outside it, no
 * identifier or string may name a version ("1.2.4", `_2_4_1`, `V1_2_4`): the engine reads rules, the
 * transports read the editions list and their features. Comments may cite a version (they explain a
 * kept quirk); code and the texts it serves may not. Read with TypeScript's scanner, so comments are
 * told apart from code.
 */

import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { EDITIONS, GENERATIVE_AI_EDITION } from "../../src/editions/index.js";
import { sourceFiles } from "../support/sources.js";

const SRC = join(import.meta.dirname, "../../src");
/** Where editions are described, and code generated from the schema (its comments quote descriptions). */
const EXEMPT = [/^editions\//, /^rest\/generated\//];
/**
 * A built-in edition's id spelt with dots or underscores ("2.4.1", `_2_4_1`, `V2_4_1`), the
 * generative-AI edition's version among them ("0.11.3" of `ecologits-0.11.3`).
 */
const VERSION = new RegExp(
  [...EDITIONS.map((edition) => edition.id), GENERATIVE_AI_EDITION.id.replace(/^\D+/, "")]
    .map((id) => id.split(".").join("[._]"))
    .join("|"),
);

const TEXT_TOKENS = new Set<ts.SyntaxKind>([
  ts.SyntaxKind.Identifier,
  ts.SyntaxKind.StringLiteral,
  ts.SyntaxKind.NoSubstitutionTemplateLiteral,
  ts.SyntaxKind.TemplateHead,
  ts.SyntaxKind.TemplateMiddle,
  ts.SyntaxKind.TemplateTail,
]);

/** Identifiers and string texts of a TypeScript file naming a version, as `file:line: token`. */
function versionNamesIn(file: string, text: string): string[] {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, text);
  const found: string[] = [];
  const templateDepth: number[] = [];
  let braces = 0;
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    // The scanner needs to be told where a template's `${…}` closes.
    if (kind === ts.SyntaxKind.TemplateHead) templateDepth.push(braces);
    else if (kind === ts.SyntaxKind.OpenBraceToken) braces++;
    else if (kind === ts.SyntaxKind.CloseBraceToken) {
      if (templateDepth.length > 0 && templateDepth[templateDepth.length - 1] === braces) {
        kind = scanner.reScanTemplateToken(false);
        if (kind === ts.SyntaxKind.TemplateTail) templateDepth.pop();
      } else braces--;
    } else if (kind === ts.SyntaxKind.SlashToken || kind === ts.SyntaxKind.SlashEqualsToken) {
      kind = scanner.reScanSlashToken();
    }
    if (TEXT_TOKENS.has(kind) && VERSION.test(scanner.getTokenText())) {
      const line = text.slice(0, scanner.getTokenStart()).split("\n").length;
      found.push(`${file}:${line}: ${scanner.getTokenText()}`);
    }
  }
  return found;
}

/** GraphQL documents: every line but `#` comments. */
function versionNamesInGraphql(file: string, text: string): string[] {
  return text.split("\n").flatMap((line, index) => {
    const code = line.replace(/#.*$/, "");
    return VERSION.test(code) ? [`${file}:${index + 1}: ${code.trim()}`] : [];
  });
}

describe("no version named outside src/editions", () => {
  it("the scanner finds names and texts, not comments", () => {
    const sample = [
      "// edition 1.2.4 rounds (a comment may cite it)",
      'const A_2_4_1 = "x";',
      "const b = `only $" + "{x} in 2.4.1`;",
      "const c = /1\\.2\\.4/;",
    ].join("\n");
    expect(versionNamesIn("sample.ts", sample)).toEqual(["sample.ts:2: A_2_4_1", "sample.ts:3: } in 2.4.1`"]);
  });

  it("src/ outside src/editions names no version in code or served text", () => {
    const found = sourceFiles(SRC, [".ts", ".graphql"]).flatMap((path) => {
      const file = relative(SRC, path);
      if (EXEMPT.some((pattern) => pattern.test(file))) return [];
      const text = readFileSync(path, "utf8");
      return file.endsWith(".graphql") ? versionNamesInGraphql(file, text) : versionNamesIn(file, text);
    });
    expect(found).toEqual([]);
  });
});
