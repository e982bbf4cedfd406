/*
 * Text from an input (a zone, a file name, a cell) written to the terminal: a control character
 * would act on it (ESC [2J clears the screen, an OSC sequence sets the title or a link, a carriage
 * return overwrites the line), so each is written as visible text instead.
 */

/** The text with every C0 and C1 control character, ESC and DEL written as `\xNN` (ESC: `\x1b`). */
export function printable(text: string): string {
  let out = "";
  let plain = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 0x20 && (code < 0x7f || code > 0x9f)) continue;
    out += `${text.slice(plain, index)}\\x${code.toString(16).padStart(2, "0")}`;
    plain = index + 1;
  }
  return plain === 0 ? text : out + text.slice(plain);
}
