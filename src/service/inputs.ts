import { z } from "zod";
import type { Limits } from "../config/serviceConfig.js";
import { graphqlFieldsOf, type InputField, type InputObject, type NumberField } from "../inputs/field.js";
import { USAGE_INPUT } from "../inputs/inputFields.js";
import type { EngineInputOf, GraphQLValueOf } from "../inputs/types.js";
import { builtOncePer } from "../support/builtOnce.js";
import { isJsonObject } from "../support/jsonObject.js";
import { isReasonable as isReasonableNumber, REASONABLE } from "../support/numbers.js";
import { DomainError } from "./errors.js";

/*
 * The service's checks of a request's input (GraphQL names), derived from the input catalogue
 * (src/inputs), and the engine's input made from a checked value.
 *
 * Refused: negative counts, capacities, powers, durations and lifetimes, negative use-time ratios
 * (the reference fails on them), workloads outside 0–100 and a zero density (a division by zero).
 * Other unusual values (negative weights, die sizes or other-consumption ratios, ratios above 1)
 * are answered like the reference answers them.
 *
 * Every number must also be `REASONABLE`: a product or quotient of a few of them stays finite, so
 * every impact is a number (denormals such as 5e-324 used to overflow into Infinity, then null).
 * Texts and lists are bounded by the service's `Limits` (approximate name matching costs grow
 * with the text's length; a list's cost with its length).
 */

/** Magnitude bounds of every number input (src/support/numbers.ts): zero, or within [1e-30, 1e30]. */
export { REASONABLE };

/** A number of the `REASONABLE` magnitudes (zero, or within them). */
const isReasonable = (v: unknown): boolean => typeof v === "number" && isReasonableNumber(v);

export const reasonable = z.number().refine(isReasonable, "must be 0 or of magnitude between 1e-30 and 1e30");
const NEGATIVE = "must not be negative";
const percent = z.number().min(0, "must be within 0–100").max(100, "must be within 0–100");

/** The check of a number field by its bound (src/inputs/field.ts names each one). */
function numberSchema(field: NumberField): z.ZodType {
  switch (field.bound) {
    case "count":
      return z.number().int().nonnegative(NEGATIVE);
    case "integer":
      return z.number().int();
    case "quantity":
      return reasonable.min(0, NEGATIVE);
    case "nonNegative":
      return reasonable.refine((v) => v >= 0, NEGATIVE);
    case "nonZero":
      return reasonable.refine((v) => v !== 0, "must not be zero");
    case "percent":
      return percent;
    default:
      return field.type === "int" ? z.number().int() : reasonable;
  }
}

/** Bounded text, per the service's limits (named in the message). */
function boundedText(limits: Limits) {
  return z
    .string()
    .max(
      limits.maxStringLength,
      `must be at most ${limits.maxStringLength} characters long (MAX_STRING_LENGTH)`,
    );
}

/**
 * A list of at most MAX_LIST_LENGTH items, its length checked before any item: a pipe stops at its
 * first failing step (zod runs an array's `.max` only after validating every item).
 */
function boundedList<T extends z.ZodType>(limits: Limits, item: T) {
  const message = `must have at most ${limits.maxListLength} entries (MAX_LIST_LENGTH)`;
  return z
    .custom<unknown>((value) => !Array.isArray(value) || value.length <= limits.maxListLength, { message })
    .pipe(z.array(item));
}

/** The schemas of one `Limits` value: each input object's, built once and shared by the objects holding it. */
class InputSchemas {
  readonly text: z.ZodType<string>;

  constructor(readonly limits: Limits) {
    this.text = boundedText(limits);
  }

  /** An object's schema, made once (objects held by several share it). */
  readonly object = builtOncePer((object: InputObject): z.ZodType => {
    const shape: Record<string, z.ZodType> = {};
    for (const [name, field] of graphqlFieldsOf(object)) {
      shape[name] = this.field(field);
      // The alternative's list (`timeWorkloadShares`) is a field of its own, after its field.
      if ((field.type === "int" || field.type === "float") && field.alternative) {
        shape[field.alternative.name] = boundedList(this.limits, this.object(field.alternative.of)).nullish();
      }
    }
    return z.object(shape);
  });

  field(field: InputField): z.ZodType {
    const schema = this.#valueSchema(field);
    return field.required ? schema : schema.nullish();
  }

  #valueSchema(field: InputField): z.ZodType {
    switch (field.type) {
      case "text":
        return this.text;
      case "object":
        return this.object(field.of);
      case "list":
        return boundedList(this.limits, this.object(field.of));
      case "factors":
        return z.record(z.string(), reasonable.nullish());
      default:
        return numberSchema(field);
    }
  }
}

const schemasOf = builtOncePer((limits: Limits) => new InputSchemas(limits));

/** The zod schema of an input object's GraphQL value under `limits` (what `checkedValue` applies). */
export function valueSchema(limits: Limits, object: InputObject): z.ZodType {
  return schemasOf(limits).object(object);
}

/** The first zod issue as a domain error naming the offending field (and the bound it breaks). */
function refusal(error: z.ZodError, prefix: readonly (string | number)[]): DomainError {
  const issue = error.issues[0];
  const field = [...prefix, ...issue.path.map((p) => (typeof p === "symbol" ? String(p) : p))];
  // A bound that is one of the service's settings names it at the end of its message.
  const limit = /\(([A-Z][A-Z0-9_]*)\)$/.exec(issue.message)?.[1];
  return new DomainError(
    "BAD_USER_INPUT",
    `${field.join(".") || "input"}: ${issue.message}`,
    field,
    constraintOf(issue),
    limit,
  );
}

/**
 * The bound a refused value breaks, in JSON Schema's words (`{"minimum": 0}`, `{"maxLength": 100}`,
 * `{"maxItems": 100}`): clients (and the REST shim's pydantic wording) read it.
 */
function constraintOf(issue: z.core.$ZodIssue): Readonly<Record<string, number>> | undefined {
  if (issue.code === "too_small" && issue.origin === "number")
    return { [issue.inclusive ? "minimum" : "exclusiveMinimum"]: Number(issue.minimum) };
  if (issue.code !== "too_big") return undefined;
  const limit = Number(issue.maximum);
  if (issue.origin === "string") return { maxLength: limit };
  if (issue.origin === "array") return { maxItems: limit };
  if (issue.origin === "number") return { [issue.inclusive ? "maximum" : "exclusiveMaximum"]: limit };
  return undefined;
}

function checked<T>(schema: z.ZodType, value: unknown, path: readonly (string | number)[]): T {
  const result = schema.safeParse(value);
  if (!result.success) throw refusal(result.error, path);
  return result.data as T;
}

/** A checked GraphQL value of an input object (absent: `{}`), or a domain error naming the field. */
export function checkedValue<O extends InputObject>(
  limits: Limits,
  object: O,
  value: unknown,
  path: readonly (string | number)[],
): GraphQLValueOf<O> {
  const given = value ?? {};
  // A value within every bound is what its schema would return: zod is left to the values it
  // refuses, whose first issue names the field (bench/README.md, "Plain bodies skip zod").
  if (isWithinBounds(limits, object, given)) return given as GraphQLValueOf<O>;
  return checked(valueSchema(limits, object), given, path);
}

type Bounded = (limits: Limits, value: unknown) => boolean;

/** What each number bound accepts: exactly what its zod schema above accepts (`numberSchema`). */
function numberWithin(field: NumberField): (v: unknown) => boolean {
  switch (field.bound) {
    case "count":
      return (v) => Number.isSafeInteger(v) && (v as number) >= 0;
    case "integer":
      return Number.isSafeInteger;
    case "quantity":
    case "nonNegative":
      return (v) => isReasonable(v) && (v as number) >= 0;
    case "nonZero":
      return (v) => isReasonable(v) && v !== 0;
    case "percent":
      return (v) => typeof v === "number" && v >= 0 && v <= 100;
    default:
      return field.type === "int" ? Number.isSafeInteger : isReasonable;
  }
}

/**
 * An object's fields as checks of a present value (by GraphQL name, an alternative's list under
 * its own name) and its required names: made once per object.
 */
const boundsOf = builtOncePer((object: InputObject) => {
  const checks = new Map<string, Bounded>();
  const required: string[] = [];
  for (const [name, field] of graphqlFieldsOf(object)) {
    checks.set(name, fieldWithin(field));
    if (field.required) required.push(name);
    if ((field.type === "int" || field.type === "float") && field.alternative) {
      checks.set(field.alternative.name, listWithin(field.alternative.of));
    }
  }
  return { checks, required };
});

function listWithin(of: InputObject): Bounded {
  return (limits, v) =>
    Array.isArray(v) &&
    v.length <= limits.maxListLength &&
    v.every((item) => isWithinBounds(limits, of, item));
}

function fieldWithin(field: InputField): Bounded {
  switch (field.type) {
    case "text":
      return (limits, v) => typeof v === "string" && v.length <= limits.maxStringLength;
    case "object":
      return (limits, v) => isWithinBounds(limits, field.of, v);
    case "list":
      return listWithin(field.of);
    case "factors":
      return (_limits, v) => isJsonObject(v) && Object.values(v).every((f) => f == null || isReasonable(f));
    default: {
      const within = numberWithin(field);
      return (_limits, v) => within(v);
    }
  }
}

/**
 * Whether a GraphQL value of `object` passes its schema as it is: an object of the object's
 * fields only, each absent, null (but a required one) or within its bound. False only costs the
 * schema's time (it then names the refused field): test/inputs/plainValues.test.ts.
 */
export function isWithinBounds(limits: Limits, object: InputObject, value: unknown): boolean {
  if (!isJsonObject(value)) return false;
  const { checks, required } = boundsOf(object);
  for (const name of required) if (value[name] == null) return false;
  for (const name in value) {
    const check = checks.get(name);
    if (check === undefined) return false;
    const given = value[name];
    if (given != null && !check(limits, given)) return false;
  }
  return true;
}

/** A checked value of one field of an input object (`object.fields[name]`). */
export function checkedField(
  limits: Limits,
  field: InputField,
  value: unknown,
  path: readonly (string | number)[],
): unknown {
  return checked(schemasOf(limits).field(field), value, path);
}

/** A free-text argument checked against MAX_STRING_LENGTH (e.g. a CPU name to match). */
export function checkedText<T extends string | null | undefined>(
  limits: Limits,
  value: T,
  path: readonly (string | number)[],
): T {
  if (value == null) return value;
  checked(schemasOf(limits).text, value, path);
  return value;
}

/** A list's length checked against MAX_LIST_LENGTH, before any of its items is looked at. */
export function checkedListLength(limits: Limits, value: unknown, path: readonly (string | number)[]): void {
  checked(boundedList(limits, z.unknown()), value, path);
}

type Values = Readonly<Record<string, unknown>>;

/**
 * The engine's input of a checked value: the fields the engine reads, an alternative merged into
 * its field, nested objects likewise (absent ones null).
 */
export function engineInput<O extends InputObject>(object: O, value: GraphQLValueOf<O>): EngineInputOf<O> {
  return engineValue(object, value as Values) as EngineInputOf<O>;
}

/** The fields the engine reads, by GraphQL name: listed once per object. */
const engineFieldsOf = builtOncePer((object: InputObject) =>
  Object.entries(object.fields).filter(([, field]) => field.engine !== false),
);

function engineValue(object: InputObject, value: Values): Values {
  const out: Record<string, unknown> = {};
  for (const [name, field] of engineFieldsOf(object)) {
    const given = value[name];
    if (field.type === "object") {
      out[name] = given == null ? null : engineValue(field.of, given as Values);
    } else if (field.type === "list") {
      out[name] = given == null ? null : (given as Values[]).map((item) => engineValue(field.of, item));
    } else if ((field.type === "int" || field.type === "float") && field.alternative) {
      const { name: altName, of } = field.alternative;
      const shares = value[altName] as Values[] | null | undefined;
      out[name] = shares != null ? shares.map((item) => engineValue(of, item)) : given;
    } else if (given !== undefined) {
      out[name] = given;
    }
  }
  return out;
}

type CheckedUsage = GraphQLValueOf<typeof USAGE_INPUT> | null | undefined;

/** The use-time fields of a usage and the hours one unit of each stands for (docs/methodology.md §6.1). */
const USE_TIME_FIELDS: readonly (readonly [string, number])[] = Object.entries(USAGE_INPUT.fields).flatMap(
  ([name, field]) =>
    "hoursPer" in field && field.hoursPer !== undefined ? [[name, field.hoursPer] as const] : [],
);

/** Hours of use from the cumulative use-time fields (hours, days of 24 h, years of 8760 h), if any. */
export function usageHours(usage: CheckedUsage): number | null {
  if (!usage) return null;
  const values = usage as Values;
  if (USE_TIME_FIELDS.every(([name]) => values[name] == null)) return null;
  let hours = 0;
  for (const [name, hoursPer] of USE_TIME_FIELDS) hours += ((values[name] as number | null) ?? 0) * hoursPer;
  return hours;
}

/** A checked asset: the engine's input and the use time its usage gives, if any. */
interface CheckedAsset<I> {
  readonly input: I;
  readonly usageHours: number | null;
}

/** Checks an asset's description (an object with a `usage`) and makes the engine's input. */
export function checkedAsset<O extends InputObject>(
  limits: Limits,
  object: O,
  value: unknown,
  path: readonly (string | number)[],
): CheckedAsset<EngineInputOf<O>> {
  const checkedInput = checkedValue(limits, object, value, path);
  return {
    input: engineInput(object, checkedInput),
    usageHours: usageHours((checkedInput as Values).usage as CheckedUsage),
  };
}

/** Checks a usage object (absent: `{}`) and makes the engine's usage. */
export function checkedUsage(
  limits: Limits,
  value: unknown,
  path: readonly (string | number)[],
): CheckedAsset<EngineInputOf<typeof USAGE_INPUT>> {
  const usage = checkedValue(limits, USAGE_INPUT, value, path);
  return { input: engineInput(USAGE_INPUT, usage), usageHours: usageHours(usage) };
}
