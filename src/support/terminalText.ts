/*
 * Text from an input or an answer, made safe to print on a terminal: a control character (an
 * escape sequence in a zone or an instance type, a carriage return in a cell, an OSC sequence in a
 * file name) would act on the reader's terminal.
 */

/** The text with every C0 and C1 control character (and DEL) written as `\xNN`. */
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

/** Lines of text made printable each, their line ends kept (a summary of several lines). */
export function printableLines(text: string): string {
  return text.split("\n").map(printable).join("\n");
}
