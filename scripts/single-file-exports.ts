/**
 * Lists the exports that no other file imports (`npx tsx scripts/single-file-exports.ts [folder…]`):
 * an `export` read only by its own file widens a module's surface for nothing (drop the keyword),
 * and one read by no file at all is dead code. Every TypeScript file of src, test, bench and scripts
 * counts as a reader (a name a test imports is used); the package's entry points (package.json
 * `exports`, bin) are read from outside and are left out. Names imported through `import * as` or
 * `import()` count as read whole. The folders given (default: src) restrict the listing, not the
 * readers. Prints `file:line name` per export, then the counts. Not a test: a tool for reviews.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

const ROOT = resolve(import.meta.dirname, "..");
const READERS = ["src", "test", "bench", "scripts"];
const GENERATED = "src/rest/generated/";
const ENTRY_POINTS = new Set([
  "src/if/plugins.ts",
  "src/app/main.ts",
  "src/cli/main.ts",
  "src/cli/worker.ts",
]);

function typescriptFiles(folder: string): string[] {
  const path = join(ROOT, folder);
  return readdirSync(path).flatMap((name) => {
    const child = join(folder, name);
    if (statSync(join(ROOT, child)).isDirectory())
      return name === "node_modules" ? [] : typescriptFiles(child);
    return name.endsWith(".ts") && !name.endsWith(".d.ts") ? [child] : [];
  });
}

/** The repository file a relative module specifier names (`./x.js` → `x.ts`), or null. */
function resolved(from: string, specifier: string): string | null {
  if (!specifier.startsWith(".")) return null;
  const base = relative(ROOT, resolve(ROOT, dirname(from), specifier)).replace(/\.(m?js|ts)$/, "");
  for (const candidate of [`${base}.ts`, `${base}/index.ts`]) {
    try {
      if (statSync(join(ROOT, candidate)).isFile()) return candidate;
    } catch {}
  }
  return null;
}

interface Exported {
  readonly file: string;
  readonly name: string;
  readonly line: number;
}

const files = READERS.flatMap(typescriptFiles);
const exported: Exported[] = [];
/** `file name` of every name read from another file; `file *` when read whole. */
const read = new Set<string>();

function isExported(node: ts.Node): boolean {
  return (
    ts.canHaveModifiers(node) &&
    (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
  );
}

for (const file of files) {
  const source = ts.createSourceFile(
    file,
    readFileSync(join(ROOT, file), "utf8"),
    ts.ScriptTarget.Latest,
    true,
  );
  const lineOf = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
  const declare = (name: string, node: ts.Node) => exported.push({ file, name, line: lineOf(node) });
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const target = resolved(file, node.moduleSpecifier.text);
      const bindings = node.importClause?.namedBindings;
      if (target !== null && bindings !== undefined) {
        if (ts.isNamespaceImport(bindings)) read.add(`${target} *`);
        else
          for (const element of bindings.elements)
            read.add(`${target} ${(element.propertyName ?? element.name).text}`);
      }
      if (target !== null && node.importClause?.name !== undefined) read.add(`${target} default`);
    } else if (ts.isExportDeclaration(node)) {
      const target =
        node.moduleSpecifier !== undefined && ts.isStringLiteral(node.moduleSpecifier)
          ? resolved(file, node.moduleSpecifier.text)
          : null;
      const clause = node.exportClause;
      if (clause === undefined) {
        if (target !== null) read.add(`${target} *`);
      } else if (ts.isNamedExports(clause)) {
        for (const element of clause.elements) {
          if (target !== null) read.add(`${target} ${(element.propertyName ?? element.name).text}`);
          declare(element.name.text, element);
        }
      }
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      const target =
        argument !== undefined && ts.isStringLiteral(argument) ? resolved(file, argument.text) : null;
      if (target !== null) read.add(`${target} *`);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const literal = node.argument.literal;
      const target = ts.isStringLiteral(literal) ? resolved(file, literal.text) : null;
      if (target !== null) read.add(`${target} *`);
    } else if (isExported(node) && node.parent === source) {
      if (ts.isVariableStatement(node)) {
        for (const declaration of node.declarationList.declarations) {
          if (ts.isIdentifier(declaration.name)) declare(declaration.name.text, declaration);
        }
      } else if ("name" in node && node.name !== undefined && ts.isIdentifier(node.name as ts.Node)) {
        declare((node.name as ts.Identifier).text, node);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

const listed = process.argv.slice(2);
const inListing = (file: string) =>
  (listed.length === 0 ? ["src/"] : listed).some(
    (folder) => file === folder || file.startsWith(folder.replace(/\/?$/, "/")),
  );
const candidates = exported.filter(
  ({ file }) => inListing(file) && !ENTRY_POINTS.has(file) && !file.startsWith(GENERATED),
);
const unread = candidates.filter(({ file, name }) => !read.has(`${file} ${name}`) && !read.has(`${file} *`));
for (const { file, name, line } of unread) console.log(`${file}:${line} ${name}`);
console.log(`${unread.length} of ${candidates.length} exports read by no other file`);
