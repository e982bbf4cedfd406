/*
 * How a 422 names a refused request value, one dialect per framework generation: boaviztapi 1.2.4
 * answers with FastAPI + pydantic 1 (`{loc, msg, type}`, types such as `type_error.integer`),
 * 2.4.1 with FastAPI + pydantic 2 (`{type, loc, msg, input}`, types such as `int_parsing`). The
 * service's own checks that pydantic lacks (negative counts, limits, …) are worded in the same
 * dialect, with the constraint type pydantic gives the nearest constraint (`ge=0`, `max_length`).
 * See docs/methodology.md §19.0.3.
 */

/** Why a request value was refused, in the service's words (each dialect names it its own way). */
export type IssueKind =
  /** A required field absent. */
  | "missing"
  | "integerType"
  | "integerParsing"
  | "integerFraction"
  | "floatType"
  | "floatParsing"
  | "notFinite"
  | "textType"
  | "booleanParsing"
  | "listType"
  | "objectType"
  /** A value outside a fixed set (`values`). */
  | "choice"
  | "greaterThan"
  | "greaterThanOrEqual"
  | "lessThanOrEqual"
  | "textTooLong"
  | "listTooLong"
  /** A rule of the service's own with no pydantic constraint (`message` says it). */
  | "invalid"
  /** A body that is not JSON. */
  | "json";

/** What a refusal may carry: a bound, a length, the allowed values, a message. */
export interface IssueParams {
  readonly limit?: number;
  readonly actual?: number;
  readonly values?: readonly string[];
  readonly message?: string;
  /**
   * The service's setting the bound comes from (`MAX_STRING_LENGTH`): named after the message in
   * every dialect, so that a client knows which setting refused it.
   */
  readonly setting?: string;
}

/**
 * Values a wording's `msg` and `ctx` are made of: the issue's parameters, plus the allowed values
 * written as pydantic 1 lists them (`permitted`: `'a', 'b'`) and as pydantic 2 does (`expected`:
 * `'a' or 'b'`).
 */
export type WordingValue = keyof IssueParams | "permitted" | "expected";

/** One refusal in a dialect: its `type`, its `msg` (`{name}` replaced) and its `ctx` entries. */
interface IssueWording {
  readonly type: string;
  readonly msg: string;
  /** `ctx` key → the value it holds (absent: no `ctx`). */
  readonly ctx?: Readonly<Record<string, WordingValue>>;
}

/** A framework generation's 422 detail items. */
export interface ErrorDialect {
  /** The keys of a detail item, in the framework's order (`input`: the refused value echoed). */
  readonly keys: readonly ("type" | "loc" | "msg" | "input" | "ctx")[];
  /** Each refusal's wording. */
  readonly wordings: Readonly<Record<IssueKind, IssueWording>>;
}

const P1_INTEGER = "value is not a valid integer";
const P1_FLOAT = "value is not a valid float";

/** FastAPI with pydantic 1 (boaviztapi 1.2.4): no `input`; constraint bounds in `ctx.limit_value`. */
export const PYDANTIC_1_ERRORS: ErrorDialect = {
  keys: ["loc", "msg", "type", "ctx"],
  wordings: {
    missing: { type: "value_error.missing", msg: "field required" },
    integerType: { type: "type_error.integer", msg: P1_INTEGER },
    integerParsing: { type: "type_error.integer", msg: P1_INTEGER },
    integerFraction: { type: "type_error.integer", msg: P1_INTEGER },
    floatType: { type: "type_error.float", msg: P1_FLOAT },
    floatParsing: { type: "type_error.float", msg: P1_FLOAT },
    notFinite: { type: "value_error.number.not_finite_number", msg: "ensure this value is a finite number" },
    textType: { type: "type_error.str", msg: "str type expected" },
    booleanParsing: { type: "type_error.bool", msg: "value could not be parsed to a boolean" },
    listType: { type: "type_error.list", msg: "value is not a valid list" },
    objectType: { type: "type_error.dict", msg: "value is not a valid dict" },
    choice: {
      type: "type_error.enum",
      msg: "value is not a valid enumeration member; permitted: {permitted}",
      ctx: { enum_values: "values" },
    },
    greaterThan: {
      type: "value_error.number.not_gt",
      msg: "ensure this value is greater than {limit}",
      ctx: { limit_value: "limit" },
    },
    greaterThanOrEqual: {
      type: "value_error.number.not_ge",
      msg: "ensure this value is greater than or equal to {limit}",
      ctx: { limit_value: "limit" },
    },
    lessThanOrEqual: {
      type: "value_error.number.not_le",
      msg: "ensure this value is less than or equal to {limit}",
      ctx: { limit_value: "limit" },
    },
    textTooLong: {
      type: "value_error.any_str.max_length",
      msg: "ensure this value has at most {limit} characters",
      ctx: { limit_value: "limit" },
    },
    listTooLong: {
      type: "value_error.list.max_items",
      msg: "ensure this value has at most {limit} items",
      ctx: { limit_value: "limit" },
    },
    invalid: { type: "value_error", msg: "{message}" },
    json: { type: "value_error.jsondecode", msg: "{message}" },
  },
};

/** FastAPI with pydantic 2 (boaviztapi 2.4.1): the refused value echoed as `input`. */
export const PYDANTIC_2_ERRORS: ErrorDialect = {
  keys: ["type", "loc", "msg", "input", "ctx"],
  wordings: {
    missing: { type: "missing", msg: "Field required" },
    integerType: { type: "int_type", msg: "Input should be a valid integer" },
    integerParsing: {
      type: "int_parsing",
      msg: "Input should be a valid integer, unable to parse string as an integer",
    },
    integerFraction: {
      type: "int_from_float",
      msg: "Input should be a valid integer, got a number with a fractional part",
    },
    floatType: { type: "float_type", msg: "Input should be a valid number" },
    floatParsing: {
      type: "float_parsing",
      msg: "Input should be a valid number, unable to parse string as a number",
    },
    notFinite: { type: "finite_number", msg: "Input should be a finite number" },
    textType: { type: "string_type", msg: "Input should be a valid string" },
    booleanParsing: {
      type: "bool_parsing",
      msg: "Input should be a valid boolean, unable to interpret input",
    },
    listType: { type: "list_type", msg: "Input should be a valid list" },
    // FastAPI validates bodies with `from_attributes`: pydantic's wording for a non-object there.
    objectType: {
      type: "model_attributes_type",
      msg: "Input should be a valid dictionary or object to extract fields from",
    },
    choice: { type: "enum", msg: "Input should be {expected}", ctx: { expected: "expected" } },
    greaterThan: { type: "greater_than", msg: "Input should be greater than {limit}", ctx: { gt: "limit" } },
    greaterThanOrEqual: {
      type: "greater_than_equal",
      msg: "Input should be greater than or equal to {limit}",
      ctx: { ge: "limit" },
    },
    lessThanOrEqual: {
      type: "less_than_equal",
      msg: "Input should be less than or equal to {limit}",
      ctx: { le: "limit" },
    },
    textTooLong: {
      type: "string_too_long",
      msg: "String should have at most {limit} characters",
      ctx: { max_length: "limit" },
    },
    listTooLong: {
      type: "too_long",
      msg: "List should have at most {limit} items after validation, not {actual}",
      ctx: { max_length: "limit", actual_length: "actual" },
    },
    invalid: { type: "value_error", msg: "Value error, {message}" },
    json: { type: "json_invalid", msg: "JSON decode error", ctx: { error: "message" } },
  },
};
