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
  /**
   * 2.4.1 and 2.5.0 build the route's CPU as their CPU component, whose manufacturer, model range
   * and TDP default to the edition's default CPU archetype's: what neither the body nor the
   * matched name gives comes from there (a custom edition's archetype with a model range: that
   * range's profile, boaviztapi's own API test `test_complete_invalid_cpu_returns_default`). 1.2.4
   * takes them from the body and the name only (docs/methodology.md §10.4).
   */
  readonly archetypeCompletes: boolean;
}
