import type { CpuSpec } from "../../data/types.js";
import { Attribute, type AttributeValue } from "../model/attribute.js";
import { type Allocation, type EngineContext, requiredFactor } from "../model/context.js";
import { flatText } from "../model/flatText.js";
import { END_OF_LIFE_WARNING, type RawImpact } from "../model/impact.js";
import type { CpuInput } from "../model/inputs.js";
import type { TimeWorkload, Usage } from "../model/usage.js";
import { type ComponentCells, PoweredComponent, type PowerTriple } from "./component.js";
import { type ProfileParams, profilePower, tdpWorkloads, type WorkloadPoint } from "./consumptionProfile.js";

const LOW_POWER_WARNING =
  "Fitted CPU consumption profile model yielded very low or negative power values, this can be caused by wrong input data or model initialization. Power consumption and usage impacts of the CPU might be false.";

/** Python prints a missing source as `None`; the sources are shown as the reference shows them. */
const pythonText = (value: string | null) => value ?? "None";
const NAME_SOURCE = (source: string | null) =>
  flatText(`Completed from name name based on ${pythonText(source)}.`);

export function defaultProfileParams(context: EngineContext): ProfileParams {
  const { archetypes, config } = context.data;
  const cell = archetypes.cpu.byId.get(config.defaultArchetypes.cpu ?? "DEFAULT")?.cells[
    "CONSUMPTION_PROFILE.params"
  ];
  const params = cell?.default;
  if (params && typeof params === "object") {
    return { a: params.a, b: params.b, c: params.c, d: params.d };
  }
  return { a: 171.2, b: 0.0354, c: 36.89, d: -10.13 };
}

/** P*(x) = max(P(x), 1) with the §13 warning on the profile when clamped (§5.3). */
function clampedPower(
  params: ProfileParams,
  load: number,
  paramsAttribute: Attribute<AttributeValue>,
): number {
  const power = profilePower(params, load);
  if (power < 1) paramsAttribute.warn(LOW_POWER_WARNING);
  return Math.max(power, 1);
}

/** Average power over a workload: a load, or time shares of loads, not normalised (Appendix D.16). */
export function averageOverWorkload(workload: TimeWorkload, powerAt: (load: number) => number): number {
  if (typeof workload === "number") return powerAt(workload);
  let total = 0;
  for (const share of workload) total += (share.timePercentage / 100) * powerAt(share.loadPercentage);
  return total;
}

/**
 * The power at the workload's value, min and max (a missing bound reads the value), stored as the
 * usage's `avg_power` (docs/methodology.md §19.3.2, §20.3.1).
 */
export function powerOverWorkloadRange(
  usage: Usage,
  workload: TimeWorkload,
  powerAt: (load: number) => number,
): PowerTriple {
  const value = averageOverWorkload(workload, powerAt);
  const min = averageOverWorkload(usage.timeWorkload.min ?? workload, powerAt);
  const max = averageOverWorkload(usage.timeWorkload.max ?? workload, powerAt);
  usage.avgPower.setCompleted(value, { min, max });
  return { value, min, max };
}

export class Cpu extends PoweredComponent {
  readonly kind = "CPU";
  readonly coreUnits = Attribute.fromCell<number>(null, this.cells.core_units);
  readonly dieSizePerCore = Attribute.fromCell<number>("mm2", this.cells.die_size_per_core);
  readonly dieSize = Attribute.fromCell<number>("mm2", this.cells.die_size);
  readonly modelRange = Attribute.fromCell<string>(null, this.cells.model_range);
  readonly manufacturer = Attribute.fromCell<string>(null, this.cells.manufacturer);
  readonly family = Attribute.fromCell<string>(null, this.cells.family);
  readonly name = Attribute.fromCell<string>(null, this.cells.name);
  readonly tdp = Attribute.fromCell<number>("W", this.cells.tdp);
  readonly threads = Attribute.fromCell<number>(null, this.cells.threads);

  constructor(context: EngineContext, cells: ComponentCells, input: CpuInput = {}, listWorkloadUnit = "%") {
    super(context, cells);
    const fromName = () => this.completeFromName();
    // §4.2.2: reading any of these while empty first tries the CPU name. Quirk kept: manufacturer
    // and model range have no such routine, so when no embedded computation has completed the name
    // yet (a criterion without CPU factors), the power profile sees neither and starts from the
    // default base profile.
    for (const attribute of [this.coreUnits, this.family, this.tdp, this.threads])
      attribute.completeWith(fromName);
    this.dieSize.completeWith(() => this.completeDieSize());
    this.applyInput(input, listWorkloadUnit);
  }

  private applyInput(input: CpuInput, listWorkloadUnit: string): void {
    this.applyCommonInput(input, listWorkloadUnit);
    if (input.coreUnits != null) this.coreUnits.setInput(input.coreUnits);
    // docs/methodology.md §19.4.1: where the edition honours it, a given die size is the die size.
    if (input.dieSize != null && this.context.rules.dieSizeInput === "honoured") {
      this.dieSize.setInput(input.dieSize);
    }
    if (input.dieSizePerCore != null) {
      this.dieSizePerCore.setInput(input.dieSizePerCore);
    } else if (input.dieSize != null && input.coreUnits != null) {
      const perCore = input.dieSize / input.coreUnits;
      this.dieSizePerCore.setCompleted(perCore, {
        min: perCore,
        max: perCore,
        source: "INPUT : die_size / core_units",
      });
    }
    // Quirk kept in 1.2.4 (Appendix D.4): a die size given without core units is ignored.
    // Quirk kept: the reference's CPU request mapping never reads `manufacturer`, so it is neither
    // shown nor used (the name or the model range drive the profile).
    if (input.modelRange != null) this.modelRange.setInput(input.modelRange);
    if (input.family != null) this.family.setInput(input.family);
    if (input.name != null) this.name.setInput(input.name);
    if (input.tdp != null) this.tdp.setInput(input.tdp);
    if (input.threads != null) this.threads.setInput(input.threads);
  }

  namedAttributes(): [string, Attribute<AttributeValue>][] {
    return [
      ["units", this.units],
      ["core_units", this.coreUnits],
      ["die_size_per_core", this.dieSizePerCore],
      ["die_size", this.dieSize],
      ["model_range", this.modelRange],
      ["manufacturer", this.manufacturer],
      ["family", this.family],
      ["name", this.name],
      ["tdp", this.tdp],
      ["threads", this.threads],
    ];
  }

  /**
   * §4.2.2 completion from the CPU name. Quirk kept (Appendix D.5): every non-null column of the
   * matched row overwrites the attribute, inputs included; cores/TDP/threads/die size truncate.
   */
  private completeFromName(): void {
    if (!this.name.hasValue()) return;
    const name = this.name.value as string;
    const row = this.context.lookups.cpuByName(name);
    const minName = this.name.min;
    const maxName = this.name.max;
    const rowMin = minName !== null && minName !== name ? this.context.lookups.cpuByName(minName) : row;
    const rowMax = maxName !== null && maxName !== name ? this.context.lookups.cpuByName(maxName) : row;
    if (!row) return;
    const source = NAME_SOURCE(row.source);
    const fill = <T extends AttributeValue>(
      attribute: Attribute<T>,
      pick: (r: CpuSpec) => T | null,
      attrSource: string,
    ): void => {
      const value = pick(row);
      if (value === null) return;
      const low = rowMin ? pick(rowMin) : value;
      const high = rowMax ? pick(rowMax) : value;
      attribute.setCompleted(value, { min: low ?? value, max: high ?? value, source: attrSource });
    };
    const truncated = (v: number | null) => (v === null ? null : Math.trunc(v));
    fill(this.name, (r) => r.name, "fuzzy match");
    fill(this.manufacturer, (r) => r.manufacturer, source);
    fill(this.family, (r) => r.codeName, source);
    fill(this.modelRange, (r) => r.modelRange, source);
    fill(this.tdp, (r) => truncated(r.tdp), source);
    fill(this.coreUnits, (r) => truncated(r.cores), source);
    fill(this.threads, (r) => truncated(r.threads), source);
    fill(
      this.dieSize,
      (r) => truncated(r.totalDieSize),
      flatText(`${pythonText(row.totalDieSizeSource)} : ${source}`),
    );
  }

  /** §4.2.1 die-size completion, in the reference's order. */
  private completeDieSize(): void {
    if (this.name.hasValue()) this.completeFromName();
    if (this.dieSize.isSet()) return;
    // Quirk kept (Appendix D.3): archetype values that were never read do not count as set.
    if (this.dieSizePerCore.isSet() && this.coreUnits.isSet()) {
      const size = this.dieSizePerCore.numberValue() * this.coreUnits.numberValue();
      this.dieSize.setCompleted(size, { source: "die_size_per_core*core_units" });
      return;
    }
    if (this.dieSize.defaultValue !== null && !this.family.hasValue()) {
      this.dieSize.setArchetype(this.dieSize.defaultValue);
      return;
    }
    this.dieSizeFromSpecs();
  }

  /** §4.2.3: die size estimated from `cpu_specs.csv` (family, core count). */
  private dieSizeFromSpecs(): void {
    const { lookups } = this.context;
    let family: string | null = null;
    const given = this.family.value;
    if (given !== null) {
      // Step 1: the file's spelling, kept only if that family has die sizes.
      const match = lookups.cpuFamily(given);
      if (match !== null && lookups.hasDieSizes(match)) {
        if (match !== given) this.family.setChanged(match);
        family = match;
      }
    }
    // Quirk kept (Appendix D.3): a core count never read nor written does not count.
    const cores =
      this.coreUnits.status === "NONE"
        ? null
        : {
            value: this.coreUnits.numberValue(),
            min: this.coreUnits.numberMin(),
            max: this.coreUnits.numberMax(),
          };
    const estimate = lookups.dieSize(family, cores);
    this.dieSize.setCompleted(estimate.value, {
      min: estimate.min,
      max: estimate.max,
      source: estimate.source,
    });
  }

  protected embeddedPerUnit(criterion: string, duration: number, allocation: Allocation): RawImpact {
    const { factors } = this.context.data;
    const dieImpact = requiredFactor(factors, "cpu", criterion, "die_impact");
    const fixed = requiredFactor(factors, "cpu", criterion, "impact");
    const size = this.dieSize.numberValue();
    const sizeMin = this.dieSize.numberMin();
    const sizeMax = this.dieSize.numberMax();
    return this.allocated(
      {
        value: size * dieImpact + fixed,
        min: sizeMin * dieImpact + fixed,
        max: sizeMax * dieImpact + fixed,
        warnings: [END_OF_LIFE_WARNING],
      },
      duration,
      allocation,
    );
  }

  /** §5.5: the consumption profile at the usage's workload, per unit. */
  protected perUnitPower(workload: TimeWorkload): number {
    const params = this.consumptionProfile();
    const paramsAttribute = this.usage.params as Attribute<AttributeValue>;
    return averageOverWorkload(workload, (load) => clampedPower(params, load, paramsAttribute));
  }

  /**
   * docs/methodology.md §19.3.2: where the edition says so, the power range follows the workload range — the
   * profile evaluated at the workload's value, min and max (reading a missing bound caches the
   * value). Each evaluation may add the low-power warning (up to three per load point, Appendix
   * D.18).
   */
  protected override perUnitPowerRange(workload: TimeWorkload) {
    if (this.context.rules.cpuPowerBounds === "point") return super.perUnitPowerRange(workload);
    const params = this.consumptionProfile();
    const paramsAttribute = this.usage.params as Attribute<AttributeValue>;
    return powerOverWorkloadRange(this.usage, workload, (load) =>
      clampedPower(params, load, paramsAttribute),
    );
  }

  /**
   * §10.2: parameters from TDP (fitted), model range (table row) or the archetype default; written
   * into the usage's `params` and `workloads` (a profiled CPU gives its own, ProfiledCpu).
   */
  protected consumptionProfile(): ProfileParams {
    const { params, workloads } = this.profileAttributes();
    const manufacturer = this.manufacturer.value;
    const modelRange = this.modelRange.value;
    const tdp = this.tdp.value;
    const base = this.context.lookups.cpuProfile(manufacturer, modelRange);
    const start: ProfileParams = base
      ? { a: base.a, b: base.b, c: base.c, d: base.d }
      : defaultProfileParams(this.context);
    if (tdp !== null) {
      const points = tdpWorkloads(tdp);
      workloads.setCompleted(workloadList(points));
      params.setCompleted({ ...this.context.lookups.tdpProfile(tdp, start) }, { source: "From TDP" });
    } else if (modelRange !== null) {
      // No unique base row stores null: the read below then falls back to the archetype default.
      params.setCompleted(base ? { ...start } : null, { source: "From CPU model range" });
    }
    const value = params.value as { readonly [key: string]: number };
    return { a: value.a, b: value.b, c: value.c, d: value.d };
  }

  /** Fresh `params` (the archetype default until written) and `workloads` of the usage. */
  protected profileAttributes(): {
    params: Attribute<AttributeValue>;
    workloads: Attribute<AttributeValue>;
  } {
    const params = new Attribute<AttributeValue>(null, { ...defaultProfileParams(this.context) });
    const workloads = new Attribute<AttributeValue>("workload_rate:W");
    this.usage.params = params;
    this.usage.workloads = workloads;
    return { params, workloads };
  }
}

export function workloadList(
  points: readonly WorkloadPoint[],
): { load_percentage: number; power_watt: number }[] {
  return points.map((p) => ({ load_percentage: p.loadPercentage, power_watt: p.powerWatt }));
}
