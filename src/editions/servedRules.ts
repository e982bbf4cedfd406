import type { ServiceConfig } from "../data/types.js";
import type { EditionRules, RoundingPrecision } from "../engine/index.js";

// Reading and checking settings is the data layer's (src/data/editionSettings.ts); re-exported here for
// the modules that read settings through the edition.
export { type Environment, SettingsError, settingsWithOverrides } from "../data/editionSettings.js";

/** The rounding settings of a configuration (docs/methodology.md §12). */
function roundingPrecision(config: ServiceConfig): RoundingPrecision {
  return { uncertainty: config.uncertainty, maxSigFig: config.maxSigFig, minSigFig: config.minSigFig };
}

/**
 * An edition's rules as served: its (or its base's) rules with the settings they read — the
 * rounding settings and the default criteria. The engine reads these from its context.
 */
export function rulesWithSettings(rules: EditionRules, config: ServiceConfig): EditionRules {
  const precision = roundingPrecision(config);
  const round = rules.roundImpact;
  return {
    ...rules,
    roundImpact: (v, vmin, vmax) => round(v, vmin, vmax, precision),
    defaultCriteria: config.defaultCriteria,
  };
}
