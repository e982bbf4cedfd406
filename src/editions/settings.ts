import type { ServiceConfig } from "../data/types.js";

/** Environment variables as read at start-up. */
export type Environment = Readonly<Record<string, string | undefined>>;

/** A settings override that cannot be read (the start-up stops with this message). */
export class SettingsError extends Error {
  constructor(variable: string, problem: string) {
    super(`${variable}: ${problem}`);
    this.name = "SettingsError";
  }
}

function numberSetting(variable: string, text: string): number {
  const value = Number(text.trim());
  if (text.trim() === "" || !Number.isFinite(value)) throw new SettingsError(variable, "expected a number");
  return value;
}

function listSetting(variable: string, text: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new SettingsError(variable, 'expected a JSON list of strings, e.g. ["gwp","pe"]');
  }
  if (!Array.isArray(parsed) || !parsed.every((item) => typeof item === "string")) {
    throw new SettingsError(variable, 'expected a JSON list of strings, e.g. ["gwp","pe"]');
  }
  return parsed;
}

/**
 * METHOD-2.4.1 §1.2: an edition whose settings are a compiled-in object lets each be overridden by
 * an environment variable `<prefix><KEY>` (upper-case key, lists as JSON), read once at start-up.
 * Only the settings the service reads are recognised; other variables are ignored, as there.
 * @throws SettingsError for a value that cannot be read.
 */
export function settingsWithOverrides(base: ServiceConfig, prefix: string, env: Environment): ServiceConfig {
  const read = (key: string) => env[`${prefix}${key.toUpperCase()}`];
  const variable = (key: string) => `${prefix}${key.toUpperCase()}`;
  const defaultArchetypes: Record<string, string> = { ...base.defaultArchetypes };
  for (const kind of Object.keys(base.defaultArchetypes)) {
    const value = read(`default_${kind}`);
    if (value !== undefined) defaultArchetypes[kind] = value;
  }
  const number = (key: string, current: number) => {
    const value = read(key);
    return value === undefined ? current : numberSetting(variable(key), value);
  };
  const optionalNumber = (key: string, current: number | null) =>
    current === null ? null : number(key, current);
  const criteria = read("default_criteria");
  return {
    defaultLocation: defaultArchetypes.location ?? base.defaultLocation,
    defaultCriteria:
      criteria === undefined ? base.defaultCriteria : listSetting(variable("default_criteria"), criteria),
    uncertainty: number("uncertainty", base.uncertainty),
    maxSigFig: number("max_sig_fig", base.maxSigFig),
    minSigFig: number("min_sig_fig", base.minSigFig),
    cpuNameFuzzyThreshold: number("cpu_name_fuzzymatch_threshold", base.cpuNameFuzzyThreshold),
    gpuNameFuzzyThreshold: optionalNumber("gpu_name_fuzzymatch_threshold", base.gpuNameFuzzyThreshold),
    cloudInstanceNameFuzzyThreshold: optionalNumber(
      "cloud_instance_name_fuzzymatch_threshold",
      base.cloudInstanceNameFuzzyThreshold,
    ),
    defaultArchetypes,
  };
}
