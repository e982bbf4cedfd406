import { existsSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { type BaseData, editionDataDir, loadReferenceData } from "./data/load.js";
import type { ReferenceData } from "./data/types.js";
import { checkReferences, DataError, displayPath, referenceNotices } from "./data/validate.js";
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

/** How start-up messages name an edition's settings. */
function settingsSource(edition: EditionDescription, dir: URL): (key: string) => string {
  if (edition.settingsOverrides && Object.keys(edition.settingsOverrides).length > 0) {
    return (key) =>
      key in (edition.settingsOverrides ?? {})
        ? `EDITIONS_FILE: edition ${edition.id}: settings.${key}`
        : `edition ${edition.id}: setting ${key}`;
  }
  const { settings } = edition;
  if ("file" in settings) return (key) => `${displayPath(dir, settings.file)}:${key}`;
  return (key) => `edition ${edition.id}: setting ${key} (${settings.environmentPrefix}${key.toUpperCase()})`;
}

function loadOne(edition: EditionDescription, env: Environment, base?: BaseData): LoadedEdition {
  const dir = folderOf(edition);
  try {
    const data = loadReferenceData(edition, dir, env, base);
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
        base === undefined ||
        key in (edition.settingsOverrides ?? {}) ||
        ("file" in edition.settings && existsSync(new URL(edition.settings.file, dir))),
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
