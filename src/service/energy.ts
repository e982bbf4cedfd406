/*
 * The electricity behind an asset's use impacts, read from its answer's v1 verbose (REST's
 * `verbose`, GraphQL's `verbose { v1 }`): every use impact is the location's factor × this energy
 * (docs/methodology.md §5.4, §5.5, §7.4, §8.4: factor × power × use-time ratio × hours × units),
 * so `gwp_use / energy` is the factor applied. Read by the command line's inventory rows
 * (`energy_kwh`) and the IF plugins (`energy`).
 */

/** A v1 verbose: attribute name → its value (and unit, status, bounds, which are not read here). */
export type V1Verbose = Readonly<Record<string, { readonly value?: unknown } | undefined>>;

const numberAt = (verbose: V1Verbose, name: string): number | undefined => {
  const value = verbose[name]?.value;
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
};

/**
 * How the asset's `avg_power` counts its units: per unit (servers, cloud instances, terminals,
 * peripherals, IoT devices, a component of given power: the use is scaled by `units`), or for all
 * of them (a CPU or RAM whose power is modelled holds every unit's power already, §5.5).
 */
export type PowerPer = "unit" | "all units";

/**
 * The energy in kWh over the verbose's `duration`: `avg_power` (W) × hours × `use_time_ratio`
 * (1 when absent) × `units` (per-unit power) ÷ 1000, or its `energy` where it states it (a
 * generative-AI request); undefined when the verbose has no power or duration (a use impact not
 * implemented).
 */
export function useEnergyKwh(verbose: V1Verbose, powerPer: PowerPer): number | undefined {
  // A verbose stating its energy (a generative-AI request's: no power, no duration) says it.
  const stated = numberAt(verbose, "energy");
  if (stated !== undefined) return stated;
  const power = numberAt(verbose, "avg_power");
  const hours = numberAt(verbose, "duration");
  if (power === undefined || hours === undefined) return undefined;
  const ratio = numberAt(verbose, "use_time_ratio") ?? 1;
  const units = powerPer === "unit" ? (numberAt(verbose, "units") ?? 1) : 1;
  return (power * hours * ratio * units) / 1000;
}

/** The climate-change factor of the electricity the use impacts multiply, and the place it is of. */
export interface GwpFactor {
  /** kgCO2eq/kWh (the verbose's `gwp_factor`). */
  readonly kgPerKwh: number;
  /** The usage location the factor is of (`usage_location`: given, a region's, or the default). */
  readonly location: string;
}

/** The verbose's `gwp_factor` and `usage_location`; undefined when it has either not. */
export function gwpFactorOf(verbose: V1Verbose): GwpFactor | undefined {
  const kgPerKwh = numberAt(verbose, "gwp_factor");
  const location = verbose.usage_location?.value;
  return kgPerKwh === undefined || typeof location !== "string" ? undefined : { kgPerKwh, location };
}
