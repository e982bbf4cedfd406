/*
 * Microsoft Azure as a bill names it (src/billing/providers/provider.ts): its regions (Microsoft,
 * "Azure geographies") and the billing zone names older cost exports write (`EU West`), its VM
 * sizes' grammar (Microsoft Learn, "Azure virtual machine sizes naming conventions":
 * `Standard_<family><vCPUs>[-<active vCPUs>][attributes]_v<version>`, `DS2_v2` is `D2s_v2`), and its
 * rows of the registry.
 */

import { all, has } from "../rules/conditions.js";
import {
  absent,
  allOf,
  anyOf,
  FOCUS_HOUR_UNITS,
  type FocusLines,
  lowerIn,
  lowerLike,
  lowerNotLike,
  oneOf,
} from "../rules/focusLines.js";
import {
  type BillingProvider,
  type CatalogueService,
  type ControlPlane,
  type DiskTiers,
  type DtuTiers,
  HIGHLY_AVAILABLE,
  type KnownService,
  type Shape,
  type StorageService,
  catalogueSize as size,
} from "./provider.js";

const SIZE = /^(?:standard_)?([a-z]+?)(s?)(\d+)(?:-\d+)?([a-z]*)(?:_v(\d+))?(?:_promo)?$/;

function shape(text: string): Shape | null {
  const match = SIZE.exec(text.replace(/ /g, "_"));
  if (match === null) return null;
  const [, letters, premium, vcpus, attributes, version] = match;
  // `DS2_v2` is `D2s_v2` (the premium-storage `s` written after the family)
  return {
    family: letters,
    attributes: `${attributes}${premium}`.split("").sort().join(""),
    version: Number(version ?? "1"),
    vcpus: Number(vcpus),
  };
}

/**
 * The edition's ids are spelled both ways (d4ads_v5, standard_d2as_v4); a meter may name several
 * sizes (D2_v3/D2s_v3): the first the edition lists, else the first.
 */
function billed(name: string, listed: (id: string) => boolean): string {
  const sizes = name.split("/").map((size) => {
    const lower = size
      .trim()
      .replace(/^_+|_+$/g, "")
      .toLowerCase();
    const bare = lower.startsWith("standard_") ? lower.slice("standard_".length) : lower;
    return !listed(bare) && listed(`standard_${bare}`) ? `standard_${bare}` : bare;
  });
  return sizes.find(listed) ?? sizes[0];
}

/** A CPU quota of minutes a day on a shared VM, as a share of one vCPU. */
const minutesADay = (minutes: number) => minutes / (24 * 60);

const STORAGE: readonly StorageService[] = [
  // Azure's managed databases: their data on Premium SSD managed disks, three copies in the zone
  // (locally redundant storage); a backup's redundancy its meter names (`Backup Storage LRS`, `GRS`).
  // Each as its meter category names it, and as Microsoft's FOCUS export's ServiceName does
  // (`Azure DB for PostgreSQL`, `Azure SQL Database`: the FinOps toolkit's Services.csv, which maps a
  // resource type to its FOCUS service)
  {
    provider: "azure",
    names: [
      "Azure Database for PostgreSQL",
      "Azure Database for MySQL",
      "Azure Database for MariaDB",
      "SQL Database",
      "SQL Managed Instance",
      "Azure DB for PostgreSQL",
      "Azure DB for MySQL",
      "Azure DB for MariaDB",
      "Azure SQL Database",
    ],
    storage: "block-storage",
    medium: "ssd",
    replication: 3,
  },
  // Azure Cosmos DB: each partition's data on SSD in a replica set of four
  {
    provider: "azure",
    names: ["Azure Cosmos DB", "Cosmos DB"],
    storage: "block-storage",
    medium: "ssd",
    replication: 4,
  },
];

const SERVICES: readonly KnownService[] = [];

const CATALOGUE: readonly CatalogueService[] = [
  {
    id: "azure-database-flexible-burstable",
    provider: "azure",
    name: "Azure Database for PostgreSQL or MySQL flexible server, Burstable",
    // `Azure Database for PostgreSQL | Flexible Server Burstable BS Series Compute | B1MS`; FOCUS
    // without Microsoft's columns names the service `Azure DB for PostgreSQL`
    match: all(
      has(
        "azure database for postgresql",
        "azure database for mysql",
        "azure db for postgresql",
        "azure db for mysql",
      ),
      has("burstable"),
    ),
    sizeIn: "(?:^|[ |_-])(b[0-9]+l?m?s)(?:[ |-]|$)",
    nodes: 1,
    // The server's SKU is the VM size: Standard_B1ms, Standard_D2ds_v4…
    sizeGrammar: true,
    published: true,
    source:
      "Microsoft Learn, Compute options in Azure Database for PostgreSQL flexible server (Burstable: B-series VMs); Get-AzPostgreSqlFlexibleServerLocationBasedCapability's SKU table",
    sizes: [
      size("b1s", 1, 1, "standard_b1s"),
      size("b1ms", 1, 2, "standard_b1ms"),
      size("b2s", 2, 4, "standard_b2s"),
      size("b2ms", 2, 8, "standard_b2ms"),
      size("b4ms", 4, 16, "standard_b4ms"),
      size("b8ms", 8, 32, "standard_b8ms"),
      size("b12ms", 12, 48, "standard_b12ms"),
      size("b16ms", 16, 64, "standard_b16ms"),
      size("b20ms", 20, 80, "standard_b20ms"),
    ],
  },
  {
    id: "azure-app-service",
    provider: "azure",
    name: "Azure App Service plan",
    // `Azure App Service | Basic Plan | B1`, `Premium v3 Plan | P1 v3`, `… | P1v3 App`
    match: all(has("app service"), has("plan")),
    sizeIn: "(?:^|[ |-])([fdbspi][0-9]+(?: ?m?v[0-9])?)(?: app)?(?:[ |-]|$)",
    nodes: 1,
    sizeGrammar: false,
    published: true,
    // Free and Shared: a CPU quota on a VM shared with other customers (60 and 240 CPU minutes a
    // day); Basic and Standard: A-series compute (Av2 stands for it); Premium v2: Dv2-series (not in
    // the editions: the Dsv3 of those vCPUs stands for it); Premium v3: Dsv4 and, memory-optimised
    // (mv3), Esv4; Isolated v2: Dsv4
    source:
      "Azure App Service pricing (azure.microsoft.com/pricing/details/app-service), Microsoft Learn, Azure App Service plan overview",
    sizes: [
      size("f1", 1, 1, "standard_a1_v2", minutesADay(60)),
      size("d1", 1, 1, "standard_a1_v2", minutesADay(240)),
      size("b1", 1, 1.75, "standard_a1_v2"),
      size("b2", 2, 3.5, "standard_a2_v2"),
      size("b3", 4, 7, "standard_a4_v2"),
      size("s1", 1, 1.75, "standard_a1_v2"),
      size("s2", 2, 3.5, "standard_a2_v2"),
      size("s3", 4, 7, "standard_a4_v2"),
      size("p1v2", 1, 3.5, "standard_a1_v2"),
      size("p2v2", 2, 7, "d2s_v3"),
      size("p3v2", 4, 14, "d4s_v3"),
      size("p0v3", 1, 4, "standard_a1_v2"),
      size("p1v3", 2, 8, "d2s_v4"),
      size("p2v3", 4, 16, "d4s_v4"),
      size("p3v3", 8, 32, "d8s_v4"),
      size("p1mv3", 2, 16, "e2s_v4"),
      size("p2mv3", 4, 32, "e4s_v4"),
      size("p3mv3", 8, 64, "e8s_v4"),
      size("p4mv3", 16, 128, "e16s_v4"),
      size("p5mv3", 32, 256, "e32s_v4"),
      size("i1v2", 2, 8, "d2s_v4"),
      size("i2v2", 4, 16, "d4s_v4"),
      size("i3v2", 8, 32, "d8s_v4"),
    ],
  },
  ...(["basic", "standard", "premium"] as const).map(
    (tier): CatalogueService => ({
      id: `azure-cache-for-redis-${tier}`,
      provider: "azure",
      name: `Azure Cache for Redis, ${tier[0].toUpperCase()}${tier.slice(1)}`,
      // `Redis Cache | Standard | C1 Cache`, `Azure Cache for Redis | Premium | P1 Cache Instance`
      match: all(has("redis"), has("cache"), has(tier)),
      sizeIn: "(?:^|[ |-])([cp][0-9])(?: cache)",
      // Standard and Premium: a primary and a replica node
      nodes: tier === "basic" ? 1 : 2,
      sizeGrammar: false,
      // The VMs' family is not published: the Dsv3 (Av2 for one vCPU) of the tier's vCPUs stands for it
      published: true,
      source:
        "Microsoft Learn, Azure Cache for Redis planning FAQ (vCPUs per size: C1 1, C2 2, C3 4, C4 2, C5 4, C6 8, P1 2, P2 4, P3 4, P4 8; Standard and Premium: primary and replica)",
      sizes:
        tier === "premium"
          ? [
              size("p1", 2, 6, "d2s_v3"),
              size("p2", 4, 13, "d4s_v3"),
              size("p3", 4, 26, "d4s_v3"),
              size("p4", 8, 53, "d8s_v3"),
            ]
          : [
              size("c1", 1, 1, "standard_a1_v2"),
              size("c2", 2, 2.5, "d2s_v3"),
              size("c3", 4, 6, "d4s_v3"),
              size("c4", 2, 13, "d2s_v3"),
              size("c5", 4, 26, "d4s_v3"),
              size("c6", 8, 53, "d8s_v3"),
            ],
    }),
  ),
  {
    id: "azure-application-gateway-v2",
    provider: "azure",
    name: "Azure Application Gateway v2",
    // `Application Gateway | Standard v2 | Standard Fixed Cost`, `… | Standard Capacity Units`
    match: all(has("application gateway"), has("fixed cost", "capacity unit")),
    sizeIn: "(fixed cost|capacity unit)",
    nodes: 1,
    sizeGrammar: false,
    // An instance's size is not published: the Dsv3 of two vCPUs stands for it
    published: false,
    // A fixed cost's hour is the gateway's instance; "each instance is roughly equivalent to 10
    // capacity units": a capacity unit's hour a tenth of one
    source: "Microsoft Learn, Scaling Application Gateway v2 and WAF v2; Application Gateway pricing",
    sizes: [
      { ...size("fixedcost", 2, 8, "d2s_v3"), label: "fixed cost" },
      { ...size("capacityunit", 2, 8, "d2s_v3", 0.1), label: "capacity unit" },
    ],
  },
];

const CONTROL_PLANES: readonly ControlPlane[] = [
  {
    provider: "azure",
    name: "AKS",
    // `Azure Kubernetes Service | Standard | Standard Uptime SLA`, the Premium tier's
    match: all(
      has("kubernetes"),
      has("uptime sla", "cluster management", "control plane", "kubernetes cluster"),
    ),
    nodes: 3,
    source: HIGHLY_AVAILABLE,
  },
];

/** `2024-07-18` in a name, Azure's short version of it (`0718`). */
const DATED = /-(20[0-9]{2})-([0-9]{2})-([0-9]{2})$/;

/** A model as Azure's meters name it: its name, a dated model's short version (`gpt-4o-mini-0718`), GPT-5's without `gpt` (`5.4 mini`). */
function meterSpellings(name: string): string[] {
  const spellings = [name];
  const dated = DATED.exec(name);
  if (dated) spellings.push(`${name.slice(0, dated.index)}-${dated[2]}${dated[3]}`);
  if (/^gpt-[5-9]/.test(name)) spellings.push(...spellings.map((spelling) => spelling.replace(/^gpt-/, "")));
  return spellings;
}

/** Its managed disks by tier: a tier number's capacity, whatever its kind (P10, E10, S10: 128 GiB). */
const DISK_TIERS: DiskTiers = {
  units: ["1/month", "units/month", "unit/month"],
  word: "disk",
  letters: "pes",
  gib: {
    1: 4,
    2: 8,
    3: 16,
    4: 32,
    6: 64,
    10: 128,
    15: 256,
    20: 512,
    30: 1024,
    40: 2048,
    50: 4096,
    60: 8192,
    70: 16384,
    80: 32767,
  },
  source:
    "Microsoft Learn, Azure managed disk types (disk sizes of Premium SSD, Standard SSD and Standard HDD)",
};

/** Azure SQL Database's DTU tiers, each its DTUs (DTU_TIERS). */
const TIER_DTUS: Readonly<Record<string, number>> = {
  b: 5,
  basic: 5,
  s0: 10,
  s1: 20,
  s2: 50,
  s3: 100,
  s4: 200,
  s6: 400,
  s7: 800,
  s9: 1600,
  s12: 3000,
  p1: 125,
  p2: 250,
  p4: 500,
  p6: 1000,
  p11: 1750,
  p15: 4000,
};

/**
 * Azure SQL Database's DTUs (its meters: `S2 DTUs`, an elastic pool's `100 eDTUs`): its tiers (Basic,
 * Standard S0–S12, Premium P1–P15), each its DTUs (Microsoft Learn, "Resource limits for single
 * databases using the DTU purchasing model"); 100 DTUs of the Basic and Standard tiers, 125 of
 * Premium, a vCore (Microsoft Learn, "Migrate Azure SQL Database from the DTU-based model to the
 * vCore-based model").
 */
const DTU_TIERS: DtuTiers = {
  word: "dtu",
  spelled: "e?dtus?",
  name: "DTU",
  perVcore: 100,
  otherTiers: { words: ["premium"], letters: "p", perVcore: 125 },
  source:
    "Microsoft Learn, Resource limits for single databases using the DTU purchasing model; Migrate Azure SQL Database from the DTU-based model to the vCore-based model",
  tiers: TIER_DTUS,
};

/**
 * Its FOCUS lines (src/billing/rules/focusLines.ts): its VMs' hours by x_SkuMeterCategory, else by
 * the service, resource type or description and an hour unit (a VM's disks, traffic and addresses
 * are billed under its service too, by other units); the size the line ran (x_SkuDetails'
 * ServiceType), else the meter's sizes (D2 v3/D2s v3: matching takes the first the edition lists).
 */
const FOCUS_LINES: FocusLines = {
  types: [],
  kinds: [
    {
      kind: "compute",
      when: anyOf(
        oneOf("x_SkuMeterCategory", "Virtual Machines"),
        allOf(
          absent("x_SkuMeterCategory"),
          anyOf(
            oneOf("ServiceName", "Virtual Machines", "Virtual Machine Scale Sets"),
            lowerLike("ResourceType", "virtual machine%"),
            // A VM of another service (Machine Learning compute, AKS nodes): its meter's subcategory
            lowerLike("ChargeDescription", "virtual machines%"),
          ),
          lowerIn("ConsumedUnit", [...FOCUS_HOUR_UNITS, "1 hour", "10 hours", "100 hours", "1000 hours"]),
          lowerNotLike("ChargeDescription", "%ip address%"),
          lowerNotLike("ChargeDescription", "%license%"),
        ),
      ),
    },
  ],
  instanceType: [
    {
      extract: ["x_SkuDetails", "SkuPriceDetails"],
      pattern: '"ServiceType"[ ]*:[ ]*"([^"]+)"',
      trimmed: false,
    },
    {
      // Microsoft's description without extensions: "<subcategory> - <meter> - <region>"
      cleaned: [
        "x_SkuMeterName",
        "SkuMeter",
        { extract: ["ChargeDescription"], pattern: "^[Vv]irtual [Mm]achines[^-]*- ([^-]+)", trimmed: true },
        "ChargeDescription",
      ],
      dropping: [" Low Priority", " Spot"],
      blanks: "_",
    },
  ],
};

export const AZURE: BillingProvider<"azure"> = {
  id: "azure",
  focusNames: ["microsoft", "azure", "microsoft azure"],
  regions: {
    eastus: "USA",
    eastus2: "USA",
    centralus: "USA",
    northcentralus: "USA",
    southcentralus: "USA",
    westcentralus: "USA",
    westus: "USA",
    westus2: "USA",
    westus3: "USA",
    centraluseuap: "USA",
    eastus2euap: "USA",
    usgovvirginia: "USA",
    usgovarizona: "USA",
    usgovtexas: "USA",
    usdodeast: "USA",
    usdodcentral: "USA",
    canadacentral: "CAN",
    canadaeast: "CAN",
    mexicocentral: "MEX",
    brazilsouth: "BRA",
    brazilsoutheast: "BRA",
    chilecentral: "CHL",
    northeurope: "IRL",
    westeurope: "NLD",
    uksouth: "GBR",
    ukwest: "GBR",
    francecentral: "FRA",
    francesouth: "FRA",
    germanywestcentral: "DEU",
    germanynorth: "DEU",
    switzerlandnorth: "CHE",
    switzerlandwest: "CHE",
    norwayeast: "NOR",
    norwaywest: "NOR",
    swedencentral: "SWE",
    swedensouth: "SWE",
    polandcentral: "POL",
    italynorth: "ITA",
    spaincentral: "ESP",
    austriaeast: "AUT",
    belgiumcentral: "BEL",
    denmarkeast: "DNK",
    greececentral: "GRC",
    finlandcentral: "FIN",
    israelcentral: "ISR",
    qatarcentral: "QAT",
    uaenorth: "ARE",
    uaecentral: "ARE",
    saudiarabiacentral: "SAU",
    southafricanorth: "ZAF",
    southafricawest: "ZAF",
    centralindia: "IND",
    southindia: "IND",
    westindia: "IND",
    jioindiawest: "IND",
    jioindiacentral: "IND",
    eastasia: "HKG",
    southeastasia: "SGP",
    japaneast: "JPN",
    japanwest: "JPN",
    koreacentral: "KOR",
    koreasouth: "KOR",
    taiwannorth: "TWN",
    indonesiacentral: "IDN",
    malaysiawest: "MYS",
    australiaeast: "AUS",
    australiasoutheast: "AUS",
    australiacentral: "AUS",
    australiacentral2: "AUS",
    newzealandnorth: "NZL",
    chinaeast: "CHN",
    chinaeast2: "CHN",
    chinaeast3: "CHN",
    chinanorth: "CHN",
    chinanorth2: "CHN",
    chinanorth3: "CHN",
  },
  // The billing zone names of its regions older cost exports write as `ResourceLocation` (`EU
  // West`), keyed by spellingKey; the display names (`West Europe`) need none, their key being the id
  regionSpellings: {
    euwest: "westeurope",
    eunorth: "northeurope",
    useast: "eastus",
    useast2: "eastus2",
    uswest: "westus",
    uswest2: "westus2",
    uswest3: "westus3",
    uscentral: "centralus",
    usnorthcentral: "northcentralus",
    ussouthcentral: "southcentralus",
    uswestcentral: "westcentralus",
    apeast: "eastasia",
    apsoutheast: "southeastasia",
    jaeast: "japaneast",
    jawest: "japanwest",
    brsouth: "brazilsouth",
    aueast: "australiaeast",
    ausoutheast: "australiasoutheast",
    aucentral: "australiacentral",
    incentral: "centralindia",
    insouth: "southindia",
    inwest: "westindia",
    cacentral: "canadacentral",
    caeast: "canadaeast",
    krcentral: "koreacentral",
    krsouth: "koreasouth",
    frcentral: "francecentral",
    frsouth: "francesouth",
    dewestcentral: "germanywestcentral",
    denorth: "germanynorth",
    chnorth: "switzerlandnorth",
    chwest: "switzerlandwest",
    noeast: "norwayeast",
    nowest: "norwaywest",
    zanorth: "southafricanorth",
    zawest: "southafricawest",
    aenorth: "uaenorth",
    aecentral: "uaecentral",
    secentral: "swedencentral",
    qacentral: "qatarcentral",
    plcentral: "polandcentral",
    itnorth: "italynorth",
    ilcentral: "israelcentral",
    mxcentral: "mexicocentral",
    escentral: "spaincentral",
  },
  // CCF: Microsoft's published figure
  pue: 1.185,
  wattsPerVcpu: { min: 0.78, max: 3.76 },
  referenceInstance: "d4as_v5",
  names: {
    shape,
    family: (text) => shape(text)?.family ?? null,
    lineage: (text) => {
      const read = shape(text);
      return read === null
        ? null
        : { line: `${read.family} ${read.attributes}`, generation: read.version, size: String(read.vcpus) };
    },
    billed,
    node: () => "",
    untiered: (name) => name.replace(/^standard_/, ""),
  },
  generativeAi: {
    services: ["openai", "foundry models"],
    // A meter before its direction (`gpt-4o-mini-0718-outp-glbl tokens`, `gpt 4.1 outp regnl
    // tokens`, `5.4 opt dz 1m tokens`), the meter starting one of the text's ` | ` parts
    pattern: "(?:^|[|] )([a-z0-9][a-z0-9. -]*?)[ -](?:batch ?)?(?:outp|output|outpt|opt)[ -]",
    sources: ["openai"],
    spellings: meterSpellings,
  },
  storage: STORAGE,
  diskTiers: DISK_TIERS,
  dtuTiers: DTU_TIERS,
  services: SERVICES,
  catalogue: CATALOGUE,
  controlPlanes: CONTROL_PLANES,
  deployments: [],
  sizePricing: {
    factor: null,
    why: "Azure publishes no rule by which a size's price follows from another's: none is used",
  },
  // Azure's sovereign clouds besides the public one: Azure China, Azure Government (US Gov and DoD regions)
  partition: (region) =>
    region.startsWith("china") ? "china" : /^(usgov|usdod)/.test(region) ? "government" : "",
  methodMatches: {},
  focusLines: FOCUS_LINES,
};
