/*
 * What each provider sells by a compute size, as data (docs/billing.md, "Managed services by the
 * catalogue"): for each managed service billed as hours of a size — a database, a cache, an app
 * platform's plan, a gateway or load balancer, a warehouse's node — the sizes it names, each with
 * its vCPUs, memory, GPUs, the server standing for it among the editions' instance types, the share
 * of that server it is entitled to where it is a share (a shared core, a part of a larger node),
 * and the source that publishes it.
 *
 * A line's text (its meter, SKU or usage type: the format's usage query) names its service (`match`)
 * and its size (`sizeIn`); sql/classify/billing_methods.sql gives it the method `managed-size` (before
 * an instance hour: a node type the editions lack, billed as one, is the catalogue's) and the
 * key `managed:<service>:<size>` (the CASE lines written from this table: catalogueServicesSql,
 * catalogueSizesSql, catalogueCopiesSql), and the look-up stage matches that key to its server
 * (catalogueMatch): the size's own where the catalogue lists it; where it does not, and the
 * service's sizes are its provider's VM sizes (`sizeGrammar`), the edition's type of the size's
 * family and vCPUs, said; else none, named with its lines and cost. Loaded once, with the
 * registry; test/billing/managedServices.test.ts checks every row's server is an instance type of the
 * editions with its vCPUs, or of which its vCPUs and memory are its share.
 */

import { PROVIDERS } from "../providers/index.js";
import type { CatalogueService, CatalogueSize } from "../providers/provider.js";
import { conditionSql } from "../rules/conditions.js";

export type { CatalogueService, CatalogueSize } from "../providers/provider.js";

/** Every provider's managed sizes (src/billing/providers/). */
export const CATALOGUE: readonly CatalogueService[] = PROVIDERS.flatMap((provider) => provider.catalogue);

/** The method of the lines the catalogue reads, as the output's `method` names it. */
export const MANAGED_SIZE = "managed-size";

/** The key prefix of a line the catalogue reads. */
const KEY_PREFIX = "managed:";

const BY_ID = new Map(CATALOGUE.map((service) => [service.id, service]));

/** The service and size a key names (`managed:<service>:<size>`), or null for another key. */
export function catalogueKey(key: string): { service: CatalogueService; size: string } | null {
  if (!key.startsWith(KEY_PREFIX)) return null;
  const rest = key.slice(KEY_PREFIX.length);
  const colon = rest.indexOf(":");
  const service = BY_ID.get(colon < 0 ? rest : rest.slice(0, colon));
  return service === undefined ? null : { service, size: colon < 0 ? "" : rest.slice(colon + 1) };
}

/** A size as the summary and the warnings name it (`B1MS`, `fixed cost`). */
export function sizeLabel(service: CatalogueService, name: string): string {
  if (name === "") return "(no size named)";
  return catalogueSize(service, name)?.label ?? name.toUpperCase();
}

/** A size of a service as the catalogue lists it, else null. */
export function catalogueSize(service: CatalogueService, name: string): CatalogueSize | null {
  return service.sizes.find((row) => row.size === name) ?? null;
}

/**
 * The WHEN lines of a CASE giving a line its catalogue service (sql/classify/billing_methods.sql,
 * `-- @catalogue services of <alias>`): its provider's, its text naming the service, billed in hours
 * of a whole thing (no vCPU or GPU counted).
 */
export function catalogueServicesSql(indent: string, name: string): string {
  return CATALOGUE.map((service) => {
    const named = conditionSql(service.match, name);
    // A service of several sizes reads a line naming one (an App Service Environment's stamp fee names none)
    const sized = service.sizeIn === null ? "" : ` AND ${sizeExpression(service, name)} <> ''`;
    // Hours of a whole thing: no vCPU or GPU counted; Azure's `1/Hour` is one thing's hour
    return `${indent}WHEN ${name}.billing_provider = '${service.provider}' AND ((${name}.billing_unit_dimension_read = 'hour'
${indent}  AND COALESCE(${name}.billing_unit_resource_read, 'instance') = 'instance') OR TRIM(${name}.billing_unit_text) = '1/hour')
${indent}  AND (${named})${sized}
${indent}  THEN '${service.id}'`;
  }).join("\n");
}

/** The expression of a service's size over a line's text, lower case without blanks ('' for none). */
function sizeExpression(service: CatalogueService, name: string): string {
  if (service.sizeIn === null) return `'${service.sizes[0].size}'`;
  return `REPLACE(COALESCE(REGEXP_EXTRACT(${name}.billing_usage_text, '${service.sizeIn}', 1), ''), ' ', '')`;
}

/** The WHEN lines of a CASE over a line's catalogue service giving its size (`-- @catalogue sizes of <alias>`). */
export function catalogueSizesSql(indent: string, name: string): string {
  return CATALOGUE.map(
    (service) => `${indent}WHEN '${service.id}' THEN ${sizeExpression(service, name)}`,
  ).join("\n");
}

/**
 * The WHEN lines giving the servers one billed hour of a size stands for, its nodes × its share, where
 * not 1 (`-- @catalogue copies of <alias>`).
 */
export function catalogueCopiesSql(indent: string, name: string): string {
  return CATALOGUE.flatMap((service) =>
    service.sizes
      .filter((row) => service.nodes * row.share !== 1)
      .map(
        (row) =>
          `${indent}WHEN ${name}.billing_catalogue_key = '${KEY_PREFIX}${service.id}:${row.size}' THEN ${numberSql(service.nodes * row.share)}`,
      ),
  ).join("\n");
}

/** A number as the SQL writes a double (`2.0`, `0.041666666666666664`). */
const numberSql = (value: number) => (Number.isInteger(value) ? value.toFixed(1) : String(value));

/** What the output's warning says of a size the catalogue lists. */
export function catalogueNote(service: CatalogueService, row: CatalogueSize, server: string): string {
  const gpus = row.gpus === null ? "" : `, ${row.gpus.count} ${row.gpus.model.toUpperCase()}`;
  const share = row.share === 1 ? "" : `, ${formatShare(row.share)} of it`;
  const nodes = service.nodes === 1 ? "" : `, ${service.nodes} nodes an hour`;
  const assumed = service.published ? "" : "; its size not published: the catalogue's assumption";
  return `${MANAGED_SIZE}: ${service.name} ${sizeLabel(service, row.size)}: ${row.vcpus} vCPU${row.vcpus === 1 ? "" : "s"}, ${row.memoryGib} GiB${gpus} (${service.source}); estimated as ${server}${share}${nodes}${assumed}`;
}

const formatShare = (share: number) => `${Number((share * 100).toPrecision(3))} %`;
