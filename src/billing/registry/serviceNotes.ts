/*
 * What the summary says of a bill's services and GPUs from the registry (src/billing/summary.ts):
 * the services it does not know, the known services no method estimates (a fee, no hardware), and
 * the GPU models a bill holds both inside instances and billed alone (docs/methodology.md,
 * "Billing lines that are not instance hours": **Unknown services**, **Fees**, **GPUs inside an
 * instance and billed alone**).
 */

import { GPU_MODELS, gpuKey } from "./gpus.js";
import { isRegistered, knownService } from "./knownServices.js";

/** The part of a summary's group of lines read here (src/billing/evaluate.ts, LineGroup). */
export interface ServiceGroup {
  readonly provider: string | null;
  readonly service: string | null;
  readonly instanceType: string | null;
  readonly problem: string | null;
  readonly method: string | null;
  readonly methodKey: string | null;
  readonly lines: number;
  readonly cost: number;
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

/** The summary's name of the services past the names it keeps (src/billing/evaluate.ts, NAMES_KEPT). */
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
 * Unknown services — a service the registry has no entry for (knownServices.ts, services.ts) none
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
    } else if (sum.unreadLines === sum.lines && !isRegistered(sum.provider, sum.service)) {
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
