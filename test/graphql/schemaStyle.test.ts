/**
 * The schema as linters and code generators read it: enum values spelled as the v1 API spells
 * them, never two values of one enum differing only by case (generators that upper-case them,
 * Apollo's iOS and Kotlin ones, would make one name of two).
 */
import { isEnumType } from "graphql";
import { describe, expect, it } from "vitest";
import { buildSchema } from "../../src/schema/index.js";

describe("enum values", () => {
  const enums = Object.values(buildSchema().getTypeMap()).filter(
    (type) => isEnumType(type) && !type.name.startsWith("__"),
  );

  it.each(enums.map((type) => [type.name, type] as const))(
    "%s: no two values differ only by case",
    (_name, type) => {
      if (!isEnumType(type)) throw new Error("not an enum");
      const names = type.getValues().map((value) => value.name);
      expect(new Set(names.map((name) => name.toUpperCase())).size).toBe(names.length);
    },
  );

  it("Criterion: the v1 key CTUh_c is CTUh_c_listed, its computed spelling ctuh_c", () => {
    const criterion = buildSchema().getType("Criterion");
    if (!isEnumType(criterion)) throw new Error("Criterion is not an enum");
    expect(criterion.getValue("CTUh_c_listed")?.value).toBe("CTUh_c");
    expect(criterion.getValue("ctuh_c")?.value).toBe("ctuh_c");
    expect(criterion.getValue("CTUh_c")).toBeUndefined();
  });
});
