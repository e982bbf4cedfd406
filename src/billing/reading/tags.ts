/*
 * A bill's tags as `tag:<key>` reads them (--group-by, --filter, the report's groups), in each of
 * the six forms the exports write them, described here once; the header says which it holds:
 *
 * - a JSON object column: FOCUS `Tags`, CUR 2.0 `resource_tags` (a map in Parquet; its keys
 *   `user_<key>` or `user:<key>`, so `tag:team` finds `user_team`), Azure `Tags` (`"env": "prod"`,
 *   its text without braces in the EA export);
 * - a key/value list column: Google's `labels` (`[{"key":"team","value":"web"}]`, a list of
 *   structs in Parquet and JSON);
 * - a column per tag: the legacy CUR's `resourceTags/user:<key>` and `resourceTags/aws:<key>`
 *   (`tag:user:Name` or `tag:Name`), OCI's `tags/<key>` (`tag:Oracle-Tags.CreatedBy`).
 */

import { identifier, literal } from "../../duckdb/sqlText.js";

/** The columns holding every tag of a line as a JSON object (or a map), lower case. */
const OBJECT_COLUMNS = ["tags", "resource_tags"];

/** The columns holding a line's tags as a list of `{key, value}`, lower case. */
const KEY_VALUE_COLUMNS = ["labels"];

/** The prefixes of the columns holding one tag each, lower case, and the prefixes of keys tried after the key itself. */
const COLUMN_PREFIXES: readonly { readonly prefix: string; readonly keyPrefixes: readonly string[] }[] = [
  { prefix: "resourcetags/", keyPrefixes: ["user:"] },
  { prefix: "tags/", keyPrefixes: [] },
];

/** Key prefixes a JSON object's keys may carry (a CUR 2.0's user tags), tried after the key itself. */
const OBJECT_KEY_PREFIXES = ["user_", "user:"];

/** The columns of a header that hold tags, by form: `names` the file's, `runNames` as the run writes them. */
export interface TagColumns {
  /** JSON object (or map) columns, as the run names them, each with whether it is nested (a map or struct). */
  readonly objects: readonly { readonly column: string; readonly nested: boolean }[];
  /** Key/value list columns, as the run names them. */
  readonly keyValues: readonly { readonly column: string; readonly nested: boolean }[];
  /** A column per tag: its key (the name past its prefix, as the file writes it), the run's name. */
  readonly perTag: readonly { readonly key: string; readonly prefix: string; readonly column: string }[];
}

/** The tag columns of a header (`names` the file's; `runNames` the run's, in the same order). */
export function tagColumns(
  names: readonly string[],
  runNames: readonly string[],
  nested: ReadonlySet<string> = new Set(),
): TagColumns {
  const at = (index: number) => ({ column: runNames[index], nested: nested.has(runNames[index]) });
  const indices = (list: readonly string[]) =>
    names.flatMap((name, index) => (list.includes(name.toLowerCase()) ? [index] : []));
  return {
    objects: indices(OBJECT_COLUMNS).map(at),
    keyValues: indices(KEY_VALUE_COLUMNS).map(at),
    perTag: names.flatMap((name, index) => {
      const form = COLUMN_PREFIXES.find(({ prefix }) => name.toLowerCase().startsWith(prefix));
      return form === undefined || name.length === form.prefix.length
        ? []
        : [{ key: name.slice(form.prefix.length), prefix: form.prefix, column: runNames[index] }];
    }),
  };
}

/** Whether a header holds tags in any form. */
export const hasTags = (columns: TagColumns) =>
  columns.objects.length + columns.keyValues.length + columns.perTag.length > 0;

/**
 * A tag column's cell as a JSON object's text: CSV holds a map as its JSON text (Azure's EA without
 * braces), Parquet as the map (`nested`).
 */
export function tagsJson(column: string, nested: boolean): string {
  const text = nested
    ? `CAST(to_json(${identifier(column)}) AS VARCHAR)`
    : `TRIM(CAST(${identifier(column)} AS VARCHAR))`;
  return `CASE WHEN LEFT(${text}, 1) = '{' THEN ${text} ELSE CONCAT('{', ${text}, '}') END`;
}

/** A key/value list column's cell as a JSON array's text. */
export function keyValueJson(column: string, nested: boolean): string {
  return nested
    ? `CAST(to_json(${identifier(column)}) AS VARCHAR)`
    : `TRIM(CAST(${identifier(column)} AS VARCHAR))`;
}

/** The JSON path of a tag's key. */
export const tagPath = (tag: string) => `$."${tag.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;

/** A tag's value in a tag cell's JSON (`json`), at the first path that has it (SQL texts), or NULL. */
export function tagValue(json: string, ...paths: readonly string[]): string {
  const values = paths.map((path) => `json_extract_string(${json}, ${path})`).join(", ");
  return `CASE WHEN json_valid(${json}) THEN COALESCE(${values}) END`;
}

/** A tag's value in a key/value list's JSON (`json`), or NULL. */
export function keyValueTag(json: string, key: string): string {
  return `CASE WHEN json_valid(${json}) AND LEFT(${json}, 1) = '[' THEN list_extract(json_extract_string(${json}, '$[*].value'), list_position(json_extract_string(${json}, '$[*].key'), ${literal(key)})) END`;
}

/** A cell as text; blank, empty and the text `NULL` as none. */
const cellText = (column: string) =>
  `NULLIF(NULLIF(TRIM(CAST(${identifier(column)} AS VARCHAR)), ''), 'NULL')`;

/** The columns per tag that hold `key`: the key as written, then with each of its form's key prefixes (case aside). */
function perTagColumns(columns: TagColumns, key: string): string[] {
  const lower = key.toLowerCase();
  const exact = columns.perTag.filter((tag) => tag.key.toLowerCase() === lower);
  if (exact.length > 0) return exact.map((tag) => tag.column);
  return columns.perTag
    .filter((tag) =>
      (COLUMN_PREFIXES.find(({ prefix }) => prefix === tag.prefix)?.keyPrefixes ?? []).some(
        (keyPrefix) => tag.key.toLowerCase() === keyPrefix + lower,
      ),
    )
    .map((tag) => tag.column);
}

/**
 * The SQL of a tag's value on a line, the first form that has it, or null where the header holds
 * tags only as columns per tag and none is the key's (a key no object or list holds is none on
 * every line, as a tag no line carries).
 */
export function tagExpression(columns: TagColumns, key: string): string | null {
  const objects = columns.objects.map(({ column, nested }) =>
    tagValue(
      tagsJson(column, nested),
      ...[key, ...OBJECT_KEY_PREFIXES.map((prefix) => prefix + key)].map((path) => literal(tagPath(path))),
    ),
  );
  const lists = columns.keyValues.map(({ column, nested }) => keyValueTag(keyValueJson(column, nested), key));
  const own = perTagColumns(columns, key).map(cellText);
  const forms = [...objects, ...lists, ...own];
  if (forms.length === 0) return null;
  return forms.length === 1 ? forms[0] : `COALESCE(${forms.join(", ")})`;
}

/** The tags a header holds, as an error says them: its tag columns, or the keys of its columns per tag. */
export function tagFormsText(columns: TagColumns, limit = 8): string {
  const keys = columns.perTag.map((tag) => tag.key);
  const shown = keys.slice(0, limit).join(", ");
  return keys.length > limit ? `${shown} and ${keys.length - limit} more` : shown;
}
