/**
 * Apollo's possibleTypes: derived from the schema, written to schema/possible-types.json by
 * `npm run schema` (checked here for drift); served at /graphql/possible-types.json
 * (test/clients/apollo.test.ts reads them there).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildSchema } from "../../src/schema/index.js";
import { possibleTypesOf } from "../../src/schema/possibleTypes.js";

describe("possibleTypes", () => {
  const possible = possibleTypesOf(buildSchema());

  it("lists the object types of every interface and union", () => {
    expect(possible).toEqual({
      Asset: ["CloudInstance", "Component", "IotDevice", "Server", "Terminal"],
      PhaseImpact: ["Impact", "NotImplemented"],
    });
  });

  it("schema/possible-types.json has not drifted (run `npm run schema` after a change)", () => {
    const file = readFileSync(new URL("../../schema/possible-types.json", import.meta.url), "utf8");
    expect(JSON.parse(file)).toEqual(possible);
  });
});
