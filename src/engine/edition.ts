import type { ProfileRouteRules } from "./profile.js";
import type { ImpactRounding } from "./rounding.js";
import type { UserDeviceRules } from "./terminal.js";

/**
 * The rules of the methodology that differ between editions, as values and strategies the engine
 * reads (never an edition name the engine would test). Each edition's values are given in one
 * place, `src/editions/<edition>.ts`; the engine receives them through its context.
 */
export interface EditionRules {
  /** The version of the reference API these rules reproduce (`/v1/utils/version`). */
  readonly version: string;
  /** Terminal and peripheral kinds, and whether their manufacturing impact is allocated. */
  readonly userDevices: UserDeviceRules;
  /** How `POST /v1/consumption_profile/cpu` reads the CPU (TDP, family). */
  readonly profileRoute: ProfileRouteRules;
  /**
   * Archetype ids (server, component, terminal, IoT rows, instance types) are matched exactly in
   * 1.2.4 (`%20dellR740%20` is not found), after trimming surrounding blanks in 2.4.1
   * (METHOD-2.4.1.md §11.5).
   */
  readonly trimsArchetypeIds: boolean;
  /** How an impact triple is rounded (METHOD.md §12.3; METHOD-2.4.1 §2 caps the magnitude). */
  readonly roundImpact: ImpactRounding;
}
