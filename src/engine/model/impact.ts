import type { Attribute } from "./attribute.js";
import type { Allocation } from "./context.js";
import type { EditionRules } from "./edition.js";

/** An unrounded impact triple with its warnings (docs/methodology.md §4.0). */
export interface RawImpact {
  readonly value: number;
  readonly min: number;
  readonly max: number;
  readonly warnings: readonly string[];
}

/** The phases of an impact (docs/methodology.md §1), in the reference's order: every listing follows it. */
export const PHASES = ["embedded", "use"] as const;
export type Phase = (typeof PHASES)[number];

export const END_OF_LIFE_WARNING = "End of life is not included in the calculation";
export const GENERIC_DATA_WARNING = "Generic data used for impact calculation.";

export function constantImpact(value: number, warnings: readonly string[] = []): RawImpact {
  return { value, min: value, max: value, warnings };
}

/**
 * §6.2 lifetime allocation of an embedded impact over the evaluation duration D:
 * D beyond the lifetime gives the whole impact (Appendix D.9), otherwise D / lifetime with the
 * bounds crossed (min uses the longest lifetime). TOTAL allocation keeps the whole impact.
 */
export function allocate(
  impact: RawImpact,
  duration: number,
  lifetime: Attribute<number>,
  allocation: Allocation,
): RawImpact {
  if (allocation === "TOTAL") return impact;
  const life = lifetime.numberValue();
  if (duration > life) return impact;
  const lifeMax = lifetime.numberMax();
  const lifeMin = lifetime.numberMin();
  return {
    value: impact.value * ratio(duration, life),
    min: impact.min * ratio(duration, lifeMax),
    max: impact.max * ratio(duration, lifeMin),
    warnings: impact.warnings,
  };
}

/** A zero lifetime can only be outlived: the whole impact is allocated. */
function ratio(duration: number, lifetime: number): number {
  return lifetime === 0 ? 1 : duration / lifetime;
}

/** §4.0 step 2: multiply by the units triple (value first, then min, then max) and a share α. */
export function scaleByUnits(impact: RawImpact, units: Attribute<number>, share = 1): RawImpact {
  const value = impact.value * units.numberValue() * share;
  const min = impact.min * units.numberMin() * share;
  const max = impact.max * units.numberMax() * share;
  const warnings = impact.warnings.length <= 1 ? impact.warnings : [...new Set(impact.warnings)];
  return { value, min, max, warnings };
}

export function sumImpacts(impacts: readonly RawImpact[]): RawImpact {
  let value = 0;
  let min = 0;
  let max = 0;
  const warnings: string[] = [];
  for (const impact of impacts) {
    value += impact.value;
    min += impact.min;
    max += impact.max;
    warnings.push(...impact.warnings);
  }
  return { value, min, max, warnings };
}

/**
 * Use over a duration: factor × power (kW) × use-time ratio × hours, value with value, min with
 * min, max with max (§5.5, §7.4). Quirk kept in 1.2.4 (§5.4): the simple formula of devices with a
 * given power crosses the use-time ratio bounds, τ⁺ on the min side and τ⁻ on the max side
 * (aligned in 2.4.1, docs/methodology.md §19.3.4).
 */
function useOverDuration(
  factor: Attribute<number>,
  power: Attribute<number>,
  useTimeRatio: Attribute<number>,
  duration: number,
  crossedRatioBounds: boolean,
): RawImpact {
  const value = factor.numberValue() * (power.numberValue() / 1000) * useTimeRatio.numberValue() * duration;
  // No duration (NaN, a bare motherboard): the reference fails on this first product, having read
  // the factor, the power and the ratio but none of their bounds; so do we ("not implemented").
  if (Number.isNaN(duration)) return { value, min: value, max: value, warnings: [] };
  const ratioForMin = crossedRatioBounds ? useTimeRatio.numberMax() : useTimeRatio.numberMin();
  const min = factor.numberMin() * (power.numberMin() / 1000) * ratioForMin * duration;
  const ratioForMax = crossedRatioBounds ? useTimeRatio.numberMin() : useTimeRatio.numberMax();
  const max = factor.numberMax() * (power.numberMax() / 1000) * ratioForMax * duration;
  return { value, min, max, warnings: [] };
}

/** §5.4 simple use formula (given power: storage, case, motherboard, terminals). */
export function simpleUse(
  factor: Attribute<number>,
  power: Attribute<number>,
  useTimeRatio: Attribute<number>,
  duration: number,
  ratioBounds: EditionRules["useTimeRatioBounds"],
): RawImpact {
  return useOverDuration(factor, power, useTimeRatio, duration, ratioBounds === "crossed");
}

/** §5.5 / §7.4 use formula on a modelled power (no bound crossing). */
export function modelledUse(
  factor: Attribute<number>,
  power: Attribute<number>,
  useTimeRatio: Attribute<number>,
  duration: number,
): RawImpact {
  return useOverDuration(factor, power, useTimeRatio, duration, false);
}
