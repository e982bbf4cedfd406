/*
 * Lines decided by what they are, the same for every provider (docs/billing.md, "Decided by
 * kind"): a Kubernetes control plane's hours (EKS, AKS, GKE, OKE) by the servers behind it, and the
 * charges for no hardware of their own — an IP address, a DNS zone and its queries, keys and
 * secrets — each with a reason true to its line. The plain objects here are read by
 * src/billing/registry/methods.ts, which holds them among its methods and rules (BILLING_METHODS,
 * LINE_RULES); the control planes' nodes and notes are written into sql/classify/billing_methods.sql
 * at its lines `-- control plane nodes of <alias>` and `-- control plane notes of <alias>`.
 */

import { PROVIDERS } from "../providers/index.js";
import type { ControlPlane } from "../providers/provider.js";
import { all, any, type Condition, conditionSql, has, lacks, provider, starts, unit } from "./conditions.js";

export type { ControlPlane } from "../providers/provider.js";

/** The method of a control plane's hours. */
export const CONTROL_PLANE = "control-plane";

/**
 * A control plane's node as no provider publishes it: 2 vCPUs and 8 GiB, the registry's assumption,
 * the same as the catalogue's gateways and load balancers (src/billing/registry/catalogue.ts: the
 * smallest current general-purpose size, m5.large's).
 */
export const CONTROL_PLANE_NODE = { vcpus: 2, memoryGib: 8 } as const;

/** Every provider's control planes (src/billing/providers/). */
export const CONTROL_PLANES: readonly ControlPlane[] = PROVIDERS.flatMap(
  (provider) => provider.controlPlanes,
);

/** A provider's control plane: its provider's lines, its text naming its hours. */
const planeMatch = (plane: ControlPlane): Condition => all(provider(plane.provider), plane.match);

/** What the rule giving a line the method control-plane matches: an hour of a provider's control plane. */
export function controlPlaneRule(): Condition {
  return all(unit("hour"), any(...CONTROL_PLANES.map(planeMatch)));
}

/** The WHEN lines giving the nodes of a control plane's hour (`-- control plane nodes of <alias>`). */
export function controlPlaneNodesSql(indent: string, name: string): string {
  return CONTROL_PLANES.map(
    (plane) => `${indent}WHEN ${conditionSql(planeMatch(plane), name)} THEN ${plane.nodes.toFixed(1)}`,
  ).join("\n");
}

/** What a control plane's line is warned: its nodes, where they are published, the node's size. */
export function controlPlaneNote(plane: ControlPlane): string {
  const { vcpus, memoryGib } = CONTROL_PLANE_NODE;
  return `${CONTROL_PLANE}: ${plane.name}, ${plane.nodes} node${plane.nodes === 1 ? "" : "s"} an hour (${plane.source}), each ${vcpus} vCPUs and ${memoryGib} GiB: their size not published, an assumption of the registry`;
}

/** The WHEN lines giving a control plane's line its warning (`-- control plane notes of <alias>`). */
export function controlPlaneNotesSql(indent: string, name: string): string {
  return CONTROL_PLANES.map(
    (plane) => `${indent}WHEN ${conditionSql(planeMatch(plane), name)} THEN '${controlPlaneNote(plane)}'`,
  ).join("\n");
}

/*
 * Charges for no hardware of their own, decided by kind: each a rule giving no method, with the
 * reason its lines are said with, the same for every provider. The coverage sets them aside from
 * the usage cost (src/billing/stages/summarise.ts), as it does support.
 */

/** The coverage's name of charges on hardware the bill estimates on other lines. */
export const ESTIMATED_ELSEWHERE = "charges on hardware estimated on other lines";

/** The coverage's name of the charges for no hardware of their own. */
export const NO_HARDWARE_OF_THEIR_OWN = "addresses, DNS and keys (no hardware of their own)";

/** A rule giving a kind of line no method (the shape of methods.ts' rules besides the methods'). */
export interface KindRule {
  readonly order: number;
  readonly why: readonly string[];
  readonly match: Condition;
  readonly gives: "NULL";
  readonly reason: string;
  readonly setAside: string;
}

export const KIND_RULES: readonly KindRule[] = [
  {
    order: 26,
    why: [
      "EKS extended support (`AmazonEKS-Hours:extendedSupport`): a fee on a control plane's hours,",
      "which its own lines estimate",
    ],
    match: all(has("eks"), has("extendedsupport", "extended support")),
    gives: "NULL",
    reason: "a fee on the hours of a control plane estimated on their own lines",
    setAside: ESTIMATED_ELSEWHERE,
  },
  {
    order: 33,
    why: [
      "An IP address held (AWS's public IPv4 and Elastic IPs, Azure's and Oracle's public IPs,",
      "Google's external and static IPs): a number the network routes to, no hardware of its own",
    ],
    match: has(
      "publicipv4",
      "public ipv4",
      "elasticip",
      "idleaddress",
      "ip address",
      "public ip",
      "external ip",
      "static ip",
    ),
    gives: "NULL",
    reason: "an IP address: a number the network routes to, no hardware of its own",
    setAside: NO_HARDWARE_OF_THEIR_OWN,
  },
  {
    order: 34,
    why: [
      "A DNS zone and its queries (Route 53, Azure DNS, Cloud DNS, Oracle's DNS): records served by",
      "the provider's shared name servers, no hardware of their own and no figure per zone or query",
    ],
    match: any(
      has("route53", "route 53"),
      starts("dns |"),
      has("| dns |", "azure dns", "cloud dns", "dns-queries", "dns quer"),
    ),
    gives: "NULL",
    reason:
      "DNS: a zone and its queries on the shared name servers of its provider, no hardware of their own",
    setAside: NO_HARDWARE_OF_THEIR_OWN,
  },
  {
    order: 35,
    why: [
      "Keys and secrets and their operations (AWS KMS and Secrets Manager, Azure Key Vault, Cloud",
      "KMS and Secret Manager, Oracle's key management) in the provider's shared key stores; a",
      "dedicated HSM (CloudHSM, Azure's Managed HSM) is hardware of its own and not of this kind",
    ],
    match: all(
      has(
        "awskms",
        "kms-",
        "key management",
        "key_management",
        "key vault",
        "secretsmanager",
        "secrets manager",
        "secret manager",
      ),
      lacks("cloudhsm"),
      lacks("managed hsm"),
    ),
    gives: "NULL",
    reason:
      "keys and secrets: held and used in the shared key stores of their provider, no hardware of their own",
    setAside: NO_HARDWARE_OF_THEIR_OWN,
  },
];

/** The reasons of the kinds decided here: a service whose lines say one is known, not unknown. */
export const DECIDED_REASONS: ReadonlySet<string> = new Set(KIND_RULES.map((rule) => rule.reason));
