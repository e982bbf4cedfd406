/**
 * What differs between editions on the consumption-profile route (docs/methodology.md §10.4,
 * docs/methodology.md §19.10.2). Part of an edition's description (its values: src/editions).
 */
export interface ProfileRouteRules {
  /**
   * 1.2.4 never uses a TDP on this route (Appendix D.18); 2.4.1 fits the profile to the four
   * TDP points of the input TDP, else of the matched name's TDP.
   */
  readonly usesTdp: boolean;
  /**
   * 2.4.1 writes a given `family` into the model range, overwriting a given model range
   * (kept quirk, docs/methodology.md §19.15.12); 1.2.4 ignores `family`.
   */
  readonly familyOverwritesModelRange: boolean;
}
