/*
 * Oracle Cloud Infrastructure as a bill names it (src/billing/providers/provider.ts): its regions
 * (Oracle, "Regions and Availability Domains") and its rows of the registry. The editions list no
 * Oracle shape: its OCPU and memory lines are read per vCPU and GB, its PUE and a vCPU's watts are
 * the other providers' (the highest PUE, their mean watts).
 */

import { all, has } from "../rules/conditions.js";
import { describedTypeHours, type FocusLines, namedType } from "../rules/focusLines.js";
import {
  type BillingProvider,
  type CatalogueService,
  type ControlPlane,
  HIGHLY_AVAILABLE,
  type KnownService,
  NO_GRAMMAR,
  ONE_PARTITION,
  type StorageService,
} from "./provider.js";

const STORAGE: readonly StorageService[] = [
  // Oracle: block volumes on NVMe SSD; Object Storage
  {
    provider: "oracle",
    names: ["Block Storage", "BLOCK_STORAGE"],
    storage: "block-storage",
    medium: "ssd",
    replication: null,
  },
  // Oracle's databases: Autonomous Database's Exadata storage, three copies (ASM high
  // redundancy); MySQL HeatWave's data on block volumes
  { provider: "oracle", names: ["DATABASE"], storage: "block-storage", medium: "ssd", replication: 3 },
  { provider: "oracle", names: ["MYSQL"], storage: "block-storage", medium: "ssd", replication: null },
  {
    provider: "oracle",
    names: ["Object Storage", "OBJECTSTORE"],
    storage: "object-storage",
    medium: "hdd",
    replication: null,
  },
  {
    provider: "oracle",
    names: ["File Storage", "FILE_STORAGE"],
    storage: "file-storage",
    medium: "ssd",
    replication: null,
  },
];

const SERVICES: readonly KnownService[] = [];

const CATALOGUE: readonly CatalogueService[] = [];

const CONTROL_PLANES: readonly ControlPlane[] = [
  {
    provider: "oracle",
    name: "OKE",
    // `CONTAINER_ENGINE | Kubernetes Engine - Enhanced Cluster` in `ONE HOURS CLUSTER`
    match: all(has("kubernetes"), has("cluster")),
    nodes: 3,
    source: HIGHLY_AVAILABLE,
  },
];

/** Its FOCUS lines (src/billing/rules/focusLines.ts): the shape its description names (VM.Standard.E4.Flex), for its hours. */
const FOCUS_LINES: FocusLines = {
  types: [
    {
      name: "described",
      sources: [["ChargeDescription"]],
      pattern: "((?:vm|bm)[.][a-z0-9]+[.][a-z0-9.]*[a-z0-9])",
    },
  ],
  kinds: [{ kind: "compute", when: describedTypeHours(namedType("described")) }],
  instanceType: [namedType("described")],
};

export const ORACLE: BillingProvider<"oracle"> = {
  id: "oracle",
  focusNames: ["oracle", "oci", "oracle cloud infrastructure"],
  regions: {
    "us-ashburn-1": "USA",
    "us-phoenix-1": "USA",
    "us-sanjose-1": "USA",
    "us-chicago-1": "USA",
    "ca-toronto-1": "CAN",
    "ca-montreal-1": "CAN",
    "mx-queretaro-1": "MEX",
    "mx-monterrey-1": "MEX",
    "sa-saopaulo-1": "BRA",
    "sa-vinhedo-1": "BRA",
    "sa-santiago-1": "CHL",
    "sa-valparaiso-1": "CHL",
    "sa-bogota-1": "COL",
    "uk-london-1": "GBR",
    "uk-cardiff-1": "GBR",
    "eu-frankfurt-1": "DEU",
    "eu-amsterdam-1": "NLD",
    "eu-zurich-1": "CHE",
    "eu-madrid-1": "ESP",
    "eu-marseille-1": "FRA",
    "eu-paris-1": "FRA",
    "eu-milan-1": "ITA",
    "eu-stockholm-1": "SWE",
    "eu-jovanovac-1": "SRB",
    "me-jeddah-1": "SAU",
    "me-riyadh-1": "SAU",
    "me-dubai-1": "ARE",
    "me-abudhabi-1": "ARE",
    "il-jerusalem-1": "ISR",
    "af-johannesburg-1": "ZAF",
    "ap-mumbai-1": "IND",
    "ap-hyderabad-1": "IND",
    "ap-tokyo-1": "JPN",
    "ap-osaka-1": "JPN",
    "ap-seoul-1": "KOR",
    "ap-chuncheon-1": "KOR",
    "ap-singapore-1": "SGP",
    "ap-singapore-2": "SGP",
    "ap-sydney-1": "AUS",
    "ap-melbourne-1": "AUS",
    "ap-batam-1": "IDN",
  },
  regionSpellings: {},
  pue: null,
  wattsPerVcpu: null,
  referenceInstance: null,
  names: NO_GRAMMAR,
  generativeAi: null,
  storage: STORAGE,
  diskTiers: null,
  dtuTiers: null,
  services: SERVICES,
  catalogue: CATALOGUE,
  controlPlanes: CONTROL_PLANES,
  deployments: [],
  sizePricing: {
    factor: null,
    why: "Oracle bills its flexible shapes by OCPU and memory, which a bill's type does not name: none is used",
  },
  // Its government regions are not among its regions above
  partition: ONE_PARTITION,
  methodMatches: {},
  focusLines: FOCUS_LINES,
};
