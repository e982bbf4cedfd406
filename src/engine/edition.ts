import type { ImpactRounding } from "./rounding.js";

/**
 * The rules of the methodology that differ between editions, as values and strategies the engine
 * reads (never an edition name the engine would test). Each edition's values are given in one
 * place, `src/editions/<edition>.ts`; the engine receives them through its context.
 */
export interface EditionRules {
  /** The version of the reference API these rules reproduce (`/v1/utils/version`). */
  readonly version: string;
  /** How an impact triple is rounded (METHOD.md §12.3; METHOD-2.4.1 §2 caps the magnitude). */
  readonly roundImpact: ImpactRounding;
  /** How cloud instances differ (METHOD-2.4.1 §7, §12). */
  readonly cloud: CloudRules;
}

/** Cloud instance rules that differ between editions. */
export interface CloudRules {
  /**
   * Whether the verbose lists the instance's `units` (1.2.4). 2.4.1 never reads them, so its
   * verbose has no `units` (kept quirk, METHOD-2.4.1 Appendix D.19).
   */
  readonly verboseUnits: boolean;
  /**
   * An instance whose platform is not a server archetype: hosted on the default server archetype
   * (1.2.4, where the reference fails with HTTP 500), or not found (404, METHOD-2.4.1 §7.2).
   */
  readonly unknownPlatform: "default-server" | "not-found";
}
