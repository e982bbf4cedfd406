/**
 * No function outside the engine spans more than 60 lines (issues 39 and 47: a newcomer reads an entry
 * point as a list of named steps). A function's span counts its nested functions: a long factory
 * of closures is as long to read as a long body. The engine's model builders are exempt: each is
 * one methodology rule written out (docs/methodology.md).
 */
import { readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { sourceFiles } from "../support/sources.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const LONGEST = 60;

/** The name a function is known by: its own, its variable's, its property's or its method's. */
function nameOf(node: ts.FunctionLikeDeclaration): string {
  if (node.name !== undefined) return node.name.getText();
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) {
    return parent.name.getText();
  }
  return "(anonymous)";
}

/** `file: name (n lines)` of each function of `text` longer than `longest` lines. */
function longFunctions(file: string, text: string, longest: number): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body !== undefined) {
      const declaration = node as ts.FunctionLikeDeclaration;
      const first = source.getLineAndCharacterOfPosition(declaration.getStart()).line;
      const last = source.getLineAndCharacterOfPosition(declaration.getEnd()).line;
      const lines = last - first + 1;
      if (lines > longest) found.push(`${file}: ${nameOf(declaration)} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("functions outside the engine are at most 60 lines", () => {
  it("measures a function's span, nested functions included", () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join("\n");
    const sample = [
      `function short() {\n${body(3)}\n}`,
      `const long = () => {\n  const inner = () => {\n${body(4)}\n  };\n}`,
      `class A {\n  method() {\n${body(5)}\n  }\n}`,
    ].join("\n");
    expect(longFunctions("sample.ts", sample, 6)).toEqual([
      "sample.ts: long (8 lines)",
      "sample.ts: method (7 lines)",
    ]);
  });

  it("holds for every file of src/ but the engine", () => {
    const engine = join(root, "src", "engine") + sep;
    const files = sourceFiles(join(root, "src")).filter((path) => !path.startsWith(engine));
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((path) =>
      longFunctions(relative(root, path), readFileSync(path, "utf8"), LONGEST),
    );
    expect(found).toEqual([]);
  });
});
