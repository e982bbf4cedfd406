import type { ArchetypeCell } from "../../data/types.js";
import { builtOncePer } from "../../support/builtOnce.js";
import { Attribute, type AttributeValue, NotImplementedError, type WorkloadShare } from "./attribute.js";
import type { EngineContext } from "./context.js";
import { ELECTRICITY_CRITERIA, electricityKey } from "./criteria.js";
import type { UsageInput } from "./inputs.js";

export type { UsageInput } from "./inputs.js";

export type TimeWorkload = number | readonly WorkloadShare[];

/** Factors a client may override (`elec_factors`). */
const OVERRIDABLE_FACTORS: ReadonlySet<string> = new Set(ELECTRICITY_CRITERIA);

export const LOCATION_NOT_FOUND = "Location not found. Default value used.";
export const LIST_WORKLOAD_UNIT = "(time_percentage:%, load_percentage: %)";

type UsageCells = Readonly<Record<string, ArchetypeCell>>;

/**
 * The usage of an asset: power, workload, location, lifetime and electricity factors.
 * `archetype` holds the `USAGE.*` cells with the prefix removed.
 */
export class Usage {
  avgPower: Attribute<number>;
  timeWorkload: Attribute<TimeWorkload>;
  usageLocation: Attribute<string>;
  useTimeRatio: Attribute<number>;
  hoursLifeTime: Attribute<number>;
  otherConsumptionRatio: Attribute<number> | null;
  /** Electricity factor per criterion, created on first use (most evaluations read one to three). */
  private readonly elecFactors = new Map<string, Attribute<number>>();
  /** Consumption-profile attributes of a CPU or RAM usage, rebuilt on every modelling pass. */
  params: Attribute<AttributeValue> | null = null;
  workloads: Attribute<AttributeValue> | null = null;

  constructor(
    private readonly context: EngineContext,
    archetype: UsageCells,
    withOtherConsumption: boolean,
  ) {
    this.avgPower = Attribute.fromCell("W", archetype.avg_power);
    this.timeWorkload = Attribute.fromCell("%", archetype.time_workload);
    this.usageLocation = Attribute.fromCell("CodSP3 - NCS Country Codes - NATO", archetype.usage_location);
    this.useTimeRatio = Attribute.fromCell("/1", archetype.use_time_ratio);
    this.hoursLifeTime = Attribute.fromCell("hours", archetype.hours_life_time);
    this.otherConsumptionRatio = withOtherConsumption
      ? Attribute.fromCell("ratio /1", archetype.other_consumption_ratio)
      : null;
  }

  /** Writes the client's usage fields as INPUT (§5.1). */
  applyInput(input: UsageInput | null | undefined, listWorkloadUnit: string): void {
    if (!input) return;
    if (input.avgPower != null) this.avgPower.setInput(input.avgPower);
    if (input.timeWorkload != null) {
      this.timeWorkload.setInput(input.timeWorkload);
      if (typeof input.timeWorkload !== "number") this.timeWorkload.unit = listWorkloadUnit;
    }
    if (input.usageLocation != null && !this.isDiscardedDefaultLocation(input.usageLocation)) {
      this.applyLocation(input.usageLocation, "INPUT");
    }
    if (input.useTimeRatio != null) this.useTimeRatio.setInput(input.useTimeRatio);
    if (input.hoursLifeTime != null) this.hoursLifeTime.setInput(input.hoursLifeTime);
    if (input.otherConsumptionRatio != null && this.otherConsumptionRatio) {
      this.otherConsumptionRatio.setInput(input.otherConsumptionRatio);
    }
    for (const [criterion, value] of Object.entries(input.elecFactors ?? {})) {
      if (value != null && OVERRIDABLE_FACTORS.has(criterion))
        this.electricityFactor(criterion).setInput(value);
    }
  }

  /**
   * A client's location: INPUT, or COMPLETED when it was resolved from a cloud region
   * (docs/methodology.md §19.7.5: no bounds are written, they are cached from the value when read).
   */
  applyLocation(location: string, status: "INPUT" | "COMPLETED"): void {
    if (this.context.data.electricity.countryCodes.has(location)) {
      if (status === "INPUT") this.usageLocation.setInput(location);
      else this.usageLocation.setCompleted(location);
    } else {
      // §5.1: an unknown location is replaced by the archetype's (null in all shipped data),
      // and later defaulted to EEE with its wide bounds (Appendix D.13).
      this.usageLocation.setChanged(this.usageLocation.defaultValue);
      this.usageLocation.warn(LOCATION_NOT_FOUND);
    }
  }

  /**
   * docs/methodology.md §19.3.5: where the edition discards it, a location equal to the default one (any
   * case, surrounding blanks ignored; an empty string is not) is treated as not given. Other codes
   * stay case-sensitive (a kept quirk, Appendix D.15).
   */
  isDiscardedDefaultLocation(location: string): boolean {
    if (this.context.rules.explicitDefaultLocation !== "discarded" || location === "") return false;
    return location.trim().toUpperCase() === this.context.data.config.defaultLocation.toUpperCase();
  }

  /** The factor of a criterion; `fw` has no slot, so its use phase is not implemented. */
  electricityFactor(criterion: string): Attribute<number> {
    let factor = this.elecFactors.get(criterion);
    if (!factor) {
      if (!this.context.rules.electricityFactorSlots.has(criterion))
        throw new NotImplementedError(`no electricity factor slot for ${criterion}`);
      const created = new Attribute<number>(this.context.rules.factorUnits[criterion] ?? null);
      created.completeWith(() => this.completeElectricityFactor(criterion, created));
      this.elecFactors.set(criterion, created);
      factor = created;
    }
    return factor;
  }

  /** §5.2: the factor of the usage location, with global bounds when the location was defaulted. */
  private completeElectricityFactor(criterion: string, factor: Attribute<number>): void {
    const { electricity, config } = this.context.data;
    if (this.usageLocation.value === null) this.usageLocation.setDefault(config.defaultLocation);
    const location = this.usageLocation.value as string;
    const key = electricityKey(criterion, this.context.rules.electricityKeys);
    const entry = electricity.byLocation.get(location)?.factors.get(key);
    if (!electricity.countryCodes.has(location) || !entry) {
      throw new NotImplementedError(`no ${key} electricity factor for ${location}`);
    }
    if (this.usageLocation.status === "DEFAULT") {
      factor.setDefault(entry.value, entry.source);
      const bounds = electricity.bounds.get(key);
      // Quirk (Appendix D.12): a zero global bound counts as missing, so lu/odp/pm are not
      // implemented for the default location, although the value was already written — until
      // 2.5.0, which reads a zero bound as a bound (docs/methodology.md §20.5.3).
      const zeroMissing = this.context.rules.zeroGlobalBound === "missing";
      if (!bounds || (zeroMissing && (bounds.min === 0 || bounds.max === 0))) {
        throw new NotImplementedError(`no global bounds for ${key}`);
      }
      factor.setBounds(bounds.min, bounds.max);
    } else {
      factor.setCompleted(entry.value, { min: entry.value, max: entry.value, source: entry.source });
    }
  }

  /**
   * §7.1 sharing: attributes the client set on the device usage are shared *by reference*
   * with a component usage whose own attribute is unset. Callers skip sharing altogether when
   * the device power is an input (Appendix D.15); electricity factors are never shared (D.14).
   */
  shareFrom(device: Usage): void {
    if (device.timeWorkload.isSet() && !this.timeWorkload.isSet()) this.timeWorkload = device.timeWorkload;
    if (device.usageLocation.isSet() && !this.usageLocation.isSet())
      this.usageLocation = device.usageLocation;
    if (device.useTimeRatio.isSet() && !this.useTimeRatio.isSet()) this.useTimeRatio = device.useTimeRatio;
    if (device.hoursLifeTime.isSet() && !this.hoursLifeTime.isSet())
      this.hoursLifeTime = device.hoursLifeTime;
    if (
      device.otherConsumptionRatio?.isSet() &&
      this.otherConsumptionRatio &&
      !this.otherConsumptionRatio.isSet()
    ) {
      this.otherConsumptionRatio = device.otherConsumptionRatio;
    }
  }

  /**
   * Notices about the use impact of `criterion` that the reference does not attach to it: its
   * electricity factor is the default location's because the posted location is unknown (§5.1).
   */
  useNotices(criterion: string): readonly string[] {
    const factor = this.elecFactors.get(criterion);
    const fellBack =
      factor?.isSet() === true &&
      factor.status !== "INPUT" &&
      this.usageLocation.warnings.includes(LOCATION_NOT_FOUND);
    return fellBack ? [LOCATION_NOT_FOUND] : [];
  }

  /** Named attributes in the order the verbose usage block lists them. */
  namedAttributes(): [string, Attribute<AttributeValue>][] {
    const list: [string, Attribute<AttributeValue>][] = [
      ["avg_power", this.avgPower],
      ["time_workload", this.timeWorkload],
      ["usage_location", this.usageLocation],
      ["use_time_ratio", this.useTimeRatio],
      ["hours_life_time", this.hoursLifeTime],
    ];
    if (this.otherConsumptionRatio) list.push(["other_consumption_ratio", this.otherConsumptionRatio]);
    if (this.workloads) list.push(["workloads", this.workloads]);
    if (this.params) list.push(["params", this.params]);
    for (const { name } of this.context.rules.criteria) {
      const factor = this.elecFactors.get(name);
      if (factor) list.push([`${name}_factor`, factor]);
    }
    return list;
  }
}

/**
 * Usage cells of an archetype: its `USAGE.*` columns without the prefix, computed once per
 * (immutable, loaded-once) row.
 */
export const usageCells = builtOncePer((cells: Readonly<Record<string, ArchetypeCell>>): UsageCells => {
  const out: Record<string, ArchetypeCell> = {};
  for (const [key, cell] of Object.entries(cells)) if (key.startsWith("USAGE.")) out[key.slice(6)] = cell;
  return out;
});
