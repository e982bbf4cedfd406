/*
 * The one reading of a number from an input — a cell of an inventory or a bill, an option, a field
 * of an Impact Framework observation: finite, zero or of a magnitude within REASONABLE, never -0;
 * or the reason it is not. A product or quotient of a few such numbers stays finite, so every
 * impact written is a number: no `nan`, `inf`, `-0` or empty cell comes from an input.
 */

/** Magnitude bounds of every number input: zero, or within [1e-30, 1e30]. */
export const REASONABLE = { smallest: 1e-30, largest: 1e30 } as const;

/** The reason a number is refused, as messages end (`quantity: …`). */
export const REASONABLE_TEXT = "must be a finite number, 0 or of magnitude between 1e-30 and 1e30";

/** Characters of a number written as text, at most (the REST shim's bound too). */
export const MAX_NUMBER_CHARACTERS = 100;

/** A decimal number as written in a cell: `12`, `-1.5`, `.5`, `2e-3` (no hex, no `Infinity`). */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Whether a number is finite and zero or of a REASONABLE magnitude. */
export function isReasonable(value: number): boolean {
  const magnitude = Math.abs(value);
  return value === 0 || (magnitude >= REASONABLE.smallest && magnitude <= REASONABLE.largest);
}

/** A number read, or why it is not one (`not a number`, REASONABLE_TEXT…). */
export type NumberReading = { readonly value: number } | { readonly problem: string };

/**
 * Reads a number given as a number, a bigint or decimal text (blanks around it ignored): its
 * value (-0 read as 0), or the problem.
 */
export function readNumber(given: unknown): NumberReading {
  let value: number;
  if (typeof given === "number") value = given;
  else if (typeof given === "bigint") value = Number(given);
  else if (typeof given === "string") {
    const text = given.trim();
    // The length first: the pattern is then run on a bounded text.
    if (text.length > MAX_NUMBER_CHARACTERS)
      return { problem: `more than ${MAX_NUMBER_CHARACTERS} characters` };
    if (!DECIMAL.test(text)) return { problem: text === "" ? "empty, not a number" : "not a number" };
    value = Number(text);
  } else return { problem: "not a number" };
  if (!isReasonable(value)) return { problem: REASONABLE_TEXT };
  // -0 (`-0`, `-0.0`, -1e-400 rounded) is written 0.
  return { value: value + 0 };
}

/**
 * The SQL (DuckDB) test that a DOUBLE expression holds a reasonable number, for the checks done
 * where the numbers are read by SQL (a bill's quantities and costs): NULL when it is NULL.
 */
export function reasonableSql(expression: string): string {
  return `(isfinite(${expression}) AND (${expression} = 0 OR abs(${expression}) BETWEEN ${REASONABLE.smallest} AND ${REASONABLE.largest}))`;
}
