import type { EngineContext } from "../model/context.js";
import type { ProfileCpu } from "../model/inputs.js";
import { fitProfile, type ProfileParams, profilePower, type WorkloadPoint } from "./consumptionProfile.js";
import { defaultProfileParams } from "./cpu.js";

type ProfileSource = "From workload" | "From TDP" | "From CPU model range" | "Archetype default";

export interface ConsumptionProfileResult {
  readonly params: ProfileParams;
  readonly source: ProfileSource;
  /** The CPU table row the name matched, if any. */
  readonly matchedName: string | null;
}

/**
 * The CPU consumption profile of `POST /v1/consumption_profile/cpu` (docs/methodology.md §10.4,
 * docs/methodology.md §19.10.2): the base profile of the CPU's manufacturer / model range (from the
 * inputs, else from the matched name), fitted to the measured workload points when given, else
 * (when the edition uses it) to the TDP points. A name that matches no CPU simply contributes
 * nothing (1.2.4 fails there; we answer like 2.4.1).
 */
export function cpuConsumptionProfile(
  context: EngineContext,
  cpu: ProfileCpu,
  workload: readonly WorkloadPoint[] | null,
): ConsumptionProfileResult {
  const rules = context.rules.profileRoute;
  const row = cpu.name ? context.lookups.cpuByName(cpu.name) : null;
  const manufacturer = cpu.manufacturer ?? row?.manufacturer ?? null;
  const givenRange = rules.familyOverwritesModelRange && cpu.family != null ? cpu.family : cpu.modelRange;
  const modelRange = givenRange ?? row?.modelRange ?? null;
  // The reference stores the name's TDP as an integer (truncated).
  const tdp = rules.usesTdp ? (cpu.tdp ?? (row?.tdp != null ? Math.trunc(row.tdp) : null)) : null;
  const base = context.lookups.cpuProfile(manufacturer, modelRange);
  const fallback = defaultProfileParams(context);
  const start: ProfileParams = base ? { a: base.a, b: base.b, c: base.c, d: base.d } : fallback;
  const matchedName = row?.name ?? null;
  if (workload && workload.length > 0) {
    return { params: fitProfile(workload, start), source: "From workload", matchedName };
  }
  if (tdp !== null)
    return { params: context.lookups.tdpProfile(tdp, start), source: "From TDP", matchedName };
  if (modelRange !== null && base) return { params: start, source: "From CPU model range", matchedName };
  return { params: fallback, source: "Archetype default", matchedName };
}

/** Watts at a load (percent) with the 1 W floor of §5.3. */
export function powerAtLoad(params: ProfileParams, load: number): number {
  return Math.max(profilePower(params, load), 1);
}
