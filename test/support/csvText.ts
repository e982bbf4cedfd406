/** Rows written as RFC 4180 CSV, for tests that build a bill from a fixture's rows. */
export type Rows = string[][];

const cell = (text: string) => (/[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);

export const csvText = (rows: Rows): string =>
  rows
    .map((row) => row.map(cell).join(","))
    .join("\n")
    .concat("\n");
