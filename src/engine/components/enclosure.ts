import { Attribute, type AttributeValue, NotImplementedError } from "../model/attribute.js";
import { type Allocation, type EngineContext, requiredFactor } from "../model/context.js";
import type { RawImpact } from "../model/impact.js";
import type { CaseInput, PowerSupplyInput } from "../model/inputs.js";
import { Component, type ComponentCells, type ComponentInputBase } from "./component.js";

export class PowerSupply extends Component {
  readonly kind = "POWER_SUPPLY";
  readonly unitWeight = Attribute.fromCell<number>("kg", this.cells.unit_weight);

  constructor(
    context: EngineContext,
    cells: ComponentCells,
    input: PowerSupplyInput = {},
    listWorkloadUnit = "%",
  ) {
    super(context, cells);
    this.applyCommonInput(input, listWorkloadUnit);
    if (input.unitWeight != null) this.unitWeight.setInput(input.unitWeight);
  }

  namedAttributes(): [string, Attribute<AttributeValue>][] {
    return [
      ["units", this.units],
      ["unit_weight", this.unitWeight],
    ];
  }

  /** §4.6: the factor is per kg of power supply. */
  protected embeddedPerUnit(criterion: string, duration: number, allocation: Allocation): RawImpact {
    const perKg = requiredFactor(this.context.data.factors, "power_supply", criterion, "impact");
    const value = this.unitWeight.numberValue() * perKg;
    const min = this.unitWeight.numberMin() * perKg;
    const max = this.unitWeight.numberMax() * perKg;
    return this.allocated(this.withEndOfLife(value, min, max), duration, allocation);
  }

  protected override usePerUnit(): RawImpact {
    throw new NotImplementedError("power supplies have no use phase of their own");
  }
}

export class Case extends Component {
  readonly kind = "CASE";
  readonly caseType = Attribute.fromCell<string>(null, this.cells.case_type);

  constructor(context: EngineContext, cells: ComponentCells, input: CaseInput = {}, listWorkloadUnit = "%") {
    super(context, cells);
    this.applyCommonInput(input, listWorkloadUnit);
    if (input.caseType != null) this.caseType.setInput(input.caseType);
  }

  namedAttributes(): [string, Attribute<AttributeValue>][] {
    return [
      ["units", this.units],
      ["case_type", this.caseType],
    ];
  }

  /**
   * §4.7. Quirk kept (Appendix D.7): only a case type taken from an archetype carries the other
   * case type's impact as a bound; an input case type gives a degenerate triple.
   */
  protected embeddedPerUnit(criterion: string, duration: number, allocation: Allocation): RawImpact {
    const { factors } = this.context.data;
    // Kept quirk (docs/methodology.md Appendix D.33): the case type is read before the factors are
    // looked up, so a criterion without case factors still shows it in the report.
    const type = this.caseType.value;
    const rack = requiredFactor(factors, "case", criterion, "rack", "impact");
    const blade =
      requiredFactor(factors, "case", criterion, "blade", "impact_blade_16_slots") / 16 +
      requiredFactor(factors, "case", criterion, "blade", "impact_blade_server");
    const fromArchetype = this.caseType.status === "ARCHETYPE";
    if (this.context.rules.caseUnits === "twice") {
      return this.allocated(
        this.withEndOfLife(...this.unitsInHelper(type, fromArchetype, rack, blade)),
        duration,
        allocation,
      );
    }
    let triple: [number, number, number];
    if (type === "blade") {
      triple = fromArchetype
        ? rack > blade
          ? [blade, blade, rack]
          : [blade, rack, blade]
        : [blade, blade, blade];
    } else if (fromArchetype && type === "rack") {
      triple = blade > rack ? [rack, rack, blade] : [rack, blade, rack];
    } else {
      triple = [rack, rack, rack];
    }
    return this.allocated(this.withEndOfLife(...triple), duration, allocation);
  }

  /**
   * docs/methodology.md §19.3.7, a kept quirk (Appendix D.1 of 2.4.1): the rack/blade helper multiplies by
   * the units itself (the cross-type bound with the units' bound, compared at the units' value;
   * an input or unknown case type on all three) before the skeleton multiplies by them again.
   */
  private unitsInHelper(
    type: string | null,
    fromArchetype: boolean,
    rack: number,
    blade: number,
  ): [number, number, number] {
    const units = this.units.numberValue();
    if (fromArchetype && (type === "rack" || type === "blade")) {
      const [own, other] = type === "rack" ? [rack, blade] : [blade, rack];
      return other * units > own
        ? [own, own, other * this.units.numberMax()]
        : [own, other * this.units.numberMin(), own];
    }
    const impact = type === "blade" ? blade : rack;
    return [impact * units, impact * this.units.numberMin(), impact * this.units.numberMax()];
  }
}

/**
 * A part with a fixed impact per unit (§4.8), read from its own factors section (its kind in lower
 * case: `MOTHERBOARD` → `factors.yml` `motherboard`). A new kind of the same shape is one more
 * description, no new class.
 */
interface FixedImpactPart<Name extends Uppercase<string> = Uppercase<string>> {
  readonly kind: Name;
  /** False for a part whose use is out of the methodology's scope (the assembly, §4.9). */
  readonly usePhase: boolean;
}

export const MOTHERBOARD_PART = { kind: "MOTHERBOARD", usePhase: true } as const satisfies FixedImpactPart;
export const ASSEMBLY_PART = { kind: "ASSEMBLY", usePhase: false } as const satisfies FixedImpactPart;

export class FixedImpactComponent<Name extends Uppercase<string> = Uppercase<string>> extends Component {
  readonly kind: Name;
  private readonly usePhase: boolean;

  constructor(
    context: EngineContext,
    cells: ComponentCells,
    part: FixedImpactPart<Name>,
    input: ComponentInputBase = {},
    listWorkloadUnit = "%",
  ) {
    super(context, cells);
    this.kind = part.kind;
    this.usePhase = part.usePhase;
    this.applyCommonInput(input, listWorkloadUnit);
  }

  namedAttributes(): [string, Attribute<AttributeValue>][] {
    return [["units", this.units]];
  }

  protected embeddedPerUnit(criterion: string, duration: number, allocation: Allocation): RawImpact {
    const impact = requiredFactor(this.context.data.factors, this.kind.toLowerCase(), criterion, "impact");
    return this.allocated(this.withEndOfLife(impact), duration, allocation);
  }

  protected override usePerUnit(criterion: string, duration: number): RawImpact {
    if (!this.usePhase) throw new NotImplementedError(`${this.kind.toLowerCase()} has no use phase`);
    return super.usePerUnit(criterion, duration);
  }
}
