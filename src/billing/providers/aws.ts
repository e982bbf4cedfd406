/*
 * Amazon Web Services as a bill names it (src/billing/providers/provider.ts): its regions (AWS,
 * "Regions and Availability Zones"), its instance types' grammar (Amazon EC2 User Guide, "Instance
 * type naming conventions": `<family><generation>[attributes].<size>`, `large` 2 vCPUs, `xlarge` 4,
 * `<n>xlarge` 4n, `metal-<n>xl` as `<n>xlarge`; a managed service's node named `db.`, `cache.`,
 * `ml.`, `kafka.`, an OpenSearch node `.search`), and its rows of the registry.
 */

import { all, has } from "../rules/conditions.js";
import {
  allOf,
  anyOf,
  describedTypeHours,
  type FocusLines,
  like,
  likeAny,
  lowerLike,
  namedType,
  oneOf,
  present,
} from "../rules/focusLines.js";
import {
  type BillingProvider,
  type CatalogueService,
  type ControlPlane,
  type Deployment,
  type KnownService,
  type Lineage,
  type Shape,
  type StorageService,
  catalogueSize as size,
} from "./provider.js";

/** Amazon EMR's names (its fees: SERVICES; EMR Serverless's storage: STORAGE). */
export const EMR_NAMES: readonly string[] = ["ElasticMapReduce", "Amazon Elastic MapReduce", "Amazon EMR"];

const SIZE = /^(?:(?:db|cache|ml|kafka)\.)?([a-z][a-z0-9-]*)\.(?:(\d*)xlarge|large|metal-(\d+)xl)$/;
const LINEAGE = /^((?:db|cache|ml|kafka)\.)?([a-z]+)(\d+)([a-z-]*)\.([a-z0-9-]+)$/;

/**
 * AWS's instance size normalization factors, by which a Regional Reserved Instance of one size
 * applies to another of its family (Amazon EC2 User Guide, "Reserved Instances: instance size
 * flexibility", https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/ri-size-flexibility.html;
 * the same table for RDS, "Size-flexible DB instances"): nano 0.25, micro 0.5, small 1, medium 2,
 * large 4, xlarge 8, Nxlarge 8 × N. The what-if reads them as the ratio of two sizes' hourly
 * prices in one family at one place: an estimate, its origin named beside each figure it gives.
 */
const NORMALIZATION_FACTORS: Readonly<Record<string, number>> = {
  nano: 0.25,
  micro: 0.5,
  small: 1,
  medium: 2,
  large: 4,
  xlarge: 8,
};

const NORMALIZATION_SOURCE =
  "Amazon EC2 User Guide, Reserved Instances: instance size flexibility (instance size normalization factors)";

/** A type's family (with its node, `db.r6g`) and normalization factor; null for a metal or unknown size. */
function normalizationFactor(text: string): { family: string; factor: number } | null {
  const match = /^((?:(?:db|cache|ml|kafka)\.)?[a-z][a-z0-9-]*)\.(\d*)([a-z]+)$/.exec(text.toLowerCase());
  if (match === null) return null;
  const [, family, times, size] = match;
  const factor = NORMALIZATION_FACTORS[size];
  if (factor === undefined || (times !== "" && size !== "xlarge")) return null;
  return { family, factor: factor * (times === "" ? 1 : Number(times)) };
}

function shape(text: string): Shape | null {
  const match = SIZE.exec(text);
  if (match === null) return null;
  const [, family, times, metal] = match;
  const vcpus =
    metal !== undefined ? 4 * Number(metal) : text.endsWith("xlarge") ? 4 * Number(times || "1") : 2;
  return { family, attributes: "", version: 0, vcpus };
}

/** The class, processor and attributes (`m` Intel of `m5`, `m6i`, `m7i`), the generation, the size. */
function lineage(text: string): Lineage | null {
  const match = LINEAGE.exec(text);
  if (match === null) return null;
  const [, prefix = "", letters, generation, attributes, size] = match;
  // The processor: Graviton `g`, AMD `a`, else Intel (`i`, written from the sixth generation)
  const processor = /^[agi]/.test(attributes) ? attributes[0] : "i";
  const rest = /^[agi]/.test(attributes) ? attributes.slice(1) : attributes;
  return { line: `${prefix}${letters} ${processor} ${rest}`, generation: Number(generation), size };
}

/** A managed service's node (ElastiCache, SageMaker, MSK…) is evaluated as its EC2 type; an OpenSearch node as `.elasticsearch`. */
function billed(name: string, listed: (id: string) => boolean): string {
  const managed = /^(db|cache|ml|kafka)\./.exec(name);
  if (managed !== null && !listed(name)) return name.slice(managed[0].length);
  if (name.endsWith(".search") && !listed(name)) {
    const base = name.slice(0, -".search".length);
    return listed(`${base}.elasticsearch`) ? `${base}.elasticsearch` : base;
  }
  return name;
}

const STORAGE: readonly StorageService[] = [
  // EBS volumes (gp2, gp3, io1, io2 on SSD; st1, sc1, magnetic named by the line), 2 copies (CCF)
  {
    provider: "aws",
    names: ["AmazonEC2", "Amazon Elastic Compute Cloud", "Amazon Elastic Block Store", "AmazonEBS"],
    storage: "block-storage",
    medium: "ssd",
    replication: 2,
  },
  // RDS, Aurora (6 copies, named by the line), DocumentDB, Neptune: SSD volumes (gp2, gp3, io1, Aurora's)
  {
    provider: "aws",
    names: ["AmazonRDS", "Amazon Relational Database Service"],
    storage: "block-storage",
    medium: "ssd",
    replication: null,
  },
  {
    provider: "aws",
    names: ["AmazonDocDB", "Amazon DocumentDB (with MongoDB compatibility)", "Amazon DocumentDB"],
    storage: "block-storage",
    medium: "ssd",
    replication: 2,
  },
  {
    provider: "aws",
    names: ["AmazonNeptune", "Amazon Neptune"],
    storage: "block-storage",
    medium: "ssd",
    replication: 2,
  },
  {
    provider: "aws",
    names: ["AmazonDynamoDB", "Amazon DynamoDB"],
    storage: "block-storage",
    medium: "ssd",
    replication: 2,
  },
  {
    provider: "aws",
    names: ["AmazonS3", "Amazon Simple Storage Service"],
    storage: "object-storage",
    medium: "hdd",
    replication: 3,
  },
  {
    provider: "aws",
    names: ["AmazonGlacier", "Amazon S3 Glacier", "Amazon Glacier"],
    storage: "object-storage",
    medium: "hdd",
    replication: 3,
  },
  {
    provider: "aws",
    names: ["AWSBackup", "AWS Backup"],
    storage: "object-storage",
    medium: "hdd",
    replication: 3,
  },
  {
    provider: "aws",
    names: ["AmazonECR", "Amazon Elastic Container Registry", "Amazon EC2 Container Registry (ECR)"],
    storage: "object-storage",
    medium: "hdd",
    replication: 3,
  },
  {
    provider: "aws",
    names: ["AmazonEFS", "Amazon Elastic File System"],
    storage: "file-storage",
    medium: "ssd",
    replication: 3,
  },
  {
    provider: "aws",
    names: ["AmazonFSx", "Amazon FSx"],
    storage: "file-storage",
    medium: "ssd",
    replication: null,
  },
  // EMR Serverless's storage GB-hours (EMR-SERVERLESS-StorageGBHours): its workers' local disks,
  // one copy (the service's other lines: KNOWN_SERVICES)
  {
    provider: "aws",
    names: EMR_NAMES,
    storage: "block-storage",
    medium: "ssd",
    replication: 1,
  },
];

const SERVICES: readonly KnownService[] = [
  // Amazon EMR pricing: on EC2, "in addition to the Amazon EC2 price" (its BoxUsage:<type> lines
  // bill the fee; the hours are AmazonEC2's RunInstances lines); on EKS, in addition to the EC2
  // nodes' or Fargate's price (EMR-EKS-*-vCPUHours, -GBHours); EMR Serverless bills its workers'
  // vCPU-, memory- and storage GB-hours themselves (EMR-SERVERLESS-*): those are estimated
  {
    provider: "aws",
    names: EMR_NAMES,
    role: "fee",
    estimatedWhen: "serverless",
    note: "EMR's fee on hours billed as EC2 instances or EKS nodes, estimated on those lines",
  },
  // A Savings Plan's commitment: the hours it pays for are billed (SavingsPlanCoveredUsage) and
  // estimated under their own services
  {
    provider: "aws",
    names: ["ComputeSavingsPlans", "Savings Plans for AWS Compute usage"],
    role: "fee",
    estimatedWhen: "",
    note: "a commitment's fee, its hours estimated on their own lines",
  },
  {
    provider: "aws",
    names: [
      "AWSSupportBusiness",
      "AWSSupportEnterprise",
      "AWSDeveloperSupport",
      "AWS Support (Business)",
      "AWS Support (Enterprise)",
      "AWS Support (Developer)",
    ],
    role: "no-hardware",
    estimatedWhen: "",
    note: "support: people, no hardware billed",
  },
  {
    provider: "aws",
    names: ["AmazonRegistrar", "Amazon Registrar"],
    role: "no-hardware",
    estimatedWhen: "",
    note: "domain names: no hardware billed",
  },
];

const CATALOGUE: readonly CatalogueService[] = [
  {
    id: "aws-nat-gateway",
    provider: "aws",
    name: "Amazon VPC NAT gateway",
    // `EUW3-NatGateway-Hours`; FOCUS without extensions: `$0.045 per NAT Gateway Hour`
    match: has("natgateway-hours", "nat gateway hour"),
    sizeIn: null,
    nodes: 1,
    sizeGrammar: false,
    // AWS publishes no size: a node of 2 vCPUs and 8 GiB (m5.large) stands for each gateway's hour
    published: false,
    source:
      "Amazon VPC User Guide, NAT gateways (one gateway in one Availability Zone); its size is not published",
    sizes: [{ ...size("nat-gateway", 2, 8, "m5.large"), label: "hour" }],
  },
  {
    id: "aws-load-balancer",
    provider: "aws",
    name: "Elastic Load Balancing load balancer",
    // `EUW3-LoadBalancerUsage` (Application, Network, Gateway and Classic load balancers' hours)
    match: has("loadbalancerusage", "loadbalancer-hour"),
    sizeIn: null,
    nodes: 1,
    sizeGrammar: false,
    // AWS publishes no size: a node of 2 vCPUs and 8 GiB (m5.large) stands for each load balancer's hour
    published: false,
    source:
      "Elastic Load Balancing User Guide (a load balancer's nodes per enabled zone); their size is not published",
    sizes: [{ ...size("load-balancer", 2, 8, "m5.large"), label: "hour" }],
  },
  {
    id: "aws-redshift-ra3",
    provider: "aws",
    name: "Amazon Redshift RA3 node",
    // `EUW3-Node:ra3.xlplus` (CUR's usage type, FOCUS's x_UsageType); the editions list
    // ra3.4xlarge and ra3.16xlarge, whose lines stay instance hours
    match: all(has("redshift"), has("ra3.")),
    sizeIn: "(?:^|[^a-z0-9])(ra3[.](?:large|xlplus))(?:[^a-z0-9]|$)",
    nodes: 1,
    sizeGrammar: false,
    published: true,
    // AWS does not publish the EC2 family behind RA3: each smaller node is the part of the
    // editions' ra3.4xlarge (12 vCPUs, 96 GiB) its vCPUs and memory are, both ratios alike
    source:
      "Amazon Redshift Management Guide, Amazon Redshift provisioned clusters, node type details (RA3: ra3.large 2 vCPUs and 16 GiB, ra3.xlplus 4 and 32, ra3.4xlarge 12 and 96)",
    sizes: [
      { ...size("ra3.large", 2, 16, "ra3.4xlarge", 2 / 12), label: "ra3.large" },
      { ...size("ra3.xlplus", 4, 32, "ra3.4xlarge", 4 / 12), label: "ra3.xlplus" },
    ],
  },
];

const CONTROL_PLANES: readonly ControlPlane[] = [
  {
    provider: "aws",
    name: "Amazon EKS",
    // `EUW2-AmazonEKS-Hours:perCluster`; FOCUS without extensions: `Amazon EKS cluster usage in …`
    match: has("amazoneks-hours:percluster", "eks cluster usage"),
    nodes: 5,
    source: "2 API servers and 3 etcd instances, Amazon EKS User Guide, Amazon EKS architecture",
  },
];

/** Amazon RDS's deployments (src/billing/providers/provider.ts, Deployment). */
const DEPLOYMENTS: readonly Deployment[] = [
  {
    // `USW2-Multi-AZClusterUsage:db.m5d.large`, `RDS:Multi-AZCluster-GP3-Storage`
    match: has("multi-azcluster"),
    copies: 3,
    name: "Multi-AZ DB cluster: a writer and two readable standbys",
    source: "Amazon RDS User Guide, Multi-AZ DB cluster deployments",
  },
  {
    // `Multi-AZUsage:db.m5.large`, `RDS:Multi-AZ-GP2-Storage`
    match: has("multi-az"),
    copies: 2,
    name: "Multi-AZ: the instance and its standby in a second zone",
    source: "Amazon RDS User Guide, Multi-AZ DB instance deployments",
  },
];

/**
 * An instance type as AWS names it in a text, lower case (one group): its managed services' nodes
 * (`db.`, `cache.`, `ml.`, `kafka.`, an OpenSearch node's `.search`) included.
 */
const TYPE_IN_TEXT =
  "((?:(?:db|cache|ml|kafka)[.])?[a-z][a-z0-9-]*[0-9][a-z0-9-]*[.](?:nano|micro|small|medium|[0-9]*xlarge|large|metal[a-z0-9-]*)(?:[.]search)?)";

/**
 * The usage types of an instance's hours that end in its type (EUW2-BoxUsage:t3.xlarge,
 * USE1-SpotUsage:m5.large, an RDS Multi-AZ instance's, an OpenSearch node's): a FOCUS line's
 * `x_UsageType`, a CUR's `line_item_usage_type` (src/billing/formats/cur.ts).
 */
export const INSTANCE_USAGE_TYPES = [
  "%BoxUsage:%",
  "%SpotUsage:%",
  "%DedicatedUsage:%",
  "%InstanceUsage%:%",
  "%Multi-AZUsage%:%",
  "%Multi-AZClusterUsage%:%",
  "%ESInstance:%",
] as const;

/**
 * Its FOCUS lines (src/billing/rules/focusLines.ts): an instance's hours by its extension columns
 * (x_ServiceCode, x_Operation, x_UsageType: EC2's RunInstances, the managed databases' and search
 * domains' instances, the nodes of caches, SageMaker, MSK and Redshift), else by the type its
 * description names; the type from the usage type after its last `:`.
 */
const FOCUS_LINES: FocusLines = {
  types: [
    { name: "named", sources: [["billing_usage_type"]], pattern: TYPE_IN_TEXT },
    {
      name: "described",
      sources: [["ChargeDescription"], ["SkuPriceDetails"], ["SkuMeter"]],
      pattern: TYPE_IN_TEXT,
    },
  ],
  kinds: [
    {
      kind: "compute",
      when: allOf(
        present("x_ServiceCode"),
        anyOf(
          allOf(oneOf("x_ServiceCode", "AmazonEC2"), like("x_Operation", "RunInstances%")),
          allOf(
            oneOf("x_ServiceCode", "AmazonRDS", "AmazonDocDB", "AmazonNeptune"),
            like("x_Operation", "CreateDBInstance%"),
          ),
          allOf(
            oneOf("x_ServiceCode", "AmazonES", "AmazonOpenSearchService"),
            oneOf("x_Operation", "ESDomain"),
          ),
        ),
        likeAny("billing_usage_type", ...INSTANCE_USAGE_TYPES),
      ),
    },
    {
      kind: "compute",
      when: allOf(
        present("x_ServiceCode"),
        present(namedType("named")),
        anyOf(
          allOf(
            oneOf("x_ServiceCode", "AmazonElastiCache", "AmazonMemoryDB"),
            like("billing_usage_type", "%NodeUsage%:%"),
          ),
          allOf(oneOf("x_ServiceCode", "AmazonSageMaker"), like("billing_usage_type", "%:ml.%")),
          allOf(
            oneOf("x_ServiceCode", "AmazonMSK", "AmazonManagedStreamingforApacheKafka"),
            lowerLike("billing_usage_type", "%kafka.%"),
          ),
          allOf(oneOf("x_ServiceCode", "AmazonRedshift"), like("billing_usage_type", "%Node:%")),
        ),
      ),
    },
    // With its extension columns, any other line is not an instance's hours
    { kind: "not compute", when: present("x_ServiceCode") },
    { kind: "compute", when: describedTypeHours(namedType("described")) },
  ],
  instanceType: [
    { extract: ["billing_usage_type"], pattern: ":([^:]+)$", trimmed: false },
    namedType("named"),
    namedType("described"),
  ],
};

/** `claude-opus-4-6` as Bedrock's usage types name it: `claude4.6opus` (Claude, its version, its family). */
const CLAUDE = /^claude-([a-z]+)-([0-9]+(?:-[0-9]+)?)$/;

/** A model as Bedrock's usage types name it: its name, `Claude` then its version and family (`Claude4.6Opus`), or the API's model id (`anthropic.claude-opus-4-6`). */
function bedrockSpellings(name: string): string[] {
  const spellings = [name];
  const claude = CLAUDE.exec(name);
  if (claude) spellings.push(`claude${claude[2].replace("-", ".")}${claude[1]}`);
  spellings.push(`anthropic.${name}`);
  return spellings;
}

export const AWS: BillingProvider<"aws"> = {
  id: "aws",
  focusNames: ["aws", "amazon web services"],
  regions: {
    "us-east-1": "USA",
    "us-east-2": "USA",
    "us-west-1": "USA",
    "us-west-2": "USA",
    "us-gov-east-1": "USA",
    "us-gov-west-1": "USA",
    "ca-central-1": "CAN",
    "ca-west-1": "CAN",
    "mx-central-1": "MEX",
    "sa-east-1": "BRA",
    "eu-central-1": "DEU",
    "eu-central-2": "CHE",
    "eu-west-1": "IRL",
    "eu-west-2": "GBR",
    "eu-west-3": "FRA",
    "eu-north-1": "SWE",
    "eu-south-1": "ITA",
    "eu-south-2": "ESP",
    "il-central-1": "ISR",
    "me-south-1": "BHR",
    "me-central-1": "ARE",
    "af-south-1": "ZAF",
    "ap-south-1": "IND",
    "ap-south-2": "IND",
    "ap-east-1": "HKG",
    "ap-east-2": "TWN",
    "ap-northeast-1": "JPN",
    "ap-northeast-2": "KOR",
    "ap-northeast-3": "JPN",
    "ap-southeast-1": "SGP",
    "ap-southeast-2": "AUS",
    "ap-southeast-3": "IDN",
    "ap-southeast-4": "AUS",
    "ap-southeast-5": "MYS",
    "ap-southeast-7": "THA",
    "cn-north-1": "CHN",
    "cn-northwest-1": "CHN",
  },
  regionSpellings: {},
  // CCF: AWS's estimate
  pue: 1.135,
  wattsPerVcpu: { min: 0.74, max: 3.5 },
  referenceInstance: "m5.xlarge",
  names: {
    shape,
    family: (text) => /^(?:(?:db|cache|ml|kafka)\.)?([a-z][a-z0-9-]*)\.[a-z0-9-]+$/.exec(text)?.[1] ?? null,
    lineage,
    billed,
    node: (text) => /^((?:db|cache|ml|kafka)\.)/.exec(text)?.[1] ?? "",
    untiered: (name) => name,
  },
  generativeAi: {
    services: ["amazonbedrock", "amazon bedrock"],
    // A Bedrock usage type after its region: `use1-claude4.6opus-output-tokens`,
    // `usw2-anthropic.claude-opus-4-8-mantle-output-tokens-…`
    pattern: "(?:^|[ |])[a-z]{2,4}[0-9]+-([a-z0-9][a-z0-9.:_-]*?)-(?:mantle-)?output-tokens",
    sources: ["anthropic"],
    spellings: bedrockSpellings,
  },
  storage: STORAGE,
  diskTiers: null,
  dtuTiers: null,
  services: SERVICES,
  catalogue: CATALOGUE,
  controlPlanes: CONTROL_PLANES,
  deployments: DEPLOYMENTS,
  sizePricing: {
    factor: normalizationFactor,
    origin: "AWS size factor",
    source: NORMALIZATION_SOURCE,
  },
  // AWS's partitions besides the public one: aws-cn, aws-us-gov, aws-iso (AWS General Reference, "Partitions")
  partition: (region) =>
    region.startsWith("cn-")
      ? "china"
      : region.startsWith("us-gov-")
        ? "government"
        : region.startsWith("us-iso")
          ? "isolated"
          : "",
  methodMatches: {},
  focusLines: FOCUS_LINES,
};
