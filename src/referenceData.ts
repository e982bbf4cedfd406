import { existsSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { type BaseData, editionDataDir, loadReferenceData } from "./data/load.js";
import type { ReferenceData } from "./data/types.js";
import { checkReferences, DataError, displayPath, referenceNotices } from "./data/validate.js";
import { featureProblems } from "./editions/features.js";
import { EDITIONS, type EditionDescription } from "./editions/index.js";
import { type Environment, SettingsError } from "./editions/settings.js";

/*
 * The reference data of every served edition, read and checked whole at start-up (README "Your
 * own data"): the built-in editions, then each custom edition over its base (the tables its
 * folder lacks are the base's objects, shared). Nothing is served before this succeeds.
 */

/** One edition's data, loaded and checked. */
export interface LoadedEdition {
  readonly edition: EditionDescription;
  readonly data: ReferenceData;
  /** What the data holds that answers will show but that does not stop the start (logged). */
  readonly notices: readonly string[];
}

/** A data set or settings the service cannot serve: one line naming the file, row and column. */
export class StartupDataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StartupDataError";
  }
}

/** The folder of an edition's data: a custom edition's own, a built-in's typed copy under data/. */
function folderOf(edition: EditionDescription): URL {
  return edition.dataFolder === null
    ? editionDataDir(edition)
    : pathToFileURL(edition.dataFolder.endsWith("/") ? edition.dataFolder : `${edition.dataFolder}/`);
}

/** Whether a custom edition's folder has its own settings file (a 1.2.4 base's `config.yml`). */
function ownSettingsFile(edition: EditionDescription, dir: URL): boolean {
  return "file" in edition.settings && existsSync(new URL(edition.settings.file, dir));
}

/** How start-up messages name an edition's setting: where it was given, or whence it was inherited. */
function settingsSource(edition: EditionDescription, dir: URL): (key: string) => string {
  const { settings } = edition;
  return (key) => {
    if (key in (edition.settingsOverrides ?? {}))
      return `EDITIONS_FILE: edition ${edition.id}: settings.${key}`;
    if ("file" in settings && (edition.base === null || ownSettingsFile(edition, dir))) {
      return `${displayPath(dir, settings.file)}:${key}`;
    }
    if (edition.base !== null)
      return `edition ${edition.id}: setting ${key} (inherited from edition ${edition.base})`;
    const variable =
      "environmentPrefix" in settings ? ` (${settings.environmentPrefix}${key.toUpperCase()})` : "";
    return `edition ${edition.id}: setting ${key}${variable}`;
  };
}

function loadOne(edition: EditionDescription, env: Environment, base?: BaseData): LoadedEdition {
  const dir = folderOf(edition);
  try {
    const data = loadReferenceData(edition, dir, env, base);
    // The features the edition states (GPUs, regions…) must be what its data and rules hold.
    const [problem] = featureProblems(edition, data);
    if (problem !== undefined) throw new StartupDataError(problem);
    const file = (name: string) => displayPath(dir, name);
    const notices = checkReferences(data, {
      settingsSource: settingsSource(edition, dir),
      userDeviceKinds: new Set([
        ...edition.rules.userDevices.terminalKinds,
        ...edition.rules.userDevices.peripheralKinds,
      ]),
      criteria: new Set(edition.rules.criteria.map((criterion) => criterion.name)),
      file,
      chosen: (key) =>
        base === undefined || key in (edition.settingsOverrides ?? {}) || ownSettingsFile(edition, dir),
    });
    return { edition, data, notices: [...notices, ...referenceNotices(data, file)] };
  } catch (error) {
    if (error instanceof DataError || error instanceof SettingsError)
      throw new StartupDataError(error.message);
    throw error;
  }
}

/**
 * Loads and checks the built-in editions and the custom ones, in that order.
 * @throws StartupDataError (one line) for the first problem found.
 */
export function loadEditions(
  custom: readonly EditionDescription[] = [],
  env: Environment = {},
): LoadedEdition[] {
  const builtIn = EDITIONS.map((edition) => loadOne(edition, env));
  const customLoaded = custom.map((edition) => {
    const base = builtIn.find((loaded) => loaded.edition.id === edition.base);
    if (!base) throw new StartupDataError(`edition ${edition.id}: unknown base ${edition.base}`);
    return loadOne(edition, env, { dir: folderOf(base.edition), data: base.data });
  });
  return [...builtIn, ...customLoaded];
}
