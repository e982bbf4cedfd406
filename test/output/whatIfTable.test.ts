/**
 * "What to act on" as the report writes it (src/output/reportParts/whatIf.ts): each change's
 * requests in its cell with their line breaks (escapeHtml alone writes a line break as the text
 * `\x0a`), wrapping within the table rather than widening it.
 */
import { describe, expect, it } from "vitest";
import { STYLE } from "../../src/output/report.js";
import type { WhatIf } from "../../src/output/reportParts/model.js";
import { whatIfSection } from "../../src/output/reportParts/whatIf.js";

const request = (instanceType: string) => ({
  rest: {
    path: "/v1/cloud/instance?verbose=false&duration=1&criteria=gwp&edition=2.5.0",
    body: { provider: "aws", instance_type: instanceType, usage: { region: "us-east-1" } },
  },
  graphql: `{ cloudInstance(edition: "2.5.0", provider: "aws", instanceType: "${instanceType}") { impacts(criteria: [gwp], duration: 1) { embedded { ... on Impact { unrounded { value } } } } } }`,
});

const CHANGE: WhatIf = {
  provider: "aws",
  instanceType: "m5.xlarge",
  place: "us-east-1",
  hours: 720,
  cost: 138.24,
  change: "family",
  toInstanceType: "m8i.xlarge",
  toPlace: "us-east-1",
  why: "the current family",
  gwp: 40,
  toGwp: 30,
  price: 0.192,
  toPrice: null,
  requests: { from: request("m5.xlarge"), to: request("m8i.xlarge") },
  times: { value: 720, what: "h" },
};

describe("the what-if table's requests", () => {
  it("keep their line breaks, with no control written as text", () => {
    const html = whatIfSection([CHANGE], "USD", "usages");
    const pre = /<pre>([\s\S]*?)<\/pre>/.exec(html)?.[1] ?? "";
    expect(pre).not.toContain("\\x0a");
    expect(pre.split("\n").length).toBeGreaterThanOrEqual(6);
    expect(pre.split("\n")[0].replaceAll("&amp;", "&")).toBe(`POST ${CHANGE.requests.from.rest.path}`);
  });

  it("wrap in their cell: the report's style breaks their lines anywhere", () => {
    expect(STYLE).toMatch(/table\.what-if pre \{[^}]*white-space: pre-wrap;[^}]*overflow-wrap: anywhere/);
  });
});
