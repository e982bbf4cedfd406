/*
 * What a billing run knows of a cloud provider, as one description per provider (one module each
 * of this folder, listed in PROVIDERS: src/billing/providers/index.ts): how a FOCUS export names
 * it, its regions and the countries they are in, the other spellings of its regions, its
 * datacentres' PUE and a vCPU's watts, its reference instance, the grammar of its instance types'
 * names and how a bill spells them, and its rows of the registry — storage services, services no
 * method estimates, managed sizes of the catalogue, control planes, generative-AI models' billed
 * names. Everything keyed by provider elsewhere is derived from these: a provider left out of one
 * part cannot be written (the type requires each).
 */

import type { Condition } from "../rules/conditions.js";
import type { FocusLines } from "../rules/focusLines.js";

/** A billed type read by its provider's grammar. */
export interface Shape {
  /** Its family: AWS `c7i`, Azure `d` (the letters before the size), Google Cloud `n2-standard`. */
  readonly family: string;
  /** What the family's attributes add (Azure `s`, `ads`), '' for none. */
  readonly attributes: string;
  /** The generation or version (AWS none: the family holds it; Azure `2` of `_v2`), 0 for none. */
  readonly version: number;
  readonly vcpus: number;
}

/**
 * A type's line of families and its place in it: what stays when a family is renewed, the
 * generation, and the size (src/billing/instanceShapes.ts, currentFamilyType).
 */
export interface Lineage {
  readonly line: string;
  readonly generation: number;
  readonly size: string;
}

/** How a provider names its instance types (lower case, trimmed names). */
export interface NameGrammar {
  /** A type's shape, or null when its name says no vCPU count. */
  readonly shape: (name: string) => Shape | null;
  /** A type's family whatever its size says (`c7i.metal`: c7i), where `shape` reads none; null for none. */
  readonly family: (name: string) => string | null;
  readonly lineage: (name: string) => Lineage | null;
  /**
   * The edition's spelling of a billed name, to match (`listed`: whether the edition lists an id):
   * a managed node's `db.` left out where the edition lacks it, Azure's `Standard_` either way.
   */
  readonly billed: (name: string, listed: (id: string) => boolean) => string;
  /** The managed service's node a name says it is (AWS `db.` of `db.r6g.large`), '' for a virtual machine's. */
  readonly node: (name: string) => string;
  /** A name without the tier a bill writes or not (Azure's `standard_`): how a price list names the type. */
  readonly untiered: (name: string) => string;
}

export type StorageMethod = "block-storage" | "object-storage" | "file-storage";

/** A service whose capacity lines are storage: its method, medium and copies. */
export interface StorageService {
  readonly provider: string;
  /** The names a bill gives it, as written (compared lower case). */
  readonly names: readonly string[];
  readonly storage: StorageMethod;
  readonly medium: "ssd" | "hdd";
  /** Copies of each GB kept (null: the line's own text, else 1). */
  readonly replication: number | null;
}

/**
 * A provider's managed disks billed per disk-month by tier (`P10`, `E10`, `S10`), each tier's
 * capacity read from its number: a line's disk-months are GB-hours of that capacity.
 */
export interface DiskTiers {
  /** The units a disk-month is billed in, lower case, without blanks (`1/month`, `units/month`). */
  readonly units: readonly string[];
  /** The word of a line's text naming a disk (`disk`): a line in those units without it is no disk's. */
  readonly word: string;
  /** The letters a tier's name starts with (Azure: `p` Premium SSD, `e` Standard SSD, `s` Standard HDD). */
  readonly letters: string;
  /** Each tier number's capacity in GiB. */
  readonly gib: Readonly<Record<number, number>>;
  readonly source: string;
}

/**
 * A provider's databases billed in a blended unit of compute, memory and I/O by service tier (Azure
 * SQL's DTUs: `S2 DTUs`, `100 eDTUs`), read as the vCores it stands for: a line's units are the number
 * its meter names, else its tier's, divided by the units a vCore stands for in its tier.
 */
export interface DtuTiers {
  /** The unit's word in a line's text, lower case (`dtu`): a line holding it bills these units. */
  readonly word: string;
  /** The unit as a meter writes it after its number or tier, a regular expression over the lower-case text (`e?dtus?`). */
  readonly spelled: string;
  /** The unit as a warning names it (`DTU`). */
  readonly name: string;
  /** Each tier's units as its resource limits give them, by the tier's name as a meter writes it, lower case (`s2`, `basic`). */
  readonly tiers: Readonly<Record<string, number>>;
  /** The units a vCore stands for. */
  readonly perVcore: number;
  /**
   * Tiers whose units a vCore stands for otherwise: the words of a line naming them (`premium`),
   * the letters their names start with (`p` of `P2`), and their units a vCore.
   */
  readonly otherTiers: {
    readonly words: readonly string[];
    readonly letters: string;
    readonly perVcore: number;
  };
  readonly source: string;
}

/** A service the registry knows that no method estimates, and why. */
export interface KnownService {
  /** The provider as the SQL spells it (aws, azure, gcp, oracle); "" for a name every provider's bills use. */
  readonly provider: string;
  /** The names a bill gives it, as written (compared lower case). */
  readonly names: readonly string[];
  /** `fee`: a fee on hours billed by another service; `no-hardware`: it bills no hardware. */
  readonly role: "fee" | "no-hardware";
  /**
   * A fee service's lines that are not fees: text their usage names (lower case), read by the
   * methods as any other line's; "" for none.
   */
  readonly estimatedWhen: string;
  /** What the summary says of its lines no method reads. */
  readonly note: string;
}

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

/** A managed service billed as hours of a compute size (src/billing/registry/managedServices.ts). */
export interface CatalogueService {
  /** Its key in the lines' method key (`managed:<id>:<size>`). */
  readonly id: string;
  /** Its provider's id (the module that lists it). */
  readonly provider: string;
  /** As the summary and the warnings name it. */
  readonly name: string;
  /** What names the service's hours (src/billing/rules/conditions.ts), its provider's lines and an hour unit aside. */
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

/** A size of the catalogue: its vCPUs, memory and server, its share of the server (1: whole). */
export const catalogueSize = (
  name: string,
  vcpus: number,
  memoryGib: number,
  server: string,
  share = 1,
): CatalogueSize => ({ size: name, vcpus, memoryGib, gpus: null, share, server });

/** A provider's Kubernetes control plane: how its hours are named, the nodes an hour stands for. */
export interface ControlPlane {
  /** Its provider's id (the module that lists it). */
  readonly provider: string;
  /** As the warnings name it. */
  readonly name: string;
  /** What names its hours (src/billing/rules/conditions.ts), its provider's lines aside. */
  readonly match: Condition;
  /** Nodes an hour stands for. */
  readonly nodes: number;
  /** Where the nodes are published, else why this count (no quote: the SQL's texts hold it). */
  readonly source: string;
}

/** Where a provider's bill names a generative-AI model, whose models it bills and how it spells them. */
export interface GenerativeAiBilling {
  /** Words of a line's text naming its generative-AI service (product code, meter category, service), lower case. */
  readonly services: readonly string[];
  /**
   * A regular expression over the line's text (lower case) whose first group is the model, on an
   * output line (src/billing/registry/generativeAi.ts).
   */
  readonly pattern: string;
  /** The providers of the generative-AI edition's data it bills (Bedrock: Anthropic's). */
  readonly sources: readonly string[];
  /**
   * The spellings its bill gives a model of the data, named as the data names it (`gpt-4o-mini`),
   * that name first; compared as aiSpelling compares them (src/billing/registry/generativeAi.ts).
   */
  readonly spellings: (model: string) => readonly string[];
}

/**
 * A deployment billed as one line but run as several copies (docs/billing.md, "Deployments and
 * replicas"): every line of it, its instance hours and its storage alike, counts the same copies.
 */
export interface Deployment {
  /** The words of the line's text naming it (src/billing/rules/conditions.ts). */
  readonly match: Condition;
  /** Instances (or copies of the storage) the line's quantity stands for. */
  readonly copies: number;
  /** The warning an instance line gets (what the copies are). */
  readonly name: string;
  /** The provider's documentation it follows. */
  readonly source: string;
}

/**
 * A provider, by its id (`Id`: as the formats' queries name it); the ids a bill is read for,
 * ProviderId, are derived from the list of these (src/billing/providers/index.ts).
 */
export interface BillingProvider<Id extends string = string> {
  readonly id: Id;
  /** As a FOCUS export's `ServiceProviderName` or `ProviderName` writes it, lower case. */
  readonly focusNames: readonly string[];
  /** Its regions, each with its country (ISO 3166-1 alpha-3), from its own list (the source in its module). */
  readonly regions: Readonly<Record<string, string>>;
  /** Other spellings of its regions older exports write (Azure's billing zones: `EU West`), by spellingKey, with the region. */
  readonly regionSpellings: Readonly<Record<string, string>>;
  /** Power usage effectiveness of its datacentres (CCF's figures); null: none published, the others' highest. */
  readonly pue: number | null;
  /** Watts per vCPU at 0 % and 100 % load (CCF's averages over its microarchitectures); null: the others' mean. */
  readonly wattsPerVcpu: { readonly min: number; readonly max: number } | null;
  /** The instance its vCPU-hours are read from (general purpose, 4 vCPUs, no local disk); null: none in the editions. */
  readonly referenceInstance: string | null;
  /** How it names its instance types. */
  readonly names: NameGrammar;
  readonly storage: readonly StorageService[];
  /** Its managed disks' tiers where it bills disks per disk-month by tier; null for none. */
  readonly diskTiers: DiskTiers | null;
  /** Its databases billed in DTUs by service tier (`S2 DTUs`), read as vCores; null for none. */
  readonly dtuTiers: DtuTiers | null;
  readonly services: readonly KnownService[];
  readonly catalogue: readonly CatalogueService[];
  readonly controlPlanes: readonly ControlPlane[];
  /** Deployments its lines name (the first whose words a line's text holds wins: the more precise first). */
  readonly deployments: readonly Deployment[];
  /** Where its bills name generative-AI models; null where it bills none the data has. */
  readonly generativeAi: GenerativeAiBilling | null;
  /** How its published pricing scales a type's hourly price within its family, or why none is used. */
  readonly sizePricing: SizePricing;
  /**
   * The partition a region of it is in (AWS's aws-cn, aws-us-gov and aws-iso partitions, Azure's
   * China and US Government clouds: each its own accounts, console and endpoints): an account of
   * one cannot run in another's regions, so the what-if's move stays in its own. '' the public one
   * (and a country: a place of an edition without regions).
   */
  readonly partition: (region: string) => string;
  /**
   * What its lines add to a method's rule, by the method's name (Google's SKUs name a vCPU-hour
   * `core`, a GB-hour of memory `ram`): read on its lines alone, beside the words every bill's
   * lines share (src/billing/registry/methods.ts, providersMatch). A method whose rule reads
   * none of these (PROVIDER_MATCHED_METHODS) stops every run at its start (methodProblems).
   */
  readonly methodMatches: Readonly<Record<string, Condition>>;
  /**
   * Its own rules for its FOCUS lines (src/billing/rules/focusLines.ts): the instance types its
   * texts name, which of its lines are an instance's hours, how their type is named; written into
   * sql/classify/billing_lines_focus.sql by the generator. Where it has them, SkuPriceDetails'
   * FOCUS-defined properties (`F_CoreCount`, `F_MemorySize`…) are not read on its lines, for its
   * rules read them otherwise and would count a VM's cores twice; null, its lines are read by the
   * standard's columns, as a producer no module names (docs/billing.md, "Any FOCUS producer").
   */
  readonly focusLines: FocusLines | null;
}

/**
 * A provider's published rule by which a type's on-demand price within one family is its sibling's
 * times the ratio of their factors (AWS's normalization factors; Google's vCPUs within a machine
 * type's series): the what-if prices a size the bill lacks from a size it has at the same place.
 */
export type SizePricing =
  | {
      /** A type's family and factor, or null where the rule does not read it (a metal size, a GPU series). */
      readonly factor: (name: string) => { readonly family: string; readonly factor: number } | null;
      /** How the price's origin names the rule (`AWS size factor`). */
      readonly origin: string;
      /** The provider's page that publishes it. */
      readonly source: string;
    }
  | { readonly factor: null; readonly why: string };

/** A provider's grammar that reads no name: a provider whose editions list no instance type. */
export const NO_GRAMMAR: NameGrammar = {
  shape: () => null,
  family: () => null,
  lineage: () => null,
  billed: (name) => name.toLowerCase(),
  node: () => "",
  untiered: (name) => name,
};

/** The partition of a provider whose regions are all one (its public cloud's). */
export const ONE_PARTITION = (_region: string): string => "";

/** The nodes of a control plane whose provider publishes none: 3, Kubernetes' minimum of a highly available one (etcd's quorum). */
export const HIGHLY_AVAILABLE =
  "not published: 3, the minimum of a highly available control plane, Kubernetes documentation, Options for Highly Available Topology";
