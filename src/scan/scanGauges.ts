import {
  type ResourceWithImpacts,
  resourceType,
  type ScannedEstimate,
  type ScanProblem,
  tagsLabel,
} from "./resources.js";

/*
 * A scan's impacts as Prometheus gauges, named and labelled as cloud-scanner's exporter names them
 * (cloud-scanner-cli's metric_exporter.rs), so that a dashboard built on its metrics reads these:
 * per resource `boavizta_resource_*` and `boavizta_storage_size_gb`, labelled by region, country,
 * resource type, id, tags, state and versions; per region the sums, `boavizta_*`. Beyond its
 * labels, each resource's series also carries its instance type or volume type and one label per
 * tag filter (`tag_<key>`: the tag's value), and the scan says its own state in `impact_scan_*`
 * (docs/scan.md lists every name and its mapping).
 *
 * The gauges are made as the resources are read, one at a time (`scanGaugeSet`): the regions' sums
 * count every resource, and a region keeps the series of its first resources only, up to its share
 * of MAX_RESOURCE_SERIES and of MAX_RESOURCE_SERIES_BYTES, so that neither a scan's memory nor a
 * scrape grows with the account (`impact_scan_resources_not_exported` counts the rest).
 */

/**
 * Resources whose own series a scan exports, at most, shared evenly by its regions (5 regions: the
 * first 400 each). 2,000 resources are about 20,000 series and 5 MB of text a scrape.
 */
export const MAX_RESOURCE_SERIES = 2_000;

/** Bytes of the resources' series a scan keeps, at most (long tags make long labels), shared as well. */
export const MAX_RESOURCE_SERIES_BYTES = 8 * 1024 * 1024;

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
  impact_scan_resources_not_exported:
    "Resources of the region counted in its sums whose own series are not exported (past the scan's bound of series)",
};

/** A tag filter's label: `tag_` and its key, each character a label name may not hold as `_`. */
export function tagLabelName(key: string): string {
  return `tag_${key.replace(/[^A-Za-z0-9_]/g, "_")}`;
}

/** The per-resource gauges, in the order they are written. */
const RESOURCE_GAUGES = [
  "boavizta_resource_duration_of_use_hours",
  ...IMPACTS.map(([name]) => name),
  "boavizta_resource_cpu_load",
  "boavizta_storage_size_gb",
] as const;

/** The per-region gauges, in the order they are written (before the resources'). */
const REGION_GAUGES = [
  "boavizta_number_of_resources_total",
  "boavizta_number_of_resources_assessed",
  "boavizta_duration_of_use_hours",
  ...IMPACTS.map(([, name]) => name),
  "impact_scan_timestamp_seconds",
  "impact_scan_problems",
  "impact_scan_resources_not_exported",
] as const;

/** A label's value in Prometheus's text format: backslash, newline and quote escaped. */
function labelValue(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');
}

/** Labels as written between braces. */
function labelsText(labels: readonly (readonly [string, string])[]): string {
  return labels.map(([name, value]) => `${name}="${labelValue(value)}"`).join(",");
}

/** A sample's value as Prometheus's text format writes it. */
function valueText(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (!Number.isFinite(value)) return value < 0 ? "-Inf" : "+Inf";
  return String(value);
}

/** What a scan's gauges are made with. */
export interface GaugeScan {
  /** The regions asked, in order: each one's gauges, in that order. */
  readonly regions: readonly string[];
  /** The tag filters' keys: one label each on every resource's series. */
  readonly filterKeys: readonly string[];
  /** The period's hours. */
  readonly hours: number;
  readonly cloudScannerVersion: string;
  readonly boaviztapiVersion: string;
}

/** One region's gauges as its resources are added: its sums, and the series kept. */
interface RegionGauges {
  country: string;
  total: number;
  assessed: number;
  readonly sums: number[];
  /** Each resource gauge's lines, RESOURCE_GAUGES' order. */
  readonly lines: string[][];
  kept: number;
  bytes: number;
  notExported: number;
}

/** A resource's series, each line by its gauge's index in RESOURCE_GAUGES. */
function resourceLines(item: ResourceWithImpacts, scan: GaugeScan): (readonly [number, string])[] {
  const resource = item.cloud_resource;
  const details = resource.resource_details;
  const instance = typeof details === "object" && "instance" in details ? details.instance : null;
  const volume = typeof details === "object" && "block_storage" in details ? details.block_storage : null;
  const state = instance?.usage?.state;
  const labels = labelsText([
    ["awsregion", resource.location.aws_region],
    ["country", resource.location.iso_country_code],
    ["resource_type", resourceType(resource)],
    ["resource_id", resource.id],
    ["resource_tags", tagsLabel(resource.tags)],
    ["resource_state", state === "running" ? "Running" : state === "stopped" ? "Stopped" : "Unknown"],
    ["cloud_scanner_version", scan.cloudScannerVersion],
    ["boaviztapi_version", scan.boaviztapiVersion],
    ["instance_type", instance?.instance_type ?? ""],
    ["storage_type", volume?.storage_type ?? ""],
    ...scan.filterKeys.map(
      (key) =>
        [tagLabelName(key), resource.tags.find((tag) => tag.key === key)?.value ?? ""] as [string, string],
    ),
  ]);
  const line = (at: number, value: number) =>
    [at, `${RESOURCE_GAUGES[at]}{${labels}} ${valueText(value)}`] as const;
  const values = item.impacts_values;
  const lines: (readonly [number, string])[] = [];
  if (values !== null) {
    lines.push(line(0, item.impacts_duration_hours));
    IMPACTS.forEach(([, , field], at) => {
      lines.push(line(at + 1, values[field]));
    });
  }
  if (instance?.usage != null) lines.push(line(IMPACTS.length + 1, instance.usage.average_cpu_load));
  if (volume?.usage != null) lines.push(line(IMPACTS.length + 2, volume.usage.size_gb));
  return lines;
}

/** A scan's gauges, made as its resources are added one at a time. */
export interface ScanGaugeSet {
  add(item: ResourceWithImpacts): void;
  /** Resources counted whose series are not exported (past the bound). */
  notExported(): number;
  /** The gauges in Prometheus's text format (0.0.4): what the scan could not read counted, when it was read (epoch ms). */
  text(problems: readonly ScanProblem[], scannedAt: number): string;
}

/** The gauges of `scan`, empty: add its resources, then write them. */
export function scanGaugeSet(scan: GaugeScan): ScanGaugeSet {
  const shareCount = Math.max(1, Math.floor(MAX_RESOURCE_SERIES / Math.max(1, scan.regions.length)));
  const shareBytes = Math.floor(MAX_RESOURCE_SERIES_BYTES / Math.max(1, scan.regions.length));
  const regions = new Map<string, RegionGauges>(
    scan.regions.map((region) => [
      region,
      {
        country: "",
        total: 0,
        assessed: 0,
        sums: IMPACTS.map(() => 0),
        lines: RESOURCE_GAUGES.map(() => []),
        kept: 0,
        bytes: 0,
        notExported: 0,
      },
    ]),
  );
  return {
    add(item) {
      const region = regions.get(item.cloud_resource.location.aws_region);
      if (region === undefined) return;
      if (region.total === 0) region.country = item.cloud_resource.location.iso_country_code;
      region.total += 1;
      if (item.impacts_values !== null) region.assessed += 1;
      IMPACTS.forEach(([, , field], at) => {
        region.sums[at] += item.impacts_values?.[field] ?? 0;
      });
      const lines = resourceLines(item, scan);
      const bytes = lines.reduce((sum, [, line]) => sum + line.length + 1, 0);
      if (region.kept >= shareCount || region.bytes + bytes > shareBytes) {
        region.notExported += 1;
        return;
      }
      region.kept += 1;
      region.bytes += bytes;
      for (const [at, line] of lines) region.lines[at].push(line);
    },
    notExported: () => [...regions.values()].reduce((sum, region) => sum + region.notExported, 0),
    text: (problems, scannedAt) => gaugesText(scan, regions, problems, scannedAt),
  };
}

/** The per-region samples of each region gauge, REGION_GAUGES' order. */
function regionSamples(
  scan: GaugeScan,
  name: string,
  region: string,
  gauges: RegionGauges,
  said: { readonly problems: number; readonly scannedAt: number },
) {
  const versions: [string, string][] = [
    ["cloud_scanner_version", scan.cloudScannerVersion],
    ["boaviztapi_version", scan.boaviztapiVersion],
  ];
  const labels = labelsText([["awsregion", region], ["country", gauges.country], ...versions]);
  const own = labelsText([["awsregion", region]]);
  const sum = IMPACTS.findIndex(([, regionName]) => regionName === name);
  if (sum !== -1) return `${name}{${labels}} ${valueText(gauges.sums[sum])}`;
  switch (name) {
    case "boavizta_number_of_resources_total":
      return `${name}{${labels}} ${gauges.total}`;
    case "boavizta_number_of_resources_assessed":
      return `${name}{${labels}} ${gauges.assessed}`;
    case "boavizta_duration_of_use_hours":
      return `${name}{${labels}} ${valueText(scan.hours)}`;
    case "impact_scan_timestamp_seconds":
      return `${name}{${own}} ${valueText(said.scannedAt / 1000)}`;
    case "impact_scan_problems":
      return `${name}{${own}} ${said.problems}`;
    default:
      return `${name}{${own}} ${gauges.notExported}`;
  }
}

/** Every gauge's family: its help, its type, its samples, region by region in the order asked. */
function gaugesText(
  scan: GaugeScan,
  regions: ReadonlyMap<string, RegionGauges>,
  problems: readonly ScanProblem[],
  scannedAt: number,
) {
  const family = (name: string, samples: readonly string[]) =>
    [`# HELP ${name} ${HELP[name]}`, `# TYPE ${name} gauge`, ...samples].join("\n");
  const families = [
    ...REGION_GAUGES.map((name) =>
      family(
        name,
        [...regions].map(([region, gauges]) =>
          regionSamples(scan, name, region, gauges, {
            problems: problems.filter((one) => one.region === region).length,
            scannedAt,
          }),
        ),
      ),
    ),
    ...RESOURCE_GAUGES.map((name, at) =>
      family(
        name,
        [...regions.values()].flatMap((gauges) => gauges.lines[at]),
      ),
    ),
  ];
  return `${families.join("\n\n")}\n`;
}

/** An estimated inventory's gauges in Prometheus's text format (the command's `--metrics`). */
export function scanMetricsText(estimate: ScannedEstimate): string {
  const gauges = scanGaugeSet({
    regions: estimate.scan.regions,
    filterKeys: estimate.scan.filter_keys,
    hours: estimate.scan.hours,
    cloudScannerVersion: estimate.metadata.cloud_scanner_version,
    boaviztapiVersion: estimate.metadata.boavizta_api_version,
  });
  for (const item of estimate.impacting_resources) gauges.add(item);
  return gauges.text(estimate.scan.problems, Date.parse(estimate.scan.scanned_at));
}
