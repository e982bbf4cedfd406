import { DataError } from "./validate.js";

/*
 * A custom edition's overlay (EDITIONS_FILE `overlay: true`, docs/own-data.md): each file of its
 * folder gives only what changes in its base's same file.
 * - A CSV table: a row whose key (`id`, or the table's key columns, src/data/tables.ts) is the
 *   base's changes that row's cells that it fills (its empty cells and the columns its header lacks
 *   keep the base's); a row of a new key is added after the base's; a row whose `overlay` cell is
 *   `remove` removes the base's row of its key (removed, then given again: a row replaced whole). A table of measurements without a key (RAM and SSD
 *   densities) gets the overlay's rows added; `remove` removes the rows equal in the cells it gives.
 * - A YAML/JSON tree (factors.yml, config.yml): mappings are merged key by key, any other value
 *   (a number, a text, a list) replaces the base's, `null` (`~`) removes the key.
 */

/** A CSV file as parsed: its header and its records, each with its line in the file (for messages). */
export interface ParsedCsv {
  readonly header: string[];
  readonly records: { record: Record<string, string>; info: { lines: number } }[];
}

/** The column of an overlay CSV saying what a row does: empty (add or change) or `remove`. */
const OVERLAY_COLUMN = "overlay";

/** Keys that would reach an object's prototype, refused wherever a data file names keys. */
const PROTOTYPE_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/** The deepest nesting of a data tree: factors.yml nests 5, config.yml 2. */
const MAX_TREE_DEPTH = 32;

type Tree = Record<string, unknown>;

const isTree = (value: unknown): value is Tree =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * Refuses a tree holding a prototype key (`__proto__`, `constructor`, `prototype`) or nested deeper
 * than MAX_TREE_DEPTH, walked without recursion (a parsed file may nest arbitrarily deep).
 * @throws DataError naming the key's path.
 */
export function refusePrototypeKeys(tree: unknown, where: string): void {
  const pending: { value: unknown; path: string; depth: number }[] = [{ value: tree, path: "", depth: 0 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, path, depth } = next;
    if (value === null || typeof value !== "object") continue;
    if (depth > MAX_TREE_DEPTH) throw new DataError(`${where}:${path}: nested deeper than ${MAX_TREE_DEPTH}`);
    for (const [key, child] of Object.entries(value)) {
      const at = path === "" ? key : `${path}.${key}`;
      if (PROTOTYPE_KEYS.has(key)) throw new DataError(`${where}:${at}: ${JSON.stringify(key)} is not a key`);
      pending.push({ value: child, path: at, depth: depth + 1 });
    }
  }
}

/** `own` merged over `base` (neither changed: unchanged subtrees are the base's objects). */
export function overlaidTree(base: Tree, own: Tree, where: string): Tree {
  const merged: Tree = { ...base };
  for (const [key, value] of Object.entries(own)) {
    if (value === null) {
      if (!Object.hasOwn(base, key))
        throw new DataError(`${where}:${key}: removes nothing (not in the base's)`);
      delete merged[key];
    } else {
      const under = Object.hasOwn(base, key) ? base[key] : undefined;
      merged[key] = isTree(value) && isTree(under) ? overlaidTree(under, value, `${where}:${key}`) : value;
    }
  }
  return merged;
}

/**
 * The rows of a base's CSV table with an overlay's over them (rules above); the header is the
 * base's with the overlay's new columns after it, every row having every column.
 * @throws DataError naming the overlay's file, line and column.
 */
export function overlaidRows(
  where: string,
  base: ParsedCsv,
  own: ParsedCsv,
  key: readonly string[],
): ParsedCsv {
  requireKeyColumns(where, own, key);
  const given = own.header.filter((column) => column !== OVERLAY_COLUMN);
  const header = [...base.header, ...given.filter((column) => !base.header.includes(column))];
  const whole = (record: Readonly<Record<string, string>>) =>
    Object.fromEntries(header.map((column) => [column, record[column] ?? ""]));
  const rows: OverlaidRow[] = base.records.map(({ record, info }) => ({ record: whole(record), info }));
  const keyOf = (record: Readonly<Record<string, string>>) =>
    key.map((column) => record[column] ?? "").join("\u0000");
  const byKey = new Map<string, number[]>();
  if (key.length > 0) {
    rows.forEach((row, index) => {
      const k = keyOf(row?.record ?? {});
      byKey.set(k, [...(byKey.get(k) ?? []), index]);
    });
  }
  for (const { record, info } of own.records) {
    const action = overlayAction(where, record, info.lines);
    const cells = Object.fromEntries(given.map((column) => [column, record[column] ?? ""]));
    const matches =
      key.length > 0
        ? (byKey.get(keyOf(cells)) ?? []).filter((index) => rows[index] !== null)
        : removedWithoutKey(rows, given, cells, action);
    if (action === "remove") {
      if (matches.length === 0)
        throw new DataError(`${where}:${info.lines}: removes no row of the base's table`);
      for (const index of matches) rows[index] = null;
    } else if (matches.length > 0) {
      const changed = Object.fromEntries(Object.entries(cells).filter(([, cell]) => cell !== ""));
      for (const index of matches) rows[index] = { record: { ...rows[index]?.record, ...changed }, info };
    } else {
      rows.push({ record: whole(cells), info });
      if (key.length > 0) byKey.set(keyOf(cells), [rows.length - 1]);
    }
  }
  return { header, records: rows.filter((row) => row !== null) };
}

/** A base row as the overlay leaves it (null: removed). */
type OverlaidRow = ParsedCsv["records"][number] | null;

/** An overlay's rows are matched to the base's by the key: every key column is required. */
function requireKeyColumns(where: string, own: ParsedCsv, key: readonly string[]): void {
  for (const column of key) {
    if (!own.header.includes(column)) {
      throw new DataError(
        `${where}:1:${column}: missing column (an overlay's rows are matched to the base's by ${key.join(", ")})`,
      );
    }
  }
}

/** What an overlay row does: "remove", or "" (add or change). */
function overlayAction(where: string, record: Readonly<Record<string, string>>, lines: number): string {
  const action = (record[OVERLAY_COLUMN] ?? "").trim();
  if (action !== "" && action !== "remove") {
    throw new DataError(
      `${where}:${lines}:${OVERLAY_COLUMN}: expected "remove" or an empty cell, found ${JSON.stringify(action.slice(0, 40))}`,
    );
  }
  return action;
}

/** In a table without a key, the rows a removal names: those agreeing with each of its non-empty cells. */
function removedWithoutKey(
  rows: readonly OverlaidRow[],
  given: readonly string[],
  cells: Readonly<Record<string, string>>,
  action: string,
): number[] {
  return rows.flatMap((row, index) =>
    action === "remove" &&
    row !== null &&
    given.every((column) => cells[column] === "" || row.record[column] === cells[column])
      ? [index]
      : [],
  );
}
