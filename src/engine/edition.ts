/**
 * The rules of the methodology that differ between editions, as values and strategies the engine
 * reads (never an edition name the engine would test). Each edition's values are given in one
 * place, `src/editions/<edition>.ts`; the engine receives them through its context.
 */
export interface EditionRules {
  /** The version of the reference API these rules reproduce (`/v1/utils/version`). */
  readonly version: string;
}
