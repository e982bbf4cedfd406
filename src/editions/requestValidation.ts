import { type ErrorDialect, PYDANTIC_1_ERRORS, PYDANTIC_2_ERRORS } from "./errorDialects.js";

/*
 * How the v1 routes validate request bodies and query values: the reference's framework rules,
 * one description per framework generation. boaviztapi 1.2.4 validates with pydantic 1 (lenient
 * coercions), 2.4.1 with pydantic 2 in lax mode (docs/methodology.md §19.0.3). An edition names the
 * rules it uses; the body schemas are built from them (see `v1Body.ts`).
 */
export interface RequestValidation {
  /** Integer fields given `32.7`: pydantic 1 truncates to 32, pydantic 2 refuses (`int_from_float`). */
  readonly fractionalIntegers: "truncate" | "reject";
  /** Integer fields given `"32.0"` (pydantic 2 accepts a string with a zero fraction). */
  readonly integerTextWithZeroFraction: boolean;
  /** String fields given a number: pydantic 1 writes it as text, pydantic 2 refuses (`string_type`). */
  readonly numbersAsText: boolean;
  /**
   * An explicit `null` for a field declared without `Optional` (case `case_type`, IoT block
   * `hsl_level`, consumption-profile `cpu`/`workload`): pydantic 1 reads it as absent, pydantic 2
   * refuses it with the field type's error.
   */
  readonly nullForNonOptional: "absent" | "reject";
  /** How a 422 names a refused value: pydantic 1 `{loc, msg, type}`, pydantic 2 `{type, loc, msg, input}`. */
  readonly errors: ErrorDialect;
}

/** boaviztapi 1.2.4 (pydantic 1), as the service always answered. */
export const PYDANTIC_1: RequestValidation = {
  fractionalIntegers: "truncate",
  integerTextWithZeroFraction: false,
  numbersAsText: true,
  nullForNonOptional: "absent",
  errors: PYDANTIC_1_ERRORS,
};

/** boaviztapi 2.4.1 (pydantic 2, lax mode; docs/methodology.md §19.0.3, Appendix D.27). */
export const PYDANTIC_2: RequestValidation = {
  fractionalIntegers: "reject",
  integerTextWithZeroFraction: true,
  numbersAsText: false,
  nullForNonOptional: "reject",
  errors: PYDANTIC_2_ERRORS,
};
