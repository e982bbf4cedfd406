/*
 * How a provider's own rules read its FOCUS lines, as typed data (its module writes them; the
 * FOCUS query, sql/classify/billing_lines_focus.sql, is their skeleton): the instance types its
 * texts name, what kind of line each of its lines is (an instance's hours or not), and how the type
 * a line bills is named. One generator writes them as SQL over the query's alias for every engine
 * (focusKindSql, typeNameSql, namedTypeSql): no provider's rule is SQL written by hand. Beside the
 * rules' language of the methods (conditions.ts), this one reads the export's own columns, as the
 * file names them, rather than the line's text in one.
 */

/** The columns of a FOCUS export (and of its query) a provider's rule reads. */
export type FocusColumn =
  | "ChargeDescription"
  | "ConsumedUnit"
  | "ResourceType"
  | "ServiceName"
  | "SkuMeter"
  | "SkuPriceDetails"
  | "x_Operation"
  | "x_ServiceCode"
  | "x_SkuDetails"
  | "x_SkuMeterCategory"
  | "x_SkuMeterName"
  /** The instance type the command's --instance-type-column names, else none. */
  | "billing_type_hint"
  /** The line's usage type: x_UsageType, else SkuMeter. */
  | "billing_usage_type";

/** A value a rule reads: a column, or an instance type the provider's texts name (FocusLines.types, by its name). */
export type FocusField = FocusColumn | { readonly type: string };

export type FocusCondition =
  | { readonly field: FocusField; readonly present: boolean }
  /** The value is one of these, as written (case and blanks count). */
  | { readonly field: FocusField; readonly oneOf: readonly string[] }
  /** The value matches a LIKE pattern, as written. */
  | { readonly field: FocusField; readonly like: string }
  /** The value, lower case (none read as ''), matches a LIKE pattern, or not. */
  | { readonly field: FocusField; readonly lowerLike: string; readonly negated: boolean }
  /** The value, lower case and trimmed (none read as ''), is one of these, or is none of these. */
  | { readonly field: FocusField; readonly lowerIn: readonly string[]; readonly negated: boolean }
  /** The value, lower case and trimmed, is not the name of a service billing a fee on another's hours (the registry's). */
  | { readonly field: FocusField; readonly notFee: true }
  | { readonly all: readonly FocusCondition[] }
  | { readonly any: readonly FocusCondition[] };

export const present = (field: FocusField): FocusCondition => ({ field, present: true });
export const absent = (field: FocusField): FocusCondition => ({ field, present: false });
export const oneOf = (field: FocusField, ...values: readonly string[]): FocusCondition => ({
  field,
  oneOf: values,
});
export const like = (field: FocusField, pattern: string): FocusCondition => ({ field, like: pattern });
/** The value as written matches any of the LIKE patterns. */
export const likeAny = (field: FocusField, ...patterns: readonly string[]): FocusCondition =>
  anyOf(...patterns.map((pattern) => like(field, pattern)));
export const lowerLike = (field: FocusField, pattern: string): FocusCondition => ({
  field,
  lowerLike: pattern,
  negated: false,
});
export const lowerNotLike = (field: FocusField, pattern: string): FocusCondition => ({
  field,
  lowerLike: pattern,
  negated: true,
});
export const lowerIn = (field: FocusField, values: readonly string[]): FocusCondition => ({
  field,
  lowerIn: values,
  negated: false,
});
export const lowerNotIn = (field: FocusField, values: readonly string[]): FocusCondition => ({
  field,
  lowerIn: values,
  negated: true,
});
export const notFee = (field: FocusField): FocusCondition => ({ field, notFee: true });
export const allOf = (...conditions: readonly FocusCondition[]): FocusCondition =>
  conditions.length === 1 ? conditions[0] : { all: conditions };
export const anyOf = (...conditions: readonly FocusCondition[]): FocusCondition =>
  conditions.length === 1 ? conditions[0] : { any: conditions };
/** An instance type the provider's texts name (FocusLines.types), as a field. */
export const namedType = (name: string): FocusField => ({ type: name });

/** An hour as a FOCUS export's ConsumedUnit writes it, lower case. */
export const FOCUS_HOUR_UNITS: readonly string[] = ["hours", "hour", "hrs", "hr", "h"];

/**
 * A line whose description names an instance type (`type`), for its hours: an instance's hours,
 * but for a fee on hours another service bills (EMR's: it names the type too), a bandwidth's
 * (Mbps) and a burstable instance's CPU credits.
 */
export const describedTypeHours = (type: FocusField): FocusCondition =>
  allOf(
    present(type),
    notFee("ServiceName"),
    lowerNotLike("ChargeDescription", "%mbps%"),
    lowerNotLike("ChargeDescription", "%cpu credit%"),
    lowerIn("ConsumedUnit", FOCUS_HOUR_UNITS),
  );

/** What a FOCUS line is: an instance's hours, not, or a reason its machine type is not billed. */
export type FocusLineKind = "compute" | "not compute" | "machine type not billed";

/** A kind of line and when it is: the first of a provider's whose condition holds gives its line's kind. */
export interface FocusKindRule {
  readonly kind: FocusLineKind;
  readonly when: FocusCondition;
}

/**
 * An instance type named in a line's texts: the first group of a regular expression over some of
 * its columns, lower case (each source in turn: the first that holds a type gives it; a source of
 * several columns reads them joined by a blank).
 */
export interface NamedTypeRule {
  /** Its name among the provider's (a field: namedType). */
  readonly name: string;
  readonly sources: readonly (readonly FocusColumn[])[];
  readonly pattern: string;
}

/** How the instance type a line bills is named. */
export type TypeName =
  | FocusField
  /** The first group of a regular expression over the first of the columns present (none: ''); none where empty. */
  | { readonly extract: readonly FocusColumn[]; readonly pattern: string; readonly trimmed: boolean }
  /** The first of these present, without the words listed, trimmed, its blanks written as `blanks`. */
  | { readonly cleaned: readonly TypeName[]; readonly dropping: readonly string[]; readonly blanks: string };

/** A provider's own rules for its FOCUS lines (src/billing/providers/provider.ts, BillingProvider.focusLines). */
export interface FocusLines {
  /** The instance types its texts name, each a value its rules read by name. */
  readonly types: readonly NamedTypeRule[];
  /** Its lines' kinds, in order; a line none holds for is `not compute`. */
  readonly kinds: readonly FocusKindRule[];
  /** The instance type its line bills: the first of these there is (the --instance-type-column's before all). */
  readonly instanceType: readonly TypeName[];
}

/** A text as an SQL literal (no quote in the rules' texts: Spark and BigQuery read `''` otherwise). */
function literal(text: string): string {
  if (text.includes("'")) throw new Error(`FOCUS rules: a quote in ${text}`);
  return `'${text}'`;
}

const list = (values: readonly string[]) => `(${values.map(literal).join(", ")})`;

/** Where a provider's rules are written: the query's alias, the provider's id (its types' columns), the fee services' names. */
export interface FocusScope {
  readonly alias: string;
  readonly provider: string;
  /** The names of the services billing a fee on another's hours, lower case. */
  readonly feeNames: readonly string[];
}

/** The column of the query holding a provider's named type (an id's other characters than letters and digits as `_`). */
export const namedTypeColumn = (provider: string, name: string): string =>
  `billing_${provider.replace(/[^a-z0-9]/g, "_")}_${name.replace(/[^a-z0-9]/g, "_")}_type`;

function fieldSql(field: FocusField, scope: FocusScope): string {
  return `${scope.alias}.${typeof field === "string" ? field : namedTypeColumn(scope.provider, field.type)}`;
}

/** A condition as SQL over the scope's alias, on one line, parenthesized where it joins others. */
export function focusConditionSql(condition: FocusCondition, scope: FocusScope, nested = false): string {
  if ("all" in condition || "any" in condition) {
    const [parts, joint] = "all" in condition ? [condition.all, " AND "] : [condition.any, " OR "];
    const joined = parts.map((part) => focusConditionSql(part, scope, true)).join(joint);
    return nested && parts.length > 1 ? `(${joined})` : joined;
  }
  const value = fieldSql(condition.field, scope);
  const not = "negated" in condition && condition.negated ? "NOT " : "";
  if ("present" in condition) return `${value} IS ${condition.present ? "NOT " : ""}NULL`;
  if ("oneOf" in condition)
    return condition.oneOf.length === 1
      ? `${value} = ${literal(condition.oneOf[0])}`
      : `${value} IN ${list(condition.oneOf)}`;
  if ("like" in condition) return `${value} LIKE ${literal(condition.like)}`;
  if ("lowerLike" in condition)
    return `LOWER(COALESCE(${value}, '')) ${not}LIKE ${literal(condition.lowerLike)}`;
  if ("lowerIn" in condition)
    return `LOWER(TRIM(COALESCE(${value}, ''))) ${not}IN ${list(condition.lowerIn)}`;
  return `LOWER(TRIM(COALESCE(${value}, ''))) NOT IN ${list(scope.feeNames)}`;
}

/**
 * A kind rule of a provider as a WHEN of the kind CASE: its provider, then each top-level part of
 * its condition on a line of its own (`indent` the WHEN's).
 */
export function focusKindSql(rule: FocusKindRule, scope: FocusScope, indent: string): string {
  const parts = "all" in rule.when ? rule.when.all : [rule.when];
  const lines = [
    `${indent}WHEN ${scope.alias}.billing_provider = ${literal(scope.provider)}`,
    ...parts.map((part) => `${indent}  AND ${focusConditionSql(part, scope, true)}`),
  ];
  return `${lines.join("\n")}\n${indent}  THEN ${literal(rule.kind)}`;
}

/** How a line's instance type is named, as SQL over the scope's alias. */
export function typeNameSql(name: TypeName, scope: FocusScope): string {
  if (typeof name === "string" || "type" in name) return fieldSql(name, scope);
  if ("extract" in name) {
    const text = `COALESCE(${[...name.extract.map((column) => fieldSql(column, scope)), "''"].join(", ")})`;
    const found = `REGEXP_EXTRACT(${text}, ${literal(name.pattern)}, 1)`;
    return `NULLIF(${name.trimmed ? `TRIM(${found})` : found}, '')`;
  }
  const first = firstSql(name.cleaned, scope);
  const dropped = name.dropping.reduce((text, words) => `REPLACE(${text}, ${literal(words)}, '')`, first);
  return `REPLACE(TRIM(${dropped}), ' ', ${literal(name.blanks)})`;
}

/** The first of the names there is (COALESCE), or the one. */
export function firstSql(names: readonly TypeName[], scope: FocusScope): string {
  const written = names.map((name) => typeNameSql(name, scope));
  return written.length === 1 ? written[0] : `COALESCE(${written.join(", ")})`;
}

/** A named type as SQL over the scope's alias (its columns read lower case): its value, none where no source names one. */
export function namedTypeSql(rule: NamedTypeRule, scope: FocusScope): string {
  const found = rule.sources.map((columns) => {
    const text =
      columns.length === 1
        ? `COALESCE(${fieldSql(columns[0], scope)}, '')`
        : `CONCAT(${columns.map((column) => `COALESCE(${fieldSql(column, scope)}, '')`).join(", ' ', ")})`;
    return `NULLIF(REGEXP_EXTRACT(LOWER(${text}), ${literal(rule.pattern)}, 1), '')`;
  });
  return found.length === 1 ? found[0] : `COALESCE(${found.join(", ")})`;
}

const conditionColumns = (condition: FocusCondition): FocusField[] =>
  "all" in condition
    ? condition.all.flatMap(conditionColumns)
    : "any" in condition
      ? condition.any.flatMap(conditionColumns)
      : [condition.field];

const nameColumns = (name: TypeName): FocusField[] =>
  typeof name === "string" || "type" in name
    ? [name]
    : "extract" in name
      ? [...name.extract]
      : name.cleaned.flatMap(nameColumns);

/** The columns of the export a provider's FOCUS rules read (each once): the FOCUS format must read each (test/billing/providers.test.ts). */
export function focusLinesColumns(rules: FocusLines): FocusColumn[] {
  const fields = [
    ...rules.types.flatMap((type) => type.sources.flat()),
    ...rules.kinds.flatMap((rule) => conditionColumns(rule.when)),
    ...rules.instanceType.flatMap(nameColumns),
  ];
  return [...new Set(fields.filter((field): field is FocusColumn => typeof field === "string"))];
}
