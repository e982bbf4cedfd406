/*
 * Deployments billed as one line but run as several copies: the one table of them
 * (docs/billing.md, "Deployments and replicas"). A line's text (its usage type, description or
 * meter, lower case: the format's usage query) names its deployment; every line of that deployment,
 * its instance hours and its storage alike, counts the same copies. The first entry whose pattern
 * the text holds wins, so the more precise spelling stands first.
 */

import { type Condition, conditionSql, has } from "./conditions.js";

export interface Deployment {
  /** The words of the line's text naming it (src/billing/registry/conditions.ts). */
  readonly match: Condition;
  /** Instances (or copies of the storage) the line's quantity stands for. */
  readonly copies: number;
  /** The warning an instance line gets (what the copies are). */
  readonly name: string;
  /** The provider's documentation it follows. */
  readonly source: string;
}

export const DEPLOYMENTS: readonly Deployment[] = [
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
 * The WHEN lines of a CASE over the deployments, at `indent`: over the view `alias`'s line text,
 * each giving its copies (`copies`, the line marked `-- deployment copies of <alias>`) or an
 * instance line's warning naming them (`warning`, `-- deployment warnings of <alias>`).
 */
export function deploymentWhensSql(indent: string, alias: string, give: "copies" | "warning"): string {
  return DEPLOYMENTS.map((deployment) => {
    const then =
      give === "copies"
        ? deployment.copies.toFixed(1)
        : `'deployment: ${deployment.name}, ${deployment.copies} instances'`;
    return `${indent}WHEN ${conditionSql(deployment.match, alias)} THEN ${then}`;
  }).join("\n");
}
