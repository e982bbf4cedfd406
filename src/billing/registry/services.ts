/*
 * The services the registry knows, and what the summary says of a bill's services from it: storage
 * services (their method, medium and copies), services no method estimates (a fee, no hardware),
 * and the notes on a bill's unknown services and GPUs.
 *
 */

import { AWS } from "../providers/aws.js";
import { PROVIDERS } from "../providers/index.js";
import type { Deployment, DtuTiers, KnownService, StorageService } from "../providers/provider.js";
import {
  type Condition,
  conditionLines,
  conditionSql,
  has,
  sqlLiteral,
  whenSql,
} from "../rules/conditions.js";
import { DECIDED_REASONS, GPU_MODELS, gpuKey } from "./methods.js";

export { EMR_NAMES } from "../providers/aws.js";
export type { Deployment, KnownService, StorageMethod, StorageService } from "../providers/provider.js";

/*
 * Storage by what the product says it is (docs/billing.md, "Storage by the product's meaning"): the
 * method of a service's capacity lines (GB over time), its medium and the copies it keeps, from one
 * table read two ways — by the service's name (STORAGE_SERVICES: the CUR product code, FOCUS
 * ServiceName, Azure MeterCategory, Google Cloud service, Oracle service; joined as the table
 * billing_storage_services) and by the words of the line's meter, SKU or usage type
 * (STORAGE_TEXTS: a volume type on hard disks, a redundancy, a deployment's copies; written into
 * sql/classify/billing_methods.sql at its lines `-- @storage media of <alias>` and `-- @storage copies
 * of <alias>`). A line's own words come before its service's.
 *
 * Sources: Cloud Carbon Footprint's replication factors per AWS service ("Replication Factors");
 * Azure Storage redundancy (LRS and ZRS: 3 copies; GRS, RA-GRS, GZRS: 6); Amazon S3 storage
 * classes (One Zone-IA and Reduced Redundancy: CCF's 2); Microsoft Learn, "High availability in
 * Azure Database for PostgreSQL flexible server" and "Azure SQL Database: locally redundant
 * availability" (data on Premium storage, three copies in the zone); Azure Cosmos DB, "Global
 * data distribution under the hood" (a partition's replica set of four); Amazon Aurora User Guide,
 * "Amazon Aurora storage" (six copies across three zones); Oracle Exadata's high redundancy (three
 * mirrored copies); the deployments of the providers' modules (src/billing/providers/).
 */

/** Every provider's deployments (src/billing/providers/), the more precise first within each. */
export const DEPLOYMENTS: readonly Deployment[] = PROVIDERS.flatMap((provider) => provider.deployments);

/** Every provider's storage services (src/billing/providers/). */
export const STORAGE_SERVICES: readonly StorageService[] = PROVIDERS.flatMap((provider) => provider.storage);

/** What a line's own words say of its storage: a medium, or copies. */
export interface StorageText {
  /** The words that say it (src/billing/rules/conditions.ts). */
  readonly match: Condition;
  readonly medium?: "hdd";
  readonly copies?: number;
}

/** The media a line's words name, before its service's (the first entry that matches wins). */
export const STORAGE_MEDIA: readonly StorageText[] = [
  // EBS st1, sc1 and magnetic volumes; Azure's Standard HDD; Google's standard persistent disks
  {
    match: has(".st1", ".sc1", "(st1)", "(sc1)", "hdd", "magnetic", "volumeusage |"),
    medium: "hdd",
  },
  { match: has("storage pd capacity", "standard pd"), medium: "hdd" },
];

/** The copies a line's words name, before its service's (the first entry that matches wins). */
export const STORAGE_COPIES: readonly StorageText[] = [
  // S3 One Zone-IA and Reduced Redundancy
  {
    match: has("timedstorage-zia", "earlydelete-zia", "timedstorage-rrs", "one zone", "-z-ia"),
    copies: 2,
  },
  // Snapshots and backups: object storage's copies
  { match: has("snapshot", "backupusage"), copies: 3 },
  { match: has("aurora"), copies: 6 },
  // A deployment's copies (Multi-AZ ×2, a Multi-AZ DB cluster ×3): DEPLOYMENTS, the providers'
  ...DEPLOYMENTS.map((deployment) => ({ match: deployment.match, copies: deployment.copies })),
  { match: has("gzrs", "grs"), copies: 6 },
  { match: has("lrs", "zrs"), copies: 3 },
];

/** The WHEN lines of a CASE over the view `alias`'s line text giving what `table` says (media or copies). */
export function storageTextsSql(indent: string, alias: string, give: "media" | "copies"): string {
  const table = give === "media" ? STORAGE_MEDIA : STORAGE_COPIES;
  return table
    .map((entry) => {
      const then = give === "media" ? `'${entry.medium}'` : (entry.copies ?? 1).toFixed(1);
      return `${whenSql(conditionLines(entry.match, alias), indent)}\n${indent}  THEN ${then}`;
    })
    .join("\n");
}

/** A table of tiers: the group of a regular expression over a line's text naming its tier, each tier's figure. */
interface TierTable {
  readonly pattern: string;
  readonly figures: Readonly<Record<string, number>>;
  /** Whether the CASE says `ELSE NULL` (as the query wrote it), or leaves it implied. */
  readonly elseNull: boolean;
}

/** For each table, a CASE over the tier its pattern reads of `alias`'s text; the first that gives one (none: NULL). */
function tiersSql(indent: string, alias: string, tables: readonly TierTable[]): string {
  const cases = tables.map((table) =>
    [
      `CASE REGEXP_EXTRACT(${alias}.billing_usage_text, '${table.pattern}', 1)`,
      ...Object.entries(table.figures).map(([tier, figure]) => `  WHEN '${tier}' THEN ${figure.toFixed(1)}`),
      ...(table.elseNull ? ["  ELSE NULL"] : []),
      "END",
    ]
      .map((line) => `${indent}${line}`)
      .join("\n"),
  );
  if (cases.length === 0) return `${indent}NULL`;
  if (cases.length === 1) return cases[0];
  return [`${indent}COALESCE(`, cases.join(",\n"), `${indent})`].join("\n");
}

/**
 * A managed disk's capacity in GiB from its tier as its line's text names it (`-- @disk tiers of
 * <alias>`, an expression): each provider's tiers (BillingProvider.diskTiers) on a line billed in
 * its disk-month units naming a disk, by the number after one of its letters; NULL for another.
 */
export function diskTiersSql(indent: string, alias: string): string {
  const cases = PROVIDERS.flatMap(({ diskTiers }) => {
    if (diskTiers === null) return [];
    const table = {
      pattern: `(?:^|[ |-])[${diskTiers.letters}]([0-9]+) `,
      figures: diskTiers.gib,
      elseNull: true,
    };
    return [
      [
        `${indent}CASE`,
        `${indent}  WHEN LOWER(REPLACE(TRIM(COALESCE(${alias}.billing_usage_unit, '')), ' ', '')) NOT IN (${diskTiers.units.map(sqlLiteral).join(", ")})`,
        `${indent}    OR ${alias}.billing_usage_text NOT LIKE ${sqlLiteral(`%${diskTiers.word}%`)} THEN NULL`,
        `${indent}  ELSE`,
        tiersSql(`${indent}    `, alias, [table]),
        `${indent}END`,
      ].join("\n"),
    ];
  });
  if (cases.length === 0) return `${indent}CAST(NULL AS DOUBLE)`;
  if (cases.length === 1) return cases[0];
  return [`${indent}COALESCE(`, cases.join(",\n"), `${indent})`].join("\n");
}

/** What a provider's meters write of its DTUs: the number before the unit (`100 eDTUs`), the tier before it (`S2 DTUs`). */
function dtuPatterns(dtus: DtuTiers): { number: string; tier: string } {
  return {
    number: `(?:^| )([0-9]+) ${dtus.spelled}`,
    tier: `([a-z]+[0-9]*) ${dtus.spelled}(?:[ |]|$)`,
  };
}

const withDtus = (): DtuTiers[] => PROVIDERS.flatMap(({ dtuTiers }) => (dtuTiers === null ? [] : [dtuTiers]));

/**
 * The WHENs of the per-vCPU multiplier's CASE over `alias` reading a database's DTUs as vCores
 * (`-- @dtu vcores of <alias>`), one for each provider's DTUs (BillingProvider.dtuTiers) on a line
 * naming its unit: the number its meter names, else its tier's DTUs, over the DTUs a vCore stands
 * for in its tier.
 */
export function dtuVcoresSql(indent: string, alias: string): string {
  const text = `${alias}.billing_usage_text`;
  return withDtus()
    .map((dtus) => {
      const { number, tier } = dtuPatterns(dtus);
      const otherTiers = [
        ...dtus.otherTiers.words.map((word) => `${text} LIKE ${sqlLiteral(`%${word}%`)}`),
        ...[...dtus.otherTiers.letters].map(
          (letter) => `REGEXP_EXTRACT(${text}, ${sqlLiteral(tier)}, 1) LIKE ${sqlLiteral(`${letter}%`)}`,
        ),
      ];
      return [
        `${indent}WHEN ${text} LIKE ${sqlLiteral(`%${dtus.word}%`)} THEN COALESCE(`,
        `${indent}  TRY_CAST(NULLIF(REGEXP_EXTRACT(${text}, ${sqlLiteral(number)}, 1), '') AS DOUBLE),`,
        tiersSql(`${indent}  `, alias, [{ pattern: tier, figures: dtus.tiers, elseNull: false }]),
        `${indent}  ) / CASE WHEN ${otherTiers.join(`\n${indent}    OR `)}`,
        `${indent}    THEN ${dtus.otherTiers.perVcore.toFixed(1)} ELSE ${dtus.perVcore.toFixed(1)} END`,
      ].join("\n");
    })
    .join("\n");
}

/**
 * The WHENs of the warnings' CASE over `alias` naming why a line of DTUs has no vCores (`-- @dtu
 * warnings of <alias>`): a tier its provider's resource limits do not list, or neither tier nor
 * number named (the line's status, as a method that cannot count its units says it).
 */
export function dtuWarningsSql(indent: string, alias: string): string {
  const text = `${alias}.billing_usage_text`;
  return withDtus()
    .map((dtus) => {
      const tier = `REGEXP_EXTRACT(${text}, ${sqlLiteral(dtuPatterns(dtus).tier)}, 1)`;
      return [
        `${indent}WHEN ${alias}.billing_method IS NOT NULL AND ${alias}.billing_method_multiplier IS NULL AND ${text} LIKE ${sqlLiteral(`%${dtus.word}%`)}`,
        `${indent}  AND ${alias}.billing_unit_dimension = ${alias}.billing_method_dimension`,
        `${indent}  THEN CASE ${tier}`,
        `${indent}    WHEN '' THEN ${sqlLiteral(`${dtus.name}s of no tier or number named`)}`,
        `${indent}    ELSE CONCAT(${sqlLiteral(`unknown ${dtus.name} tier `)}, UPPER(${tier}))`,
        `${indent}  END`,
      ].join("\n");
    })
    .join("\n");
}

/**
 * The WHEN lines of a CASE over the deployments, at `indent`: over the view `alias`'s line text,
 * each giving its copies (`copies`, the line marked `-- @deployment copies of <alias>`) or an
 * instance line's warning naming them (`warning`, `-- @deployment warnings of <alias>`).
 */
export function deploymentWhensSql(indent: string, alias: string, give: "copies" | "warning"): string {
  return DEPLOYMENTS.map((deployment) => {
    const then =
      give === "copies"
        ? deployment.copies.toFixed(1)
        : `'deployment: ${deployment.name}, ${deployment.copies} instances'`;
    return `${indent}WHEN ${conditionSql(deployment.match, alias)} THEN ${then}`;
  }).join("\n");
}

/*
 * Services the registry knows that no method estimates, and why (docs/methodology.md, "Billing
 * lines that are not instance hours", **Fees** and **No method**): a fee billed on top of hours
 * another service bills (so estimating it would count those hours twice), or a charge for no
 * hardware at all. A service of a bill that neither this list nor the storage list
 * (STORAGE_SERVICES) holds, and none of whose lines a method reads, is an unknown service: the
 * summary names it with its lines and cost (src/billing/report/runSummary.ts).
 */

/** Services every provider's bills name. */
const EVERY_PROVIDER: readonly KnownService[] = [
  // FOCUS exports' tax lines; Google Cloud's `Invoice` (taxes, rounding and invoice adjustments)
  { provider: "", names: ["Tax"], role: "no-hardware", estimatedWhen: "", note: "tax: no hardware billed" },
];

/** The services the registry knows that no method estimates: AWS's, every provider's, then the others' (src/billing/providers/). */
export const KNOWN_SERVICES: readonly KnownService[] = [
  ...AWS.services,
  ...EVERY_PROVIDER,
  ...PROVIDERS.filter((provider) => provider !== AWS).flatMap((provider) => provider.services),
];

/**
 * The names of the services billing a fee on hours another service bills, lower case: a line of
 * theirs names an instance type without being its hours (the providers' FOCUS rules, notFee).
 */
export const FEE_SERVICE_NAMES: readonly string[] = KNOWN_SERVICES.filter(
  (service) => service.role === "fee",
).flatMap((service) => service.names.map((name) => name.toLowerCase()));

const serviceKey = (provider: string, name: string) => `${provider}\u0000${name.trim().toLowerCase()}`;

const KNOWN = new Map(
  KNOWN_SERVICES.flatMap((service) =>
    service.names.map((name) => [serviceKey(service.provider, name), service]),
  ),
);
const STORED = new Set(
  STORAGE_SERVICES.flatMap((service) => service.names.map((name) => serviceKey(service.provider, name))),
);

/** What the registry knows of a service that no method estimates: its entry here, else null. */
export function knownService(provider: string | null, name: string): KnownService | null {
  return KNOWN.get(serviceKey(provider ?? "", name)) ?? KNOWN.get(serviceKey("", name)) ?? null;
}

const BY_NAME = new Map(
  KNOWN_SERVICES.flatMap((service) => service.names.map((name) => [name.trim().toLowerCase(), service])),
);

/** A known service by its name alone, whatever the provider (the coverage's rows name no provider). */
export function knownServiceNamed(name: string): KnownService | null {
  return BY_NAME.get(name.trim().toLowerCase()) ?? null;
}

/** Whether the registry has an entry for a service (here or as a storage service). */
export function isRegistered(provider: string | null, name: string): boolean {
  return knownService(provider, name) !== null || STORED.has(serviceKey(provider ?? "", name));
}

/*
 * What the summary says of a bill's services and GPUs from the registry (src/billing/report/runSummary.ts):
 * the services it does not know, the known services no method estimates (a fee, no hardware), and
 * the GPU models a bill holds both inside instances and billed alone (docs/methodology.md,
 * "Billing lines that are not instance hours": **Unknown services**, **Fees**, **GPUs inside an
 * instance and billed alone**).
 */

/** The part of a summary's group of lines read here (src/billing/stages/evaluate.ts, LineGroup). */
export interface ServiceGroup {
  readonly provider: string | null;
  readonly service: string | null;
  readonly instanceType: string | null;
  readonly problem: string | null;
  readonly method: string | null;
  readonly methodKey: string | null;
  readonly lines: number;
  readonly cost: number;
  /** Why its lines have no method (a kind decided: KIND_RULES, src/billing/registry/methods.ts), else null. */
  readonly reason: string | null;
}

export interface ServiceTally {
  /** `<provider> <service>`, as the summary names it. */
  readonly name: string;
  /** The service as the bill names it. */
  readonly service: string;
  readonly lines: number;
  readonly cost: number;
  /** What the registry says of it (a known service), else "". */
  readonly note: string;
}

/** The summary's name of the services past the names it keeps (src/billing/stages/evaluate.ts, NAMES_KEPT). */
const OTHER_SERVICES = "other services";

interface ServiceSum {
  provider: string | null;
  service: string;
  lines: number;
  cost: number;
  /** Lines and cost of its lines no method reads. */
  unreadLines: number;
  unreadCost: number;
}

const byCost = (a: ServiceTally, b: ServiceTally) =>
  b.cost - a.cost || b.lines - a.lines || a.name.localeCompare(b.name);

/**
 * Unknown services — a service the registry has no entry for (KNOWN_SERVICES, STORAGE_SERVICES) none
 * of whose lines a method reads — and known services' lines no method reads, largest cost first.
 */
export function serviceNotes(groups: readonly ServiceGroup[]): {
  unknown: ServiceTally[];
  known: ServiceTally[];
} {
  const sums = new Map<string, ServiceSum>();
  for (const group of groups) {
    const service = group.service?.trim() ?? "";
    if (service === "" || service === OTHER_SERVICES) continue;
    const key = `${group.provider ?? ""}\u0000${service}`;
    const sum = sums.get(key) ?? {
      provider: group.provider,
      service,
      lines: 0,
      cost: 0,
      unreadLines: 0,
      unreadCost: 0,
    };
    sum.lines += group.lines;
    sum.cost += group.cost;
    if (group.method === null) {
      sum.unreadLines += group.lines;
      sum.unreadCost += group.cost;
    }
    sums.set(key, sum);
  }
  // A service some of whose lines a method reads, or whose kind the registry decides (an address,
  // DNS, keys), is never unknown, however another part of the bill spells it (`AWSGlue`, `AWS Glue`)
  const spelled = (service: string) => service.toLowerCase().replace(/[^a-z0-9]/g, "");
  const read = new Set(
    groups
      .filter((group) => group.method !== null || DECIDED_REASONS.has(group.reason ?? ""))
      .map((group) => spelled(group.service?.trim() ?? "")),
  );
  const unknown: ServiceTally[] = [];
  const known: ServiceTally[] = [];
  for (const sum of sums.values()) {
    const name = `${sum.provider ?? "?"} ${sum.service}`;
    const entry = knownService(sum.provider, sum.service);
    if (entry !== null && sum.unreadLines > 0) {
      known.push({
        name,
        service: sum.service,
        lines: sum.unreadLines,
        cost: sum.unreadCost,
        note: entry.note,
      });
    } else if (
      sum.unreadLines === sum.lines &&
      !isRegistered(sum.provider, sum.service) &&
      !read.has(spelled(sum.service))
    ) {
      unknown.push({ name, service: sum.service, lines: sum.lines, cost: sum.cost, note: "" });
    }
  }
  return { unknown: unknown.sort(byCost), known: known.sort(byCost) };
}

/** An instance type's family as the registry's GPU families name it (`p3.2xlarge`, `ml.p3.2xlarge` → p3; `a2-highgpu-1g` → a2). */
function family(instanceType: string): string {
  const name = instanceType.toLowerCase().replace(/^(?:ml|db|cache)\./, "");
  return name.split(/[.-]/, 1)[0];
}

const MODEL_OF_FAMILY = new Map(GPU_MODELS.flatMap((gpu) => gpu.families.map((name) => [name, gpu])));

export interface GpuBothWays {
  readonly model: string;
  /** The instance types carrying it, as billed. */
  readonly instanceTypes: readonly string[];
  /** Its board power, W, as its GPU-hours billed alone read it. */
  readonly watts: number;
  /** Lines of GPU-hours billed alone. */
  readonly lines: number;
}

/**
 * The GPU models a bill's evaluated lines hold both ways: inside an instance (its family's, the
 * instance's figures from the engine) and billed alone as GPU-hours of that model (its board power).
 */
export function gpusBothWays(groups: readonly ServiceGroup[]): GpuBothWays[] {
  const inside = new Map<string, Set<string>>();
  const alone = new Map<string, number>();
  for (const group of groups) {
    if (group.problem !== null) continue;
    if (group.methodKey === null && group.instanceType !== null) {
      const gpu = MODEL_OF_FAMILY.get(family(group.instanceType));
      if (gpu !== undefined)
        inside.set(gpu.model, (inside.get(gpu.model) ?? new Set()).add(group.instanceType));
    }
    const billed = GPU_MODELS.find((gpu) => gpuKey(gpu.model) === group.methodKey);
    if (billed !== undefined) alone.set(billed.model, (alone.get(billed.model) ?? 0) + group.lines);
  }
  return GPU_MODELS.filter((gpu) => inside.has(gpu.model) && alone.has(gpu.model)).map((gpu) => ({
    model: gpu.model,
    instanceTypes: [...(inside.get(gpu.model) ?? [])].sort(),
    watts: gpu.watts,
    lines: alone.get(gpu.model) ?? 0,
  }));
}
