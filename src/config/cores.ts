import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";

/*
 * The cores this process may use: the processors it may run on, bounded by its control group's CPU
 * quota (a container's `--cpus`, a Kubernetes CPU limit). `WORKERS=auto` starts that many workers.
 */

/** A quota in CPUs from cgroup v2's `cpu.max` (`max 100000` or `150000 100000`); null when none. */
export function quotaOfCpuMax(text: string): number | null {
  const [quota, period] = text.trim().split(/\s+/);
  if (quota === undefined || quota === "max" || period === undefined) return null;
  const cpus = Number(quota) / Number(period);
  return Number.isFinite(cpus) && cpus > 0 ? cpus : null;
}

/** A quota in CPUs from cgroup v1's `cpu.cfs_quota_us` and `cpu.cfs_period_us` (-1: none). */
export function quotaOfCfs(quotaText: string, periodText: string): number | null {
  const cpus = Number(quotaText.trim()) / Number(periodText.trim());
  return Number.isFinite(cpus) && cpus > 0 ? cpus : null;
}

function readOr(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

/** This process's CPU quota in CPUs (cgroup v2, else v1), null when it has none or none is readable. */
function cgroupQuota(): number | null {
  const v2 = readOr("/sys/fs/cgroup/cpu.max");
  if (v2 !== null) return quotaOfCpuMax(v2);
  const quota = readOr("/sys/fs/cgroup/cpu/cpu.cfs_quota_us");
  const period = readOr("/sys/fs/cgroup/cpu/cpu.cfs_period_us");
  return quota !== null && period !== null ? quotaOfCfs(quota, period) : null;
}

/**
 * Whole cores the process is given: the processors it may run on, at most its quota rounded down,
 * at least one. Rounded down because each worker holds a heap of its own (768 MB by npm start's
 * flags): a worker on half a core's quota would add a whole heap for half a core.
 */
export function usableCores(processors = availableParallelism(), quota = cgroupQuota()): number {
  const byQuota = quota === null ? processors : Math.floor(quota);
  return Math.max(1, Math.min(processors, byQuota));
}
