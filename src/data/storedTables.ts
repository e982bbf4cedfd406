import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ParsedCsv } from "./overlay.js";

/*
 * A built-in data set's CSV tables as the loader parses them, stored beside them by `npm run data`
 * (scripts/build-data.ts), as factors.yml is stored as factors.json: a process's start reads one
 * JSON text with V8's native parser instead of running the CSV parser cold over every table (about
 * a fifth of the command's start, src/data/load.ts). A custom folder's tables are always parsed:
 * its files are the user's and may change (its copy of this file is not read).
 */

/** The stored tables' file in a built-in data set's folder. */
export const STORED_TABLES_FILE = "tables.json";

/** A stored row: its line, then its cells in the header's order; a row whose keys are not a prefix of the header, whole. */
type StoredRow = [number, ...string[]] | { readonly lines: number; readonly record: Record<string, string> };

interface StoredTable {
  readonly header: string[];
  readonly rows: StoredRow[];
}

/** The text of `tables.json` for the parsed tables of a data set, by file. */
export function storedTablesText(tables: ReadonlyMap<string, ParsedCsv>): string {
  const stored: Record<string, StoredTable> = {};
  for (const [file, { header, records }] of tables) {
    const rows = records.map(({ record, info }): StoredRow => {
      const keys = Object.keys(record);
      const prefix = keys.every((key, index) => header[index] === key);
      return prefix ? [info.lines, ...keys.map((key) => record[key])] : { lines: info.lines, record };
    });
    stored[file] = { header, rows };
  }
  return `${JSON.stringify(stored)}\n`;
}

/** The tables stored in a built-in data set's folder (its real path), or null where it has none. */
export function readStoredTables(folder: string): ReadonlyMap<string, ParsedCsv> | null {
  const path = join(folder, STORED_TABLES_FILE);
  if (!existsSync(path)) return null;
  const stored = JSON.parse(readFileSync(path, "utf8")) as Record<string, StoredTable>;
  return new Map(
    Object.entries(stored).map(([file, { header, rows }]) => [
      file,
      {
        header,
        records: rows.map((row) => {
          if (!Array.isArray(row)) return { record: row.record, info: { lines: row.lines } };
          const record: Record<string, string> = {};
          for (let index = 1; index < row.length; index += 1)
            record[header[index - 1]] = row[index] as string;
          return { record, info: { lines: row[0] } };
        }),
      },
    ]),
  );
}
