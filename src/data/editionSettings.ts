import type { ServiceConfig } from "./types.js";

/** Environment variables as read at start-up. */
export type Environment = Readonly<Record<string, string | undefined>>;

/** A settings override that cannot be read (the start-up stops with this message). */
export class SettingsError extends Error {
  constructor(variable: string, problem: string) {
    super(`${variable}: ${problem}`);
    this.name = "SettingsError";
  }
}

/*
 * An edition's settings by their boaviztapi names (`default_server`, `uncertainty`, …), from
 * three places: a 1.2.4 data set's `config.yml`, the environment (`BOAVIZTA_<KEY>` over 2.4.1's
 * compiled-in settings, docs/methodology.md §19.1.2) and a custom edition's `settings`
 * (EDITIONS_FILE). One reading rule for all three: `applySettings`.
 */

/** The numeric settings: their field, and the values allowed. */
const NUMBER_SETTINGS = {
  uncertainty: { field: "uncertainty", min: Number.MIN_VALUE, max: 100, integer: false },
  max_sig_fig: { field: "maxSigFig", min: 1, max: 17, integer: true },
  min_sig_fig: { field: "minSigFig", min: 1, max: 17, integer: true },
  cpu_name_fuzzymatch_threshold: { field: "cpuNameFuzzyThreshold", min: 0, max: 100, integer: false },
  gpu_name_fuzzymatch_threshold: { field: "gpuNameFuzzyThreshold", min: 0, max: 100, integer: false },
  cloud_instance_name_fuzzymatch_threshold: {
    field: "cloudInstanceNameFuzzyThreshold",
    min: 0,
    max: 100,
    integer: false,
  },
} as const satisfies Record<
  string,
  { field: keyof ServiceConfig; min: number; max: number; integer: boolean }
>;

type NumberSetting = keyof typeof NUMBER_SETTINGS;

/** The settings an edition has, by their boaviztapi names (a threshold it lacks is not one). */
function settingNames(config: ServiceConfig): string[] {
  const numbers = Object.entries(NUMBER_SETTINGS)
    .filter(([, { field }]) => config[field] !== null)
    .map(([name]) => name);
  const defaults = Object.keys(config.defaultArchetypes).map((kind) => `default_${kind}`);
  if (!defaults.includes("default_location")) defaults.unshift("default_location");
  return [...defaults, "default_criteria", ...numbers];
}

function describeNumber(name: NumberSetting): string {
  const { min, max, integer } = NUMBER_SETTINGS[name];
  const low = min === Number.MIN_VALUE ? "above 0" : `at least ${min}`;
  return `expected ${integer ? "a whole number" : "a number"} ${low} and at most ${max}`;
}

/**
 * `settings` over a base: each named setting replaced, the others kept.
 * @throws SettingsError (naming the setting through `where`) for an unknown name or a bad value.
 */
export function applySettings(
  base: ServiceConfig,
  settings: Readonly<Record<string, unknown>>,
  where: (key: string) => string,
): ServiceConfig {
  const allowed = settingNames(base);
  const numbers: Record<string, number | null> = {};
  const defaultArchetypes: Record<string, string> = { ...base.defaultArchetypes };
  let defaultCriteria = base.defaultCriteria;
  for (const [name, value] of Object.entries(settings)) {
    if (!allowed.includes(name)) {
      throw new SettingsError(where(name), `unknown setting (allowed: ${allowed.join(", ")})`);
    }
    if (name in NUMBER_SETTINGS) {
      const rule = NUMBER_SETTINGS[name as NumberSetting];
      if (
        typeof value !== "number" ||
        !Number.isFinite(value) ||
        value < rule.min ||
        value > rule.max ||
        (rule.integer && !Number.isInteger(value))
      ) {
        throw new SettingsError(
          where(name),
          `${describeNumber(name as NumberSetting)}, found ${JSON.stringify(value)}`,
        );
      }
      numbers[rule.field] = value;
    } else if (name === "default_criteria") {
      if (!Array.isArray(value) || value.length === 0 || !value.every((item) => typeof item === "string")) {
        throw new SettingsError(where(name), 'expected a list of criteria, e.g. ["gwp","pe"]');
      }
      defaultCriteria = value;
    } else {
      if (typeof value !== "string" || value.trim() === "") {
        throw new SettingsError(where(name), `expected an archetype id, found ${JSON.stringify(value)}`);
      }
      defaultArchetypes[name.slice("default_".length)] = value;
    }
  }
  const config: ServiceConfig = {
    ...base,
    ...numbers,
    defaultCriteria,
    defaultArchetypes,
    defaultLocation: defaultArchetypes.location ?? base.defaultLocation,
  };
  return checkedSettings(config, where);
}

/**
 * The settings' consistency: `min_sig_fig` at most `max_sig_fig`.
 * @throws SettingsError otherwise.
 */
export function checkedSettings(config: ServiceConfig, where: (key: string) => string): ServiceConfig {
  if (config.minSigFig > config.maxSigFig) {
    throw new SettingsError(
      where("min_sig_fig"),
      `${config.minSigFig} is above max_sig_fig ${config.maxSigFig}`,
    );
  }
  return config;
}

/** An environment variable's text as a setting's value: a number, a JSON list, or the text. */
function environmentValue(name: string, variable: string, text: string): unknown {
  if (name in NUMBER_SETTINGS) {
    const value = Number(text.trim());
    if (text.trim() === "" || !Number.isFinite(value)) throw new SettingsError(variable, "expected a number");
    return value;
  }
  if (name === "default_criteria") {
    try {
      return JSON.parse(text);
    } catch {
      throw new SettingsError(variable, 'expected a JSON list of strings, e.g. ["gwp","pe"]');
    }
  }
  return text;
}

/**
 * docs/methodology.md §19.1.2: an edition whose settings are a compiled-in object lets each be overridden by
 * an environment variable `<prefix><KEY>` (upper-case key, lists as JSON), read once at start-up.
 * Only the settings the edition has are recognised; other variables are ignored, as there.
 * @throws SettingsError for a value that cannot be read.
 */
export function settingsWithOverrides(base: ServiceConfig, prefix: string, env: Environment): ServiceConfig {
  const variable = (key: string) => `${prefix}${key.toUpperCase()}`;
  const settings: Record<string, unknown> = {};
  for (const name of settingNames(base)) {
    const text = env[variable(name)];
    if (text !== undefined) settings[name] = environmentValue(name, variable(name), text);
  }
  return applySettings(base, settings, variable);
}
