/*
 * Services the registry knows that no method estimates, and why (docs/methodology.md, "Billing
 * lines that are not instance hours", **Fees** and **No method**): a fee billed on top of hours
 * another service bills (so estimating it would count those hours twice), or a charge for no
 * hardware at all. A service of a bill that neither this list nor the storage list
 * (services.ts) holds, and none of whose lines a method reads, is an unknown service: the
 * summary names it with its lines and cost (src/billing/summary.ts).
 */

import { EMR_NAMES, STORAGE_SERVICES } from "./services.js";

export interface KnownService {
  /** The provider as the SQL spells it (aws, azure, gcp, oracle); "" for a name every provider's bills use. */
  readonly provider: string;
  /** The names a bill gives it, as written (compared lower case). */
  readonly names: readonly string[];
  /** `fee`: a fee on hours billed by another service; `no-hardware`: it bills no hardware. */
  readonly role: "fee" | "no-hardware";
  /**
   * A fee service's lines that are not fees: text their usage names (lower case), read by the
   * methods as any other line's; "" for none.
   */
  readonly estimatedWhen: string;
  /** What the summary says of its lines no method reads. */
  readonly note: string;
}

export const KNOWN_SERVICES: readonly KnownService[] = [
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
  // FOCUS exports' tax lines; Google Cloud's `Invoice` (taxes, rounding and invoice adjustments)
  { provider: "", names: ["Tax"], role: "no-hardware", estimatedWhen: "", note: "tax: no hardware billed" },
  {
    provider: "gcp",
    names: ["Invoice"],
    role: "no-hardware",
    estimatedWhen: "",
    note: "invoice adjustments and taxes: no hardware billed",
  },
];

const serviceKey = (provider: string, name: string) => `${provider}\u0000${name.trim().toLowerCase()}`;

const KNOWN = new Map(
  KNOWN_SERVICES.flatMap((service) =>
    service.names.map((name) => [serviceKey(service.provider, name), service]),
  ),
);
const STORED = new Set(
  STORAGE_SERVICES.flatMap((service) => service.names.map((name) => serviceKey(service.provider, name))),
);

/** What the registry knows of a service that no method estimates: its entry here, else null. */
export function knownService(provider: string | null, name: string): KnownService | null {
  return KNOWN.get(serviceKey(provider ?? "", name)) ?? KNOWN.get(serviceKey("", name)) ?? null;
}

const BY_NAME = new Map(
  KNOWN_SERVICES.flatMap((service) => service.names.map((name) => [name.trim().toLowerCase(), service])),
);

/** A known service by its name alone, whatever the provider (the coverage's rows name no provider). */
export function knownServiceNamed(name: string): KnownService | null {
  return BY_NAME.get(name.trim().toLowerCase()) ?? null;
}

/** Whether the registry has an entry for a service (here or as a storage service). */
export function isRegistered(provider: string | null, name: string): boolean {
  return knownService(provider, name) !== null || STORED.has(serviceKey(provider ?? "", name));
}
