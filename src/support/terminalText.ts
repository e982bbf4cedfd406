/*
 * Text from an input (a zone, a file name, a cell) or an answer written to the terminal: a control
 * character would act on it (ESC [2J clears the screen, an OSC sequence sets the title or a link, a
 * carriage return overwrites the line), so each is written as visible text instead.
 */

/** Unicode's control characters (Cc): C0, DEL and C1. One character each: no backtracking. */
const CONTROL = /\p{Cc}/gu;

/** The text with every C0 and C1 control character, ESC and DEL written as `\xNN` (ESC: `\x1b`). */
export function printable(text: string): string {
  return text.replace(CONTROL, (control) => `\\x${control.charCodeAt(0).toString(16).padStart(2, "0")}`);
}

/** Lines of text made printable each, their line ends kept (a summary of several lines). */
export function printableLines(text: string): string {
  return text.split("\n").map(printable).join("\n");
}
