/**
 * The criteria as the transports read them (src/service/criteria.ts): one list of spellings, one
 * parser, one check against an edition, and the GraphQL enum and the REST query derived from them.
 */
import { describe, expect, it } from "vitest";
import { editionById } from "../../src/editions/index.js";
import { impactQuery, QueryValidationError } from "../../src/rest/validation/query.js";
import { buildSchema } from "../../src/schema/index.js";
import {
  CRITERION_SPELLINGS,
  criterionEnumName,
  parseCriterion,
  requestedCriteria,
} from "../../src/service/criteria.js";
import { DomainError } from "../../src/service/errors.js";

const rules124 = editionById("1.2.4").rules;
const rules241 = editionById("2.4.1").rules;

describe("criteria", () => {
  it("parses every spelling of the list, keys and names alike, and nothing else", () => {
    expect(CRITERION_SPELLINGS).toContain("gwp");
    expect(CRITERION_SPELLINGS).toContain("CTUh_c");
    expect(CRITERION_SPELLINGS).toContain("ctuh_c");
    for (const spelling of CRITERION_SPELLINGS) expect(parseCriterion(spelling)?.requested).toBe(spelling);
    expect(parseCriterion("CTUh_c")?.computed).toBe(false);
    expect(parseCriterion("ctuh_c")?.computed).toBe(true);
    expect(parseCriterion("GWP")).toBeNull();
    expect(parseCriterion("co2")).toBeNull();
  });

  it("the GraphQL enum is the list, a listed-only key renamed", () => {
    const values = enumValues();
    // The built schema lists the values sorted.
    expect(Object.keys(values).sort()).toEqual(CRITERION_SPELLINGS.map(criterionEnumName).sort());
    expect(Object.values(values).sort()).toEqual([...CRITERION_SPELLINGS].sort());
    expect(values.CTUh_c_listed).toBe("CTUh_c");
  });

  it("checks a request's criteria against its edition, its default ones when none is named", () => {
    expect(requestedCriteria(null, rules124).map((c) => c.requested)).toEqual(["gwp", "adp", "pe"]);
    expect(requestedCriteria(["fe"], rules241).map((c) => c.info.name)).toEqual(["fe"]);
    const refusal = (() => {
      try {
        requestedCriteria(["gwp", "fe"], rules124);
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(DomainError);
    expect(refusal).toMatchObject({
      kind: "BAD_USER_INPUT",
      message: "unknown criterion fe in edition 1.2.4",
      field: ["criteria"],
    });
  });

  it("the REST query refuses a spelling no edition has and maps a listed key to its enum value", () => {
    expect(() => impactQuery(new URLSearchParams("criteria=co2"))).toThrow(QueryValidationError);
    expect(impactQuery(new URLSearchParams("criteria=CTUh_c&criteria=gwp")).criteria).toEqual([
      "CTUh_c_listed",
      "gwp",
    ]);
  });
});

/** The values of the built schema's Criterion enum, in order. */
function enumValues(): Record<string, unknown> {
  const type = buildSchema().getType("Criterion");
  if (!type || !("getValues" in type)) throw new Error("no Criterion enum");
  return Object.fromEntries(type.getValues().map((value) => [value.name, value.value]));
}
