/*
 * Google Cloud as a bill names it (src/billing/providers/provider.ts): its regions (Google Cloud,
 * "Regions and zones"), its machine types' grammar (Compute Engine, "Machine families resource and
 * comparison guide": `<series>-<type>-<vCPUs>`), and its rows of the registry.
 */

import { all, has, unit } from "../rules/conditions.js";
import { allOf, anyOf, type FocusLines, namedType, oneOf, present } from "../rules/focusLines.js";
import {
  type BillingProvider,
  type CatalogueService,
  type ControlPlane,
  type KnownService,
  type Lineage,
  ONE_PARTITION,
  type Shape,
  type StorageService,
  catalogueSize as size,
} from "./provider.js";

const SIZE = /^([a-z][a-z0-9]*-[a-z]+)-(\d+)$/;
const LINEAGE = /^([a-z]+)(\d+)([a-z]*)-([a-z]+)-(\d+)$/;

/**
 * Compute Engine bills a predefined machine type by its vCPUs and memory, each at its series'
 * rate, and a type of a series (`n2-standard`) has the same memory per vCPU at every size, so
 * its price is in proportion to its vCPUs (Google Cloud, "VM instance pricing": "each vCPU and
 * each GB of memory is billed separately", https://cloud.google.com/compute/vm-instance-pricing).
 * The accelerator-optimized series (a2, a3, a4, g2, g4) carry GPUs not in proportion: none read.
 */
const SERIES_PRICING_SOURCE =
  "Google Cloud, VM instance pricing (predefined machine types billed by vCPU and memory at the series' rate)";

function seriesVcpus(text: string): { family: string; factor: number } | null {
  const found = shape(text.toLowerCase());
  return found === null || /^[ag]\d/.test(found.family)
    ? null
    : { family: found.family, factor: found.vcpus };
}

function shape(text: string): Shape | null {
  const match = SIZE.exec(text);
  return match === null ? null : { family: match[1], attributes: "", version: 0, vcpus: Number(match[2]) };
}

/** The series' letters and suffix and the type (`n` `standard` of `n1-standard-4`), the generation, the vCPUs. */
function lineage(text: string): Lineage | null {
  const match = LINEAGE.exec(text);
  if (match === null) return null;
  const [, letters, generation, suffix, type, vcpus] = match;
  return { line: `${letters} ${suffix} ${type}`, generation: Number(generation), size: vcpus };
}

const STORAGE: readonly StorageService[] = [
  // Google Cloud: Cloud Storage buckets; Cloud SQL's and Filestore's SSD
  { provider: "gcp", names: ["Cloud Storage"], storage: "object-storage", medium: "hdd", replication: null },
  { provider: "gcp", names: ["Cloud SQL"], storage: "block-storage", medium: "ssd", replication: null },
  {
    provider: "gcp",
    names: ["Cloud Filestore", "Filestore"],
    storage: "file-storage",
    medium: "ssd",
    replication: null,
  },
];

const SERVICES: readonly KnownService[] = [
  {
    provider: "gcp",
    names: ["Invoice"],
    role: "no-hardware",
    estimatedWhen: "",
    note: "invoice adjustments and taxes: no hardware billed",
  },
];

const CATALOGUE: readonly CatalogueService[] = [
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

const CONTROL_PLANES: readonly ControlPlane[] = [
  {
    provider: "gcp",
    name: "GKE zonal cluster",
    // `Kubernetes Engine | Zonal Kubernetes Clusters`
    match: has("zonal kubernetes cluster"),
    nodes: 1,
    source: "a single control plane, Google Kubernetes Engine documentation, Regional clusters",
  },
  {
    provider: "gcp",
    name: "GKE regional cluster",
    // `Kubernetes Engine | Regional Kubernetes Clusters`, Autopilot's (regional)
    match: has("kubernetes cluster"),
    nodes: 3,
    source:
      "a control plane replica in each of 3 zones, Google Kubernetes Engine documentation, Regional clusters",
  },
];

/**
 * Its FOCUS lines (src/billing/rules/focusLines.ts): Compute Engine's machine type, from its SKU's
 * description (n2-standard-4), else the --instance-type-column's; a Compute Engine line naming
 * none is said so (its SKUs bill cores and memory).
 */
const FOCUS_LINES: FocusLines = {
  types: [
    {
      name: "machine",
      sources: [["SkuMeter", "ChargeDescription"]],
      pattern: "([a-z][a-z0-9]*-(?:standard|highmem|highcpu|megamem|ultramem|hpc)-[0-9]+)",
    },
  ],
  kinds: [
    {
      kind: "compute",
      when: allOf(
        oneOf("ServiceName", "Compute Engine"),
        anyOf(present("billing_type_hint"), present(namedType("machine"))),
      ),
    },
    { kind: "machine type not billed", when: oneOf("ServiceName", "Compute Engine") },
  ],
  instanceType: [namedType("machine")],
};

export const GCP: BillingProvider<"gcp"> = {
  id: "gcp",
  focusNames: ["google cloud", "google cloud platform", "gcp", "google"],
  regions: {
    "us-central1": "USA",
    "us-east1": "USA",
    "us-east4": "USA",
    "us-east5": "USA",
    "us-south1": "USA",
    "us-west1": "USA",
    "us-west2": "USA",
    "us-west3": "USA",
    "us-west4": "USA",
    "northamerica-northeast1": "CAN",
    "northamerica-northeast2": "CAN",
    "northamerica-south1": "MEX",
    "southamerica-east1": "BRA",
    "southamerica-west1": "CHL",
    "europe-west1": "BEL",
    "europe-west2": "GBR",
    "europe-west3": "DEU",
    "europe-west4": "NLD",
    "europe-west6": "CHE",
    "europe-west8": "ITA",
    "europe-west9": "FRA",
    "europe-west10": "DEU",
    "europe-west12": "ITA",
    "europe-north1": "FIN",
    "europe-north2": "SWE",
    "europe-central2": "POL",
    "europe-southwest1": "ESP",
    "me-central1": "QAT",
    "me-central2": "SAU",
    "me-west1": "ISR",
    "africa-south1": "ZAF",
    "asia-east1": "TWN",
    "asia-east2": "HKG",
    "asia-northeast1": "JPN",
    "asia-northeast2": "JPN",
    "asia-northeast3": "KOR",
    "asia-south1": "IND",
    "asia-south2": "IND",
    "asia-southeast1": "SGP",
    "asia-southeast2": "IDN",
    "asia-southeast3": "THA",
    "australia-southeast1": "AUS",
    "australia-southeast2": "AUS",
    // Multi-regions within one country
    us: "USA",
  },
  regionSpellings: {},
  // CCF: Google's published figure
  pue: 1.1,
  wattsPerVcpu: { min: 0.71, max: 4.26 },
  referenceInstance: "n2-standard-4",
  names: {
    shape,
    family: (text) => shape(text)?.family ?? null,
    lineage,
    billed: (name) => name.toLowerCase(),
    node: () => "",
    untiered: (name) => name,
  },
  generativeAi: {
    services: ["vertex ai"],
    // A Vertex AI SKU before `output` (`gemini 2.5 flash text output`, `claude sonnet 4.5 output tokens`)
    pattern: "(?:^|[|] )((?:gemini|gemma|claude)[a-z0-9. -]*?) (?:text |thinking )?output",
    sources: ["google_genai", "anthropic"],
    // Vertex AI's SKUs name a model as the data does (`gemini-2.5-flash`)
    spellings: (name) => [name],
  },
  storage: STORAGE,
  diskTiers: null,
  dtuTiers: null,
  services: SERVICES,
  catalogue: CATALOGUE,
  controlPlanes: CONTROL_PLANES,
  deployments: [],
  sizePricing: {
    factor: seriesVcpus,
    origin: "Google's vCPUs in the series",
    source: SERIES_PRICING_SOURCE,
  },
  partition: ONE_PARTITION,
  // Compute Engine's SKUs: `N2 Instance Core running in Americas`, `N2 Instance Ram running in …`
  methodMatches: {
    "per-vcpu": all(has(" core "), unit("hour")),
    memory: has(" ram "),
  },
  focusLines: FOCUS_LINES,
};
