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

/**
 * A name or phrase as a table's cell shows it: a line breaks after `/`, `:` or a space, never
 * inside a part (`t3.large`, `ca-central-1`, `i-0abc`, `1,988`: each kept on one line, `.tok`).
 */
export function unbrokenParts(text: string): string {
  return text
    .split(/(?<=[/: ])(?=.)/)
    .map((part) => `<span class="tok">${escapeHtml(part)}</span>`)
    .join("<wbr>");
}
