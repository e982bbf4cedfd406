/**
 * The figures of a text a reader cannot read at a glance: a decimal with more than four
 * significant figures or more than one zero after its decimal mark (whole numbers are counts).
 */
export function unreadable(text: string): string[] {
  return (text.match(/(?<![\w.-])\d[\d,]*\.\d+(?![\w.-])/g) ?? []).filter((figure) => {
    const digits = figure.replaceAll(",", "").replace(".", "").replace(/^0+/, "");
    return digits.length > 4 || /^0\.00/.test(figure);
  });
}
