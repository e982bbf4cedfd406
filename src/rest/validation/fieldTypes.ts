import { z } from "zod";
import type { RequestValidation } from "../../editions/requestValidation.js";
import { builtOncePer } from "../../support/builtOnce.js";
import { dialectDetail, type FieldIssue, type IssueKind, type ValidationDetail } from "./errorDialect.js";

export type { RequestValidation } from "../../editions/requestValidation.js";
export type { FieldIssue, ValidationDetail } from "./errorDialect.js";

/*
 * The v1 request field types built from an edition's validation rules (pydantic 1 or 2, see
 * `editions/requestValidation.ts`), and the 422 detail items in the edition's dialect
 * (`errorDialect.ts`).
 */

/** The `params` a refused value carries through zod, read back when the 422 body is built. */
interface IssueParams {
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
  intType: { kind: "integerType" },
  intParsing: { kind: "integerParsing" },
  intFromFloat: { kind: "integerFraction" },
  floatType: { kind: "floatType" },
  floatParsing: { kind: "floatParsing" },
  finite: { kind: "notFinite" },
  stringType: { kind: "textType" },
  // A number written as text past the bound: refused as pydantic refuses a str past `max_length`.
  numberTextTooLong: { kind: "textTooLong", params: { limit: MAX_NUMBER_TEXT_LENGTH } },
} as const satisfies Record<string, FieldIssue>;

type Outcome<T> = { readonly ok: T } | { readonly issue: FieldIssue };

/**
 * A zod schema from a conversion function: the value, or an issue carrying why it was refused. A
 * required key absent is `missing` (the reference has no such check: it fails later, HTTP 500);
 * an explicit null for it is absent too under pydantic 1 and refused as the field type
 * (`typeKind`) under pydantic 2 (docs/methodology.md §19.0.3).
 */
function field<T>(
  rules: RequestValidation,
  typeKind: IssueKind,
  convert: (value: unknown) => Outcome<T>,
): z.ZodType<T> {
  const nullIssue: FieldIssue = { kind: rules.nullForNonOptional === "absent" ? "missing" : typeKind };
  return z.unknown().transform((value, context) => {
    const outcome: Outcome<T> =
      value === undefined
        ? refused({ kind: "missing" })
        : value === null
          ? refused(nullIssue)
          : convert(value);
    if ("ok" in outcome) return outcome.ok;
    const params: IssueParams = { pydantic: outcome.issue, input: value };
    context.issues.push({ code: "custom", message: outcome.issue.kind, input: value, params: { ...params } });
    return z.NEVER;
  }) as unknown as z.ZodType<T>;
}

const ok = <T>(value: T): Outcome<T> => ({ ok: value });
const refused = (issue: FieldIssue): Outcome<never> => ({ issue });

/** The field types of a request model under one set of rules. */
interface FieldTypes {
  readonly integer: z.ZodType<number>;
  readonly float: z.ZodType<number>;
  readonly text: z.ZodType<string>;
  /** An optional field (`Optional[...]` in the reference): absent or null both mean "not given". */
  optional<T>(schema: z.ZodType<T>): z.ZodType<T | null | undefined>;
  /** A field declared without `Optional` but with a default: null is refused under pydantic 2. */
  defaulted<T>(schema: z.ZodType<T>): z.ZodType<T | null | undefined>;
}

function integerOf(rules: RequestValidation): z.ZodType<number> {
  return field(rules, "integerType", (value) => {
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

function floatOf(rules: RequestValidation): z.ZodType<number> {
  return field(rules, "floatType", (value) => {
    if (typeof value === "boolean") return ok(value ? 1 : 0);
    if (typeof value === "number") return Number.isFinite(value) ? ok(value) : refused(ISSUES.finite);
    if (typeof value === "string") {
      if (value.length > MAX_NUMBER_TEXT_LENGTH) return refused(ISSUES.numberTextTooLong);
      if (!isNumericText(value)) return refused(ISSUES.floatParsing);
      // "1e400" is decimal text whose value is Infinity: refused at its field, as the number 1e400 is
      const number = Number(value);
      return Number.isFinite(number) ? ok(number) : refused(ISSUES.finite);
    }
    return refused(ISSUES.floatType);
  });
}

function textOf(rules: RequestValidation): z.ZodType<string> {
  return field(rules, "textType", (value) => {
    if (typeof value === "string") return ok(value);
    if (typeof value === "number" && rules.numbersAsText) return ok(String(value));
    return refused(ISSUES.stringType);
  });
}

/** The field types of `rules` (built once per set of rules). */
export const fieldTypes = builtOncePer(
  (rules: RequestValidation): FieldTypes => ({
    integer: integerOf(rules),
    float: floatOf(rules),
    text: textOf(rules),
    optional: (schema) => schema.nullish(),
    defaulted: (schema) => (rules.nullForNonOptional === "reject" ? schema.optional() : schema.nullish()),
  }),
);

/** A 422 detail item in the dialect of `rules` for a refused value at `loc`. */
export function validationDetail(
  rules: RequestValidation,
  loc: readonly (string | number)[],
  issue: FieldIssue,
  input: unknown,
): ValidationDetail {
  return dialectDetail(rules.errors, loc, issue, input);
}

/** Reads the pydantic parameters a field conversion attached to a zod issue, if any. */
export function issueParams(issue: z.core.$ZodIssue): IssueParams | null {
  const params = (issue as { params?: unknown }).params as Partial<IssueParams> | undefined;
  return params?.pydantic ? (params as IssueParams) : null;
}
