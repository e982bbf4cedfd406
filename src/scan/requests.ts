import type { CloudResource, ScannedResource } from "./resources.js";

/*
 * The single route that evaluates a resource, and its request: what cloud-scanner asks boaviztapi
 * for (cloud-scanner-cli's boavizta_api_v1.rs), in this service's inventory words, so that a
 * resource's impacts are its inventory row's (src/scan/rows.ts writes the same request as CSV
 * columns; test/scan/requests.test.ts holds the two equal through the inventory's own reading).
 *
 * - An instance: `POST /v1/cloud/instance`, provider aws, its type, its region and the region's
 *   country as usage location, its average CPU load as `time_workload` (left to the archetype when
 *   the period had no datapoint), its hours as `hours_use_time`.
 * - A block storage volume: `POST /v1/component/ssd` or `/hdd` by its type (AWS, "Amazon EBS volume
 *   types": gp2, gp3, io1, io2 are SSD-backed; st1, sc1 and the previous generation's `standard`,
 *   magnetic, are HDD-backed — the media the billing registry gives EBS lines), its size as the
 *   disk's capacity, its hours as `hours_use_time`.
 *
 * What is not evaluated is said, never guessed: a stopped instance (it runs nothing), object
 * storage (cloud-scanner evaluates none either), a volume type that is not one of EBS's (where
 * cloud-scanner assumes an SSD), another provider than AWS, a volume without its size.
 */

/** EBS volume types by the medium behind them. */
const EBS_MEDIA: Readonly<Record<string, "ssd" | "hdd">> = {
  gp2: "ssd",
  gp3: "ssd",
  io1: "ssd",
  io2: "ssd",
  st1: "hdd",
  sc1: "hdd",
  standard: "hdd",
};

/** The criteria cloud-scanner asks for, the three its estimated inventory and metrics hold. */
export const SCANNER_CRITERIA = ["gwp", "adp", "pe"] as const;

/** A resource's request to a single route. */
export interface ResourceRequest {
  /** The route's path, e.g. `/v1/cloud/instance`. */
  readonly path: string;
  readonly body: Record<string, unknown>;
}

/** A resource's request, or why it is not evaluated. */
export type ResourceAsk = { readonly request: ResourceRequest } | { readonly notEvaluated: string };

/** The medium of an EBS volume type, null for a type EBS does not have. */
export function volumeMedium(storageType: string): "ssd" | "hdd" | null {
  return Object.hasOwn(EBS_MEDIA, storageType) ? EBS_MEDIA[storageType] : null;
}

/**
 * The usage a resource is evaluated with: its place and its hours (and an instance's load). A
 * region is a cloud instance's alone (a disk's route reads none; its country places it).
 */
function usageOf(
  resource: CloudResource,
  hours: number,
  load: number | null,
  cloud: boolean,
): Record<string, unknown> {
  const { aws_region: region, iso_country_code: country } = resource.location;
  return {
    ...(region === "" || !cloud ? {} : { region }),
    ...(country === "" ? {} : { usage_location: country }),
    hours_use_time: hours,
    ...(load === null ? {} : { time_workload: load }),
  };
}

/** The request evaluating `scanned`, or why it is not evaluated. */
export function resourceAsk(scanned: ScannedResource): ResourceAsk {
  const { resource, hours } = scanned;
  if (resource.provider !== "AWS") return { notEvaluated: `provider ${resource.provider}: only AWS is read` };
  const details = resource.resource_details;
  if (details === "object_storage") return { notEvaluated: "object storage is not evaluated" };
  if ("instance" in details) {
    const { instance_type, usage } = details.instance;
    if (usage?.state === "stopped") return { notEvaluated: "stopped: it runs nothing" };
    const load = usage === null || scanned.loadUnknown === true ? null : usage.average_cpu_load;
    return {
      request: {
        path: "/v1/cloud/instance",
        body: { provider: "aws", instance_type, usage: usageOf(resource, hours, load, true) },
      },
    };
  }
  const { storage_type, usage } = details.block_storage;
  const medium = volumeMedium(storage_type);
  if (medium === null) {
    return {
      notEvaluated: `volume type ${storage_type} is not one of EBS's (${Object.keys(EBS_MEDIA).join(", ")})`,
    };
  }
  if (usage === null) return { notEvaluated: "its size is not given" };
  return {
    request: {
      path: `/v1/component/${medium}`,
      body: { capacity: usage.size_gb, usage: usageOf(resource, hours, null, false) },
    },
  };
}
