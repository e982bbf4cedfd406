/**
 * Request validation per edition (docs/methodology.md §19.0.3): 1.2.4 keeps pydantic 1's coercions,
 * 2.4.1 applies pydantic 2's lax mode. The field types are checked directly, then through REST.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PYDANTIC_1, PYDANTIC_2 } from "../../src/editions/requestValidation.js";
import { fieldTypes } from "../../src/rest/validation/fieldTypes.js";
import { sharedApp } from "../support/app.js";
import { call } from "../support/rest.js";

const app = sharedApp();
const v1 = fieldTypes(PYDANTIC_1);
const v2 = fieldTypes(PYDANTIC_2);

function issueKind(result: { success: boolean; error?: { issues: readonly unknown[] } }): string | null {
  if (result.success) return null;
  const issue = result.error?.issues[0] as { params?: { pydantic?: { kind: string } } } | undefined;
  const params = issue?.params;
  return params?.pydantic?.kind ?? "unknown";
}

describe("integer fields", () => {
  it("a fractional number: truncated by pydantic 1, refused by pydantic 2 (int_from_float)", () => {
    expect(v1.integer.parse(32.7)).toBe(32);
    expect(v1.integer.parse(-2.5)).toBe(-2);
    expect(issueKind(v2.integer.safeParse(32.7))).toBe("integerFraction");
  });

  it("integral numbers and numeric text are accepted by both; `32.0` text only by pydantic 2", () => {
    for (const types of [v1, v2]) {
      expect(types.integer.parse(32)).toBe(32);
      expect(types.integer.parse(32.0)).toBe(32);
      expect(types.integer.parse(" 32 ")).toBe(32);
    }
    expect(v2.integer.parse("32.0")).toBe(32);
    expect(v1.integer.safeParse("32.0").success).toBe(false);
    expect(issueKind(v2.integer.safeParse("32.5"))).toBe("integerParsing");
    expect(issueKind(v2.integer.safeParse("big"))).toBe("integerParsing");
  });

  it("booleans are 1/0 for both generations", () => {
    for (const types of [v1, v2]) {
      expect(types.integer.parse(true)).toBe(1);
      expect(types.integer.parse(false)).toBe(0);
      expect(types.float.parse(true)).toBe(1);
    }
  });

  it("property: pydantic 2 accepts a number exactly when it is integral", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        const result = v2.integer.safeParse(x);
        expect(result.success).toBe(Number.isInteger(x));
        if (result.success) expect(result.data).toBe(x);
      }),
    );
  });
});

describe("float and string fields", () => {
  it("floats: numeric text parsed, other text refused (float_parsing)", () => {
    expect(v2.float.parse("1.79")).toBe(1.79);
    expect(issueKind(v2.float.safeParse("abc"))).toBe("floatParsing");
    expect(issueKind(v2.float.safeParse({}))).toBe("floatType");
  });

  it("strings: a number is text for pydantic 1, refused by pydantic 2 (string_type)", () => {
    expect(v1.text.parse(12)).toBe("12");
    expect(issueKind(v2.text.safeParse(12))).toBe("textType");
    expect(v2.text.parse("FRA")).toBe("FRA");
  });

  it("fields declared without Optional: null is absent for pydantic 1, refused by pydantic 2", () => {
    expect(v1.defaulted(v1.text).parse(null)).toBeNull();
    expect(issueKind(v2.defaulted(v2.text).safeParse(null))).toBe("textType");
    expect(v2.defaulted(v2.text).parse(undefined)).toBeUndefined();
    expect(v2.optional(v2.text).parse(null)).toBeNull();
  });
});

describe("through REST, per request", () => {
  it("a non-integral `units`: 422 int_from_float naming the field in 2.4.1, truncated in 1.2.4", async () => {
    const v2Answer = await call(app, "POST", "/v1/component/ram?verbose=false&edition=2.4.1", { units: 2.5 });
    expect(v2Answer.status).toBe(422);
    expect(v2Answer.body.detail).toEqual([
      {
        type: "int_from_float",
        loc: ["body", "units"],
        msg: "Input should be a valid integer, got a number with a fractional part",
        input: 2.5,
      },
    ]);
    const truncated = await call(app, "POST", "/v1/component/ram?verbose=false&edition=1.2.4", {
      units: 2.5,
    });
    const two = await call(app, "POST", "/v1/component/ram?verbose=false&edition=1.2.4", { units: 2 });
    expect(truncated.status).toBe(200);
    expect(truncated.body).toEqual(two.body);
  });

  it("a number for a string field: 422 string_type in 2.4.1, coerced in 1.2.4", async () => {
    const body = { usage: { usage_location: 33 } };
    const refused = await call(app, "POST", "/v1/component/cpu?edition=2.4.1", body);
    expect(refused.status).toBe(422);
    expect(refused.body.detail[0]).toMatchObject({
      type: "string_type",
      loc: ["body", "usage", "usage_location"],
    });
    expect((await call(app, "POST", "/v1/component/cpu?edition=1.2.4", body)).status).toBe(200);
  });

  it("explicit nulls refused in 2.4.1 where the reference declares no Optional", async () => {
    const cases: [string, unknown, (string | number)[]][] = [
      ["/v1/component/case", { case_type: null }, ["body", "case_type"]],
      ["/v1/consumption_profile/cpu", { cpu: null }, ["body", "cpu"]],
      ["/v1/consumption_profile/cpu", { cpu: {}, workload: null }, ["body", "workload"]],
      [
        "/v1/iot/iot_device",
        { functional_blocks: [{ type: "casing", hsl_level: null }] },
        ["body", "functional_blocks", 0, "hsl_level"],
      ],
    ];
    for (const [path, body, loc] of cases) {
      const answer = await call(app, "POST", `${path}?edition=2.4.1`, body);
      expect(answer.status, path).toBe(422);
      expect(answer.body.detail[0].loc, path).toEqual(loc);
      expect((await call(app, "POST", `${path}?edition=1.2.4`, body)).status, path).toBe(200);
    }
  });

  it("other optional fields still accept null in 2.4.1", async () => {
    const answer = await call(app, "POST", "/v1/component/cpu?verbose=false&edition=2.4.1", {
      name: null,
      units: null,
      usage: { usage_location: null },
    });
    expect(answer.status).toBe(200);
  });

  it("query values: pydantic 2 wording with the refused input", async () => {
    const answer = await call(app, "GET", "/v1/server/?duration=abc&edition=2.4.1");
    expect(answer.status).toBe(422);
    expect(answer.body.detail[0]).toMatchObject({
      type: "float_parsing",
      loc: ["query", "duration"],
      input: "abc",
    });
    const verbose = await call(app, "GET", "/v1/server/?verbose=maybe&edition=2.4.1");
    expect(verbose.body.detail[0]).toMatchObject({ type: "bool_parsing", loc: ["query", "verbose"] });
  });

  it("missing query parameters and model refusals use pydantic 2's layout in 2.4.1", async () => {
    const missing = await call(app, "GET", "/v1/terminal/laptop/archetype_config?edition=2.4.1");
    expect(missing.status).toBe(422);
    expect(missing.body.detail[0]).toEqual({
      type: "missing",
      loc: ["query", "archetype"],
      msg: "Field required",
      input: null,
    });
    const refused = await call(app, "POST", "/v1/terminal/laptop?edition=2.4.1", { type: "gaming" });
    expect(refused.status).toBe(422);
    expect(refused.body.detail[0]).toMatchObject({
      type: "value_error",
      loc: ["body", "type"],
      input: "gaming",
    });
    const v1 = await call(app, "POST", "/v1/terminal/laptop?edition=1.2.4", { type: "gaming" });
    expect(v1.body.detail[0]).toMatchObject({ type: "value_error", loc: ["body", "type"] });
    expect(v1.body.detail[0]).not.toHaveProperty("input");
  });
});
