import { existsSync, realpathSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { type DataBudget, DEFAULT_DATA_BOUNDS, dataBudget, dataFolder, unreadFiles } from "../data/folder.js";
import { type GenerativeAiData, loadGenerativeAiData } from "../data/generativeAi.js";
import { type BaseData, editionDataDir, loadReferenceData } from "../data/load.js";
import type { ReferenceData } from "../data/types.js";
import { checkReferences, DataError, displayPath, referenceNotices } from "../data/validate.js";
import { featureProblems } from "../editions/features.js";
import { EDITIONS, type EditionDescription, type GenerativeAiEditionDescription } from "../editions/index.js";
import { type Environment, SettingsError } from "../editions/servedRules.js";
import { builtOncePer } from "../support/builtOnce.js";

/*
 * The reference data of every served edition, read and checked whole at start-up (docs/own-data.md,
 * "Bounds and checks at start-up"): the built-in editions, then each custom edition over its base (the tables its
 * folder lacks are the base's objects, shared). Nothing is served before this succeeds.
 */

/** One edition's data, loaded and checked. */
export interface LoadedEdition {
  readonly edition: EditionDescription;
  readonly data: ReferenceData;
  /** What the data holds that answers will show but that does not stop the start (logged). */
  readonly notices: readonly string[];
  /**
   * What the operator most likely got wrong but that does not stop the start (logged as
   * warnings): files of a custom data folder the edition does not read.
   */
  readonly warnings: readonly string[];
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

/** A path with its links resolved (as the folder's files are listed), or as given when it cannot be. */
function realPathOf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/**
 * The files of a custom folder its edition does not read (a file put in the wrong folder, a
 * misspelt name): a warning each, not an error — boaviztapi's data folders carry files the
 * service never reads (`electricity/`, `usage.csv`), and a folder copied whole must still start.
 */
function unreadWarnings(edition: EditionDescription, folder: ReturnType<typeof dataFolder>): string[] {
  const ignore = new Set(edition.editionsFile ? [realPathOf(edition.editionsFile)] : []);
  return unreadFiles(folder, ignore).map(
    (file) =>
      `edition ${edition.id}: ${displayPath(folder.dir, file)}: not read (not a file of edition ${edition.base}'s data layout, docs/own-data.md)`,
  );
}

/**
 * The built-in editions as loaded and checked, by id and settings: their data is the package's own
 * and read-only, so a process that opens the service again (each run of the command's function in
 * a test process, an Impact Framework plugin per manifest) reads and checks it once. Custom
 * editions are read again each time: their folders are the user's, and may change.
 */
const LOADED = new Map<string, LoadedEdition>();

function loadOne(
  edition: EditionDescription,
  env: Environment,
  base?: BaseData,
  budget: DataBudget | null = null,
): LoadedEdition {
  const dir = folderOf(edition);
  try {
    const folder = dataFolder(dir, budget);
    const data = loadReferenceData(edition, dir, env, base, folder);
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
    const warnings = base === undefined ? [] : unreadWarnings(edition, folder);
    return { edition, data, notices: [...notices, ...referenceNotices(data, file)], warnings };
  } catch (error) {
    if (error instanceof DataError || error instanceof SettingsError)
      throw new StartupDataError(error.message);
    // A data file nested past the parser's stack: still one line naming the edition.
    if (error instanceof RangeError)
      throw new StartupDataError(`edition ${edition.id}: ${displayPath(dir, ".")}: ${error.message}`);
    throw error;
  }
}

/** A built-in edition under the settings `env`: loaded and checked at its first use in the process. */
function builtInLoaded(edition: EditionDescription, env: Environment): LoadedEdition {
  const key = `${edition.id}\0${JSON.stringify(env)}`;
  const known = LOADED.get(key);
  if (known !== undefined) return known;
  const loaded = loadOne(edition, env);
  LOADED.set(key, loaded);
  return loaded;
}

/**
 * Loads and checks the built-in editions and the custom ones, in that order (with `wanted`, those
 * it names and the bases of the custom ones it names).
 * @throws StartupDataError (one line) for the first problem found.
 */
export function loadEditions(
  custom: readonly EditionDescription[] = [],
  env: Environment = {},
  wanted: ReadonlySet<string> | null = null,
): LoadedEdition[] {
  // Only the editions asked for (a command that serves one), each custom one with its base.
  const chosen = wanted === null ? custom : custom.filter((edition) => wanted.has(edition.id));
  const bases = new Set(chosen.map((edition) => edition.base));
  const builtIn = EDITIONS.filter(
    (edition) => wanted === null || wanted.has(edition.id) || bases.has(edition.id),
  ).map((edition) => builtInLoaded(edition, env));
  // One budget for every custom folder: the bounds hold for the start-up's custom data together.
  const budget = dataBudget(chosen[0]?.dataBounds ?? DEFAULT_DATA_BOUNDS);
  const customLoaded = chosen.map((edition) => {
    const base = builtIn.find((loaded) => loaded.edition.id === edition.base);
    if (!base) throw new StartupDataError(`edition ${edition.id}: unknown base ${edition.base}`);
    return loadOne(edition, env, { dir: folderOf(base.edition), data: base.data }, budget);
  });
  return [...builtIn, ...customLoaded];
}

/**
 * The generative-AI edition's tables (docs/methodology.md, "Generative AI"), read and checked at
 * their first use in the process: the package's own, read-only, so a process opening the service
 * again reads them once.
 * @throws StartupDataError (one line naming file, row and column) for tables that cannot be served.
 */
export const loadedGenerativeAi: (edition: GenerativeAiEditionDescription) => GenerativeAiData = builtOncePer(
  (edition) => {
    try {
      return loadGenerativeAiData(edition.id);
    } catch (error) {
      if (error instanceof DataError) throw new StartupDataError(`edition ${edition.id}: ${error.message}`);
      throw error;
    }
  },
);
