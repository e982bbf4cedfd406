/*
 * The services the registry knows, and what the summary says of a bill's services from it: storage
 * services (their method, medium and copies), services no method estimates (a fee, no hardware),
 * and the notes on a bill's unknown services and GPUs.
 *
 * Storage services (their method, medium and copies) are src/billing/registry/storage.ts's.
 */

import { AWS } from "../providers/aws.js";
import { PROVIDERS } from "../providers/index.js";
import type { KnownService } from "../providers/provider.js";
import { DECIDED_REASONS } from "./kinds.js";
import { GPU_MODELS, gpuKey } from "./methods.js";
import { STORAGE_SERVICES } from "./storage.js";

export type { KnownService } from "../providers/provider.js";
export { EMR_NAMES, STORAGE_SERVICES, type StorageMethod, type StorageService } from "./storage.js";

/*
 * Services the registry knows that no method estimates, and why (docs/methodology.md, "Billing
 * lines that are not instance hours", **Fees** and **No method**): a fee billed on top of hours
 * another service bills (so estimating it would count those hours twice), or a charge for no
 * hardware at all. A service of a bill that neither this list nor the storage list
 * (STORAGE_SERVICES) holds, and none of whose lines a method reads, is an unknown service: the
 * summary names it with its lines and cost (src/billing/account.ts).
 */

/** Services every provider's bills name. */
const EVERY_PROVIDER: readonly KnownService[] = [
  // FOCUS exports' tax lines; Google Cloud's `Invoice` (taxes, rounding and invoice adjustments)
  { provider: "", names: ["Tax"], role: "no-hardware", estimatedWhen: "", note: "tax: no hardware billed" },
];

/** The services the registry knows that no method estimates: AWS's, every provider's, then the others' (src/billing/providers/). */
export const KNOWN_SERVICES: readonly KnownService[] = [
  ...AWS.services,
  ...EVERY_PROVIDER,
  ...PROVIDERS.filter((provider) => provider !== AWS).flatMap((provider) => provider.services),
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

/*
 * What the summary says of a bill's services and GPUs from the registry (src/billing/account.ts):
 * the services it does not know, the known services no method estimates (a fee, no hardware), and
 * the GPU models a bill holds both inside instances and billed alone (docs/methodology.md,
 * "Billing lines that are not instance hours": **Unknown services**, **Fees**, **GPUs inside an
 * instance and billed alone**).
 */

/** The part of a summary's group of lines read here (src/billing/stages/evaluate.ts, LineGroup). */
export interface ServiceGroup {
  readonly provider: string | null;
  readonly service: string | null;
  readonly instanceType: string | null;
  readonly problem: string | null;
  readonly method: string | null;
  readonly methodKey: string | null;
  readonly lines: number;
  readonly cost: number;
  /** Why its lines have no method (a kind decided: src/billing/registry/kinds.ts), else null. */
  readonly reason: string | null;
}

export interface ServiceTally {
  /** `<provider> <service>`, as the summary names it. */
  readonly name: string;
  /** The service as the bill names it. */
  readonly service: string;
  readonly lines: number;
  readonly cost: number;
  /** What the registry says of it (a known service), else "". */
  readonly note: string;
}

/** The summary's name of the services past the names it keeps (src/billing/stages/evaluate.ts, NAMES_KEPT). */
const OTHER_SERVICES = "other services";

interface ServiceSum {
  provider: string | null;
  service: string;
  lines: number;
  cost: number;
  /** Lines and cost of its lines no method reads. */
  unreadLines: number;
  unreadCost: number;
}

const byCost = (a: ServiceTally, b: ServiceTally) =>
  b.cost - a.cost || b.lines - a.lines || a.name.localeCompare(b.name);

/**
 * Unknown services — a service the registry has no entry for (KNOWN_SERVICES, STORAGE_SERVICES) none
 * of whose lines a method reads — and known services' lines no method reads, largest cost first.
 */
export function serviceNotes(groups: readonly ServiceGroup[]): {
  unknown: ServiceTally[];
  known: ServiceTally[];
} {
  const sums = new Map<string, ServiceSum>();
  for (const group of groups) {
    const service = group.service?.trim() ?? "";
    if (service === "" || service === OTHER_SERVICES) continue;
    const key = `${group.provider ?? ""}\u0000${service}`;
    const sum = sums.get(key) ?? {
      provider: group.provider,
      service,
      lines: 0,
      cost: 0,
      unreadLines: 0,
      unreadCost: 0,
    };
    sum.lines += group.lines;
    sum.cost += group.cost;
    if (group.method === null) {
      sum.unreadLines += group.lines;
      sum.unreadCost += group.cost;
    }
    sums.set(key, sum);
  }
  // A service some of whose lines a method reads, or whose kind the registry decides (an address,
  // DNS, keys), is never unknown, however another part of the bill spells it (`AWSGlue`, `AWS Glue`)
  const spelled = (service: string) => service.toLowerCase().replace(/[^a-z0-9]/g, "");
  const read = new Set(
    groups
      .filter((group) => group.method !== null || DECIDED_REASONS.has(group.reason ?? ""))
      .map((group) => spelled(group.service?.trim() ?? "")),
  );
  const unknown: ServiceTally[] = [];
  const known: ServiceTally[] = [];
  for (const sum of sums.values()) {
    const name = `${sum.provider ?? "?"} ${sum.service}`;
    const entry = knownService(sum.provider, sum.service);
    if (entry !== null && sum.unreadLines > 0) {
      known.push({
        name,
        service: sum.service,
        lines: sum.unreadLines,
        cost: sum.unreadCost,
        note: entry.note,
      });
    } else if (
      sum.unreadLines === sum.lines &&
      !isRegistered(sum.provider, sum.service) &&
      !read.has(spelled(sum.service))
    ) {
      unknown.push({ name, service: sum.service, lines: sum.lines, cost: sum.cost, note: "" });
    }
  }
  return { unknown: unknown.sort(byCost), known: known.sort(byCost) };
}

/** An instance type's family as the registry's GPU families name it (`p3.2xlarge`, `ml.p3.2xlarge` → p3; `a2-highgpu-1g` → a2). */
function family(instanceType: string): string {
  const name = instanceType.toLowerCase().replace(/^(?:ml|db|cache)\./, "");
  return name.split(/[.-]/, 1)[0];
}

const MODEL_OF_FAMILY = new Map(GPU_MODELS.flatMap((gpu) => gpu.families.map((name) => [name, gpu])));

export interface GpuBothWays {
  readonly model: string;
  /** The instance types carrying it, as billed. */
  readonly instanceTypes: readonly string[];
  /** Its board power, W, as its GPU-hours billed alone read it. */
  readonly watts: number;
  /** Lines of GPU-hours billed alone. */
  readonly lines: number;
}

/**
 * The GPU models a bill's evaluated lines hold both ways: inside an instance (its family's, the
 * instance's figures from the engine) and billed alone as GPU-hours of that model (its board power).
 */
export function gpusBothWays(groups: readonly ServiceGroup[]): GpuBothWays[] {
  const inside = new Map<string, Set<string>>();
  const alone = new Map<string, number>();
  for (const group of groups) {
    if (group.problem !== null) continue;
    if (group.methodKey === null && group.instanceType !== null) {
      const gpu = MODEL_OF_FAMILY.get(family(group.instanceType));
      if (gpu !== undefined)
        inside.set(gpu.model, (inside.get(gpu.model) ?? new Set()).add(group.instanceType));
    }
    const billed = GPU_MODELS.find((gpu) => gpuKey(gpu.model) === group.methodKey);
    if (billed !== undefined) alone.set(billed.model, (alone.get(billed.model) ?? 0) + group.lines);
  }
  return GPU_MODELS.filter((gpu) => inside.has(gpu.model) && alone.has(gpu.model)).map((gpu) => ({
    model: gpu.model,
    instanceTypes: [...(inside.get(gpu.model) ?? [])].sort(),
    watts: gpu.watts,
    lines: alone.get(gpu.model) ?? 0,
  }));
}
