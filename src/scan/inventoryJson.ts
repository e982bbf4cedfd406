import { z } from "zod";
import type { CloudResource, Inventory, ScannedResource } from "./resources.js";

/*
 * cloud-scanner's JSON read: its inventory (INVENTORY_JSON_SCHEMA.json: `metadata`, `resources`)
 * and its estimated inventory (`impacting_resources`, each resource with the hours it was
 * estimated for), and the estimated shape of cloud-scanner 0.x (`instances`, each an instance type
 * and boaviztapi's verbose answer, as cloud-scanner's docs/sample_result.json). What a file holds
 * that is not read is named (`notRead`), never silently dropped: keys outside the schema (an older
 * writer's `executionStatistics`, `inventoryDate`), the impacts an estimated inventory already
 * holds (evaluated again here), the verbose of a 0.x answer beyond the usage it was asked for.
 */

const tag = z.object({ key: z.string(), value: z.string().nullish() });

const instanceDetails = z.object({
  instance: z.object({
    instance_type: z.string().min(1),
    usage: z
      .object({ average_cpu_load: z.number().min(0).max(100), state: z.enum(["running", "stopped"]) })
      .nullish(),
  }),
});

const storageDetails = z.object({
  block_storage: z.object({
    storage_type: z.string(),
    usage: z.object({ size_gb: z.number().int().min(0) }).nullish(),
    attached_instances: z.array(z.object({ instance_id: z.string() })).nullish(),
  }),
});

/** One resource, as INVENTORY_JSON_SCHEMA.json describes it. */
const resourceSchema = z.object({
  provider: z.enum(["AWS", "OVH"]),
  id: z.string(),
  location: z.object({ aws_region: z.string(), iso_country_code: z.string() }),
  resource_details: z.union([z.literal("object_storage"), instanceDetails, storageDetails]),
  tags: z.array(tag),
});

const metadataSchema = z
  .object({
    inventory_date: z.string().nullish(),
    description: z.string().nullish(),
    cloud_scanner_version: z.string().nullish(),
  })
  .optional();

/** cloud-scanner's inventory (its `metadata` may be empty, as in its own AWS_INVENTORY.json). */
export const INVENTORY_SCHEMA = z.object({ metadata: metadataSchema, resources: z.array(resourceSchema) });

/** cloud-scanner's estimated inventory: each resource and the hours it was estimated for. */
const ESTIMATED_SCHEMA = z.object({
  impacting_resources: z.array(
    z.object({ cloud_resource: resourceSchema, impacts_duration_hours: z.number().positive() }),
  ),
});

/** A boaviztapi 0.x verbose value: what was asked (`input_value`). */
const asked = z.object({ input_value: z.unknown() }).optional();

/** cloud-scanner 0.x's estimated shape: instances and boaviztapi's answer for each. */
const ESTIMATED_0X_SCHEMA = z.object({
  instances: z.array(
    z.object({
      instance_id: z.string(),
      instance_type: z.string().min(1),
      impacts: z.object({
        verbose: z
          .object({
            "USAGE-1": z
              .object({
                hours_use_time: asked,
                usage_location: asked,
                workload: z.record(z.string(), z.object({ time: asked })).optional(),
              })
              .optional(),
          })
          .optional(),
      }),
    }),
  ),
});

/** What a cloud-scanner file is, by its top-level keys. */
export type ScannerShape = "inventory" | "estimated" | "estimated-0.x";

/** The shape of a parsed JSON value, null when it is none of cloud-scanner's. */
export function scannerShapeOf(value: unknown): ScannerShape | null {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return null;
  if (Object.hasOwn(value, "resources")) return "inventory";
  if (Object.hasOwn(value, "impacting_resources")) return "estimated";
  if (Object.hasOwn(value, "instances")) return "estimated-0.x";
  return null;
}

/** A cloud-scanner file read: its resources, each with its hours, and what was not read. */
export interface ScannerFile {
  readonly shape: ScannerShape;
  readonly resources: readonly ScannedResource[];
  readonly notRead: readonly string[];
}

/** A value at odds with the schema: where (`resources[2].location.aws_region`) and what is wrong. */
export class ScannerFileError extends Error {
  constructor(
    readonly path: readonly (string | number)[],
    readonly problem: string,
  ) {
    super(`${pathText(path)}: ${problem}`);
  }
}

/** A path as JSON's readers write it: `resources[2].location`. */
export function pathText(path: readonly (string | number)[]): string {
  return path
    .map((step, at) => (typeof step === "number" ? `[${step}]` : at === 0 ? step : `.${step}`))
    .join("");
}

/** The parsed value by `schema`, or the ScannerFileError of its first issue. */
function parsed<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue.path.map((step) => (typeof step === "symbol" ? String(step) : step));
  throw new ScannerFileError(path, issue.message);
}

/** The schema's resource as the model's (tags' absent values made null). */
function resourceOf(raw: z.infer<typeof resourceSchema>): CloudResource {
  const details = raw.resource_details;
  const resource_details =
    details === "object_storage"
      ? details
      : "instance" in details
        ? {
            instance: {
              instance_type: details.instance.instance_type,
              usage: details.instance.usage ?? null,
            },
          }
        : {
            block_storage: {
              storage_type: details.block_storage.storage_type,
              usage: details.block_storage.usage ?? null,
              attached_instances: details.block_storage.attached_instances ?? null,
            },
          };
  return {
    ...raw,
    resource_details,
    tags: raw.tags.map((one) => ({ key: one.key, value: one.value ?? null })),
  };
}

/** The known keys of each object of the schema, by its path with lists as `[]`. */
const KNOWN_KEYS: Readonly<Record<string, readonly string[]>> = {
  "": ["metadata", "resources", "impacting_resources", "instances"],
  metadata: ["inventory_date", "description", "cloud_scanner_version", "execution_statistics"],
  "resources[]": ["provider", "id", "location", "resource_details", "tags"],
  "resources[].location": ["aws_region", "iso_country_code"],
  "impacting_resources[]": ["cloud_resource", "impacts_values", "impacts_duration_hours", "warnings"],
};

/** The keys of `value` outside the schema, each named once by its path (`metadata.inventoryDate`). */
function unknownKeys(value: unknown, at = "", found = new Set<string>()): Set<string> {
  if (value === null || typeof value !== "object" || found.size >= 20) return found;
  if (Array.isArray(value)) {
    for (const item of value) unknownKeys(item, `${at}[]`, found);
    return found;
  }
  const known = KNOWN_KEYS[at];
  if (known === undefined) return found;
  for (const [key, inner] of Object.entries(value)) {
    const path = at === "" ? key : `${at}.${key}`;
    if (!known.includes(key)) found.add(path);
    else unknownKeys(inner, path, found);
  }
  return found;
}

/** A number a 0.x verbose was asked with, or null. */
function askedNumber(entry: { input_value?: unknown } | undefined): number | null {
  return typeof entry?.input_value === "number" && Number.isFinite(entry.input_value)
    ? entry.input_value
    : null;
}

/** A 0.x workload's average load: each level's load (idle 0) by its share of the time; null without time. */
function averageLoad(
  workload: Record<string, { time?: { input_value?: unknown } }> | undefined,
): number | null {
  let weighted = 0;
  let total = 0;
  for (const [level, { time }] of Object.entries(workload ?? {})) {
    const share = askedNumber(time);
    const load = level === "idle" ? 0 : Number(level);
    if (share === null || !Number.isFinite(load)) continue;
    weighted += load * share;
    total += share;
  }
  return total > 0 ? weighted / total : null;
}

/** cloud-scanner 0.x's instances, as AWS instances (the one provider it read) with the usage they were asked for. */
function instancesOf(value: unknown, hours: number): ScannedResource[] {
  return parsed(ESTIMATED_0X_SCHEMA, value).instances.map((instance) => {
    const usage = instance.impacts.verbose?.["USAGE-1"];
    const load = averageLoad(usage?.workload);
    const location =
      typeof usage?.usage_location?.input_value === "string" ? usage.usage_location.input_value : "";
    return {
      resource: {
        provider: "AWS",
        id: instance.instance_id,
        location: { aws_region: "", iso_country_code: location },
        resource_details: {
          instance: {
            instance_type: instance.instance_type,
            usage: { average_cpu_load: load ?? 0, state: "running" },
          },
        },
        tags: [],
      },
      hours: askedNumber(usage?.hours_use_time) ?? hours,
      period: null,
      launched: null,
      ...(load === null ? { loadUnknown: true } : {}),
    };
  });
}

/** What an estimated file holds that is evaluated again rather than read. */
const RECOMPUTED: Readonly<Record<Exclude<ScannerShape, "inventory">, string>> = {
  estimated: "impacting_resources[].impacts_values (the impacts are evaluated again)",
  "estimated-0.x":
    "instances[].impacts (evaluated again from each instance's type and the usage its verbose was asked: hours_use_time, usage_location, workload as its average load; its provider read as AWS, the one cloud-scanner 0.x read)",
};

/**
 * A cloud-scanner file's resources, each with its hours: an estimated inventory's own, else
 * `hours`; ScannerFileError naming the first value at odds with its schema.
 */
export function readScannerFile(value: unknown, hours: number): ScannerFile {
  const shape = scannerShapeOf(value);
  if (shape === null) {
    throw new ScannerFileError(
      ["resources"],
      "not a cloud-scanner inventory (no resources, impacting_resources or instances)",
    );
  }
  const plain = (resource: CloudResource, own: number): ScannedResource => ({
    resource,
    hours: own,
    period: null,
    launched: null,
  });
  const resources =
    shape === "inventory"
      ? parsed(INVENTORY_SCHEMA, value).resources.map((raw) => plain(resourceOf(raw), hours))
      : shape === "estimated"
        ? parsed(ESTIMATED_SCHEMA, value).impacting_resources.map((raw) =>
            plain(resourceOf(raw.cloud_resource), raw.impacts_duration_hours),
          )
        : instancesOf(value, hours);
  const unknown = shape === "estimated-0.x" ? [] : [...unknownKeys(value)];
  return { shape, resources, notRead: [...unknown, ...(shape === "inventory" ? [] : [RECOMPUTED[shape]])] };
}

/** The scanned resources as cloud-scanner's inventory JSON. */
export function inventoryJson(
  resources: readonly ScannedResource[],
  version: string,
  date: string,
): Inventory {
  return {
    metadata: {
      inventory_date: date,
      description: "An AWS account's resources read by impact-service scan",
      cloud_scanner_version: version,
    },
    resources: resources.map((scanned) => scanned.resource),
  };
}
