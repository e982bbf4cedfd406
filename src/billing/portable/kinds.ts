/*
 * The kinds of billing lines: the lines of billing_classified grouped by what the lookup table,
 * the instance matches, the places and the by-cost rate read of them (provider, instance type,
 * region, unit, method, service…), their quantities and costs summed, their lines counted. The
 * command groups an export's lines so (src/billing/stages/classify.ts); on another engine the keys
 * script does (script.ts), and `impact-service tables` builds the small tables from its result:
 * only these distinct keys leave the engine.
 */

/** The columns a kind of lines is told apart by, in order. */
export const LINE_KIND_COLUMNS = [
  "billing_provider",
  "billing_instance_type",
  "billing_region_key",
  "billing_line_kind",
  "billing_unit",
  "billing_unit_hours",
  "billing_region",
  "billing_method",
  "billing_method_key",
  "billing_method_factor",
  "billing_method_unit",
  "billing_usage_unit",
  "billing_service",
  "billing_unknown_unit",
  "billing_method_warning",
] as const;

/** The numbers of a kind (the others are texts), as keys.csv gives them. */
export const LINE_KIND_NUMBERS: ReadonlySet<string> = new Set([
  "billing_unit_hours",
  "billing_method_factor",
  "billing_quantity",
  "billing_line_count",
  "billing_cost",
  "billing_paid_cost",
]);

/**
 * The kinds of the lines of billing_classified: `sum` adds the quantities and costs (DuckDB's fsum
 * for the command, SUM elsewhere), `lineCount` counts a kind's lines. Kinds apart by whether
 * their quantity is a number and its sign, and whether their billed and paid costs are positive: a
 * kind fares as each of its lines, the by-cost rate sums the energy and the cost of the same lines,
 * and coverage the paid cost of the same lines (src/billing/coverage.ts).
 */
export function lineKindsQuery(how: { readonly sum: string; readonly lineCount: string }): string {
  const kind = LINE_KIND_COLUMNS.join(", ");
  return `SELECT ${kind}, ${how.sum}(billing_quantity) AS billing_quantity, ${how.lineCount} AS billing_line_count,
  ${how.sum}(billing_cost) AS billing_cost, ${how.sum}(billing_paid_cost) AS billing_paid_cost
FROM billing_classified
GROUP BY ${kind}, billing_quantity IS NULL, billing_quantity < 0, billing_cost > 0, billing_paid_cost > 0`;
}
