/*
 * The methods a billing line that is not an instance hour is estimated by (docs/methodology.md,
 * "Billing lines that are not instance hours"), each described once, in BILLING_METHODS: the unit
 * dimension it reads, what tells its keys apart, the suffix of its unit as the output writes it, its
 * constant multiplier; its keys (the coefficient rows of one unit: a GB-hour of SSD, a vCPU-hour…),
 * each with its energy and its embedded impact per unit; and the rules of
 * sql/classify/billing_methods.sql that give lines the method, each at its place among every rule
 * (a line takes the first rule that matches). The SQL's CASE, the registry's tables
 * billing_method_kinds and billing_method_keys (src/billing/registry/sqlTables.ts) and the coefficient
 * rows of the keys (src/billing/stages/methodRows.ts) are made from it; a method without
 * energy, embedded rule or classifying rule stops the run before it starts (methodProblems).
 */

import { PROVIDERS, providerOf } from "../providers/index.js";
import type { ControlPlane } from "../providers/provider.js";
import {
  all,
  any,
  type Condition,
  conditionLines,
  conditionSql,
  has,
  is,
  isNot,
  lacks,
  provider,
  resource,
  starts,
  unit,
  unitNot,
  whenSql,
} from "../rules/conditions.js";
import { GENERATIVE_AI_LINE_RULES, GENERATIVE_AI_METHOD } from "./generativeAi.js";

/** A figure per unit with its bounds. */
export interface Range {
  readonly value: number;
  readonly min: number;
  readonly max: number;
}

const exactly = (value: number): Range => ({ value, min: value, max: value });

/**
 * The embedded impact of one unit of a key, per criterion: the engine's component of that kind (its
 * default archetype and `input`) for one hour, ÷ `per` units; the `vcpus` vCPU-hours of the
 * provider's reference instance; or none, saying why.
 */
export type EmbeddedRule =
  | {
      readonly component: "ssd" | "hdd" | "gpu";
      readonly input: Readonly<Record<string, unknown>>;
      readonly per: number;
    }
  | { readonly vcpus: number }
  | { readonly none: string }
  /** A generative-AI model's output token (`provider/name`): EcoLogits' figures (src/billing/stages/generativeAiRows.ts). */
  | { readonly generativeAi: string };

/**
 * kWh of one unit, before the PUE: a figure per provider, or (the cost key) the kWh per unit of
 * cost of the bill's own instance lines (src/billing/stages/lookUp.ts).
 */
export type EnergyRule =
  | ((provider: string) => Range)
  | { readonly perCostOfTheBill: true }
  /** A generative-AI model's output token (`provider/name`): EcoLogits' energy, PUE included. */
  | { readonly generativeAi: string };

/** One key of a method: the coefficient row of one unit, for one variant (a medium, a GPU model). */
export interface MethodKey {
  /** The medium or GPU model; '' for none (a GPU of no model the registry knows: CCF's average). */
  readonly variant: string;
  /** The coefficient table's key (`method:ssd-gb-hour`), shared by methods reading the same unit. */
  readonly key: string;
  /** Its unit as the output's method_unit writes it (before the suffix). */
  readonly unit: string;
  readonly energy: EnergyRule;
  readonly embedded: EmbeddedRule;
}

/**
 * A rule of the CASE giving a line its method (sql/classify/billing_methods.sql): what it matches of
 * a line (src/billing/rules/conditions.ts), written as SQL over the classifying view (alias `u`).
 */
export interface LineRule {
  /** Its place among every rule, methods' and others' (LINE_RULES): the lowest that matches wins. */
  readonly order: number;
  readonly match: Condition;
  /** Why it is there, written above it as comments. */
  readonly why?: readonly string[];
  /** Its THEN on a line of its own, below a long condition. */
  readonly thenApart?: boolean;
}

export interface BillingMethod {
  readonly method: string;
  /** The unit dimension it reads (src/billing/registry/units.ts); `any` for by-cost (it reads the cost). */
  readonly dimension: "hour" | "gb" | "gb-hour" | "count" | "any";
  /**
   * What tells its keys apart: `medium` (ssd, hdd), `gpu` (a model), `model` (a generative-AI
   * model: src/billing/registry/generativeAi.ts), or nothing.
   */
  readonly variantOf: "medium" | "gpu" | "model" | "";
  /** What the output appends to the key's unit: the copies kept, the transfer's scope, or nothing. */
  readonly labelSuffix: "replication" | "scope" | "";
  /** Units of the key per unit of the line (after the unit's own factor and resource). */
  readonly multiplier: number;
  readonly keys: readonly MethodKey[];
  /** The rules giving lines this method (a storage method is also its services': STORAGE_SERVICES). */
  readonly rules: readonly LineRule[];
}

/*
 * GPU models the providers bill, each with its board power (the maker's published TDP or maximum
 * board power, per GPU as the clouds bill it) and the instance families that carry it. A line
 * billing GPU-hours of a named model (Google Cloud's `Nvidia Tesla T4 GPU running in Americas`)
 * reads that model's row; a line naming none reads CCF's average GPU (method:gpu-hour).
 */

export interface GpuModel {
  /** The model as a line's text names it, lower case (`nvidia tesla t4` → `t4`). */
  readonly model: string;
  /** Board power at full load, W per GPU as billed. */
  readonly watts: number;
  /** Instance families carrying it: AWS (`p3`), Azure (`ncv3`, sizes' family), Google Cloud (`a2`). */
  readonly families: readonly string[];
}

export const GPU_MODELS: readonly GpuModel[] = [
  // NVIDIA Tesla K80 datasheet: 300 W for its two GK210 GPUs; clouds bill each GPU (AWS p2, Azure NC)
  { model: "k80", watts: 150, families: ["p2", "nc"] },
  // NVIDIA Tesla M60 datasheet: 300 W maximum for its two GPUs (AWS g3 and Azure NV bill each)
  { model: "m60", watts: 150, families: ["g3", "g3s", "nv", "nvv3"] },
  // NVIDIA Tesla P4 datasheet: 75 W
  { model: "p4", watts: 75, families: [] },
  // NVIDIA Tesla P40 datasheet: 250 W (Azure ND)
  { model: "p40", watts: 250, families: ["nd"] },
  // NVIDIA Tesla P100 PCIe datasheet: 250 W (Google Cloud, Azure NCv2)
  { model: "p100", watts: 250, families: ["ncv2"] },
  // NVIDIA Tesla V100 SXM2 datasheet: 300 W (AWS p3, p3dn; Azure NCv3, NDv2)
  { model: "v100", watts: 300, families: ["p3", "p3dn", "ncv3", "ndv2"] },
  // NVIDIA T4 datasheet: 70 W (AWS g4dn; AWS g5g's T4G alike; Azure NCasT4_v3)
  { model: "t4", watts: 70, families: ["g4dn", "ncast4v3"] },
  { model: "t4g", watts: 70, families: ["g5g"] },
  // NVIDIA A10 datasheet: 150 W (Azure NVadsA10 v5); AWS's A10G (g5) is given the same 150 W
  { model: "a10", watts: 150, families: ["nvadsa10v5"] },
  { model: "a10g", watts: 150, families: ["g5"] },
  // NVIDIA A100 SXM4 datasheet: 400 W (AWS p4d, p4de; Azure NDasrA100 v4; Google Cloud a2)
  { model: "a100", watts: 400, families: ["p4d", "p4de", "ndasra100v4", "ndma100v4", "nca100v4", "a2"] },
  // NVIDIA H100 SXM5 datasheet: 700 W (AWS p5; Azure NDisrH100 v5; Google Cloud a3)
  { model: "h100", watts: 700, families: ["p5", "ndisrh100v5", "ncadsh100v5", "a3"] },
  // NVIDIA H200 SXM datasheet: up to 700 W (AWS p5e, p5en)
  { model: "h200", watts: 700, families: ["p5e", "p5en"] },
  // NVIDIA L4 datasheet: 72 W (AWS g6, gr6; Google Cloud g2)
  { model: "l4", watts: 72, families: ["g6", "gr6", "g2"] },
  // NVIDIA L40S datasheet: 350 W (AWS g6e)
  { model: "l40s", watts: 350, families: ["g6e"] },
  // AMD Radeon Pro V520: 225 W (AWS g4ad); AMD Radeon Instinct MI25: 300 W (Azure NVv4)
  { model: "v520", watts: 225, families: ["g4ad"] },
  { model: "mi25", watts: 300, families: ["nvv4"] },
];

/**
 * The registry's models as one alternation of a regular expression, the longest first (`a10g`
 * before `a10`, `t4g` before `t4`): a line's text names one as a word anywhere (its product, SKU,
 * meter or usage type: `Compute - GPU Standard - A10`, `NVadsA10 v5`'s `_a10_`).
 */
export function gpuModelsAlternation(): string {
  return [...GPU_MODELS.map((gpu) => gpu.model)]
    .sort((a, b) => b.length - a.length || a.localeCompare(b))
    .join("|");
}

/**
 * How a line names a GPU's model the registry may lack (`Nvidia Tesla T4`, `GPU Standard - A10`):
 * the model after its maker's or its series' word or `gpu` (`named`, a few words between), a
 * series' word (`series`) just before it skipped. The model is a word of letters then digits.
 */
export const GPU_NAMING = { named: ["nvidia", "tesla", "gpu"], series: ["tesla"] } as const;

/** A regular expression whose first group is the GPU model a line's text names (GPU_NAMING), lower case. */
export function gpuNamePattern(): string {
  const series = GPU_NAMING.series.map((word) => `${word} `).join("|");
  return `(?:${GPU_NAMING.named.join("|")})[a-z ]*?[ -]+(?:${series})?([a-z]+[0-9]+[a-z]*)`;
}

/** The column naming a line's GPU model over `alias`, '' for none (`-- @gpu name of <alias>`, a select list's). */
export function gpuNameSql(indent: string, alias: string): string {
  return `${indent}COALESCE(REGEXP_EXTRACT(${alias}.billing_usage_text, '${gpuNamePattern()}', 1), '') AS billing_gpu_name,`;
}

/**
 * CCF's GPU figures (Appendix III): 35 W idle and 306 W at full load on average. A model's idle
 * power is taken in the same ratio to its full power (35 ÷ 306 of it); its power at the average
 * load of 50 % halfway between.
 */
export const GPU_IDLE_RATIO = 35 / 306;

/** The method key of a model's GPU-hour. */
export const gpuKey = (model: string) => `method:gpu-hour:${model}`;

/** CCF's average server load of hyperscale data centres (2020), where a line says no load. */
const AVERAGE_LOAD = 0.5;

/** Another provider's watts per vCPU (one that publishes none: src/billing/providers/): the mean of AWS's, Google's and Microsoft's. */
const OTHER_WATTS_PER_VCPU = { min: (0.74 + 0.71 + 0.78) / 3, max: (3.5 + 4.26 + 3.76) / 3 };

/** Watts of a GPU of no model named at 50 % load (value: V100), idle (min: T4) and full (max: A100): CCF, Appendix III. */
const GPU_WATTS = { value: 35 + AVERAGE_LOAD * (306 - 35), min: 8, max: 407 };

/** A model's GPU-hour, kWh: idle at GPU_IDLE_RATIO of its board power, full at it, 50 % halfway (GPU_IDLE_RATIO). */
function gpuModelEnergy(watts: number): Range {
  const idle = watts * GPU_IDLE_RATIO;
  return { value: (idle + AVERAGE_LOAD * (watts - idle)) / 1000, min: idle / 1000, max: watts / 1000 };
}

/** A vCPU-hour at the average load, kWh (CCF: the provider's min and max watts per vCPU). */
function vcpuHourEnergy(provider: string): Range {
  const watts = providerOf(provider)?.wattsPerVcpu ?? OTHER_WATTS_PER_VCPU;
  return {
    value: (watts.min + AVERAGE_LOAD * (watts.max - watts.min)) / 1000,
    min: watts.min / 1000,
    max: watts.max / 1000,
  };
}

/** A GB-hour of memory, kWh (CCF: 0.392 Wh). */
const memoryGbHourEnergy = (): Range => exactly(0.000392);

/** A Glue or Athena DPU: 4 vCPUs and 16 GB of memory (AWS Glue pricing, "Data Processing Unit"). */
const DPU_VCPUS = 4;
const DPU_MEMORY_GB = 16;

const plus = (a: Range, b: Range, times: number): Range => ({
  value: a.value + times * b.value,
  min: a.min + times * b.min,
  max: a.max + times * b.max,
});
const times = (a: Range, factor: number): Range => ({
  value: a.value * factor,
  min: a.min * factor,
  max: a.max * factor,
});

/** Average capacities behind CCF's storage coefficients (2020): 5 TB per SSD, 10 TB per HDD. */
const SSD_GB = 5000;
const HDD_GB = 10000;

/** A GB-hour of each medium: 1.2 Wh per TB-hour of SSD, 0.65 of HDD (CCF); the engine's disk, per GB. */
const STORAGE_KEYS: readonly MethodKey[] = [
  {
    variant: "ssd",
    key: "method:ssd-gb-hour",
    unit: "GB-hours SSD",
    energy: () => exactly(1.2e-6),
    embedded: { component: "ssd", input: { capacity: SSD_GB }, per: SSD_GB },
  },
  {
    variant: "hdd",
    key: "method:hdd-gb-hour",
    unit: "GB-hours HDD",
    energy: () => exactly(0.65e-6),
    embedded: { component: "hdd", input: {}, per: HDD_GB },
  },
];

/*
 * The FOCUS-defined properties of SkuPriceDetails a line's text holds, as the FOCUS usage query
 * writes them (sql/classify/billing_usage_focus.sql: ` | f_<property> <value>`, lower case, read
 * with and without the spec's `F_` prefix): what a line of a provider no rule names is read by.
 */
const SKU_CORE_COUNT = "| f_corecount ";
const SKU_DISK_SPACE = "| f_diskspace ";

/** A vCPU-hour: its energy per provider, its embedded impact the reference instance's per vCPU. */
const VCPU_HOUR: MethodKey = {
  variant: "",
  key: "method:vcpu-hour",
  unit: "vCPU-hours",
  energy: vcpuHourEnergy,
  embedded: { vcpus: 1 },
};

/**
 * Lambda's memory is set in MB, 1,024 a GB (its GB-seconds are GiB-seconds), and gives one vCPU per
 * 1,769 MB (AWS Lambda, "Configuring function memory"): vCPU-hours per GB-hour of Lambda memory.
 */
const LAMBDA_VCPUS_PER_GB = 1024 / 1769;

/*
 * Lines decided by what they are, the same for every provider (docs/billing.md, "Decided by
 * kind"): a Kubernetes control plane's hours (EKS, AKS, GKE, OKE) by the servers behind it, and the
 * charges for no hardware of their own — an IP address, a DNS zone and its queries, keys and
 * secrets — each with a reason true to its line. They are held here among the methods and rules (BILLING_METHODS, LINE_RULES); the control planes' nodes and notes are written into sql/classify/billing_methods.sql
 * at its lines `-- @control plane nodes of <alias>` and `-- @control plane notes of <alias>`.
 */

/** The method of a control plane's hours. */
export const CONTROL_PLANE = "control-plane";

/**
 * A control plane's node as no provider publishes it: 2 vCPUs and 8 GiB, the registry's assumption,
 * the same as the catalogue's gateways and load balancers (src/billing/registry/managedServices.ts: the
 * smallest current general-purpose size, m5.large's).
 */
export const CONTROL_PLANE_NODE = { vcpus: 2, memoryGib: 8 } as const;

/** Every provider's control planes (src/billing/providers/). */
export const CONTROL_PLANES: readonly ControlPlane[] = PROVIDERS.flatMap(
  (provider) => provider.controlPlanes,
);

/** A provider's control plane: its provider's lines, its text naming its hours. */
const planeMatch = (plane: ControlPlane): Condition => all(provider(plane.provider), plane.match);

/** The methods whose rule reads what a provider's lines add to it (BillingProvider.methodMatches). */
const PROVIDER_MATCHED_METHODS = ["per-vcpu", "memory"] as const;

/** What each provider's lines add to a method's rule (its module's methodMatches), each on its provider's lines alone. */
function providersMatch(method: (typeof PROVIDER_MATCHED_METHODS)[number]): Condition[] {
  return PROVIDERS.flatMap((owner) => {
    const match = owner.methodMatches[method];
    return match === undefined ? [] : [all(provider(owner.id), match)];
  });
}

/** What the rule giving a line the method control-plane matches: an hour of a provider's control plane. */
export function controlPlaneRule(): Condition {
  return all(unit("hour"), any(...CONTROL_PLANES.map(planeMatch)));
}

/** The WHEN lines giving the nodes of a control plane's hour (`-- @control plane nodes of <alias>`). */
export function controlPlaneNodesSql(indent: string, name: string): string {
  return CONTROL_PLANES.map(
    (plane) => `${indent}WHEN ${conditionSql(planeMatch(plane), name)} THEN ${plane.nodes.toFixed(1)}`,
  ).join("\n");
}

/** What a control plane's line is warned: its nodes, where they are published, the node's size. */
export function controlPlaneNote(plane: ControlPlane): string {
  const { vcpus, memoryGib } = CONTROL_PLANE_NODE;
  return `${CONTROL_PLANE}: ${plane.name}, ${plane.nodes} node${plane.nodes === 1 ? "" : "s"} an hour (${plane.source}), each ${vcpus} vCPUs and ${memoryGib} GiB: their size not published, an assumption of the registry`;
}

/** The WHEN lines giving a control plane's line its warning (`-- @control plane notes of <alias>`). */
export function controlPlaneNotesSql(indent: string, name: string): string {
  return CONTROL_PLANES.map(
    (plane) => `${indent}WHEN ${conditionSql(planeMatch(plane), name)} THEN '${controlPlaneNote(plane)}'`,
  ).join("\n");
}

/*
 * Charges for no hardware of their own, decided by kind: each a rule giving no method, with the
 * reason its lines are said with, the same for every provider. The coverage sets them aside from
 * the usage cost (src/billing/stages/summarise.ts), as it does support.
 */

/** The coverage's name of charges on hardware the bill estimates on other lines. */
export const ESTIMATED_ELSEWHERE = "charges on hardware estimated on other lines";

/** The coverage's name of the charges for no hardware of their own. */
export const NO_HARDWARE_OF_THEIR_OWN = "addresses, DNS and keys (no hardware of their own)";

/** A rule giving a kind of line no method (the shape of methods.ts' rules besides the methods'). */
export interface KindRule {
  readonly order: number;
  readonly why: readonly string[];
  readonly match: Condition;
  readonly gives: "NULL";
  readonly reason: string;
  readonly setAside: string;
}

export const KIND_RULES: readonly KindRule[] = [
  {
    order: 26,
    why: [
      "EKS extended support (`AmazonEKS-Hours:extendedSupport`): a fee on a control plane's hours,",
      "which its own lines estimate",
    ],
    match: all(has("eks"), has("extendedsupport", "extended support")),
    gives: "NULL",
    reason: "a fee on the hours of a control plane estimated on their own lines",
    setAside: ESTIMATED_ELSEWHERE,
  },
  {
    order: 33,
    why: [
      "An IP address held (AWS's public IPv4 and Elastic IPs, Azure's and Oracle's public IPs,",
      "Google's external and static IPs): a number the network routes to, no hardware of its own",
    ],
    match: has(
      "publicipv4",
      "public ipv4",
      "elasticip",
      "idleaddress",
      "ip address",
      "public ip",
      "external ip",
      "static ip",
    ),
    gives: "NULL",
    reason: "an IP address: a number the network routes to, no hardware of its own",
    setAside: NO_HARDWARE_OF_THEIR_OWN,
  },
  {
    order: 34,
    why: [
      "A DNS zone and its queries (Route 53, Azure DNS, Cloud DNS, Oracle's DNS): records served by",
      "the provider's shared name servers, no hardware of their own and no figure per zone or query",
    ],
    match: any(
      has("route53", "route 53"),
      starts("dns |"),
      has("| dns |", "azure dns", "cloud dns", "dns-queries", "dns quer"),
    ),
    gives: "NULL",
    reason:
      "DNS: a zone and its queries on the shared name servers of its provider, no hardware of their own",
    setAside: NO_HARDWARE_OF_THEIR_OWN,
  },
  {
    order: 35,
    why: [
      "Keys and secrets and their operations (AWS KMS and Secrets Manager, Azure Key Vault, Cloud",
      "KMS and Secret Manager, Oracle's key management) in the provider's shared key stores; a",
      "dedicated HSM (CloudHSM, Azure's Managed HSM) is hardware of its own and not of this kind",
    ],
    match: all(
      has(
        "awskms",
        "kms-",
        "key management",
        "key_management",
        "key vault",
        "secretsmanager",
        "secrets manager",
        "secret manager",
      ),
      lacks("cloudhsm"),
      lacks("managed hsm"),
    ),
    gives: "NULL",
    reason:
      "keys and secrets: held and used in the shared key stores of their provider, no hardware of their own",
    setAside: NO_HARDWARE_OF_THEIR_OWN,
  },
];

/** The reasons of the kinds decided here: a service whose lines say one is known, not unknown. */
export const DECIDED_REASONS: ReadonlySet<string> = new Set(KIND_RULES.map((rule) => rule.reason));

export const BILLING_METHODS: readonly BillingMethod[] = [
  {
    method: "block-storage",
    dimension: "gb-hour",
    variantOf: "medium",
    labelSuffix: "replication",
    multiplier: 1,
    keys: STORAGE_KEYS,
    rules: [
      {
        order: 125,
        why: [
          "A disk's hours its SKU sizes (SkuPriceDetails' F_DiskSpace, any FOCUS producer): its GB",
          "for those hours; its medium F_DiskType's (`hdd`), else SSD",
        ],
        match: all(has(SKU_DISK_SPACE), unit("gb-hour")),
      },
      {
        order: 160,
        match: has(
          "volumeusage",
          "managed disk",
          "pd capacity",
          "persistent disk",
          "hyperdisk",
          "provisioned storage",
          "database storage",
          "block storage",
          "volume",
        ),
        thenApart: true,
      },
    ],
  },
  {
    method: "object-storage",
    dimension: "gb-hour",
    variantOf: "medium",
    labelSuffix: "replication",
    multiplier: 1,
    keys: STORAGE_KEYS,
    rules: [
      { order: 140, match: has("snapshot", "backup") },
      {
        order: 180,
        why: ["Any other storage of GB-hours (logs kept: Log Analytics' `Data Retention` in `1 GB/Month`)"],
        match: has("storage", "blob", "object", "data retention"),
      },
    ],
  },
  {
    method: "file-storage",
    dimension: "gb-hour",
    variantOf: "medium",
    labelSuffix: "replication",
    multiplier: 1,
    keys: STORAGE_KEYS,
    rules: [
      {
        order: 170,
        match: has("| files", "filestore", "file storage"),
      },
    ],
  },
  {
    method: "data-transfer",
    dimension: "gb",
    variantOf: "",
    labelSuffix: "scope",
    multiplier: 1,
    keys: [
      {
        variant: "",
        key: "method:network-gb",
        unit: "GB",
        // CCF: 0.001 kWh per GB carried
        energy: () => exactly(0.001),
        embedded: { none: "CCF gives networks no embedded figure" },
      },
    ],
    rules: [
      {
        order: 110,
        // Bytes a service analyses (GuardDuty's `PaidEventsAnalyzed-Bytes`) are read, not carried.
        // GB a NAT gateway or load balancer processes, logs and metrics a monitoring service
        // ingests (Log Analytics' `Data Ingestion`, Cloud Logging's `Log Volume`), a virtual network
        // carries in or out (Azure VNet peering's ingress and egress): carried by the network
        match: any(
          has("datatransfer", "data transfer"),
          all(has("-bytes"), lacks("analyzed")),
          has("egress", "bandwidth"),
          all(unit("gb"), { column: "billing_service_category", startsWith: "network" }),
          all(
            unit("gb"),
            has("data processed", "ingested", "ingestion", "log volume", "ingress", "virtual network"),
          ),
        ),
        thenApart: true,
      },
    ],
  },
  {
    method: "serverless",
    dimension: "gb-hour",
    variantOf: "",
    labelSuffix: "",
    multiplier: LAMBDA_VCPUS_PER_GB,
    keys: [VCPU_HOUR],
    rules: [
      {
        order: 70,
        match: any(
          has("lambda-gb-second"),
          all(unit("gb-hour"), { column: "billing_unit_time_hours", below: 1 }, has("lambda", "functions")),
        ),
      },
    ],
  },
  {
    method: "per-vcpu",
    dimension: "hour",
    variantOf: "",
    labelSuffix: "",
    multiplier: 1,
    keys: [VCPU_HOUR],
    rules: [
      {
        order: 65,
        why: [
          "A VM's hours whose SKU gives its cores (SkuPriceDetails' F_CoreCount, any FOCUS producer):",
          "cores × hours vCPU-hours; one with GPUs is read by them first (accelerator)",
        ],
        match: all(has(SKU_CORE_COUNT), unit("hour"), resource("")),
      },
      {
        order: 80,
        match: any(
          has("vcpu", "ocpu"),
          resource("vcpu", "ocpu", "acu", "rpu"),
          all(has("vcore"), unit("hour")),
          all(has("dtu"), unit("hour")),
          has("aurora:serverless", "redshift:serverlessusage"),
          ...providersMatch("per-vcpu"),
        ),
      },
    ],
  },
  {
    method: "memory",
    dimension: "gb-hour",
    variantOf: "",
    labelSuffix: "",
    multiplier: 1,
    keys: [
      {
        variant: "",
        key: "method:memory-gb-hour",
        unit: "GB-hours of memory",
        energy: memoryGbHourEnergy,
        embedded: { none: "memory's embedded impact is in the vCPU-hour's reference instance" },
      },
    ],
    rules: [
      {
        order: 90,
        match: all(unit("gb-hour"), any(has("memory", "fargate-gb-hours"), ...providersMatch("memory"))),
      },
    ],
  },
  {
    method: "accelerator",
    dimension: "hour",
    variantOf: "gpu",
    labelSuffix: "",
    multiplier: 1,
    keys: [
      {
        variant: "",
        key: "method:gpu-hour",
        unit: "GPU-hours",
        energy: () => ({
          value: GPU_WATTS.value / 1000,
          min: GPU_WATTS.min / 1000,
          max: GPU_WATTS.max / 1000,
        }),
        embedded: { component: "gpu", input: {}, per: 1 },
      },
      // Every GPU model's embedded impacts are the engine's default GPU's (it has no model figures).
      ...GPU_MODELS.map(
        (gpu): MethodKey => ({
          variant: gpu.model,
          key: gpuKey(gpu.model),
          unit: `GPU-hours ${gpu.model.toUpperCase()}`,
          energy: () => gpuModelEnergy(gpu.watts),
          embedded: { component: "gpu", input: {}, per: 1 },
        }),
      ),
    ],
    rules: [
      {
        order: 60,
        match: all(any(has("gpu"), resource("gpu")), unit("hour")),
      },
    ],
  },
  {
    method: "dpu",
    dimension: "hour",
    variantOf: "",
    labelSuffix: "",
    multiplier: 1,
    keys: [
      {
        variant: "",
        key: "method:dpu-hour",
        unit: "DPU-hours",
        energy: (provider) =>
          plus(times(vcpuHourEnergy(provider), DPU_VCPUS), memoryGbHourEnergy(), DPU_MEMORY_GB),
        // Its vCPUs' share of the reference instance (memory's is in it)
        embedded: { vcpus: DPU_VCPUS },
      },
    ],
    rules: [{ order: 50, match: all(resource("dpu"), unit("hour")) }],
  },
  {
    method: "by-cost",
    dimension: "any",
    variantOf: "",
    labelSuffix: "",
    multiplier: 1,
    keys: [
      {
        variant: "",
        key: "method:cost",
        unit: "cost",
        energy: { perCostOfTheBill: true },
        embedded: { none: "CCF gives managed services estimated by their cost no embedded figure" },
      },
    ],
    rules: [
      {
        order: 120,
        why: [
          "Managed hardware billed by the hour or capacity unit, no published figure per unit: a load",
          "balancer, a NAT, VPN, transit or application gateway, a firewall",
        ],
        match: any(
          has("nat gateway", "natgateway", "load balancer", "loadbalancer", "load balancing"),
          all(
            unit("hour"),
            has("transit gateway", "vpn gateway", "vpn connection", "application gateway", "firewall"),
          ),
        ),
        thenApart: true,
      },
    ],
  },
  {
    method: CONTROL_PLANE,
    dimension: "hour",
    variantOf: "",
    labelSuffix: "",
    multiplier: 1,
    keys: [
      {
        variant: "",
        key: "method:control-plane-node-hour",
        unit: "node-hours of a control plane",
        // A node of 2 vCPUs and 8 GiB (CONTROL_PLANE_NODE): its vCPU-hours and memory
        energy: (provider) =>
          plus(
            times(vcpuHourEnergy(provider), CONTROL_PLANE_NODE.vcpus),
            memoryGbHourEnergy(),
            CONTROL_PLANE_NODE.memoryGib,
          ),
        embedded: { vcpus: CONTROL_PLANE_NODE.vcpus },
      },
    ],
    rules: [
      {
        order: 115,
        why: [
          "A Kubernetes control plane's hours (EKS, AKS, GKE, OKE; its worker nodes are billed as",
          "instances): the nodes behind it where its provider publishes them, else 3, each 2 vCPUs",
          "and 8 GiB (CONTROL_PLANES, the providers' modules)",
        ],
        match: controlPlaneRule(),
        thenApart: true,
      },
    ],
  },
  GENERATIVE_AI_METHOD,
];

/*
 * Why a line of a charge that is not usage has no method, by the bill's own charge type (FOCUS
 * ChargeCategory, CUR line_item_line_item_type, Azure ChargeType, Google cost_type: the format's
 * usage query's billing_charge), and what the coverage sets aside as a charge carrying no hardware
 * (src/billing/stages/summarise.ts, the usage's share): each written into
 * sql/classify/billing_methods.sql at its line `-- @charge reasons of <alias>`.
 */

/** A kind of charge that is not usage: the reason its lines have no method, and the coverage's name of it. */
export interface ChargeReason {
  readonly charge: string;
  readonly reason: string;
  /** As the coverage names it among the charges carrying no hardware it sets aside. */
  readonly setAside: string;
}

export const CHARGE_REASONS: readonly ChargeReason[] = [
  { charge: "tax", reason: "a tax", setAside: "taxes" },
  {
    charge: "purchase",
    reason: "a purchase (a commitment or an upfront fee)",
    setAside: "commitment purchases",
  },
  {
    charge: "unused",
    reason: "an unused commitment (no hardware ran for it)",
    setAside: "unused commitments",
  },
  { charge: "fee", reason: "a fee", setAside: "fees" },
  { charge: "credit", reason: "a credit", setAside: "credits and refunds" },
  { charge: "adjustment", reason: "an adjustment", setAside: "adjustments" },
];

/** Why a known service no method estimates has none (support, a registrar): set aside as support. */
export const SUPPORT_REASON = "no hardware (support)";

/** The WHEN lines giving a line of each charge its reason (`-- @charge reasons of <alias>`). */
export function chargeReasonsSql(indent: string, alias: string): string {
  return CHARGE_REASONS.map(
    (row) => `${indent}WHEN ${alias}.billing_charge = '${row.charge}' THEN '${row.reason}'`,
  ).join("\n");
}

/** A rule of the CASE that gives no method of BILLING_METHODS: what it gives instead (SQL). */
interface OtherRule extends LineRule {
  readonly gives: string;
  /** Why a line it gives no method has none, as the summary says it (no quote: noMethodReasonsSql). */
  readonly reason?: string;
  /** Where its lines' hardware is estimated on other lines: the coverage sets them aside so named. */
  readonly setAside?: string;
}

/**
 * The rules of the CASE besides the methods': instance hours, lines that use no hardware (NULL), and
 * a storage service's own method (src/billing/registry/services.ts, read as the table
 * billing_storage_services).
 */
export const LINE_RULES: readonly OtherRule[] = [
  {
    order: 5,
    why: [
      "A node type the editions lack that the catalogue lists, billed as an instance's hours",
      "(Redshift's ra3.large): the catalogue's size (src/billing/registry/managedServices.ts)",
    ],
    match: all(is("billing_line_kind", "compute"), isNot("billing_catalogue_service", null)),
    gives: "'managed-size'",
  },
  { order: 10, match: is("billing_line_kind", "compute"), gives: "'instance'" },
  { order: 20, match: isNot("billing_charge", "usage"), gives: "NULL" },
  {
    order: 25,
    why: ["A managed service billed as hours of a compute size (src/billing/registry/managedServices.ts)"],
    match: isNot("billing_catalogue_service", null),
    gives: "'managed-size'",
  },
  {
    order: 27,
    why: [
      "A charge billed per unit of another resource the bill estimates on its own lines:",
      "CloudWatch Database Insights and RDS Performance Insights per vCPU of the database,",
      "RDS Extended Support per vCPU-hour of the instance: that hardware is the instance's",
    ],
    match: has(
      "databaseinsights",
      "database insights",
      "performance insights",
      "pi_ltr",
      "pi_api",
      "extendedsupport",
      "extended support",
    ),
    gives: "NULL",
    reason: "billed per unit of another resource estimated on its own lines (the vCPUs of a database)",
    setAside: ESTIMATED_ELSEWHERE,
  },
  {
    order: 30,
    why: [
      "A licence's fee (Google's `Licensing Fee for Google Cloud Dataproc (GPU cost)`, `(CPU",
      "cost)`; Azure's `Managed Instance General Purpose - SQL License` and Defender's `Standard",
      "vCore Pack`, per vCore): software priced per core or GPU whose hardware other lines bill",
    ],
    match: has("licensing fee", "sql license", "vcore pack"),
    gives: "NULL",
    reason: "a licence",
  },
  {
    order: 40,
    why: [
      "A fee on hours another service bills (EMR on EC2 and on EKS): those hours are",
      "estimated on their own lines, so this line on none (src/billing/registry/services.ts)",
    ],
    match: all(
      is("billing_service_role", "fee"),
      any(is("billing_service_estimated_when", ""), { lacksColumn: "billing_service_estimated_when" }),
    ),
    gives: "NULL",
    reason: "a fee on hours estimated on their own lines",
    setAside: ESTIMATED_ELSEWHERE,
  },
  {
    order: 100,
    why: [
      "Bytes deleted before a storage class's minimum (S3's `EarlyDelete-ByteHrs`, `BytesDeleted`,",
      "Azure's early deletion) are a fee in usage units: no data is stored or carried",
    ],
    match: has("bytesdeleted", "earlydelete", "early delete", "early deletion"),
    gives: "NULL",
    reason: "a fee: data deleted before the minimum its storage class bills",
  },
  {
    order: 102,
    why: [
      "A volume's performance units (Oracle's `Block Volume - Performance Units`, billed in `GB",
      "Months` of the volume) and provisioned throughput: a rate bought, not capacity; the",
      "volume's gigabytes are billed on their own line. Provisioned IOPS held over time",
      "(`IOPS-Mo`) are read as the SSD that delivers them (src/billing/registry/units.ts)",
    ],
    match: any(
      has("performance unit"),
      all(has("piops"), unitNot("gb-hour")),
      all(has("provisioned iops"), unitNot("gb-hour")),
      has("provisioned throughput"),
    ),
    gives: "NULL",
    reason: "a rate bought (performance units, throughput), not capacity",
  },
  {
    order: 130,
    why: ["Storage is billed in GB-hours: the rules below read no other unit"],
    match: unitNot("gb-hour"),
    gives: "NULL",
  },
  { order: 150, match: isNot("billing_service_storage", null), gives: "u.billing_service_storage" },
  ...GENERATIVE_AI_LINE_RULES,
  ...KIND_RULES,
];

/** Every rule of the CASE, in its order, with what it gives. */
export function classifyingRules(methods: readonly BillingMethod[] = BILLING_METHODS): OtherRule[] {
  const own = methods.flatMap((method) =>
    method.rules.map((rule) => ({ ...rule, gives: `'${method.method}'` })),
  );
  return [...LINE_RULES, ...own].sort((a, b) => a.order - b.order);
}

/**
 * The WHEN lines of the CASE giving a line its method (sql/classify/billing_methods.sql's line marked
 * `-- @method rules`), each rule at `indent`, its condition's lines below its first indented as written.
 */
export function methodRulesSql(indent: string, methods: readonly BillingMethod[] = BILLING_METHODS): string {
  return classifyingRules(methods)
    .map((rule) => {
      const why = (rule.why ?? []).map((line) => `${indent}-- ${line}\n`).join("");
      const condition = whenSql(conditionLines(rule.match, "u"), indent);
      const then = rule.thenApart === true ? `\n${indent}  THEN ${rule.gives}` : ` THEN ${rule.gives}`;
      return `${why}${condition}${then}`;
    })
    .join("\n");
}

/**
 * The WHEN lines giving a line without a method the reason of the rule that gave it none (the
 * line marked `-- @no method reasons of <alias>` in sql/classify/billing_methods.sql), in the rules'
 * order, each condition read over the view `alias`.
 */
export function noMethodReasonsSql(indent: string, alias: string): string {
  return classifyingRules()
    .filter((rule) => rule.reason !== undefined)
    .map((rule) => {
      return `${whenSql(conditionLines(rule.match, alias), indent)}\n${indent}  THEN '${rule.reason}'`;
    })
    .join("\n");
}

/** A key's row of the table billing_method_keys: the method and variant, its key and unit. */
export interface MethodKeyRow {
  readonly method: string;
  readonly variant: string;
  readonly key: string;
  readonly unit: string;
}

/** Every key of every method, in the registry's order (a key two methods read is listed for each). */
export const METHOD_KEY_ROWS: readonly MethodKeyRow[] = BILLING_METHODS.flatMap((method) =>
  method.keys.map(({ variant, key, unit }) => ({ method: method.method, variant, key, unit })),
);

/** Each key once, with its energy and embedded rule, in the registry's order. */
export const METHOD_KEYS: readonly MethodKey[] = [
  ...new Map(BILLING_METHODS.flatMap((method) => method.keys.map((key) => [key.key, key] as const))).values(),
];

/** Whether a coefficient row's key is a method's (not an instance type). */
export function isMethodKey(name: string): boolean {
  return METHOD_KEYS.some((key) => key.key === name);
}

/**
 * What a method of `methods` lacks — a key, a key's energy or embedded rule, a rule giving lines the
 * method — and two rules at one place: each a sentence; none for a registry a run can use.
 */
export function methodProblems(methods: readonly BillingMethod[]): string[] {
  const problems: string[] = [];
  for (const method of methods) {
    const named = `billing method ${method.method}`;
    if (method.keys.length === 0) problems.push(`${named}: no key`);
    for (const key of method.keys) {
      if (key.energy === undefined) problems.push(`${named}: key ${key.key} has no energy`);
      if (key.embedded === undefined) problems.push(`${named}: key ${key.key} has no embedded rule`);
    }
    if (method.rules.length === 0) problems.push(`${named}: no rule gives lines this method`);
  }
  const read: readonly string[] = PROVIDER_MATCHED_METHODS;
  for (const owner of PROVIDERS) {
    for (const name of Object.keys(owner.methodMatches)) {
      if (!read.includes(name))
        problems.push(
          `provider ${owner.id}: methodMatches names ${name}, whose rule reads none (${read.join(", ")} do)`,
        );
    }
  }
  const places = new Map<number, number>();
  for (const rule of classifyingRules(methods)) places.set(rule.order, (places.get(rule.order) ?? 0) + 1);
  for (const [order, count] of places) {
    if (count > 1) problems.push(`${count} classifying rules at place ${order}: a rule's place is its own`);
  }
  return problems;
}

const PROBLEMS = methodProblems(BILLING_METHODS);
if (PROBLEMS.length > 0) throw new Error(`billing: the registry's methods: ${PROBLEMS.join("; ")}`);

/**
 * What the coverage sets aside from the usage cost, by the reason a line has no method: the charges
 * carrying no hardware by the bill's own charge type (CHARGE_REASONS), support, and charges on
 * hardware the bill estimates on other lines (LINE_RULES' `setAside`).
 */
export const SET_ASIDE_REASONS: ReadonlyMap<string, string> = new Map([
  ...CHARGE_REASONS.map((row) => [row.reason, row.setAside] as const),
  [SUPPORT_REASON, "support"],
  ...LINE_RULES.flatMap((rule) =>
    rule.reason !== undefined && rule.setAside !== undefined ? [[rule.reason, rule.setAside] as const] : [],
  ),
]);
