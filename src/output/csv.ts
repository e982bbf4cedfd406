import { withoutControls } from "./text.js";

/*
 * CSV as RFC 4180 writes it: a cell is quoted when it holds a comma, a quote or a line break
 * (kept, as `\n`); other control characters are written visibly (text.ts).
 */

export function csvCell(text: string): string {
  const safe = text
    .split(/\r\n|\r|\n/)
    .map(withoutControls)
    .join("\n");
  return /[",\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One CSV line, with its line end. */
export function csvLine(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(",")}\n`;
}
