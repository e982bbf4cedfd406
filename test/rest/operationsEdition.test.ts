/**
 * The edition of a request is resolved once, at its transport's edge (servedEdition,
 * src/service/requestState.ts), and carried by its request context: an operation of the REST shim or of
 * the Impact Framework plugins that declared `$edition` or gave a field an `edition` argument would
 * be a second road to it (and one nothing sets). No operation under src/rest/operations/ or
 * src/if/operations/, nor a component's impact operation built from the registry, names an edition.
 */

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type DocumentNode, Kind, parse, visit } from "graphql";
import { describe, expect, it } from "vitest";
import { componentKinds } from "../../src/engine/index.js";
import { componentImpactsDocument } from "../../src/rest/routes/components.js";

const ROOT = join(import.meta.dirname, "../..");
const FOLDERS = ["src/rest/operations", "src/if/operations"];

/** Every place a document names an edition: `Operation: $edition` or `Operation: field(edition:)`. */
function editionsNamed(document: DocumentNode): string[] {
  const named: string[] = [];
  let operation = "(fragment)";
  visit(document, {
    OperationDefinition(node) {
      operation = node.name?.value ?? "(anonymous)";
      for (const variable of node.variableDefinitions ?? []) {
        if (variable.variable.name.value === "edition") named.push(`${operation}: $edition`);
      }
    },
    Field(node) {
      if (node.arguments?.some((argument) => argument.name.value === "edition")) {
        named.push(`${operation}: ${node.name.value}(edition:)`);
      }
    },
  });
  return named;
}

const documents = FOLDERS.flatMap((folder) =>
  readdirSync(join(ROOT, folder))
    .filter((file) => file.endsWith(".graphql"))
    .map((file) => ({
      file: `${folder}/${file}`,
      document: parse(readFileSync(join(ROOT, folder, file), "utf8")),
    })),
);

describe("no operation names an edition: the request's context carries it", () => {
  it("reads the operations, and finds an edition named", () => {
    const operations = documents.flatMap(({ document }) =>
      document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION),
    );
    expect(operations.length).toBeGreaterThan(40);
    const named = parse(
      "query A($edition: Edition) { cpuNames(edition: $edition) }\nquery B { cpuNames }\nquery C { cpuNames(edition: V2_4_1) }",
    );
    expect(editionsNamed(named)).toEqual(["A: $edition", "A: cpuNames(edition:)", "C: cpuNames(edition:)"]);
  });

  it.each(documents.map(({ file }) => file))("%s names no edition", (file) => {
    const { document } = documents.find((entry) => entry.file === file) as (typeof documents)[number];
    expect(editionsNamed(document)).toEqual([]);
  });

  it.each([...componentKinds])("component %s: its impacts operation names no edition", (kind) => {
    expect(editionsNamed(componentImpactsDocument(kind))).toEqual([]);
  });
});
