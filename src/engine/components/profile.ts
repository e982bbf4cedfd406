import { assetOf, usageAttributesInto } from "../assets/assets.js";
import { Attribute, NotImplementedError } from "../model/attribute.js";
import type { EngineContext } from "../model/context.js";
import type { Asset } from "../model/evaluation.js";
import { modelledUse, type RawImpact } from "../model/impact.js";
import type { ProfileCpu } from "../model/inputs.js";
import { LIST_WORKLOAD_UNIT, type UsageInput } from "../model/usage.js";
import type { ComponentCells } from "./component.js";
import {
  fitProfile,
  type ProfileParams,
  profilePower,
  tdpWorkloads,
  type WorkloadPoint,
} from "./consumptionProfile.js";
import { Cpu, defaultProfileParams, workloadList } from "./cpu.js";

type ProfileSource = "From workload" | "From TDP" | "From CPU model range" | "Archetype default";

export interface ConsumptionProfileResult {
  readonly params: ProfileParams;
  readonly source: ProfileSource;
  /** The CPU table row the name matched, if any. */
  readonly matchedName: string | null;
  /** The points the parameters were fitted to (measured, or the TDP's four), if fitted. */
  readonly fittedTo: readonly WorkloadPoint[] | null;
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
  const archetype = rules.archetypeCompletes ? defaultCpuIdentity(context) : NO_IDENTITY;
  const manufacturer = cpu.manufacturer ?? row?.manufacturer ?? archetype.manufacturer;
  const givenRange = rules.familyOverwritesModelRange && cpu.family != null ? cpu.family : cpu.modelRange;
  const modelRange = givenRange ?? row?.modelRange ?? archetype.modelRange;
  // The reference stores the name's TDP as an integer (truncated).
  const named = row?.tdp != null ? Math.trunc(row.tdp) : null;
  const tdp = rules.usesTdp ? (cpu.tdp ?? named ?? archetype.tdp) : null;
  const base = context.lookups.cpuProfile(manufacturer, modelRange);
  const fallback = defaultProfileParams(context);
  const start: ProfileParams = base ? { a: base.a, b: base.b, c: base.c, d: base.d } : fallback;
  const matchedName = row?.name ?? null;
  if (workload && workload.length > 0) {
    return { params: fitProfile(workload, start), source: "From workload", matchedName, fittedTo: workload };
  }
  if (tdp !== null) {
    const params = context.lookups.tdpProfile(tdp, start);
    return { params, source: "From TDP", matchedName, fittedTo: tdpWorkloads(tdp) };
  }
  if (modelRange !== null && base) {
    return { params: start, source: "From CPU model range", matchedName, fittedTo: null };
  }
  return { params: fallback, source: "Archetype default", matchedName, fittedTo: null };
}

/** What the default CPU archetype says of a CPU's identity (each null when its cell is empty). */
interface CpuIdentity {
  readonly manufacturer: string | null;
  readonly modelRange: string | null;
  readonly tdp: number | null;
}

const NO_IDENTITY: CpuIdentity = { manufacturer: null, modelRange: null, tdp: null };

/** The edition's default CPU archetype's manufacturer, model range and TDP (their defaults). */
function defaultCpuIdentity(context: EngineContext): CpuIdentity {
  const { archetypes, config } = context.data;
  const cells = archetypes.cpu.byId.get(config.defaultArchetypes.cpu ?? "DEFAULT")?.cells;
  const text = (name: string) => {
    const value = cells?.[name]?.default;
    return typeof value === "string" && value.trim() !== "" ? value : null;
  };
  const tdp = cells?.tdp?.default;
  return {
    manufacturer: text("manufacturer"),
    modelRange: text("model_range"),
    tdp: typeof tdp === "number" && Number.isFinite(tdp) ? Math.trunc(tdp) : null,
  };
}

/** Watts at a load (percent) with the 1 W floor of §5.3. */
export function powerAtLoad(params: ProfileParams, load: number): number {
  return Math.max(profilePower(params, load), 1);
}

/**
 * A CPU whose power model is a given consumption profile: the CPU component's use phase (§5.5,
 * its edition's rules: the power range over the workload range, units counted again or not, the
 * 1 W floor and its warning) with the profile's parameters in place of those the CPU would find
 * from its name, TDP or model range. A profile has no manufacturing impact.
 */
class ProfiledCpu extends Cpu {
  constructor(
    context: EngineContext,
    cells: ComponentCells,
    usage: UsageInput | null,
    private readonly profile: ConsumptionProfileResult,
  ) {
    // A list workload carries the component routes' unit label, as on the CPU component.
    super(context, cells, { usage }, LIST_WORKLOAD_UNIT);
  }

  protected override consumptionProfile(): ProfileParams {
    const { params, workloads } = this.profileAttributes();
    const { profile } = this;
    if (profile.fittedTo) workloads.setCompleted(workloadList(profile.fittedTo));
    // The archetype default stays the attribute's default, as on a CPU that finds no profile.
    if (profile.source !== "Archetype default") {
      params.setCompleted({ ...profile.params }, { source: profile.source });
    } else {
      params.setArchetype({ ...profile.params });
    }
    return { ...profile.params };
  }

  protected override embeddedPerUnit(): RawImpact {
    throw new NotImplementedError("a consumption profile has no manufacturing impact");
  }

  /** The electricity drawn over a duration, kWh: the use formula with a factor of 1 (§5.5). */
  energy(duration: number): RawImpact {
    const perKwh = new Attribute<number>("kWh/kWh", 1);
    return this.useImpactWith(modelledUse(perKwh, this.modelledPower(), this.usage.useTimeRatio, duration));
  }
}

/**
 * The use phase of a CPU of a given consumption profile, with `cells` (the edition's default CPU
 * archetype: its workload, use-time ratio and lifetime where the usage gives none) and a usage.
 * Its verbose report lists the usage's attributes (the profile's `params` and the points it was
 * fitted to among them).
 */
export function profileUseModel(
  context: EngineContext,
  cells: ComponentCells,
  usage: UsageInput | null,
  profile: ConsumptionProfileResult,
): Asset {
  const cpu = new ProfiledCpu(context, cells, usage, profile);
  const asset = assetOf(cpu, (evaluation) => ({
    duration: evaluation.duration,
    impacts: null,
    components: [],
    attributes: usageAttributesInto([], cpu.usage),
  }));
  return { ...asset, energy: (duration) => cpu.energy(duration) };
}
