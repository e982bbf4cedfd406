/**
 * A shim operation that forgets `$edition` silently answers the default edition. Every
 * operation under src/rest/operations/ must declare `$edition` and pass it, as is, to every field
 * of the schema that takes an `edition` argument (whatever operations exist: the test reads them).
 */

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  buildSchema,
  type DocumentNode,
  Kind,
  type OperationDefinitionNode,
  parse,
  TypeInfo,
  visit,
  visitWithTypeInfo,
} from "graphql";
import { describe, expect, it } from "vitest";
import { componentKinds } from "../../src/engine/index.js";
import { componentImpactsDocument } from "../../src/rest/routes/components.js";

const ROOT = join(import.meta.dirname, "../..");
const OPERATIONS = join(ROOT, "src/rest/operations");
const schema = buildSchema(readFileSync(join(ROOT, "schema/schema.graphql"), "utf8"));

/** Every problem of one document: `Operation: problem`. */
function editionProblems(document: DocumentNode): string[] {
  const problems: string[] = [];
  const typeInfo = new TypeInfo(schema);
  let operation = "(fragment)";
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      OperationDefinition(node: OperationDefinitionNode) {
        operation = node.name?.value ?? "(anonymous)";
        const declared = node.variableDefinitions?.some((v) => v.variable.name.value === "edition");
        if (!declared) problems.push(`${operation}: does not declare $edition`);
      },
      Field(node) {
        const field = typeInfo.getFieldDef();
        if (!field?.args.some((arg) => arg.name === "edition")) return;
        const given = node.arguments?.find((arg) => arg.name.value === "edition");
        const passed = given?.value.kind === Kind.VARIABLE && given.value.name.value === "edition";
        if (!passed) problems.push(`${operation}: ${node.name.value} is not given edition: $edition`);
      },
    }),
  );
  return problems;
}

const documents = readdirSync(OPERATIONS)
  .filter((file) => file.endsWith(".graphql"))
  .map((file) => ({ file, document: parse(readFileSync(join(OPERATIONS, file), "utf8")) }));

describe("every shim operation runs in the request's edition", () => {
  it("reads the operations, and finds a forgotten $edition", () => {
    const operations = documents.flatMap(({ document }) =>
      document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION),
    );
    expect(operations.length).toBeGreaterThan(20);
    const forgetful = parse(
      "query A($edition: Edition) { cpuNames(edition: $edition) }\nquery B { cpuNames }\nquery C($edition: Edition) { cpuNames }",
    );
    expect(editionProblems(forgetful)).toEqual([
      "B: does not declare $edition",
      "B: cpuNames is not given edition: $edition",
      "C: cpuNames is not given edition: $edition",
    ]);
  });

  it.each(documents.map(({ file }) => file))("%s: each operation declares and passes $edition", (file) => {
    const { document } = documents.find((entry) => entry.file === file) as (typeof documents)[number];
    expect(editionProblems(document)).toEqual([]);
  });

  // The component impact operations are built from the registry of component kinds, not read
  // from a file: each kind's operation is checked the same way.
  it.each([...componentKinds])("component %s: its impacts operation declares and passes $edition", (kind) => {
    expect(editionProblems(componentImpactsDocument(kind))).toEqual([]);
  });
});
