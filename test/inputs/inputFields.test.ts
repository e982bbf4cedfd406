/**
 * The input catalogue (src/inputs) and what is derived from it: the GraphQL input types, the
 * service's checks, the v1 bodies and their mapping, the engine's input. Each derivation is read
 * back against the catalogue, so a field added there appears everywhere, and one spelled by hand
 * elsewhere fails here.
 */
import fc from "fast-check";
import { isInputObjectType, isListType, isNonNullType } from "graphql";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { DEFAULT_LIMITS } from "../../src/config/serviceConfig.js";
import { PYDANTIC_1, PYDANTIC_2 } from "../../src/editions/requestValidation.js";
import { COMPONENT_INPUTS } from "../../src/engine/index.js";
import { graphqlFieldsOf, type InputObject, snakeCase, v1NameOf } from "../../src/inputs/field.js";
import {
  CPU,
  HDD_BODY,
  INPUT_OBJECTS,
  SERVER,
  TERMINAL,
  USAGE_INPUT,
  V1_NAMES,
  WORKLOAD_SHARE,
} from "../../src/inputs/inputFields.js";
import { v1Variables } from "../../src/rest/validation/v1Body.js";
import { v1Schema } from "../../src/rest/validation/v1Schema.js";
import { buildSchema } from "../../src/schema/index.js";
import { DomainError } from "../../src/service/errors.js";
import { checkedAsset, checkedUsage, checkedValue, usageHours } from "../../src/service/inputs.js";

const schema = buildSchema();

/** The GraphQL field names an object derives: its fields (not the v1-only ones), each alternative after its field. */
function graphqlFieldNames(object: InputObject): string[] {
  return graphqlFieldsOf(object).flatMap(([name, field]) =>
    (field.type === "int" || field.type === "float") && field.alternative
      ? [name, field.alternative.name]
      : [name],
  );
}

/**
 * The catalogue objects that are GraphQL input types (not only argument sets, not the v1 HDD body,
 * whose GraphQL input is SIMPLE_COMPONENT's).
 */
const INPUT_TYPES = INPUT_OBJECTS.filter((object) => object.name.endsWith("Input") && object !== HDD_BODY);

describe("GraphQL input types derived from the catalogue", () => {
  it.each(INPUT_TYPES.map((object) => [object.name, object] as const))(
    "%s has the catalogue's fields",
    (name, object) => {
      const type = schema.getType(name);
      if (!isInputObjectType(type)) throw new Error(`${name} is not an input type`);
      // The built schema is sorted lexicographically: the fields as a set.
      expect(Object.keys(type.getFields()).sort()).toEqual(graphqlFieldNames(object).sort());
      for (const [fieldName, field] of graphqlFieldsOf(object)) {
        expect(isNonNullType(type.getFields()[fieldName].type), `${name}.${fieldName} non-null`).toBe(
          field.required === true,
        );
      }
    },
  );

  it("a list field is a list of its object's type; an alternative is a list of its own object's", () => {
    const usage = schema.getType("UsageInput");
    if (!isInputObjectType(usage)) throw new Error("no UsageInput");
    const shares = usage.getFields().timeWorkloadShares.type;
    expect(isListType(shares) && String(shares.ofType)).toBe(`${WORKLOAD_SHARE.name}!`);
    const configuration = schema.getType("ServerConfigurationInput");
    if (!isInputObjectType(configuration)) throw new Error("no ServerConfigurationInput");
    expect(String(configuration.getFields().ram.type)).toBe("[RamInput!]");
  });

  it("the query fields taking an argument set have its fields as arguments", () => {
    const query = schema.getQueryType()?.getFields();
    const names = (field: string) => query?.[field].args.map((arg) => arg.name).sort();
    expect(names("cloudInstance")).toEqual(["edition", "instanceType", "provider", "usage"]);
    expect(names("consumptionProfile")).toEqual(["cpu", "edition", "workload"]);
  });

  it("each component kind's query field takes its registry's catalogue object", () => {
    const query = schema.getQueryType()?.getFields() ?? {};
    for (const [kind, object] of Object.entries(COMPONENT_INPUTS)) {
      const field = query[kind.replace(/_([a-z])/g, (_m, letter: string) => letter.toUpperCase())];
      expect(String(field.args.find((arg) => arg.name === "input")?.type), kind).toBe(object.name);
    }
  });
});

describe("v1 bodies derived from the catalogue", () => {
  it.each([
    ["pydantic 1", PYDANTIC_1],
    ["pydantic 2", PYDANTIC_2],
  ] as const)("under %s, every object's body has the v1 names of its fields, in order", (_name, rules) => {
    for (const object of INPUT_OBJECTS) {
      const body = v1Schema(rules, object);
      if (!(body instanceof z.ZodObject)) throw new Error(`${object.name}: not an object schema`);
      const expected = Object.entries(object.fields).flatMap(([name, field]) => v1NameOf(name, field) ?? []);
      expect(Object.keys(body.shape), object.name).toEqual(expected);
    }
  });

  it("names are snake_case unless a field says otherwise; v1 bodies lack the fields marked so", () => {
    expect(Object.keys((v1Schema(PYDANTIC_2, CPU) as z.ZodObject).shape)).not.toContain("threads");
    expect(v1NameOf("dieSizePerCore", CPU.fields.dieSizePerCore)).toBe("die_size_per_core");
    expect(snakeCase("hoursLifeTime")).toBe("hours_life_time");
  });

  it("a GraphQL name has one v1 name in the whole catalogue (error locations read it)", () => {
    for (const object of INPUT_OBJECTS) {
      for (const [name, field] of Object.entries(object.fields)) {
        const v1Name = v1NameOf(name, field);
        if (v1Name !== null) expect(V1_NAMES.get(name), `${object.name}.${name}`).toBe(v1Name);
      }
    }
    expect(V1_NAMES.get("timeWorkloadShares")).toBe("time_workload");
  });

  it("every scalar field of a body reaches its GraphQL variable under its GraphQL name", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(
          ...INPUT_OBJECTS.filter((object) => !Object.values(object.fields).some((f) => f.required)),
        ),
        fc.integer({ min: 0, max: 1000 }),
        (object, number) => {
          for (const [name, field] of Object.entries(object.fields)) {
            const v1Name = v1NameOf(name, field);
            if (v1Name === null || (field.type !== "int" && field.type !== "float" && field.type !== "text"))
              continue;
            const given = field.type === "text" ? `t${number}` : number;
            const variables = v1Variables<Record<string, unknown>>(object, { [v1Name]: given }, PYDANTIC_2);
            const expected =
              field.type === "text" && field.v1 && field.v1.textOrInteger ? String(given) : given;
            // A v1-only field is checked, and goes no further.
            expect(variables[name], `${object.name}.${name}`).toEqual(
              field.graphql === false ? undefined : expected,
            );
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it("time_workload takes a number or a list of shares: two GraphQL fields", () => {
    const number = v1Variables<Record<string, unknown>>(USAGE_INPUT, { time_workload: 40 }, PYDANTIC_2);
    expect(number).toMatchObject({ timeWorkload: 40 });
    expect(number).not.toHaveProperty("timeWorkloadShares");
    const shares = v1Variables<Record<string, unknown>>(
      USAGE_INPUT,
      { time_workload: [{ time_percentage: 50, load_percentage: 10 }] },
      PYDANTIC_2,
    );
    expect(shares).toEqual({ timeWorkloadShares: [{ timePercentage: 50, loadPercentage: 10 }] });
  });

  it("a deferred usage is validated after its body, its errors under `usage`", () => {
    expect(() => v1Variables(TERMINAL, { type: "pro", usage: { avg_power: "x" } }, PYDANTIC_2)).toThrow(
      expect.objectContaining({ detail: [expect.objectContaining({ loc: ["body", "usage", "avg_power"] })] }),
    );
  });
});

describe("the service's checks and the engine's input, derived from the catalogue", () => {
  it("use time: hours, days of 24 h and years of 8760 h add up; none given is no use time", () => {
    expect(usageHours({ hoursUseTime: 1, daysUseTime: 1, yearsUseTime: 1 })).toBe(1 + 24 + 8760);
    expect(usageHours({ daysUseTime: 2 })).toBe(48);
    expect(usageHours({ avgPower: 3 })).toBeNull();
    expect(usageHours(null)).toBeNull();
  });

  it("the engine's usage has no use-time field, and shares in place of the workload", () => {
    const { input, usageHours: hours } = checkedUsage(
      DEFAULT_LIMITS,
      {
        avgPower: 10,
        timeWorkload: 30,
        timeWorkloadShares: [{ timePercentage: 100, loadPercentage: 20 }],
        yearsUseTime: 1,
      },
      ["usage"],
    );
    expect(input).toEqual({ avgPower: 10, timeWorkload: [{ timePercentage: 100, loadPercentage: 20 }] });
    expect(hours).toBe(8760);
  });

  it("a server's engine input keeps only what the engine reads (the model's type, not its name)", () => {
    const { input } = checkedAsset(
      DEFAULT_LIMITS,
      SERVER,
      { model: { type: "blade", name: "R740", year: "2020" }, configuration: { ram: [{ units: 2 }] } },
      ["input"],
    );
    expect(input.model).toEqual({ type: "blade" });
    expect(input.configuration?.ram).toEqual([{ units: 2, usage: null }]);
    expect(input.configuration?.cpu).toBeNull();
    expect(input.usage).toBeNull();
  });

  it.each([
    [{ units: -1 }, "input.units: must not be negative", { minimum: 0 }],
    [{ usage: { timeWorkload: 101 } }, "input.usage.timeWorkload: must be within 0–100", { maximum: 100 }],
    [{ dieSize: 1e31 }, "input.dieSize: must be 0 or of magnitude between 1e-30 and 1e30", undefined],
  ])("a value past its field's bound is refused, naming the field: %j", (value, message, constraint) => {
    let refused: unknown;
    try {
      checkedValue(DEFAULT_LIMITS, CPU, value, ["input"]);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ kind: "BAD_USER_INPUT", message, constraint });
  });

  it("texts are bounded by MAX_STRING_LENGTH, named in the refusal", () => {
    const limits = { ...DEFAULT_LIMITS, maxStringLength: 5 };
    expect(() => checkedValue(limits, CPU, { name: "abcdef" }, ["input"])).toThrow(
      expect.objectContaining({
        field: ["input", "name"],
        limit: "MAX_STRING_LENGTH",
        constraint: { maxLength: 5 },
      }),
    );
  });
});
