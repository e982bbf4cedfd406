/**
 * A format's instance lines as SQL (BillingFormat.instanceHours, instanceMemory): the WHENs of its
 * lines query's kind CASE marking an instance's hours, the type such a line names, the unit of one
 * written without a unit, the memory its column writes. Each writer gives its marker back where the
 * format has no such data, so that the marker is refused (src/billing/queries.ts).
 */

import type { InstanceHours } from "./formats/format.js";
import { BILLING_FORMATS, isBillingFormatName } from "./formats/knownFormats.js";
import { sqlLiteral } from "./rules/conditions.js";

/**
 * A node's instance type within a usage type, lower case (cache.m5.large, db.r5.large,
 * ml.m5.large, kafka.m5.large, dc2.large): a family with a digit, a size.
 */
const NODE_TYPE =
  "((?:(?:db|cache|ml|kafka)[.])?[a-z][a-z0-9-]*[0-9][a-z0-9-]*[.](?:nano|micro|small|medium|[0-9]*xlarge|large|metal[a-z0-9-]*))";

const instanceHoursOf = (name: string): InstanceHours | undefined =>
  isBillingFormatName(name) ? BILLING_FORMATS[name].instanceHours : undefined;

/** `column` matching a LIKE pattern; `=` where the pattern has no wildcard (the same lines). */
const matching = (column: string, pattern: string) =>
  /[%_]/.test(pattern) ? `${column} LIKE ${sqlLiteral(pattern)}` : `${column} = ${sqlLiteral(pattern)}`;

/** `column` equal to one of `values` (`=` for one). */
export const oneOfSql = (column: string, values: readonly string[]) =>
  values.length === 1
    ? `${column} = ${sqlLiteral(values[0])}`
    : `${column} IN (${values.map(sqlLiteral).join(", ")})`;

/** The node services' conditions, each `(service … AND usage type …)`. */
function nodeConditions(hours: InstanceHours, alias: string, only: "all" | "hourly"): string[] {
  const { service, usageType } = hours.columns;
  return hours.byNode
    .filter((node) => only === "all" || node.hourly === true)
    .map((node) => {
      const usage = node.lower ? `LOWER(${alias}.${usageType})` : `${alias}.${usageType}`;
      return `(${oneOfSql(`${alias}.${service}`, node.services)} AND ${matching(usage, node.usageType)})`;
    });
}

/** The WHENs marking an instance's hours `'compute'`: by operation and a named type, then a node's. */
export function instanceKindsSql(indent: string, name: string, alias: string): string {
  const hours = instanceHoursOf(name);
  if (hours === undefined) return `${indent}-- @instance hours kinds of format ${name} over ${alias}`;
  const { service, operation, usageType, instanceType } = hours.columns;
  const byOperation = hours.byOperation.map(
    (rule) =>
      `(${alias}.${service} = ${sqlLiteral(rule.service)} AND ${matching(`${alias}.${operation}`, rule.operation)})`,
  );
  const named = [
    `NULLIF(TRIM(${alias}.${instanceType}), '') IS NOT NULL`,
    ...hours.namedBy.map((pattern) => matching(`${alias}.${usageType}`, pattern)),
  ];
  const or = `\n${indent}    OR `;
  return [
    `${indent}WHEN (${byOperation.join(or)})`,
    `${indent}  AND (${named.join(or)})`,
    `${indent}  THEN 'compute'`,
    `${indent}WHEN (${nodeConditions(hours, alias, "all").join(or)})`,
    `${indent}  AND NULLIF(REGEXP_EXTRACT(LOWER(${alias}.${usageType}), ${sqlLiteral(NODE_TYPE)}, 1), '') IS NOT NULL`,
    `${indent}  THEN 'compute'`,
  ].join("\n");
}

/** The instance type a line names: the type column, else the usage type's end, else a node's type in it. */
export function instanceTypeSql(indent: string, name: string, alias: string): string {
  const hours = instanceHoursOf(name);
  if (hours === undefined) return `${indent}-- @instance type of format ${name} over ${alias}`;
  const { usageType, instanceType } = hours.columns;
  return [
    `${indent}COALESCE(`,
    `${indent}  NULLIF(TRIM(${alias}.${instanceType}), ''),`,
    `${indent}  NULLIF(REGEXP_EXTRACT(${alias}.${usageType}, ':([^:]+)$', 1), ''),`,
    `${indent}  NULLIF(REGEXP_EXTRACT(LOWER(${alias}.${usageType}), ${sqlLiteral(NODE_TYPE)}, 1), '')`,
    `${indent})`,
  ].join("\n");
}

/** The WHEN giving an instance's line written without a unit its hours' unit. */
export function instanceHoursUnitSql(indent: string, name: string, alias: string): string {
  const hours = instanceHoursOf(name);
  if (hours === undefined) return `${indent}-- @instance hours unit of format ${name} over ${alias}`;
  const marks = [
    ...hours.hoursUnit.usageTypes.map((pattern) => matching(`${alias}.${hours.columns.usageType}`, pattern)),
    ...nodeConditions(hours, alias, "hourly"),
  ];
  return `${indent}WHEN ${marks.join(`\n${indent}  OR `)}\n${indent}  THEN ${sqlLiteral(hours.hoursUnit.unit)}`;
}

/** An instance's memory in its unit as a number (`8 GiB`: 8), NULL where the column writes otherwise. */
export function instanceMemorySql(indent: string, name: string, alias: string): string {
  const memory = isBillingFormatName(name) ? BILLING_FORMATS[name].instanceMemory : undefined;
  if (memory === undefined) return `${indent}-- @instance memory of format ${name} over ${alias}`;
  const pattern = `^([0-9]+(?:[.][0-9]+)?) ?${memory.unit}$`;
  return `${indent}TRY_CAST(NULLIF(REGEXP_EXTRACT(TRIM(COALESCE(${alias}.${memory.column}, '')), ${sqlLiteral(pattern)}, 1), '') AS DOUBLE)`;
}
