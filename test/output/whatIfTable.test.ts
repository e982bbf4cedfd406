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
  priceRead: "price unknown: the bill has no hours of m8i.xlarge in us-east-1",
  priceOrigin: "",
  placePrices: [],
  requests: { from: request("m5.xlarge"), to: request("m8i.xlarge") },
  times: { value: 720, what: "h" },
};

describe("the what-if table's requests", () => {
  it("keep their line breaks, with no control written as text", () => {
    const html = whatIfSection([CHANGE], "USD", "usages");
    const pre = /<pre>([\s\S]*?)<\/pre>/.exec(html)?.[1] ?? "";
    expect(pre).not.toContain("\\x0a");
    const lines = pre.replaceAll("&amp;", "&").replaceAll("&quot;", '"').split("\n");
    expect(lines).toHaveLength(6);
    expect(lines[0]).toBe("# the service (npm start) at http://localhost:8080; each answer × 720 h");
    expect(lines[1]).toBe(
      `curl -s 'http://localhost:8080${CHANGE.requests.from.rest.path}' -H 'content-type: application/json' -d '${JSON.stringify(CHANGE.requests.from.rest.body)}'`,
    );
    expect(lines[4]).toBe(
      `curl -sG http://localhost:8080/graphql --data-urlencode 'query=${CHANGE.requests.from.graphql}'`,
    );
  });

  it("say why a price is unknown, in its cell", () => {
    const html = whatIfSection([CHANGE], "USD", "usages");
    expect(html).toContain(
      'price unknown<span class="why">the bill has no hours of m8i.xlarge in us-east-1</span>',
    );
  });

  it("say plainly when there is nothing to move", () => {
    expect(whatIfSection([], "USD", "usages (an instance type at a place)", true, 0)).toContain(
      "Nothing to move or resize: the usages are none",
    );
    expect(whatIfSection([], "USD", "usages", true, 3)).toContain("No change saves gwp: the 3 largest");
  });

  it("wrap in their cell: the report's style breaks their lines anywhere", () => {
    expect(STYLE).toMatch(/table\.what-if pre \{[^}]*white-space: pre-wrap;[^}]*overflow-wrap: anywhere/);
  });
});
