/*
 * An account's resources in Boavizta cloud-scanner's words (its inventory JSON,
 * INVENTORY_JSON_SCHEMA.json of cloud-scanner-cli 3.2): what a scan reads and what `evaluate` and
 * the REST route take from cloud-scanner itself. Each resource also carries what this service reads
 * beyond cloud-scanner's shape — the hours it ran within the period asked, its launch time — kept
 * apart from the shape (`ScannedResource`) so that the JSON written is cloud-scanner's own.
 */

/** A tag as cloud-scanner writes it: a key and an optional value. */
export interface ResourceTag {
  readonly key: string;
  readonly value: string | null;
}

/** Where a resource runs: its AWS region and that region's country (ISO 3166-1 alpha-3). */
export interface ResourceLocation {
  readonly aws_region: string;
  readonly iso_country_code: string;
}

export type InstanceState = "running" | "stopped";

/** What a resource is: an instance, a block storage volume, or object storage (which nothing evaluates). */
export type ResourceDetails =
  | {
      readonly instance: {
        readonly instance_type: string;
        readonly usage: { readonly average_cpu_load: number; readonly state: InstanceState } | null;
      };
    }
  | {
      readonly block_storage: {
        readonly storage_type: string;
        readonly usage: { readonly size_gb: number } | null;
        readonly attached_instances: readonly { readonly instance_id: string }[] | null;
      };
    }
  | "object_storage";

/** One resource of an inventory, in cloud-scanner's shape. */
export interface CloudResource {
  readonly provider: "AWS" | "OVH";
  readonly id: string;
  readonly location: ResourceLocation;
  readonly resource_details: ResourceDetails;
  readonly tags: readonly ResourceTag[];
}

/** cloud-scanner's inventory: its metadata and its resources. */
export interface Inventory {
  readonly metadata: {
    readonly inventory_date?: string | null;
    readonly description?: string | null;
    readonly cloud_scanner_version?: string | null;
  };
  readonly resources: readonly CloudResource[];
}

/** A resource with what this service read of it beyond cloud-scanner's shape. */
export interface ScannedResource {
  readonly resource: CloudResource;
  /** Hours of use evaluated: the part of the period asked it ran. */
  readonly hours: number;
  /** When its use began and ended within the period (epoch milliseconds); null: not known (an inventory given). */
  readonly period: readonly [number, number] | null;
  /** Its launch (an instance) or creation (a volume), ISO 8601; null when not known. */
  readonly launched: string | null;
  /** An instance without CPU datapoints in the period: its load is the archetype's, not 0. */
  readonly loadUnknown?: boolean;
}

/** The six values cloud-scanner keeps of a resource's impacts (its ImpactsValues). */
export interface ImpactsValues {
  readonly adp_manufacture_kgsbeq: number;
  readonly adp_use_kgsbeq: number;
  readonly pe_manufacture_megajoules: number;
  readonly pe_use_megajoules: number;
  readonly gwp_manufacture_kgco2eq: number;
  readonly gwp_use_kgco2eq: number;
  readonly raw_data: unknown;
}

/** A resource with its impacts over its hours, as cloud-scanner's estimated inventory lists it. */
export interface ResourceWithImpacts {
  readonly cloud_resource: CloudResource;
  /** Null: not evaluated (`warnings` says why). */
  readonly impacts_values: ImpactsValues | null;
  readonly impacts_duration_hours: number;
  /** What this service says of the resource (not in cloud-scanner's shape; its readers ignore it). */
  readonly warnings?: readonly string[];
}

/** cloud-scanner's estimated inventory. */
export interface EstimatedInventory {
  readonly metadata: {
    readonly estimation_date: string;
    readonly description: string;
    readonly cloud_scanner_version: string;
    readonly boavizta_api_version: string;
    readonly execution_statistics: null;
    /** What the inventory held that was not read (not in cloud-scanner's shape; absent when nothing). */
    readonly not_read?: readonly string[];
  };
  readonly impacting_resources: readonly ResourceWithImpacts[];
}

/** The kind of a resource, as cloud-scanner's metrics label it. */
export function resourceType(resource: CloudResource): "Instance" | "BlockStorage" | "ObjectStorage" {
  const details = resource.resource_details;
  if (details === "object_storage") return "ObjectStorage";
  return "instance" in details ? "Instance" : "BlockStorage";
}

/**
 * The tags as one label value, as cloud-scanner's metrics write them: `key:value;` for each tag in
 * order, an absent value empty.
 */
export function tagsLabel(tags: readonly ResourceTag[]): string {
  return tags.map((tag) => `${tag.key}:${tag.value ?? ""};`).join("");
}

/** A tag filter as given (`--filter-tag env=prod`): the key and the value it must have. */
export interface TagFilter {
  readonly key: string;
  readonly value: string;
}

/** A `key=value` filter; the first `=` separates them (a value may hold more). Null: not one. */
export function tagFilterOf(text: string): TagFilter | null {
  const at = text.indexOf("=");
  if (at <= 0) return null;
  return { key: text.slice(0, at), value: text.slice(at + 1) };
}

/** Whether the tags hold every filter's key with its value (no filter: every resource matches). */
export function matchesFilters(tags: readonly ResourceTag[], filters: readonly TagFilter[]): boolean {
  return filters.every((filter) => tags.some((tag) => tag.key === filter.key && tag.value === filter.value));
}

/** What a scan could not read, in one line naming the region and what is missing. */
export interface ScanProblem {
  readonly region: string;
  readonly line: string;
}

/** What a scan says of itself beside cloud-scanner's shape (the `scan` key of its estimated inventory). */
export interface ScanAccount {
  /** The regions asked, in order. */
  readonly regions: readonly string[];
  /** The tag filters' keys (each a label of the per-resource metrics). */
  readonly filter_keys: readonly string[];
  /** The period read, ISO 8601 start and end; its length is the hours a resource running all of it is evaluated for. */
  readonly period: readonly [string, string];
  readonly hours: number;
  /** When the account was read, ISO 8601. */
  readonly scanned_at: string;
  readonly problems: readonly ScanProblem[];
}

/** An estimated inventory with the scan it comes from. */
export interface ScannedEstimate extends EstimatedInventory {
  readonly scan: ScanAccount;
}
