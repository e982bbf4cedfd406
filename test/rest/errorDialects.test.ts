/**
 * 422 bodies in each edition's dialect (docs/methodology.md §19.0.3): 1.2.4 words refusals as
 * FastAPI + pydantic 1 (`{loc, msg, type}`, `type_error.integer`, no `input`), 2.4.1 as FastAPI +
 * pydantic 2 (`{type, loc, msg, input}`, the value echoed as sent). The service's own checks
 * (negative counts, limits) are worded with pydantic's nearest constraint.
 */
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app/main.js";
import { PYDANTIC_1_ERRORS, PYDANTIC_2_ERRORS } from "../../src/editions/errorDialects.js";
import { dialectDetail } from "../../src/rest/validation/errorDialect.js";
import { testConfig } from "../support/app.js";
import { call } from "../support/rest.js";

const app = createApp(testConfig());
const post = async (edition: string, path: string, body: unknown) => {
  const answer = await call(app, "POST", `${path}${path.includes("?") ? "&" : "?"}edition=${edition}`, body);
  expect(answer.status, `${edition} ${path} ${JSON.stringify(body)}`).toBe(422);
  return answer.body.detail;
};
const get = async (edition: string, path: string) => {
  const answer = await call(app, "GET", `${path}${path.includes("?") ? "&" : "?"}edition=${edition}`);
  expect(answer.status, `${edition} ${path}`).toBe(422);
  return answer.body.detail;
};

describe("pydantic 1 (1.2.4): {loc, msg, type}, pydantic 1's types, no input", () => {
  it.each([
    [
      "/v1/component/ssd",
      { capacity: [1, 2] },
      ["body", "capacity"],
      "value is not a valid integer",
      "type_error.integer",
    ],
    [
      "/v1/component/ram",
      { capacity: "big" },
      ["body", "capacity"],
      "value is not a valid integer",
      "type_error.integer",
    ],
    [
      "/v1/component/power_supply",
      { unit_weight: "heavy" },
      ["body", "unit_weight"],
      "value is not a valid float",
      "type_error.float",
    ],
    [
      "/v1/server/",
      { usage: { elec_factors: { gwp: "low" } } },
      ["body", "usage", "elec_factors", "gwp"],
      "value is not a valid float",
      "type_error.float",
    ],
    ["/v1/server/", { model: "x" }, ["body", "model"], "value is not a valid dict", "type_error.dict"],
    [
      "/v1/iot/iot_device",
      { functional_blocks: "casing" },
      ["body", "functional_blocks"],
      "value is not a valid list",
      "type_error.list",
    ],
    [
      "/v1/iot/iot_device",
      { functional_blocks: [{ hsl_level: "HSL-1" }] },
      ["body", "functional_blocks", 0, "type"],
      "field required",
      "value_error.missing",
    ],
    // pydantic 1 reads null as absent: the service's completeness check then refuses it.
    [
      "/v1/iot/iot_device",
      { functional_blocks: [{ type: null }] },
      ["body", "functional_blocks", 0, "type"],
      "field required",
      "value_error.missing",
    ],
    [
      "/v1/iot/iot_device",
      { functional_blocks: [{ type: {} }] },
      ["body", "functional_blocks", 0, "type"],
      "str type expected",
      "type_error.str",
    ],
  ])("POST %s %j", async (path, body, loc, msg, type) => {
    expect(await post("1.2.4", path, body)).toEqual([{ loc, msg, type }]);
  });

  it("a value fitting no member of a union is refused by each (time_workload: a number or a list)", async () => {
    expect(await post("1.2.4", "/v1/server/", { usage: { time_workload: "abc" } })).toEqual([
      {
        loc: ["body", "usage", "time_workload"],
        msg: "value is not a valid float",
        type: "type_error.float",
      },
      { loc: ["body", "usage", "time_workload"], msg: "value is not a valid list", type: "type_error.list" },
    ]);
  });

  it("the service's own bounds: pydantic 1's constraint types with ctx.limit_value", async () => {
    expect(await post("1.2.4", "/v1/component/ram", { units: -2 })).toEqual([
      {
        loc: ["body", "units"],
        msg: "ensure this value is greater than or equal to 0",
        type: "value_error.number.not_ge",
        ctx: { limit_value: 0 },
      },
    ]);
    expect(await post("1.2.4", "/v1/server/", { usage: { time_workload: 150 } })).toEqual([
      {
        loc: ["body", "usage", "time_workload"],
        msg: "ensure this value is less than or equal to 100",
        type: "value_error.number.not_le",
        ctx: { limit_value: 100 },
      },
    ]);
    // A rule with no pydantic constraint: a value error stating it.
    expect(await post("1.2.4", "/v1/component/ram", { density: 0 })).toEqual([
      { loc: ["body", "density"], msg: "must not be zero", type: "value_error" },
    ]);
  });

  it("query values", async () => {
    expect(await get("1.2.4", "/v1/component/cpu/archetype_config")).toEqual([
      { loc: ["query", "archetype"], msg: "field required", type: "value_error.missing" },
    ]);
    expect(await get("1.2.4", "/v1/server/?duration=abc")).toEqual([
      { loc: ["query", "duration"], msg: "value is not a valid float", type: "type_error.float" },
    ]);
    expect(await get("1.2.4", "/v1/server/?verbose=maybe")).toEqual([
      { loc: ["query", "verbose"], msg: "value could not be parsed to a boolean", type: "type_error.bool" },
    ]);
    expect(await get("1.2.4", "/v1/server/?allocation=foo")).toEqual([
      {
        loc: ["query", "allocation"],
        msg: "value is not a valid enumeration member; permitted: 'LINEAR', 'TOTAL'",
        type: "type_error.enum",
        ctx: { enum_values: ["LINEAR", "TOTAL"] },
      },
    ]);
  });
});

describe("pydantic 2 (2.4.1): {type, loc, msg, input}, the input as sent", () => {
  it.each([
    [
      "/v1/component/ram",
      { capacity: "big" },
      "int_parsing",
      ["body", "capacity"],
      "Input should be a valid integer, unable to parse string as an integer",
      "big",
    ],
    [
      "/v1/component/ssd",
      { capacity: [1, 2] },
      "int_type",
      ["body", "capacity"],
      "Input should be a valid integer",
      [1, 2],
    ],
    [
      "/v1/component/ram",
      { units: 2.5 },
      "int_from_float",
      ["body", "units"],
      "Input should be a valid integer, got a number with a fractional part",
      2.5,
    ],
    [
      "/v1/component/power_supply",
      { unit_weight: "heavy" },
      "float_parsing",
      ["body", "unit_weight"],
      "Input should be a valid number, unable to parse string as a number",
      "heavy",
    ],
    [
      "/v1/terminal/vr_headset",
      { type: 1 },
      "string_type",
      ["body", "type"],
      "Input should be a valid string",
      1,
    ],
    [
      "/v1/iot/iot_device",
      { functional_blocks: "casing" },
      "list_type",
      ["body", "functional_blocks"],
      "Input should be a valid list",
      "casing",
    ],
    [
      "/v1/server/",
      { model: "x" },
      "model_attributes_type",
      ["body", "model"],
      "Input should be a valid dictionary or object to extract fields from",
      "x",
    ],
    // A null where the field is required: the field type's refusal, input null.
    [
      "/v1/component/case",
      { case_type: null },
      "string_type",
      ["body", "case_type"],
      "Input should be a valid string",
      null,
    ],
    // The service's own rule: a value error, the refused value echoed (not null).
    [
      "/v1/component/ram",
      { density: 0 },
      "value_error",
      ["body", "density"],
      "Value error, must not be zero",
      0,
    ],
  ])("POST %s %j: %s", async (path, body, type, loc, msg, input) => {
    expect(await post("2.4.1", path, body)).toEqual([{ type, loc, msg, input }]);
  });

  it("a required field absent: `missing`, the object lacking it as input", async () => {
    expect(
      await post("2.4.1", "/v1/iot/iot_device", { functional_blocks: [{ hsl_level: "HSL-1" }] }),
    ).toEqual([
      {
        type: "missing",
        loc: ["body", "functional_blocks", 0, "type"],
        msg: "Field required",
        input: { hsl_level: "HSL-1" },
      },
    ]);
  });

  it("the service's own bounds: pydantic 2's constraint types with their ctx, input as sent", async () => {
    expect(await post("2.4.1", "/v1/server/", { usage: { avg_power: -1 } })).toEqual([
      {
        type: "greater_than_equal",
        loc: ["body", "usage", "avg_power"],
        msg: "Input should be greater than or equal to 0",
        input: -1,
        ctx: { ge: 0 },
      },
    ]);
    // Numeric text is echoed as text, as pydantic echoes the value before coercion.
    expect(await post("2.4.1", "/v1/component/ram", { units: "-2" })).toEqual([
      {
        type: "greater_than_equal",
        loc: ["body", "units"],
        msg: "Input should be greater than or equal to 0",
        input: "-2",
        ctx: { ge: 0 },
      },
    ]);
  });

  it("query values: the text sent as input; a missing parameter has input null", async () => {
    expect(await get("2.4.1", "/v1/server/?duration=-5")).toEqual([
      {
        type: "greater_than_equal",
        loc: ["query", "duration"],
        msg: "Input should be greater than or equal to 0",
        input: "-5",
        ctx: { ge: 0 },
      },
    ]);
    expect(await get("2.4.1", "/v1/server/?allocation=foo")).toEqual([
      {
        type: "enum",
        loc: ["query", "allocation"],
        msg: "Input should be 'LINEAR' or 'TOTAL'",
        input: "foo",
        ctx: { expected: "'LINEAR' or 'TOTAL'" },
      },
    ]);
    expect(await get("2.4.1", "/v1/utils/name_to_gpu")).toEqual([
      { type: "missing", loc: ["query", "gpu_name"], msg: "Field required", input: null },
    ]);
  });

  it("a body that is not JSON: json_invalid, input {} as FastAPI answers", async () => {
    const detail = await post("2.4.1", "/v1/server/", '{"usage": {');
    expect(detail).toEqual([
      {
        type: "json_invalid",
        loc: ["body"],
        msg: "JSON decode error",
        input: {},
        ctx: { error: expect.any(String) },
      },
    ]);
    const v1 = await post("1.2.4", "/v1/server/", '{"usage": {');
    expect(v1[0]).toMatchObject({ loc: ["body"], type: "value_error.jsondecode" });
    expect(v1[0]).not.toHaveProperty("input");
  });
});

describe("the dialects are data", () => {
  it("each refusal kind has its own type in each dialect, where pydantic 2 tells them apart", () => {
    const v2Types = Object.values(PYDANTIC_2_ERRORS.wordings).map((wording) => wording.type);
    expect(new Set(v2Types).size).toBe(v2Types.length);
    // pydantic 1 has one type per value type: integer refusals share `type_error.integer`.
    const { integerType, integerParsing, integerFraction } = PYDANTIC_1_ERRORS.wordings;
    expect(new Set([integerType.type, integerParsing.type, integerFraction.type])).toEqual(
      new Set(["type_error.integer"]),
    );
  });

  it("a list item lacking a key in a number-or-list field: only the completeness check answers", async () => {
    // The list member is the one the reference accepts (it fails later): no float refusal beside.
    expect(
      await post("1.2.4", "/v1/server/", { usage: { time_workload: [{ load_percentage: 50 }] } }),
    ).toEqual([
      {
        loc: ["body", "usage", "time_workload", 0, "time_percentage"],
        msg: "field required",
        type: "value_error.missing",
      },
    ]);
  });

  it("a missing key reported with type refusals is left out, as the reference answers (errors-0053)", async () => {
    // The reference's framework refuses the text; it has no check of the absent power_watt.
    const body = { cpu: {}, workload: [{ load_percentage: "a" }] };
    expect(await post("1.2.4", "/v1/consumption_profile/cpu", body)).toEqual([
      {
        loc: ["body", "workload", 0, "load_percentage"],
        msg: "value is not a valid float",
        type: "type_error.float",
      },
    ]);
  });

  it("keys in each framework's order; a setting's name follows the message", () => {
    const issue = {
      kind: "listTooLong",
      params: { limit: 100, actual: 101, setting: "MAX_LIST_LENGTH" },
    } as const;
    const v1 = dialectDetail(PYDANTIC_1_ERRORS, ["body", "ram"], issue, []);
    expect(Object.keys(v1)).toEqual(["loc", "msg", "type", "ctx"]);
    expect(v1).toEqual({
      loc: ["body", "ram"],
      msg: "ensure this value has at most 100 items (MAX_LIST_LENGTH)",
      type: "value_error.list.max_items",
      ctx: { limit_value: 100 },
    });
    const v2 = dialectDetail(PYDANTIC_2_ERRORS, ["body", "ram"], issue, []);
    expect(Object.keys(v2)).toEqual(["type", "loc", "msg", "input", "ctx"]);
    expect(v2).toMatchObject({
      type: "too_long",
      msg: "List should have at most 100 items after validation, not 101 (MAX_LIST_LENGTH)",
      ctx: { max_length: 100, actual_length: 101 },
    });
  });
});
