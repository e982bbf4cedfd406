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

import { PROVIDERS } from "../providers/index.js";
import type { StorageService } from "../providers/provider.js";
import { type Condition, conditionLines, has } from "./conditions.js";
import { DEPLOYMENTS } from "./deployments.js";

export { EMR_NAMES } from "../providers/aws.js";
export type { StorageMethod, StorageService } from "../providers/provider.js";

/** Every provider's storage services (src/billing/providers/). */
export const STORAGE_SERVICES: readonly StorageService[] = PROVIDERS.flatMap((provider) => provider.storage);

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
