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
 * registry; test/billing/catalogue.test.ts checks every row's server is an instance type of the
 * editions with its vCPUs, or of which its vCPUs and memory are its share.
 */

import { all, type Condition, conditionSql, has } from "./conditions.js";

export interface CatalogueSize {
  /** The size as a line names it, lower case, without blanks (`b1ms`, `p1v3`, `c1`, `micro`). */
  readonly size: string;
  readonly vcpus: number;
  /** GiB of memory the size offers (a cache's, its cache size). */
  readonly memoryGib: number;
  /** GPUs a size carries (model as GPU_MODELS name them), none for most. */
  readonly gpus: { readonly model: string; readonly count: number } | null;
  /**
   * The share of its server the size is entitled to: a shared core's CPU quota (its server of the
   * size's vCPUs), or the part of a larger server its vCPUs and memory are (a Redshift RA3 node
   * the editions lack, of the ra3.4xlarge they list); 1 for a whole server.
   */
  readonly share: number;
  /** The editions' instance type standing for the size (the provider's own where it names it). */
  readonly server: string;
  /** As the summary and the warnings name it, where not its upper-cased size (`fixed cost`). */
  readonly label?: string;
}

export interface CatalogueService {
  /** Its key in the lines' method key (`managed:<id>:<size>`). */
  readonly id: string;
  readonly provider: "aws" | "azure" | "gcp" | "oracle";
  /** As the summary and the warnings name it. */
  readonly name: string;
  /** What names the service's hours (src/billing/registry/conditions.ts), its provider's lines and an hour unit aside. */
  readonly match: Condition;
  /** A regular expression of one group over the line's text giving the size; null for a service of one size. */
  readonly sizeIn: string | null;
  /** Servers a billed hour stands for (a cache's primary and replica: 2). */
  readonly nodes: number;
  /** Whether a size the catalogue lacks is its provider's VM size of the same name (read by its grammar). */
  readonly sizeGrammar: boolean;
  /** Whether the provider publishes its sizes; false: the catalogue's assumption, said on every line. */
  readonly published: boolean;
  readonly source: string;
  readonly sizes: readonly CatalogueSize[];
}

const size = (name: string, vcpus: number, memoryGib: number, server: string, share = 1): CatalogueSize => ({
  size: name,
  vcpus,
  memoryGib,
  gpus: null,
  share,
  server,
});

/** A CPU quota of minutes a day on a shared VM, as a share of one vCPU. */
const minutesADay = (minutes: number) => minutes / (24 * 60);

export const CATALOGUE: readonly CatalogueService[] = [
  {
    id: "azure-database-flexible-burstable",
    provider: "azure",
    name: "Azure Database for PostgreSQL or MySQL flexible server, Burstable",
    // `Azure Database for PostgreSQL | Flexible Server Burstable BS Series Compute | B1MS`
    match: all(has("azure database for postgresql", "azure database for mysql"), has("burstable")),
    sizeIn: "(?:^|[ |_-])(b[0-9]+l?m?s)(?:[ |-]|$)",
    nodes: 1,
    // The server's SKU is the VM size: Standard_B1ms, Standard_D2ds_v4…
    sizeGrammar: true,
    published: true,
    source:
      "Microsoft Learn, Compute options in Azure Database for PostgreSQL flexible server (Burstable: B-series VMs); Get-AzPostgreSqlFlexibleServerLocationBasedCapability's SKU table",
    sizes: [
      size("b1s", 1, 1, "standard_b1s"),
      size("b1ms", 1, 2, "standard_b1ms"),
      size("b2s", 2, 4, "standard_b2s"),
      size("b2ms", 2, 8, "standard_b2ms"),
      size("b4ms", 4, 16, "standard_b4ms"),
      size("b8ms", 8, 32, "standard_b8ms"),
      size("b12ms", 12, 48, "standard_b12ms"),
      size("b16ms", 16, 64, "standard_b16ms"),
      size("b20ms", 20, 80, "standard_b20ms"),
    ],
  },
  {
    id: "azure-app-service",
    provider: "azure",
    name: "Azure App Service plan",
    // `Azure App Service | Basic Plan | B1`, `Premium v3 Plan | P1 v3`, `… | P1v3 App`
    match: all(has("app service"), has("plan")),
    sizeIn: "(?:^|[ |-])([fdbspi][0-9]+(?: ?m?v[0-9])?)(?: app)?(?:[ |-]|$)",
    nodes: 1,
    sizeGrammar: false,
    published: true,
    // Free and Shared: a CPU quota on a VM shared with other customers (60 and 240 CPU minutes a
    // day); Basic and Standard: A-series compute (Av2 stands for it); Premium v2: Dv2-series (not in
    // the editions: the Dsv3 of those vCPUs stands for it); Premium v3: Dsv4 and, memory-optimised
    // (mv3), Esv4; Isolated v2: Dsv4
    source:
      "Azure App Service pricing (azure.microsoft.com/pricing/details/app-service), Microsoft Learn, Azure App Service plan overview",
    sizes: [
      size("f1", 1, 1, "standard_a1_v2", minutesADay(60)),
      size("d1", 1, 1, "standard_a1_v2", minutesADay(240)),
      size("b1", 1, 1.75, "standard_a1_v2"),
      size("b2", 2, 3.5, "standard_a2_v2"),
      size("b3", 4, 7, "standard_a4_v2"),
      size("s1", 1, 1.75, "standard_a1_v2"),
      size("s2", 2, 3.5, "standard_a2_v2"),
      size("s3", 4, 7, "standard_a4_v2"),
      size("p1v2", 1, 3.5, "standard_a1_v2"),
      size("p2v2", 2, 7, "d2s_v3"),
      size("p3v2", 4, 14, "d4s_v3"),
      size("p0v3", 1, 4, "standard_a1_v2"),
      size("p1v3", 2, 8, "d2s_v4"),
      size("p2v3", 4, 16, "d4s_v4"),
      size("p3v3", 8, 32, "d8s_v4"),
      size("p1mv3", 2, 16, "e2s_v4"),
      size("p2mv3", 4, 32, "e4s_v4"),
      size("p3mv3", 8, 64, "e8s_v4"),
      size("p4mv3", 16, 128, "e16s_v4"),
      size("p5mv3", 32, 256, "e32s_v4"),
      size("i1v2", 2, 8, "d2s_v4"),
      size("i2v2", 4, 16, "d4s_v4"),
      size("i3v2", 8, 32, "d8s_v4"),
    ],
  },
  ...(["basic", "standard", "premium"] as const).map(
    (tier): CatalogueService => ({
      id: `azure-cache-for-redis-${tier}`,
      provider: "azure",
      name: `Azure Cache for Redis, ${tier[0].toUpperCase()}${tier.slice(1)}`,
      // `Redis Cache | Standard | C1 Cache`, `Azure Cache for Redis | Premium | P1 Cache Instance`
      match: all(has("redis"), has("cache"), has(tier)),
      sizeIn: "(?:^|[ |-])([cp][0-9])(?: cache)",
      // Standard and Premium: a primary and a replica node
      nodes: tier === "basic" ? 1 : 2,
      sizeGrammar: false,
      // The VMs' family is not published: the Dsv3 (Av2 for one vCPU) of the tier's vCPUs stands for it
      published: true,
      source:
        "Microsoft Learn, Azure Cache for Redis planning FAQ (vCPUs per size: C1 1, C2 2, C3 4, C4 2, C5 4, C6 8, P1 2, P2 4, P3 4, P4 8; Standard and Premium: primary and replica)",
      sizes:
        tier === "premium"
          ? [
              size("p1", 2, 6, "d2s_v3"),
              size("p2", 4, 13, "d4s_v3"),
              size("p3", 4, 26, "d4s_v3"),
              size("p4", 8, 53, "d8s_v3"),
            ]
          : [
              size("c1", 1, 1, "standard_a1_v2"),
              size("c2", 2, 2.5, "d2s_v3"),
              size("c3", 4, 6, "d4s_v3"),
              size("c4", 2, 13, "d2s_v3"),
              size("c5", 4, 26, "d4s_v3"),
              size("c6", 8, 53, "d8s_v3"),
            ],
    }),
  ),
  {
    id: "azure-application-gateway-v2",
    provider: "azure",
    name: "Azure Application Gateway v2",
    // `Application Gateway | Standard v2 | Standard Fixed Cost`, `… | Standard Capacity Units`
    match: all(has("application gateway"), has("fixed cost", "capacity unit")),
    sizeIn: "(fixed cost|capacity unit)",
    nodes: 1,
    sizeGrammar: false,
    // An instance's size is not published: the Dsv3 of two vCPUs stands for it
    published: false,
    // A fixed cost's hour is the gateway's instance; "each instance is roughly equivalent to 10
    // capacity units": a capacity unit's hour a tenth of one
    source: "Microsoft Learn, Scaling Application Gateway v2 and WAF v2; Application Gateway pricing",
    sizes: [
      { ...size("fixedcost", 2, 8, "d2s_v3"), label: "fixed cost" },
      { ...size("capacityunit", 2, 8, "d2s_v3", 0.1), label: "capacity unit" },
    ],
  },
  {
    id: "aws-nat-gateway",
    provider: "aws",
    name: "Amazon VPC NAT gateway",
    // `EUW3-NatGateway-Hours`; FOCUS without extensions: `$0.045 per NAT Gateway Hour`
    match: has("natgateway-hours", "nat gateway hour"),
    sizeIn: null,
    nodes: 1,
    sizeGrammar: false,
    // AWS publishes no size: a node of 2 vCPUs and 8 GiB (m5.large) stands for each gateway's hour
    published: false,
    source:
      "Amazon VPC User Guide, NAT gateways (one gateway in one Availability Zone); its size is not published",
    sizes: [{ ...size("nat-gateway", 2, 8, "m5.large"), label: "hour" }],
  },
  {
    id: "aws-load-balancer",
    provider: "aws",
    name: "Elastic Load Balancing load balancer",
    // `EUW3-LoadBalancerUsage` (Application, Network, Gateway and Classic load balancers' hours)
    match: has("loadbalancerusage", "loadbalancer-hour"),
    sizeIn: null,
    nodes: 1,
    sizeGrammar: false,
    // AWS publishes no size: a node of 2 vCPUs and 8 GiB (m5.large) stands for each load balancer's hour
    published: false,
    source:
      "Elastic Load Balancing User Guide (a load balancer's nodes per enabled zone); their size is not published",
    sizes: [{ ...size("load-balancer", 2, 8, "m5.large"), label: "hour" }],
  },
  {
    id: "aws-redshift-ra3",
    provider: "aws",
    name: "Amazon Redshift RA3 node",
    // `EUW3-Node:ra3.xlplus` (CUR's usage type, FOCUS's x_UsageType); the editions list
    // ra3.4xlarge and ra3.16xlarge, whose lines stay instance hours
    match: all(has("redshift"), has("ra3.")),
    sizeIn: "(?:^|[^a-z0-9])(ra3[.](?:large|xlplus))(?:[^a-z0-9]|$)",
    nodes: 1,
    sizeGrammar: false,
    published: true,
    // AWS does not publish the EC2 family behind RA3: each smaller node is the part of the
    // editions' ra3.4xlarge (12 vCPUs, 96 GiB) its vCPUs and memory are, both ratios alike
    source:
      "Amazon Redshift Management Guide, Amazon Redshift provisioned clusters, node type details (RA3: ra3.large 2 vCPUs and 16 GiB, ra3.xlplus 4 and 32, ra3.4xlarge 12 and 96)",
    sizes: [
      { ...size("ra3.large", 2, 16, "ra3.4xlarge", 2 / 12), label: "ra3.large" },
      { ...size("ra3.xlplus", 4, 32, "ra3.4xlarge", 4 / 12), label: "ra3.xlplus" },
    ],
  },
  {
    id: "gcp-cloud-sql-shared-core",
    provider: "gcp",
    name: "Cloud SQL shared-core instance",
    // `Cloud SQL for MySQL: Zonal - Micro instance in Americas` (db-f1-micro), `… Small instance` (db-g1-small)
    match: all(has("cloud sql"), has("micro instance", "small instance")),
    sizeIn: "(micro|small) instance",
    nodes: 1,
    sizeGrammar: false,
    published: true,
    // The shared-core machine types Compute Engine sells alike (f1-micro, g1-small), which the editions list
    source:
      "Cloud SQL for MySQL pricing and machine types (db-f1-micro 0.614 GB, db-g1-small 1.7 GB: shared core)",
    sizes: [size("micro", 1, 0.6, "f1-micro"), size("small", 1, 1.7, "g1-small")],
  },
];

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
 * `-- catalogue services of <alias>`): its provider's, its text naming the service, billed in hours
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

/** The WHEN lines of a CASE over a line's catalogue service giving its size (`-- catalogue sizes of <alias>`). */
export function catalogueSizesSql(indent: string, name: string): string {
  return CATALOGUE.map(
    (service) => `${indent}WHEN '${service.id}' THEN ${sizeExpression(service, name)}`,
  ).join("\n");
}

/**
 * The WHEN lines giving the servers one billed hour of a size stands for, its nodes × its share, where
 * not 1 (`-- catalogue copies of <alias>`).
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
