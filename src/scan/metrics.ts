import { Gauge, Registry } from "prom-client";
import { type ResourceWithImpacts, resourceType, type ScannedEstimate, tagsLabel } from "./resources.js";

/*
 * A scan's impacts as Prometheus gauges, named and labelled as cloud-scanner's exporter names them
 * (cloud-scanner-cli's metric_exporter.rs), so that a dashboard built on its metrics reads these:
 * per resource `boavizta_resource_*` and `boavizta_storage_size_gb`, labelled by region, country,
 * resource type, id, tags, state and versions; per region the sums, `boavizta_*`. Beyond its
 * labels, each resource's series also carries its instance type or volume type and one label per
 * tag filter (`tag_<key>`: the tag's value), and the scan says its own state in `impact_scan_*`
 * (docs/scan.md lists every name and its mapping).
 */

/** The six impact values: the resource's gauge, the region's, the value's field. */
const IMPACTS = [
  [
    "boavizta_resource_pe_embodied_megajoules",
    "boavizta_pe_manufacture_megajoules",
    "pe_manufacture_megajoules",
  ],
  ["boavizta_resource_pe_use_megajoules", "boavizta_pe_use_megajoules", "pe_use_megajoules"],
  ["boavizta_resource_adp_embodied_kgsbeq", "boavizta_adp_manufacture_kgsbeq", "adp_manufacture_kgsbeq"],
  ["boavizta_resource_adp_use_kgsbeq", "boavizta_adp_use_kgsbeq", "adp_use_kgsbeq"],
  ["boavizta_resource_gwp_embodied_kgco2eq", "boavizta_gwp_manufacture_kgco2eq", "gwp_manufacture_kgco2eq"],
  ["boavizta_resource_gwp_use_kgco2eq", "boavizta_gwp_use_kgco2eq", "gwp_use_kgco2eq"],
] as const;

/** The help of each gauge (cloud-scanner's words where it has the gauge). */
const HELP: Readonly<Record<string, string>> = {
  boavizta_resource_duration_of_use_hours: "Use duration considered to estimate impacts",
  boavizta_resource_pe_embodied_megajoules: "Energy consumed for manufacture",
  boavizta_resource_pe_use_megajoules: "Energy consumed during use",
  boavizta_resource_adp_embodied_kgsbeq: "Abiotic resources depletion potential of embodied impacts",
  boavizta_resource_adp_use_kgsbeq: "Abiotic resources depletion potential of use",
  boavizta_resource_gwp_embodied_kgco2eq: "Global Warming Potential of embodied impacts",
  boavizta_resource_gwp_use_kgco2eq: "Global Warming Potential of use",
  boavizta_resource_cpu_load: "CPU load of instance",
  boavizta_storage_size_gb: "Storage size in GB",
  boavizta_number_of_resources_total: "Number of resources detected during the inventory",
  boavizta_number_of_resources_assessed:
    "Number of resources that were considered in the estimation of impacts",
  boavizta_duration_of_use_hours: "Use duration considered to estimate impacts",
  boavizta_pe_manufacture_megajoules: "Energy consumed for manufacture",
  boavizta_pe_use_megajoules: "Energy consumed during use",
  boavizta_adp_manufacture_kgsbeq: "Abiotic resources depletion potential of manufacture",
  boavizta_adp_use_kgsbeq: "Abiotic resources depletion potential of use",
  boavizta_gwp_manufacture_kgco2eq: "Global Warming Potential of manufacture",
  boavizta_gwp_use_kgco2eq: "Global Warming Potential of use",
  impact_scan_timestamp_seconds: "When the account's region was read (seconds since 1970, UTC)",
  impact_scan_problems:
    "What the last scan of the region could not read, counted (each said in one line on the scan's stderr)",
};

/** A tag filter's label: `tag_` and its key, each character a label name may not hold as `_`. */
export function tagLabelName(key: string): string {
  return `tag_${key.replace(/[^A-Za-z0-9_]/g, "_")}`;
}

const RESOURCE_LABELS = [
  "awsregion",
  "country",
  "resource_type",
  "resource_id",
  "resource_tags",
  "resource_state",
  "cloud_scanner_version",
  "boaviztapi_version",
  "instance_type",
  "storage_type",
] as const;
const REGION_LABELS = ["awsregion", "country", "cloud_scanner_version", "boaviztapi_version"] as const;

type Labels = Record<string, string>;

/** A resource's labels: cloud-scanner's, its type's, and each filter's tag value. */
function resourceLabels(item: ResourceWithImpacts, versions: Labels, filterKeys: readonly string[]): Labels {
  const resource = item.cloud_resource;
  const details = resource.resource_details;
  const instance = typeof details === "object" && "instance" in details ? details.instance : null;
  const volume = typeof details === "object" && "block_storage" in details ? details.block_storage : null;
  const state = instance?.usage?.state;
  const labels: Labels = {
    awsregion: resource.location.aws_region,
    country: resource.location.iso_country_code,
    resource_type: resourceType(resource),
    resource_id: resource.id,
    resource_tags: tagsLabel(resource.tags),
    resource_state: state === "running" ? "Running" : state === "stopped" ? "Stopped" : "Unknown",
    ...versions,
    instance_type: instance?.instance_type ?? "",
    storage_type: volume?.storage_type ?? "",
  };
  for (const key of filterKeys) {
    labels[tagLabelName(key)] = resource.tags.find((tag) => tag.key === key)?.value ?? "";
  }
  return labels;
}

/** A gauge of the registry, by name. */
function gaugeOf(registry: Registry, name: string, labelNames: readonly string[]): Gauge {
  return new Gauge({ name, help: HELP[name], labelNames: [...labelNames], registers: [registry] });
}

/** The per-resource gauges of `items`. */
function resourceGauges(
  registry: Registry,
  items: readonly ResourceWithImpacts[],
  versions: Labels,
  keys: readonly string[],
) {
  const labelNames = [...RESOURCE_LABELS, ...keys.map(tagLabelName)];
  const duration = gaugeOf(registry, "boavizta_resource_duration_of_use_hours", labelNames);
  const impacts = IMPACTS.map(([name, , field]) => [gaugeOf(registry, name, labelNames), field] as const);
  const load = gaugeOf(registry, "boavizta_resource_cpu_load", labelNames);
  const size = gaugeOf(registry, "boavizta_storage_size_gb", labelNames);
  for (const item of items) {
    const labels = resourceLabels(item, versions, keys);
    const values = item.impacts_values;
    if (values !== null) {
      duration.set(labels, item.impacts_duration_hours);
      for (const [gauge, field] of impacts) gauge.set(labels, values[field]);
    }
    const details = item.cloud_resource.resource_details;
    if (typeof details === "object" && "instance" in details && details.instance.usage !== null)
      load.set(labels, details.instance.usage.average_cpu_load);
    if (typeof details === "object" && "block_storage" in details && details.block_storage.usage !== null)
      size.set(labels, details.block_storage.usage.size_gb);
  }
}

/** The per-region sums, in the resources' order (the sum a reader makes of the resources' values). */
function regionGauges(
  registry: Registry,
  estimate: ScannedEstimate,
  regions: readonly string[],
  versions: Labels,
) {
  const total = gaugeOf(registry, "boavizta_number_of_resources_total", REGION_LABELS);
  const assessed = gaugeOf(registry, "boavizta_number_of_resources_assessed", REGION_LABELS);
  const duration = gaugeOf(registry, "boavizta_duration_of_use_hours", REGION_LABELS);
  const sums = IMPACTS.map(([, name, field]) => [gaugeOf(registry, name, REGION_LABELS), field] as const);
  const when = gaugeOf(registry, "impact_scan_timestamp_seconds", ["awsregion"]);
  const problems = gaugeOf(registry, "impact_scan_problems", ["awsregion"]);
  for (const region of regions) {
    const items = estimate.impacting_resources.filter(
      (item) => item.cloud_resource.location.aws_region === region,
    );
    const country = items[0]?.cloud_resource.location.iso_country_code ?? "";
    const labels = { awsregion: region, country, ...versions };
    total.set(labels, items.length);
    assessed.set(labels, items.filter((item) => item.impacts_values !== null).length);
    duration.set(labels, estimate.scan.hours);
    for (const [gauge, field] of sums) {
      let sum = 0;
      for (const item of items) sum += item.impacts_values?.[field] ?? 0;
      gauge.set(labels, sum);
    }
    when.set({ awsregion: region }, Date.parse(estimate.scan.scanned_at) / 1000);
    problems.set(
      { awsregion: region },
      estimate.scan.problems.filter((problem) => problem.region === region).length,
    );
  }
}

/** The scan's gauges in Prometheus's text format: every region's, or `region`'s alone. */
export async function scanMetricsText(estimate: ScannedEstimate, region: string | null): Promise<string> {
  const registry = new Registry();
  const versions = {
    cloud_scanner_version: estimate.metadata.cloud_scanner_version,
    boaviztapi_version: estimate.metadata.boavizta_api_version,
  };
  const regions = region === null ? estimate.scan.regions : [region];
  const items = estimate.impacting_resources.filter((item) =>
    regions.includes(item.cloud_resource.location.aws_region),
  );
  regionGauges(registry, estimate, regions, versions);
  resourceGauges(registry, items, versions, estimate.scan.filter_keys);
  return registry.metrics();
}

/** The content type of the text (Prometheus's text format 0.0.4). */
export const METRICS_CONTENT_TYPE = new Registry().contentType;
