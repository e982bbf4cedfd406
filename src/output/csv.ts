import { withoutControls } from "./text.js";

/*
 * CSV as RFC 4180 writes it: a cell is quoted when it holds a comma, a quote or a line break
 * (kept, as `\n`); other control characters are written visibly (text.ts). A text cell a
 * spreadsheet would run as a formula is written as text (below).
 */

/**
 * The first characters that make a spreadsheet read a cell as a formula (OWASP, "CSV
 * Injection"): an inventory's or a cost export's cells are anyone's text (a resource tag).
 */
export const FORMULA_FIRST_CHARACTERS = ["=", "+", "-", "@", "\t", "\r"] as const;
/** A number as written (a negative one starts with `-`): left as it is. */
export const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** The text with a leading `'` when a spreadsheet would read it as a formula (OWASP's advice). */
export function formulaSafe(text: string): string {
  return (FORMULA_FIRST_CHARACTERS as readonly string[]).includes(text[0]) && !NUMBER.test(text)
    ? `'${text}`
    : text;
}

export function csvCell(text: string): string {
  const safe = formulaSafe(text)
    .split(/\r\n|\r|\n/)
    .map(withoutControls)
    .join("\n");
  return /[",\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One CSV line, with its line end. */
export function csvLine(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(",")}\n`;
}
