/**
 * No code reads meaning back from a status, a reason, a note or a warning written as words (issue
 * 97: statuses as codes). A line's status, its problem, its reason, its match's kind and its grid
 * coverage are carried as codes or fields of their own from the stage that decides them; their
 * words are written for a person and never parsed again. This test searches `src/` and `sql/` for
 * such parsing and names each file and line:
 * - in SQL (the `.sql` files and the SQL TypeScript writes), a `LIKE`, `SIMILAR TO`, `regexp_…`,
 *   `starts_with`, `strpos`, `position` or `contains` over a column named for a status, problem,
 *   reason, note, warning or coverage;
 * - in TypeScript, a string method that takes text apart (`startsWith`, `endsWith`, `split`,
 *   `match`, `slice`, `replace`, `indexOf`, `includes`…) or a regular expression's `test`/`exec`
 *   on a value so named (`status`, `group.problem`, `match.warning`, `gpuNote`) or on a status's words
 *   (`statusOf(group)`, `statusWords(code)`).
 * A list of warnings holding a code (`warnings.includes(code)`) is a membership, not parsing.
 */
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { sourceFiles } from "../support/sources.js";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** What a column or a value holding words for a person is named. */
const WORDS = String.raw`\w*(?:status|problem|reason|note|warning|coverage|words)s?`;

/** One such value in TypeScript: a line's status, a group's problem, a match's warning. */
const ONE = String.raw`\w*(?:status|problem|reason|note|warning|coverage)`;

/** SQL reading such a column's text: a pattern, a regular expression or a search of its words. */
const SQL_PARSING = [
  new RegExp(String.raw`\b${WORDS}\s+(?:NOT\s+)?(?:I?LIKE|SIMILAR\s+TO|GLOB|~)`, "i"),
  new RegExp(
    String.raw`\b(?:regexp_\w+|starts_with|ends_with|strpos|position|contains|instr|split_part|string_split)\s*\(\s*[\w.]*?\b${WORDS}\b`,
    "i",
  ),
];

/** The string methods that take text apart. */
const METHODS =
  "startsWith|endsWith|split|match|matchAll|slice|substring|substr|replace|replaceAll|indexOf|lastIndexOf|search";

/** TypeScript taking such a value's text apart. */
const TS_PARSING = [
  // one status's or warning's text (a list of them sliced, or a list of codes' `includes`, is no parsing)
  new RegExp(String.raw`\b${ONE}\??\.(?:${METHODS}|includes)\(`, "i"),
  new RegExp(String.raw`\b\w*status(?:Of|Words)\([^)]*\)\??\.(?:${METHODS}|includes)\(`, "i"),
  // (a process's /proc status file is no status of a line)
  /\.(?:test|exec)\(\s*[\w.?]*\b\w*(?:problem|reason|note|warning|coverage)\b/i,
];

/** `file:line: text` of each line of `text` that parses words, by `patterns`. */
function parsingLines(file: string, text: string, patterns: readonly RegExp[]): string[] {
  return text.split("\n").flatMap((line, index) => {
    const code = line.replace(/^\s*(?:--|\/\/|\*|\/\*).*$/, "");
    return patterns.some((pattern) => pattern.test(code)) ? [`${file}:${index + 1}: ${line.trim()}`] : [];
  });
}

/** Every line of src/ and sql/ that parses a status's, a reason's or a warning's words. */
function parsingInTree(): string[] {
  const files = [...sourceFiles(`${root}src`, [".ts"]), ...sourceFiles(`${root}sql`, [".sql"])];
  return files.flatMap((path) => {
    const text = readFileSync(path, "utf8");
    const file = relative(root, path);
    // TypeScript writes SQL too: both kinds of parsing are looked for in it
    const patterns = path.endsWith(".sql") ? SQL_PARSING : [...SQL_PARSING, ...TS_PARSING];
    return parsingLines(file, text, patterns);
  });
}

describe("no code parses a status, a reason or a warning", () => {
  it("finds each kind of parsing in a sample, and none in codes compared or listed", () => {
    const sample = [
      "WHEN warnings LIKE '%grid series: no zone%' THEN 'no zone'",
      "NULLIF(regexp_extract(warnings, 'zone ([^ ,;]+)', 1), '') AS zone",
      "WHEN h.billing_match_warning LIKE 'instance-by-shape:%' THEN 1",
      "if (group.problem?.startsWith(NUMBER_BAD_ROW)) say();",
      "const reason = status.slice(NOT_COMPUTE.length + 2);",
      "if (!statusOf(group).startsWith(NOT_COMPUTE)) continue;",
      "const byShape = match.warning?.startsWith('managed-size by shape');",
      "note.replace(/: the CCF average GPU$/, '')",
      "return statusWords(code, null).slice(NOT_COMPUTE.length + 2);",
      // not parsing: codes compared, a list of codes, a comment
      "WHEN h.billing_match_kind = 'by-shape' THEN 'instance-by-shape'",
      "if (group.problemCode === 'quantity-not-a-number') say();",
      "return mix.warnings.includes(code);",
      "// a status's words are never parsed: status.startsWith is not done",
    ].join("\n");
    const found = parsingLines("sample", sample, [...SQL_PARSING, ...TS_PARSING]);
    expect(found.map((line) => line.split(":")[1])).toEqual(["1", "2", "3", "4", "5", "6", "7", "8", "9"]);
  });

  it("holds for every file of src/ and sql/", () => {
    expect(parsingInTree()).toEqual([]);
  });
});
