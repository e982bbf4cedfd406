/**
 * Cells a spreadsheet would run as formulas (OWASP, "CSV Injection"), each with what a CSV the
 * service writes holds for it: a leading `'`, except for a number.
 */
export const FORMULAS: readonly (readonly [string, string])[] = [
  ['=HYPERLINK("http://x","y")', `'=HYPERLINK("http://x","y")`],
  ["+1+1", "'+1+1"],
  ["@SUM(1+1)", "'@SUM(1+1)"],
  ["=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"],
  ["-2.5", "-2.5"],
];
