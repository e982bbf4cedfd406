import { defaultProfileParams } from "./components/cpu.js";
import { fitProfile, type ProfileParams, profilePower, type WorkloadPoint } from "./consumptionProfile.js";
import type { EngineContext } from "./context.js";

export interface ProfileCpu {
  readonly name?: string | null;
  readonly manufacturer?: string | null;
  readonly modelRange?: string | null;
}

export type ProfileSource = "From workload" | "From CPU model range" | "Archetype default";

export interface ConsumptionProfileResult {
  readonly params: ProfileParams;
  readonly source: ProfileSource;
  /** The CPU table row the name matched, if any. */
  readonly matchedName: string | null;
}

/**
 * The CPU consumption profile of `POST /v1/consumption_profile/cpu` (docs/methodology.md §10.4): the base
 * profile of the CPU's manufacturer / model range (from the inputs, else from the matched name),
 * fitted to the measured workload points when given. Quirk kept (Appendix D.18): a TDP is never
 * used on this route. A name that matches no CPU simply contributes nothing (the reference fails).
 */
export function cpuConsumptionProfile(
  context: EngineContext,
  cpu: ProfileCpu,
  workload: readonly WorkloadPoint[] | null,
): ConsumptionProfileResult {
  const row = cpu.name ? context.lookups.cpuByName(cpu.name) : null;
  const manufacturer = cpu.manufacturer ?? row?.manufacturer ?? null;
  const modelRange = cpu.modelRange ?? row?.modelRange ?? null;
  const base = context.lookups.cpuProfile(manufacturer, modelRange);
  const fallback = defaultProfileParams(context);
  const start: ProfileParams = base ? { a: base.a, b: base.b, c: base.c, d: base.d } : fallback;
  const matchedName = row?.name ?? null;
  if (workload && workload.length > 0) {
    return { params: fitProfile(workload, start), source: "From workload", matchedName };
  }
  if (modelRange !== null && base) return { params: start, source: "From CPU model range", matchedName };
  return { params: fallback, source: "Archetype default", matchedName };
}

/** Watts at a load (percent) with the 1 W floor of §5.3. */
export function powerAtLoad(params: ProfileParams, load: number): number {
  return Math.max(profilePower(params, load), 1);
}
