/*
 * Storage by what the product says it is (docs/billing.md, "Storage by the product's meaning"): the
 * method of a service's capacity lines (GB over time), its medium and the copies it keeps, from one
 * table read two ways — by the service's name (STORAGE_SERVICES: the CUR product code, FOCUS
 * ServiceName, Azure MeterCategory, Google Cloud service, Oracle service; joined as the table
 * billing_storage_services) and by the words of the line's meter, SKU or usage type
 * (STORAGE_TEXTS: a volume type on hard disks, a redundancy, a deployment's copies; written into
 * sql/classify/billing_methods.sql at its lines `-- storage media of <alias>` and `-- storage copies
 * of <alias>`). A line's own words come before its service's.
 *
 * Sources: Cloud Carbon Footprint's replication factors per AWS service ("Replication Factors");
 * Azure Storage redundancy (LRS and ZRS: 3 copies; GRS, RA-GRS, GZRS: 6); Amazon S3 storage
 * classes (One Zone-IA and Reduced Redundancy: CCF's 2); Microsoft Learn, "High availability in
 * Azure Database for PostgreSQL flexible server" and "Azure SQL Database: locally redundant
 * availability" (data on Premium storage, three copies in the zone); Azure Cosmos DB, "Global
 * data distribution under the hood" (a partition's replica set of four); Amazon Aurora User Guide,
 * "Amazon Aurora storage" (six copies across three zones); Oracle Exadata's high redundancy (three
 * mirrored copies); the deployments of deployments.ts.
 */

import { type Condition, conditionLines, has } from "./conditions.js";
import { DEPLOYMENTS } from "./deployments.js";

export type StorageMethod = "block-storage" | "object-storage" | "file-storage";

export interface StorageService {
  readonly provider: string;
  /** The names a bill gives it, as written (compared lower case). */
  readonly names: readonly string[];
  readonly storage: StorageMethod;
  readonly medium: "ssd" | "hdd";
  /** Copies of each GB kept (null: the line's own text, else 1). */
  readonly replication: number | null;
}

/** Amazon EMR's names (its fees: KNOWN_SERVICES). */
export const EMR_NAMES: readonly string[] = ["ElasticMapReduce", "Amazon Elastic MapReduce", "Amazon EMR"];

export const STORAGE_SERVICES: readonly StorageService[] = [
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
  // Azure's managed databases: their data on Premium SSD managed disks, three copies in the zone
  // (locally redundant storage); a backup's redundancy its meter names (`Backup Storage LRS`, `GRS`)
  {
    provider: "azure",
    names: [
      "Azure Database for PostgreSQL",
      "Azure Database for MySQL",
      "Azure Database for MariaDB",
      "SQL Database",
      "SQL Managed Instance",
    ],
    storage: "block-storage",
    medium: "ssd",
    replication: 3,
  },
  // Azure Cosmos DB: each partition's data on SSD in a replica set of four
  { provider: "azure", names: ["Azure Cosmos DB"], storage: "block-storage", medium: "ssd", replication: 4 },
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

/** What a line's own words say of its storage: a medium, or copies. */
export interface StorageText {
  /** The words that say it (src/billing/registry/conditions.ts). */
  readonly match: Condition;
  readonly medium?: "hdd";
  readonly copies?: number;
}

/** The media a line's words name, before its service's (the first entry that matches wins). */
export const STORAGE_MEDIA: readonly StorageText[] = [
  // EBS st1, sc1 and magnetic volumes; Azure's Standard HDD; Google's standard persistent disks
  {
    match: has(".st1", ".sc1", "(st1)", "(sc1)", "hdd", "magnetic", "volumeusage |"),
    medium: "hdd",
  },
  { match: has("storage pd capacity", "standard pd"), medium: "hdd" },
];

/** The copies a line's words name, before its service's (the first entry that matches wins). */
export const STORAGE_COPIES: readonly StorageText[] = [
  // S3 One Zone-IA and Reduced Redundancy
  {
    match: has("timedstorage-zia", "earlydelete-zia", "timedstorage-rrs", "one zone", "-z-ia"),
    copies: 2,
  },
  // Snapshots and backups: object storage's copies
  { match: has("snapshot", "backupusage"), copies: 3 },
  { match: has("aurora"), copies: 6 },
  // A deployment's copies (Multi-AZ ×2, a Multi-AZ DB cluster ×3): deployments.ts
  ...DEPLOYMENTS.map((deployment) => ({ match: deployment.match, copies: deployment.copies })),
  { match: has("gzrs", "grs"), copies: 6 },
  { match: has("lrs", "zrs"), copies: 3 },
];

/** The WHEN lines of a CASE over the view `alias`'s line text giving what `table` says (media or copies). */
export function storageTextsSql(indent: string, alias: string, give: "media" | "copies"): string {
  const table = give === "media" ? STORAGE_MEDIA : STORAGE_COPIES;
  return table
    .map((entry) => {
      const then = give === "media" ? `'${entry.medium}'` : (entry.copies ?? 1).toFixed(1);
      const [first, ...more] = conditionLines(entry.match, alias);
      return [
        `${indent}WHEN ${first}`,
        ...more.map((line) => `${indent}${line}`),
        `${indent}  THEN ${then}`,
      ].join("\n");
    })
    .join("\n");
}
