/**
 * GraphiQL's example tabs are valid against the schema and run without errors: one per asset
 * kind, the fleet example with its variables.
 */
import { readFileSync } from "node:fs";
import { validate as inspectorValidate } from "@graphql-inspector/core";
import { buildSchema, parse, Source, validate } from "graphql";
import { describe, expect, it } from "vitest";
import { GRAPHIQL_EXAMPLES } from "../../src/http/site/graphiqlExamples.js";
import { EXAMPLE_LINE_LIMIT } from "../../src/http/site/graphiqlTab.js";
import { sharedApp } from "../support/app.js";
import { graphqlClient } from "../support/graphql.js";

const app = sharedApp();
const client = graphqlClient(app);

const rootFields = (query: string) =>
  parse(query).definitions.flatMap((definition) =>
    definition.kind === "OperationDefinition"
      ? definition.selectionSet.selections.flatMap((s) => (s.kind === "Field" ? [s.name.value] : []))
      : [],
  );

describe("GraphiQL examples", () => {
  it("cover every asset kind, a fleet with its variables and the version", () => {
    const fields = GRAPHIQL_EXAMPLES.flatMap((example) => rootFields(example.query));
    for (const field of [
      "server",
      "cpu",
      "cloudInstance",
      "terminal",
      "peripheral",
      "iotDevice",
      "generativeAi",
      "consumptionProfile",
      "cloudInstances",
      "version",
    ]) {
      expect(fields).toContain(field);
    }
    const fleet = GRAPHIQL_EXAMPLES.find((example) => rootFields(example.query).includes("cloudInstances"));
    expect(JSON.parse(fleet?.variables ?? "{}").fleet.length).toBeGreaterThan(1);
  });

  it("read together against the SDL file, as graphql-inspector and codegen read them, they are valid", () => {
    // One document of every tab: fragment and operation names must be unique across the tabs.
    const sdl = buildSchema(readFileSync(new URL("../../schema/schema.graphql", import.meta.url), "utf8"));
    const together = parse(GRAPHIQL_EXAMPLES.map((example) => example.query).join("\n"));
    expect(validate(sdl, together).map((error) => error.message)).toEqual([]);
  });

  it("graphql-inspector validates every tab, each a document of its own, against the SDL file cleanly", () => {
    const sdl = buildSchema(readFileSync(new URL("../../schema/schema.graphql", import.meta.url), "utf8"));
    const tabs = GRAPHIQL_EXAMPLES.map((example, index) => new Source(example.query, `tab-${index}.graphql`));
    // Inspector also reads fragments across documents: a name two tabs define is refused.
    const problems = inspectorValidate(sdl, tabs).flatMap((result) => [
      ...result.errors.map((error) => `${result.source.name}: ${error.message}`),
      ...result.deprecated.map((error) => `${result.source.name}: ${error.message}`),
    ]);
    expect(problems).toEqual([]);
  });

  it("graphql-inspector would have refused tabs that each define one fragment name", () => {
    const sdl = buildSchema(readFileSync(new URL("../../schema/schema.graphql", import.meta.url), "utf8"));
    const tab = "fragment Phase on Query { version { service } }\nquery Q { ...Phase }";
    const results = inspectorValidate(sdl, [new Source(tab, "a.graphql"), new Source(tab, "b.graphql")]);
    expect(results.flatMap((result) => result.errors.map((error) => error.message))).toContain(
      "Name of 'Phase' fragment is not unique",
    );
  });

  it("no line is longer than the query editor shows at 1400 px (test/http/browser.test.ts)", () => {
    for (const example of GRAPHIQL_EXAMPLES) {
      for (const line of `${example.query}\n${example.variables ?? ""}`.split("\n")) {
        expect(line.length, line).toBeLessThanOrEqual(EXAMPLE_LINE_LIMIT);
      }
    }
  });

  it.each(GRAPHIQL_EXAMPLES.map((example) => [rootFields(example.query).join(", "), example] as const))(
    "%s: valid and answered without errors",
    async (_name, example) => {
      expect(validate(app.schema, parse(example.query))).toEqual([]);
      const answer = await client(
        example.query,
        example.variables ? JSON.parse(example.variables) : undefined,
      );
      expect(answer.errors).toBeUndefined();
      expect(answer.data).toBeTruthy();
    },
  );

  it("the fleet example sums its three instances", async () => {
    const fleet = GRAPHIQL_EXAMPLES.find((example) => rootFields(example.query).includes("cloudInstances"));
    const answer = await client(fleet?.query ?? "", JSON.parse(fleet?.variables ?? "{}"));
    expect(answer.data.cloudInstances.count).toBe(3);
    expect(answer.data.cloudInstances.failed).toBe(0);
    expect(answer.data.cloudInstances.total[0].embedded.items).toBe(3);
  });
});
