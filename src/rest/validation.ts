import { z } from "zod";
import type { RequestValidation } from "../editions/requestValidation.js";
import { builtOncePer } from "../engine/model/builtOnce.js";

export type { RequestValidation } from "../editions/requestValidation.js";

/*
 * The v1 request field types built from an edition's validation rules (pydantic 1 or 2, see
 * `editions/requestValidation.ts`), and the 422 detail items in the matching layout.
 */

/** One refused value: pydantic 2's error type and message, and the value refused. */
export interface FieldIssue {
  readonly type: string;
  readonly msg: string;
}

/** The `params` a refused value carries through zod, read back when the 422 body is built. */
export interface IssueParams {
  readonly pydantic: FieldIssue;
  readonly input: unknown;
}

/**
 * Longest number written as text that is read (a double needs at most 25 characters; blanks
 * around it are allowed). The length is checked before any pattern runs, so a field given
 * "111…1x" costs no more than reading it.
 */
export const MAX_NUMBER_TEXT_LENGTH = 100;

/*
 * Decimal numbers as pydantic reads them from text. Each pattern is unambiguous (a digit can only
 * be matched by one part of it), so a failing match is linear in the text's length: the former
 * `\d+\.?\d*` split a run of digits between its two parts in every possible way, quadratic.
 */
const NUMERIC_TEXT = /^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*$/;
const INTEGER_TEXT = /^\s*[+-]?\d+\s*$/;
const INTEGER_TEXT_ZERO_FRACTION = /^\s*[+-]?\d+(?:\.0*)?\s*$/;

/** Whether `text` is a decimal number pydantic reads as a float (length bounded first). */
export function isNumericText(text: string): boolean {
  return text.length <= MAX_NUMBER_TEXT_LENGTH && NUMERIC_TEXT.test(text);
}

const ISSUES = {
  intType: { type: "int_type", msg: "Input should be a valid integer" },
  intParsing: {
    type: "int_parsing",
    msg: "Input should be a valid integer, unable to parse string as an integer",
  },
  intFromFloat: {
    type: "int_from_float",
    msg: "Input should be a valid integer, got a number with a fractional part",
  },
  floatType: { type: "float_type", msg: "Input should be a valid number" },
  floatParsing: {
    type: "float_parsing",
    msg: "Input should be a valid number, unable to parse string as a number",
  },
  finite: { type: "finite_number", msg: "Input should be a finite number" },
  stringType: { type: "string_type", msg: "Input should be a valid string" },
  numberTextTooLong: {
    type: "string_too_long",
    msg: `a number given as text must be at most ${MAX_NUMBER_TEXT_LENGTH} characters long`,
  },
} as const satisfies Record<string, FieldIssue>;

/** pydantic 1's messages for the same refusals (the service's 1.2.4 answers). */
const PYDANTIC_1_MESSAGES: Readonly<Record<string, string>> = {
  int_type: "value is not a valid integer",
  int_parsing: "value is not a valid integer",
  int_from_float: "value is not a valid integer",
  float_type: "value is not a valid float",
  float_parsing: "value is not a valid float",
  finite_number: "value is not a valid float",
  string_type: "str type expected",
};

type Outcome<T> = { readonly ok: T } | { readonly issue: FieldIssue };

/** A zod schema from a conversion function: the value, or an issue carrying pydantic's type. */
function field<T>(convert: (value: unknown) => Outcome<T>): z.ZodType<T> {
  return z.unknown().transform((value, context) => {
    const outcome = convert(value);
    if ("ok" in outcome) return outcome.ok;
    const params: IssueParams = { pydantic: outcome.issue, input: value };
    context.issues.push({ code: "custom", message: outcome.issue.msg, input: value, params: { ...params } });
    return z.NEVER;
  }) as unknown as z.ZodType<T>;
}

const ok = <T>(value: T): Outcome<T> => ({ ok: value });
const refused = (issue: FieldIssue): Outcome<never> => ({ issue });

/** The field types of a request model under one set of rules. */
export interface FieldTypes {
  readonly integer: z.ZodType<number>;
  readonly float: z.ZodType<number>;
  readonly text: z.ZodType<string>;
  /** An optional field (`Optional[...]` in the reference): absent or null both mean "not given". */
  optional<T>(schema: z.ZodType<T>): z.ZodType<T | null | undefined>;
  /** A field declared without `Optional` but with a default: null is refused under pydantic 2. */
  defaulted<T>(schema: z.ZodType<T>): z.ZodType<T | null | undefined>;
}

function integerOf(rules: RequestValidation): z.ZodType<number> {
  return field((value) => {
    // Both pydantic generations read a boolean as 1 / 0 (docs/methodology.md §19.0.3).
    if (typeof value === "boolean") return ok(value ? 1 : 0);
    if (typeof value === "number") {
      if (!Number.isFinite(value)) return refused(ISSUES.finite);
      if (Number.isInteger(value)) return ok(value);
      return rules.fractionalIntegers === "truncate" ? ok(Math.trunc(value)) : refused(ISSUES.intFromFloat);
    }
    if (typeof value === "string") {
      if (value.length > MAX_NUMBER_TEXT_LENGTH) return refused(ISSUES.numberTextTooLong);
      const pattern = rules.integerTextWithZeroFraction ? INTEGER_TEXT_ZERO_FRACTION : INTEGER_TEXT;
      return pattern.test(value) ? ok(Math.trunc(Number(value))) : refused(ISSUES.intParsing);
    }
    return refused(ISSUES.intType);
  });
}

function floatOf(): z.ZodType<number> {
  return field((value) => {
    if (typeof value === "boolean") return ok(value ? 1 : 0);
    if (typeof value === "number") return Number.isFinite(value) ? ok(value) : refused(ISSUES.finite);
    if (typeof value === "string") {
      if (value.length > MAX_NUMBER_TEXT_LENGTH) return refused(ISSUES.numberTextTooLong);
      return isNumericText(value) ? ok(Number(value)) : refused(ISSUES.floatParsing);
    }
    return refused(ISSUES.floatType);
  });
}

function textOf(rules: RequestValidation): z.ZodType<string> {
  return field((value) => {
    if (typeof value === "string") return ok(value);
    if (typeof value === "number" && rules.numbersAsText) return ok(String(value));
    return refused(ISSUES.stringType);
  });
}

/** The field types of `rules` (built once per set of rules). */
export const fieldTypes = builtOncePer(
  (rules: RequestValidation): FieldTypes => ({
    integer: integerOf(rules),
    float: floatOf(),
    text: textOf(rules),
    optional: (schema) => schema.nullish(),
    defaulted: (schema) => (rules.nullForNonOptional === "reject" ? schema.optional() : schema.nullish()),
  }),
);

/** One item of a 422 `detail` list. */
export type ValidationDetail =
  | { readonly loc: (string | number)[]; readonly msg: string; readonly type: string }
  | {
      readonly type: string;
      readonly loc: (string | number)[];
      readonly msg: string;
      readonly input: unknown;
    };

/** A 422 detail item in the layout of `rules` for a refused value at `loc`. */
export function validationDetail(
  rules: RequestValidation,
  loc: (string | number)[],
  issue: FieldIssue,
  input: unknown,
): ValidationDetail {
  if (rules.errorLayout === "pydantic2") return { type: issue.type, loc, msg: issue.msg, input };
  const known = PYDANTIC_1_MESSAGES[issue.type];
  return known
    ? { loc, msg: known, type: `type_error.${issue.type}` }
    : { loc, msg: issue.msg, type: issue.type };
}

/** Reads the pydantic parameters a field conversion attached to a zod issue, if any. */
export function issueParams(issue: z.core.$ZodIssue): IssueParams | null {
  const params = (issue as { params?: unknown }).params as Partial<IssueParams> | undefined;
  return params?.pydantic ? (params as IssueParams) : null;
}
