/*
 * Storage by service: the method of a service's capacity lines (GB over time), its medium and the
 * copies it keeps, the same whatever the format names the service by (CUR product code, FOCUS
 * ServiceName, Azure MeterCategory, Google Cloud service description, Oracle service). A line's own
 * text may still say otherwise: a volume type on hard disks (`st1`, `sc1`, `Magnetic`, `Standard
 * PD`), a redundancy (`One Zone`, `Multi-AZ`, `LRS`, `GRS`) or a snapshot or backup
 * (sql/classify/billing_methods.sql).
 *
 * Replication: Cloud Carbon Footprint's factors per AWS service ("Replication Factors"); Azure's
 * redundancy options (LRS and ZRS: 3 copies; GRS, RA-GRS, GZRS: 6).
 */

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

/** Amazon EMR's names (its fees: knownServices.ts). */
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
  // one copy (the service's other lines: knownServices.ts)
  {
    provider: "aws",
    names: EMR_NAMES,
    storage: "block-storage",
    medium: "ssd",
    replication: 1,
  },
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
