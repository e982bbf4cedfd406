import type { ArchetypeCell } from "../../data/types.js";
import { Attribute, type AttributeValue, NotImplementedError } from "../model/attribute.js";
import type { Allocation, EngineContext } from "../model/context.js";
import {
  allocate,
  END_OF_LIFE_WARNING,
  modelledUse,
  type RawImpact,
  scaleByUnits,
  simpleUse,
} from "../model/impact.js";
import { roundSigFig } from "../model/rounding.js";
import { type TimeWorkload, Usage, type UsageInput, usageCells } from "../model/usage.js";

/** Cells of a component archetype: its own columns plus `USAGE.*` (docs/methodology.md §3.4). */
export type ComponentCells = Readonly<Record<string, ArchetypeCell>>;

/** Fields every component request may carry. */
export interface ComponentInputBase {
  readonly units?: number | null;
  readonly usage?: UsageInput | null;
}

/**
 * A component of a device, or a component evaluated on its own route.
 * Phase functions return the impact of *one* unit; `embeddedImpact` / `useImpact` apply the
 * §4.0 skeleton (units, share, de-duplicated warnings).
 */
export abstract class Component {
  /**
   * Its name in verbose answers (`CPU-1`) and messages: its kind in upper case, which the registry
   * (registry.ts) checks for each kind's model.
   */
  abstract readonly kind: Uppercase<string>;
  readonly units: Attribute<number>;
  usage: Usage;

  constructor(
    readonly context: EngineContext,
    protected readonly cells: ComponentCells,
  ) {
    // §3.3: component units default to the archetype's, or to 1 when the cell is absent.
    const unitsCell = cells.units;
    this.units =
      unitsCell?.default !== undefined
        ? Attribute.fromCell<number>(null, unitsCell)
        : new Attribute<number>(null, 1);
    this.usage = new Usage(context, usageCells(cells), false);
  }

  protected applyCommonInput(input: ComponentInputBase, listWorkloadUnit: string): void {
    if (input.units != null) this.units.setInput(input.units);
    this.usage.applyInput(input.usage, listWorkloadUnit);
  }

  /** Per-unit embedded impact, already allocated over the duration. */
  protected abstract embeddedPerUnit(criterion: string, duration: number, allocation: Allocation): RawImpact;

  /** Per-unit use impact; components without a power model need a given `avg_power` (§5.4). */
  protected usePerUnit(criterion: string, duration: number): RawImpact {
    const factor = this.usage.electricityFactor(criterion);
    if (!this.usage.avgPower.hasValue()) throw new NotImplementedError(`${this.kind} has no power`);
    return simpleUse(
      factor,
      this.usage.avgPower,
      this.usage.useTimeRatio,
      duration,
      this.context.rules.useTimeRatioBounds,
    );
  }

  embeddedImpact(criterion: string, duration: number, allocation: Allocation, share = 1): RawImpact {
    return scaleByUnits(this.embeddedPerUnit(criterion, duration, allocation), this.units, share);
  }

  useImpact(criterion: string, duration: number, share = 1): RawImpact {
    return scaleByUnits(this.usePerUnit(criterion, duration), this.units, share);
  }

  /** Component attributes in verbose order (usage attributes are listed separately). */
  abstract namedAttributes(): [string, Attribute<AttributeValue>][];

  /** §6.2 with this component's own lifetime (replaced by the device's inside servers). */
  protected allocated(impact: RawImpact, duration: number, allocation: Allocation): RawImpact {
    return allocate(impact, duration, this.usage.hoursLifeTime, allocation);
  }

  /** Fixed per-unit manufacturing impact from `factors.yml` (HDD, motherboard, assembly). */
  protected withEndOfLife(value: number, min = value, max = value): RawImpact {
    return { value, min, max, warnings: [END_OF_LIFE_WARNING] };
  }
}

/** A power triple for all units of a component (§5.5 step 3). */
export interface PowerTriple {
  readonly value: number;
  readonly min: number;
  readonly max: number;
}

/**
 * CPU and RAM: components whose power is modelled from the usage's workload when not given
 * (§5.5, §5.6). The stored `avg_power` covers all units; in 1.2.4 the §4.0 skeleton multiplies
 * the use impact by the units once more (a kept quirk, Appendix D.1), in 2.4.1 it does not
 * (edition rule `modelledUseUnits`).
 */
export abstract class PoweredComponent extends Component {
  /** Per-unit power (W) over the usage's workload; also records the profile attributes. */
  protected abstract perUnitPower(workload: TimeWorkload): number;

  /**
   * Per-unit power value, min and max. By default the power at the workload for all three; the CPU
   * follows the workload range where its edition says so (docs/methodology.md §19.3.2).
   */
  protected perUnitPowerRange(workload: TimeWorkload): PowerTriple {
    const power = this.perUnitPower(workload);
    this.usage.avgPower.setCompleted(power);
    return { value: power, min: power, max: power };
  }

  /**
   * Stores the per-unit power in `avg_power`, returns it for all units, each bound rounded to 5
   * figures (D.17) then multiplied by the matching units bound.
   */
  modelPowerConsumption(): PowerTriple {
    const workload = this.usage.timeWorkload.value;
    if (workload === null) throw new NotImplementedError("no time workload");
    const power = this.perUnitPowerRange(workload);
    return {
      value: roundSigFig(power.value, 5) * this.units.numberValue(),
      min: roundSigFig(power.min, 5) * this.units.numberMin(),
      max: roundSigFig(power.max, 5) * this.units.numberMax(),
    };
  }

  override useImpact(criterion: string, duration: number, share = 1): RawImpact {
    return this.useImpactWith(this.usePerUnit(criterion, duration), share);
  }

  /** A use computed on the modelled power (all units already), with the edition's units rule. */
  protected useImpactWith(impact: RawImpact, share = 1): RawImpact {
    if (this.context.rules.modelledUseUnits === "again") return scaleByUnits(impact, this.units, share);
    return { ...impact, value: impact.value * share, min: impact.min * share, max: impact.max * share };
  }

  protected override usePerUnit(criterion: string, duration: number): RawImpact {
    const factor = this.usage.electricityFactor(criterion);
    return modelledUse(factor, this.modelledPower(), this.usage.useTimeRatio, duration);
  }

  /** `avg_power`, modelled on first use when not given (§5.5). */
  protected modelledPower(): Attribute<number> {
    if (!this.usage.avgPower.isSet()) {
      const power = this.modelPowerConsumption();
      this.usage.avgPower.setCompleted(power.value, { min: power.min, max: power.max });
    }
    return this.usage.avgPower;
  }
}
