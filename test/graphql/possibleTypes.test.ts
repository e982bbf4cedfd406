/**
 * Apollo's possibleTypes: derived from the schema, written to schema/possible-types.json by
 * `npm run schema` (checked here for drift); served at /graphql/possible-types.json
 * (test/clients/apollo.test.ts reads them there).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildSchema } from "../../src/schema/index.js";
import { possibleTypesOf, unidentifiedTypesOf } from "../../src/schema/introspection/possibleTypes.js";

describe("possibleTypes", () => {
  const possible = possibleTypesOf(buildSchema());

  it("lists the object types of every interface and union", () => {
    expect(possible).toEqual({
      Asset: ["CloudInstance", "Component", "GenerativeAiUsage", "IotDevice", "Server", "Terminal"],
      PhaseImpact: ["Impact", "NotImplemented"],
    });
  });

  it("schema/possible-types.json has not drifted (run `npm run schema` after a change)", () => {
    const file = readFileSync(new URL("../../schema/possible-types.json", import.meta.url), "utf8");
    expect(JSON.parse(file)).toEqual(possible);
  });
});

describe("types without identity (clients' cache set-up, docs/clients.md)", () => {
  const schema = buildSchema();
  const unidentified = unidentifiedTypesOf(schema);

  it("are the object types with no id field, the fleets and the evaluated assets among them", () => {
    expect(unidentified).toEqual(
      expect.arrayContaining(["CloudInstanceBatch", "ServerBatch", "Server", "Impact"]),
    );
    expect(unidentified).not.toContain("Query");
    const withId = Object.values(schema.getTypeMap()).filter(
      (type) => "getFields" in type && "id" in (type.getFields() as object),
    );
    for (const type of withId) expect(unidentified).not.toContain(type.name);
  });

  it("schema/unidentified-types.json has not drifted (run `npm run schema` after a change)", () => {
    const file = readFileSync(new URL("../../schema/unidentified-types.json", import.meta.url), "utf8");
    expect(JSON.parse(file)).toEqual(unidentified);
  });
});
