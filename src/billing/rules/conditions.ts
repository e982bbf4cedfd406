/*
 * What a rule matches on a line, as typed data (the providers' modules and the registry both write
 * rules in it, so it sits below both and imports nothing): words of its text (the line
 * relation's billing_usage_text: its service, product, SKU, meter, usage type, lower case), its
 * provider, its unit's dimension and resource, and the columns the classifying view adds (a
 * catalogue service, a known service's role…), joined by all and any. One generator writes a
 * condition as SQL over a view's alias for every engine (conditionSql, conditionLines): no rule is
 * SQL written by hand, and the words a rule reads are known to the tests (conditionWords).
 */

/** The columns of the classifying view a rule may read besides the line's text. */
export type RuleColumn =
  | "billing_provider"
  | "billing_line_kind"
  | "billing_charge"
  | "billing_service_category"
  | "billing_unit_dimension"
  | "billing_unit_resource"
  | "billing_unit_time_hours"
  | "billing_catalogue_service"
  | "billing_service_role"
  | "billing_service_estimated_when"
  | "billing_service_storage";

export type Condition =
  /** The line's text holds the words (a LIKE pattern's fragment: `_` any one character, as LIKE reads it). */
  | { readonly has: string }
  /** The line's text starts with the words. */
  | { readonly starts: string }
  /** The line's text does not hold the words. */
  | { readonly lacks: string }
  /** The line's text does not hold the value of a column of it (a known service's `estimated_when`). */
  | { readonly lacksColumn: RuleColumn }
  /** A column is the value (null: none). */
  | { readonly column: RuleColumn; readonly is: string | null }
  /** A column is not the value (null: it has one). */
  | { readonly column: RuleColumn; readonly isNot: string | null }
  | { readonly column: RuleColumn; readonly oneOf: readonly string[] }
  | { readonly column: RuleColumn; readonly below: number }
  /** A column's text, lower case, starts with the words (none read as ''). */
  | { readonly column: RuleColumn; readonly startsWith: string }
  | { readonly all: readonly Condition[] }
  | { readonly any: readonly Condition[] };

/** The text holds any of the words. */
export const has = (...words: readonly string[]): Condition =>
  words.length === 1 ? { has: words[0] } : { any: words.map((word) => ({ has: word })) };
export const lacks = (word: string): Condition => ({ lacks: word });
export const starts = (word: string): Condition => ({ starts: word });
/** Every condition holds (an `all` among them read as its parts). */
export const all = (...conditions: readonly Condition[]): Condition => ({
  all: conditions.flatMap((condition) => ("all" in condition ? condition.all : [condition])),
});
/** One of the conditions holds (an `any` among them read as its parts). */
export const any = (...conditions: readonly Condition[]): Condition => ({
  any: conditions.flatMap((condition) => ("any" in condition ? condition.any : [condition])),
});
export const is = (column: RuleColumn, value: string | null): Condition => ({ column, is: value });
export const isNot = (column: RuleColumn, value: string | null): Condition => ({ column, isNot: value });
/** A line of a provider. */
export const provider = (name: string): Condition => is("billing_provider", name);
/** A line whose unit measures `dimension` (src/billing/registry/units.ts: hour, gb, gb-hour, count). */
export const unit = (dimension: string): Condition => is("billing_unit_dimension", dimension);
export const unitNot = (dimension: string): Condition => isNot("billing_unit_dimension", dimension);
/** A line whose unit counts one of the resources over time (vcpu, gpu, dpu…). */
export const resource = (...names: readonly string[]): Condition =>
  names.length === 1
    ? is("billing_unit_resource", names[0])
    : { column: "billing_unit_resource", oneOf: names };

/** A text as an SQL literal (no quote in the registry's texts: Spark and BigQuery read `''` otherwise). */
export function sqlLiteral(text: string): string {
  if (text.includes("'")) throw new Error(`billing rules: a quote in ${text}`);
  return `'${text}'`;
}

const text = (alias: string) => `${alias}.billing_usage_text`;

/** One condition as SQL over `alias`, on one line, parenthesized where it joins others. */
export function conditionSql(condition: Condition, alias: string, nested = false): string {
  if ("has" in condition) return `${text(alias)} LIKE ${sqlLiteral(`%${condition.has}%`)}`;
  if ("starts" in condition) return `${text(alias)} LIKE ${sqlLiteral(`${condition.starts}%`)}`;
  if ("lacks" in condition) return `${text(alias)} NOT LIKE ${sqlLiteral(`%${condition.lacks}%`)}`;
  if ("lacksColumn" in condition)
    return `${text(alias)} NOT LIKE CONCAT('%', ${alias}.${condition.lacksColumn}, '%')`;
  if ("all" in condition || "any" in condition) {
    const [parts, joint] = "all" in condition ? [condition.all, " AND "] : [condition.any, " OR "];
    const joined = parts.map((part) => conditionSql(part, alias, true)).join(joint);
    return nested && parts.length > 1 ? `(${joined})` : joined;
  }
  const column = `${alias}.${condition.column}`;
  if ("is" in condition)
    return condition.is === null ? `${column} IS NULL` : `${column} = ${sqlLiteral(condition.is)}`;
  if ("isNot" in condition)
    return condition.isNot === null ? `${column} IS NOT NULL` : `${column} <> ${sqlLiteral(condition.isNot)}`;
  if ("oneOf" in condition) return `${column} IN (${condition.oneOf.map(sqlLiteral).join(", ")})`;
  if ("below" in condition) return `${column} < ${condition.below}`;
  return `LOWER(COALESCE(${column}, '')) LIKE ${sqlLiteral(`${condition.startsWith}%`)}`;
}

/**
 * A condition as the lines of a WHEN (the first after `WHEN`, the others below it, each `  OR` or
 * `  AND` one of its top-level parts): a rule reads as it is written.
 */
export function conditionLines(condition: Condition, alias: string): string[] {
  if (!("all" in condition || "any" in condition)) return [conditionSql(condition, alias)];
  const [parts, joint] = "all" in condition ? [condition.all, "AND"] : [condition.any, "OR"];
  return parts.map((part, index) => `${index === 0 ? "" : `  ${joint} `}${conditionSql(part, alias, true)}`);
}

/**
 * A CASE's WHEN at `indent` over a condition's lines (conditionLines), those below its first
 * indented as written; its THEN is the caller's.
 */
export function whenSql(lines: readonly string[], indent: string): string {
  const [first, ...more] = lines;
  return [`${indent}WHEN ${first}`, ...more.map((line) => `${indent}${line}`)].join("\n");
}

/** The words of a line's text a condition reads (its `has` and `starts`), whatever its joints. */
export function conditionWords(condition: Condition): string[] {
  if ("has" in condition) return [condition.has];
  if ("starts" in condition) return [condition.starts];
  if ("all" in condition) return condition.all.flatMap(conditionWords);
  if ("any" in condition) return condition.any.flatMap(conditionWords);
  return [];
}

/** Whether a condition reads a column's value (a rule's kind: a fee's service role…). */
export function readsColumn(condition: Condition, column: RuleColumn, value: string): boolean {
  if ("all" in condition) return condition.all.some((part) => readsColumn(part, column, value));
  if ("any" in condition) return condition.any.some((part) => readsColumn(part, column, value));
  return "column" in condition && condition.column === column && "is" in condition && condition.is === value;
}
