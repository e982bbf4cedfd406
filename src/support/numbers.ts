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

/** How a text file writes a number's decimals: with a point (`12.5`) or a comma (`12,5`). */
export type DecimalMark = "." | ",";

/**
 * A number written with a decimal comma, as a spreadsheet saves it where the comma is the decimal
 * mark (German, French…): `12,5`, `-0,5`, `1234,56`, or with points between groups of three
 * digits, `1.234,56`, `1.500` (fifteen hundred). The pattern without anchors, so that SQL (RE2,
 * `regexp_full_match`) reads the same text as this module.
 */
export const DECIMAL_COMMA_PATTERN = String.raw`[+-]?(?:\d{1,3}(?:\.\d{3})+|\d+)(?:,\d+)?(?:[eE][+-]?\d+)?`;

const DECIMAL_COMMA = new RegExp(`^(?:${DECIMAL_COMMA_PATTERN})$`);

/**
 * A number's text written with `mark` as its decimal mark, as readNumber reads it (a decimal
 * point, no grouping), or null when it is not one: `1.234,56` → `1234.56`; `12.5` is no number
 * written with a decimal comma (its point would group digits by three).
 */
export function decimalPointText(given: string, mark: DecimalMark): string | null {
  const text = given.trim();
  if (mark === ".") return text;
  if (text.length > MAX_NUMBER_CHARACTERS || !DECIMAL_COMMA.test(text)) return null;
  return text.replaceAll(".", "").replace(",", ".");
}

/** Whether a number's text can only be read with a decimal comma (`12,5`), or only with a point (`12.5`). */
export function decimalMarkOf(given: string): DecimalMark | null {
  const text = given.trim();
  if (text.length > MAX_NUMBER_CHARACTERS) return null;
  const comma = DECIMAL_COMMA.test(text);
  const point = DECIMAL.test(text);
  if (comma && text.includes(",")) return ",";
  if (point && !comma) return ".";
  return null;
}

/** The decimal mark a text's number cells tell, and whether any told it. */
export interface DecimalReading {
  readonly mark: DecimalMark;
  readonly told: boolean;
}

/**
 * The decimal mark of a text whose columns are not separated by commas (`;`, a tab), from its
 * number cells: the mark more cells can only be read with (`12,5` a comma, `12.5` a point;
 * `1.500` and `12` tell nothing), else the comma, the convention that comes with `;` and a
 * spreadsheet's tab.
 */
export function decimalMarkOfCells(cells: Iterable<string>): DecimalReading {
  const told = { ",": 0, ".": 0 };
  for (const cell of cells) {
    const mark = decimalMarkOf(cell);
    if (mark !== null) told[mark] += 1;
  }
  if (told["."] > told[","]) return { mark: ".", told: true };
  return { mark: ",", told: told[","] > 0 };
}
