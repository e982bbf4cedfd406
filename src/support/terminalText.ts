/*
 * Text from an input (a zone, a file name, a cell) written to the terminal: a control character
 * would act on it (ESC [2J clears the screen, an OSC sequence sets the title or a link, a carriage
 * return overwrites the line), so each is written as visible text instead. (src/output/text.ts
 * does the same for written outputs: the layer rules keep src/support and src/output apart.)
 */

/** Unicode's control characters (Cc): C0, DEL and C1. One character each: no backtracking. */
const CONTROL = /\p{Cc}/gu;

/** The text with every C0 and C1 control character, ESC and DEL written as `\xNN` (ESC: `\x1b`). */
export function printable(text: string): string {
  return text.replace(CONTROL, (control) => `\\x${control.charCodeAt(0).toString(16).padStart(2, "0")}`);
}
