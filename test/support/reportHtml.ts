/**
 * A report's HTML with its names as plain text: a table's name cell writes each part of a name as a
 * span of its own, a break allowed between them (src/output/text.ts, `unbrokenParts`); tests that
 * read a cell's name read it whole.
 */
export const namesAsText = (html: string): string =>
  html.replace(/<span class="tok">([^<]*)<\/span>(?:<wbr>)?/g, "$1");
