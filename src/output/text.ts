/*
 * Text from an input or an answer, made safe to print (src/support/terminalText.ts): the output
 * writers' name for it.
 */
import { printable } from "../support/terminalText.js";

export { printable as withoutControls };

/** Text in an HTML page (a report's cells and titles): controls out, markup characters escaped. */
export const escapeHtml = (text: string) =>
  printable(text)
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
