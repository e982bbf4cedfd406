/**
 * No function literal is written straight into a property in src/ (`x.p = () => …`,
 * `x.p = function …`, `x[k] = () => …`). V8's parser takes such a function for a long-lived method
 * and allocates it in the old generation; a per-request one then keeps everything it captures
 * (a model, its attributes) alive through every young collection until the next full one. The
 * models of a 1,000,000-line batch filled the old generation that way (peak RSS 346 MB on Node
 * 26, 222 MB once the routines went through `Attribute.completeWith`; bench/README.md, "Completion
 * routines given as arguments"). Give the function as an argument, or name it in a variable first.
 */
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { sourceFiles } from "../support/sources.js";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** `file:line: text` of each assignment of a function literal to a property in `file`. */
function propertyFunctionAssignments(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      (ts.isPropertyAccessExpression(node.left) || ts.isElementAccessExpression(node.left)) &&
      (ts.isArrowFunction(node.right) || ts.isFunctionExpression(node.right))
    ) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart());
      found.push(`${file}:${line + 1}: ${node.left.getText()} = …`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("function literals are not assigned to properties (V8 allocates them old)", () => {
  it("finds the pattern where it is written", () => {
    const sample = [
      "a.complete = () => b.run();",
      "this.x = function () {};",
      "table[key] = (row) => row.id;",
      "const kept = () => 1; a.complete = kept; call(() => 2); const o = { f: () => 3 };",
    ].join("\n");
    expect(propertyFunctionAssignments("sample.ts", sample)).toEqual([
      "sample.ts:1: a.complete = …",
      "sample.ts:2: this.x = …",
      "sample.ts:3: table[key] = …",
    ]);
  });

  it("holds for every file of src/", () => {
    const files = sourceFiles(join(root, "src"));
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((path) =>
      propertyFunctionAssignments(relative(root, path), readFileSync(path, "utf8")),
    );
    expect(found).toEqual([]);
  });
});
