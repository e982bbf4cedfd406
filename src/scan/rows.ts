import { csvLine } from "../output/csv.js";
import { resourceAsk } from "./requests.js";
import { type ScannedResource, tagsLabel } from "./resources.js";

/*
 * A scan as the inventory `impact-service evaluate` reads (docs/inventory.md): one row per resource
 * evaluated, in the inventory's columns, each filled as the resource's request (src/scan/requests.ts)
 * fills the route's body; then the account's own columns (id, state, launch time, volume type, the
 * instance a volume is attached to, the tags), which `evaluate` keeps in its output and never sends.
 * A resource that is not evaluated has no row: the scan names it on stderr.
 */

/** The inventory's columns a scan fills, then its own. */
export const SCAN_COLUMNS = [
  "kind",
  "provider",
  "instance_type",
  "region",
  "usage_location",
  "hours",
  "time_workload",
  "ssd_capacity",
  "hdd_capacity",
  "period_start",
  "period_end",
  "resource_id",
  "resource_state",
  "launch_time",
  "volume_type",
  "attached_to",
  "tags",
] as const;

type ScanColumn = (typeof SCAN_COLUMNS)[number];

/** A number as the row writes it: JavaScript's shortest text that reads back as the same number. */
const numberText = (value: unknown) => (typeof value === "number" ? String(value) : "");

/** The resource's row, or null when it is not evaluated. */
export function scanRow(scanned: ScannedResource): Readonly<Record<ScanColumn, string>> | null {
  const ask = resourceAsk(scanned);
  if (!("request" in ask)) return null;
  const { resource, period, launched } = scanned;
  const { body, path } = ask.request;
  const usage = body.usage as Record<string, unknown>;
  const details = resource.resource_details;
  const instance = typeof details === "object" && "instance" in details ? details.instance : null;
  const volume = typeof details === "object" && "block_storage" in details ? details.block_storage : null;
  const medium = path.endsWith("/ssd") ? "ssd" : path.endsWith("/hdd") ? "hdd" : null;
  return {
    kind: medium ?? "cloud",
    provider: instance === null ? "" : "aws",
    instance_type: instance?.instance_type ?? "",
    region: resource.location.aws_region,
    usage_location: typeof usage.usage_location === "string" ? usage.usage_location : "",
    hours: numberText(usage.hours_use_time),
    time_workload: numberText(usage.time_workload),
    ssd_capacity: medium === "ssd" ? numberText(body.capacity) : "",
    hdd_capacity: medium === "hdd" ? numberText(body.capacity) : "",
    period_start: period === null ? "" : new Date(period[0]).toISOString(),
    period_end: period === null ? "" : new Date(period[1]).toISOString(),
    resource_id: resource.id,
    resource_state: instance?.usage?.state ?? "",
    launch_time: launched ?? "",
    volume_type: volume?.storage_type ?? "",
    attached_to: volume?.attached_instances?.map((attached) => attached.instance_id).join(" ") ?? "",
    tags: tagsLabel(resource.tags),
  };
}

/** The inventory CSV of the resources evaluated: its header, then a row each, as text pieces. */
export function* scanCsv(resources: Iterable<ScannedResource>): Generator<string> {
  yield csvLine(SCAN_COLUMNS);
  for (const scanned of resources) {
    const row = scanRow(scanned);
    if (row !== null) yield csvLine(SCAN_COLUMNS.map((column) => row[column]));
  }
}
