/**
 * The `Asset` interface (src/schema/impact.ts): the `impacts` and `verbose` fields every evaluated
 * type shares, described once, and what selecting them through the interface must not change.
 */
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app/main.js";
import { prepareCloudInstance } from "../../src/service/cloud.js";
import { evaluatedShape, evaluationFor } from "../../src/service/evaluations/evaluations.js";
import { createRequestContext } from "../../src/service/requestState.js";
import { lazyApp, sharedApp, testConfig } from "../support/app.js";
import { graphqlClient } from "../support/graphql.js";

const app = sharedApp();
const query = graphqlClient(app);

describe("the Asset interface", () => {
  it("is implemented by every evaluated type, and only by them", async () => {
    const answer = await query(`{ __type(name: "Asset") { kind possibleTypes { name } } }`);
    expect(answer.data.__type.kind).toBe("INTERFACE");
    const names = answer.data.__type.possibleTypes.map((type: { name: string }) => type.name).sort();
    expect(names).toEqual([
      "CloudInstance",
      "Component",
      "GenerativeAiUsage",
      "IotDevice",
      "Server",
      "Terminal",
    ]);
  });

  it("a selection through `... on Asset` answers what the same selection on the type answers", async () => {
    const selection = "impacts(criteria: [gwp]) { criterion v1 } verbose(criteria: [gwp]) { v1 }";
    const direct = await query(`{ server { ${selection} } iotDevice { ${selection} } }`);
    const throughInterface = await query(
      `{ server { ... on Asset { ${selection} } } iotDevice { ...Fields } } fragment Fields on Asset { ${selection} }`,
    );
    expect(direct.errors).toBeUndefined();
    expect(throughInterface.text).toBe(direct.text);
    expect(direct.data.server.impacts[0].criterion).toBe("gwp");
  });
});

describe("a type's own field reads the model its impacts read (evaluatedShape)", () => {
  it("hostShare of a cloud instance: the shape of the request's evaluation, not a second model", async () => {
    const request = createRequestContext(app.service, { spellError: (error) => error });
    const prepared = await prepareCloudInstance(request.edition("2.4.1"), "aws", "r5ad.12xlarge", null, []);
    const shape = evaluatedShape(request, prepared);
    expect(shape).toBe(evaluationFor(request, prepared, {}).asset.shape);
    // 48 vCPUs of the r5ad.24xlarge host's 128 threads, 384 of its 768 GB, 1,800 of its 3,600 GB of SSD.
    expect(shape.hostShare()).toEqual({ cpu: 0.375, ram: 0.5, ssd: 0.5, hdd: 0 });
    const answer = await query(
      `{ cloudInstance(provider: "aws", instanceType: "r5ad.12xlarge", edition: V2_4_1) { hostShare { cpu ram ssd hdd } } }`,
    );
    expect(answer.data.cloudInstance.hostShare).toEqual(shape.hostShare());
  });
});

describe("the answer-size estimate (MAX_ANSWER_BYTES) counts fields selected through the interface", () => {
  // 100,000 bytes: 5 items × 3 aliases of a 1-criterion verbose report (5 × (24 + 3 × (24 + 3,000)))
  // is 45,480 bytes, 3 criteria make it 135,480 bytes: refused, whichever way it is written.
  const small = graphqlClient(lazyApp(() => createApp(testConfig({ MAX_ANSWER_BYTES: "100000" }))));
  const fleet = { inputs: Array.from({ length: 5 }, () => ({ configuration: { cpu: { units: 2 } } })) };
  const fleetQuery = (selection: string) =>
    `query ($inputs: [ServerItemInput!]!) { servers(inputs: $inputs) { count items { ${selection} } } }`;
  const aliases = ["a", "b", "c"]
    .map((alias) => `${alias}: verbose(criteria: [gwp, adp, pe]) { v1 }`)
    .join(" ");

  it.each([
    ["on the type", aliases],
    ["through an inline fragment on Asset", `... on Asset { ${aliases} }`],
  ])("3 aliased verbose reports of 3 criteria for 5 items, %s, are refused", async (_how, selection) => {
    const answer = await small(fleetQuery(selection), fleet);
    expect(answer.errors?.[0].extensions).toMatchObject({
      code: "LIMIT_EXCEEDED",
      limit: "MAX_ANSWER_BYTES",
    });
    expect(answer.errors?.[0].message).toContain("about 0.1 MB");
  });
});
