import { parse as parseCsv } from "csv-parse/sync";
import { parse as parseYaml } from "yaml";
import { parseCell } from "./cells.js";
import {
  applySettings,
  checkedSettings,
  type Environment,
  settingsWithOverrides,
} from "./editionSettings.js";
import {
  countRows,
  type DataFolder,
  dataFolder,
  hasFile,
  isDataFileName,
  readDataFile,
  rowsLeft,
} from "./folder.js";
import { overlaidRows, overlaidTree, type ParsedCsv, refusePrototypeKeys } from "./overlay.js";
import { CLOUD_INSTANCE_COLUMNS } from "./tables.js";
import {
  type Archetype,
  type ArchetypeCell,
  type ArchetypeTable,
  type CloudRegion,
  COMPONENT_ARCHETYPE_FILES,
  type ComponentArchetypeTables,
  type ComponentTableName,
  type CpuProfileRow,
  type CpuSpec,
  type DataSetToLoad,
  type Electricity,
  type ElectricityFactor,
  type ElectricityLocation,
  type FactorTree,
  type GpuSpec,
  type ReferenceData,
  type ServiceConfig,
  type TableColumns,
} from "./types.js";
import { checkTable, DataError, displayPath, oneLine } from "./validate.js";

type CsvRow = Record<string, string>;

/** A CSV table as read: its header and its rows. */
interface CsvTable {
  readonly header: string[];
  readonly rows: CsvRow[];
}

/** `data/` two levels above this module: src/data/load.ts, or the bundle dist/bundle/server.mjs. */
const DATA_ROOT = new URL("../../data/", import.meta.url);

/** The directory of an edition's typed copies (`data/<edition id>/`, built by `npm run data`). */
export function editionDataDir(edition: DataSetToLoad, root: URL = DATA_ROOT): URL {
  return new URL(`${edition.id}/`, root);
}

/** A column name that would reach an object's prototype when rows are made objects. */
const PROTOTYPE_NAMES = new Set(["__proto__", "constructor", "prototype"]);

/** A CSV file of a folder, parsed: a built-in data set's as `npm run data` stored it parsed. */
export function parseCsvFile(folder: DataFolder, file: string): ParsedCsv {
  const stored = folder.stored?.get(file);
  if (stored === undefined) return parsedCsvFile(folder, file);
  folder.asked.add(file);
  countRows(folder, displayPath(folder.dir, file), stored.records.length);
  return stored;
}

/**
 * A CSV file of a folder, parsed; its rows counted against the folder's bound as they are parsed
 * (the parse stops at the first row past it).
 */
function parsedCsvFile(folder: DataFolder, file: string): ParsedCsv {
  const where = displayPath(folder.dir, file);
  const text = readDataFile(folder, file);
  if (text === null) throw new DataError(`${where}: missing file`);
  const maxRows = rowsLeft(folder);
  let header: string[] = [];
  let records: ParsedCsv["records"];
  // A refusal thrown from the parser's callbacks, rethrown as is (the parser may wrap it).
  let refused: DataError | null = null;
  const refuse = (error: unknown) => {
    refused = error instanceof DataError ? error : null;
    throw error;
  };
  try {
    records = parseCsv(text, {
      // The reference reads these files with pandas, which fills short rows with NaN.
      columns: (names: string[]) => {
        const bad = names.find((name) => PROTOTYPE_NAMES.has(name.trim()));
        if (bad !== undefined) refuse(new DataError(`${where}:1:${bad}: not a column name`));
        header = names;
        return names;
      },
      skip_empty_lines: true,
      bom: true,
      relax_column_count: true,
      info: true,
      on_record: (record: unknown, context: { records: number }) => {
        if (context.records > maxRows) {
          try {
            countRows(folder, where, context.records);
          } catch (error) {
            refuse(error);
          }
        }
        return record;
      },
    }) as ParsedCsv["records"];
  } catch (error) {
    if (refused !== null) throw refused;
    const line = (error as { lines?: number }).lines;
    throw new DataError(`${where}${line ? `:${line}` : ""}: ${oneLine((error as Error).message)}`);
  }
  countRows(folder, where, records.length);
  // A file cut short (a copy interrupted, a truncated download) ends in the middle of a row: its
  // last row is shorter than the header and no line break follows it.
  const last = records[records.length - 1];
  if (last && !/[\r\n]$/.test(text) && Object.keys(last.record).length < header.length) {
    const cells = Object.keys(last.record).length;
    if (Object.values(last.record).some((cell) => cell !== "")) {
      throw new DataError(
        `${where}:${last.info.lines}:${header[cells]}: truncated file (the last row has ${cells} of ${header.length} cells and no line break)`,
      );
    }
  }
  // A row of empty cells (`,,,,`) is no row: pandas reads NaN everywhere, which nothing matches.
  const rows = records.filter(({ record }) =>
    Object.values(record).some((cell) => cell !== "" && cell != null),
  );
  return { header, records: rows };
}

/** A parsed CSV checked against its columns (when the edition lists them), as a table. */
function checkedTable(where: string, { header, records }: ParsedCsv, columns?: TableColumns): CsvTable {
  if (columns) checkTable(where, header, records, columns);
  return { header, rows: records.map(({ record }) => record) };
}

function parseYamlText(where: string, text: string): unknown {
  try {
    return parseYaml(text);
  } catch (error) {
    const line = (error as { linePos?: { line: number }[] }).linePos?.[0]?.line;
    throw new DataError(`${where}${line ? `:${line}` : ""}: ${oneLine((error as Error).message)}`);
  }
}

/** A YAML or JSON file of a folder, parsed (null when absent); prototype keys refused. */
function readTree(folder: DataFolder, file: string): unknown {
  const where = displayPath(folder.dir, file);
  const text = readDataFile(folder, file);
  if (text === null) return null;
  let tree: unknown;
  if (file.endsWith(".json")) {
    try {
      tree = JSON.parse(text);
    } catch (error) {
      throw new DataError(`${where}: ${oneLine((error as Error).message)}`);
    }
  } else {
    tree = parseYamlText(where, text);
  }
  refusePrototypeKeys(tree, where);
  return tree;
}

function asRecord(value: unknown, what: string): Record<string, unknown> {
  if (!value || typeof value !== "object" || Array.isArray(value))
    throw new DataError(`${what}: expected a mapping`);
  return value as Record<string, unknown>;
}

function optionalNumber(text: string | undefined): number | null {
  if (text === undefined || text.trim() === "") return null;
  const n = Number(text);
  return Number.isNaN(n) ? null : n;
}

function optionalString(text: string | undefined): string | null {
  return text === undefined || text === "" ? null : text;
}

function archetypeTable({ header, rows }: CsvTable, idColumn = "id"): ArchetypeTable {
  const ids: string[] = [];
  const byId = new Map<string, Archetype>();
  for (const row of rows) {
    const id = row[idColumn];
    ids.push(id);
    if (byId.has(id)) continue;
    const cells: Record<string, ArchetypeCell> = {};
    for (const column of header) if (column !== idColumn) cells[column] = parseCell(row[column]);
    byId.set(id, { id, cells });
  }
  return { ids, byId };
}

/** `config.yml` (1.2.4 data sets): its entries are settings by their boaviztapi names. */
function loadConfigFile(
  raw: Record<string, unknown>,
  where: string,
  defaultCriteria: readonly string[],
): ServiceConfig {
  const defaultArchetypes: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (key.startsWith("default_") && typeof value === "string") defaultArchetypes[key.slice(8)] = value;
  }
  const number = (key: string): number => {
    const value = raw[key];
    if (typeof value !== "number" || !Number.isFinite(value)) {
      throw new DataError(`${where}:${key}: expected a number, found ${JSON.stringify(value ?? null)}`);
    }
    return value;
  };
  const criteria = raw.default_criteria ?? defaultCriteria;
  if (!Array.isArray(criteria) || !criteria.every((item) => typeof item === "string")) {
    throw new DataError(`${where}:default_criteria: expected a list of criteria, e.g. [gwp, adp, pe]`);
  }
  if (typeof raw.default_location !== "string") {
    throw new DataError(`${where}:default_location: expected a location code, e.g. EEE`);
  }
  return checkedSettings(
    {
      defaultLocation: raw.default_location,
      defaultCriteria: criteria,
      uncertainty: number("uncertainty"),
      maxSigFig: number("max_sig_fig"),
      minSigFig: number("min_sig_fig"),
      cpuNameFuzzyThreshold: number("cpu_name_fuzzymatch_threshold"),
      gpuNameFuzzyThreshold: null,
      cloudInstanceNameFuzzyThreshold: null,
      defaultArchetypes,
    },
    (key) => `${where}:${key}`,
  );
}

/** A number of factors.yml (`value`, `min`, `max` of an electricity factor). */
function factorNumber(value: unknown, what: string): number {
  const n = typeof value === "number" ? value : typeof value === "string" ? Number(value) : Number.NaN;
  if (!Number.isFinite(n))
    throw new DataError(`${what}: expected a number, found ${JSON.stringify(value ?? null)}`);
  return n;
}

function loadElectricity(section: Record<string, unknown>, where: string): Electricity {
  const byLocation = new Map<string, ElectricityLocation>();
  const bounds = new Map<string, { min: number; max: number }>();
  let availableCountries: [string, string][] = [];
  for (const [key, value] of Object.entries(section)) {
    const entry = asRecord(value, `${where}:electricity.${key}`);
    if (key === "min-max") {
      for (const [factor, range] of Object.entries(entry)) {
        const r = asRecord(range, `${where}:electricity.min-max.${factor}`);
        bounds.set(factor, {
          min: factorNumber(r.min, `${where}:electricity.min-max.${factor}.min`),
          max: factorNumber(r.max, `${where}:electricity.min-max.${factor}.max`),
        });
      }
    } else if (key === "available_countries") {
      availableCountries = Object.entries(entry).map(([name, code]) => [name, String(code)]);
    } else {
      const factors = new Map<string, ElectricityFactor>();
      for (const [factor, data] of Object.entries(entry)) {
        if (factor === "country") continue;
        const d = asRecord(data, `${where}:electricity.${key}.${factor}`);
        factors.set(factor, {
          value: factorNumber(d.value, `${where}:electricity.${key}.${factor}.value`),
          source: String(d.source ?? ""),
          unit: String(d.unit ?? ""),
        });
      }
      byLocation.set(key, { country: String(entry.country ?? ""), factors });
    }
  }
  return {
    byLocation,
    bounds,
    availableCountries,
    countryCodes: new Set(availableCountries.map(([, code]) => code)),
  };
}

/**
 * `factors.yml` and its electricity section, or null when a custom folder has none (the base's).
 * A built-in data set also has `factors.json`, the same converted by scripts/build-data.ts (JSON
 * loads ~25x faster); a custom folder may have either. An overlay's tree is merged over the base's.
 */
function loadFactors(
  folder: DataFolder,
  base: ReferenceData | null,
  overlay: boolean,
): { factors: FactorTree; electricity: Electricity } | null {
  const file = hasFile(folder, "factors.json") ? "factors.json" : "factors.yml";
  const where = displayPath(folder.dir, file);
  const own = readTree(folder, file);
  if (own === null) {
    if (base !== null) return null;
    throw new DataError(`${where}: missing file`);
  }
  const tree =
    overlay && base !== null ? overlaidTree(base.factors, asRecord(own, where), where) : asRecord(own, where);
  return {
    factors: tree as FactorTree,
    electricity: loadElectricity(asRecord(tree.electricity, `${where}:electricity`), where),
  };
}

function cpuSpecs({ rows }: CsvTable): CpuSpec[] {
  return rows.map((row) => ({
    name: row.name,
    nameLower: row.name.toLowerCase(),
    codeName: optionalString(row.code_name),
    manufacturer: optionalString(row.manufacturer),
    modelRange: optionalString(row.model_range),
    tdp: optionalNumber(row.tdp),
    cores: optionalNumber(row.cores),
    threads: optionalNumber(row.threads),
    totalDieSize: optionalNumber(row.total_die_size),
    totalDieSizeSource: optionalString(row.total_die_size_source),
    source: optionalString(row.source),
  }));
}

function gpuSpecs({ rows }: CsvTable): GpuSpec[] {
  return rows.map((row) => ({
    name: row.name,
    nameLower: row.name.toLowerCase(),
    manufacturer: optionalString(row.manufacturer),
    vramDies: optionalNumber(row.number),
    vram: optionalNumber(row.vram),
    dieSurface: optionalNumber(row.die_surface),
    pwbSurface: optionalNumber(row.pwb_surface),
    distanceBoat: optionalNumber(row.distance_boat),
    distanceTruck: optionalNumber(row.distance_truck),
    distancePlane: optionalNumber(row.distance_plane),
    massCasing: optionalNumber(row.mass_casing),
    massHeatsink: optionalNumber(row.mass_heatsink),
    mass: optionalNumber(row.mass),
    source: optionalString(row.source),
  }));
}

function memoryTypes({ rows }: CsvTable): ReadonlyMap<string, string> {
  return new Map(rows.map((row) => [row.cpu_family, row.memory_type]));
}

function cpuProfiles({ rows }: CsvTable): CpuProfileRow[] {
  return rows.map((row) => ({
    manufacturer: row.manufacturer,
    modelRange: row.model_range,
    a: Number(row.a),
    b: Number(row.b),
    c: Number(row.c),
    d: Number(row.d),
  }));
}

/**
 * `archetypes/cloud/regions.csv` (edition 2.4.1, docs/methodology.md §19.7.5), cells trimmed as the
 * reference reads them.
 */
function cloudRegions({ rows }: CsvTable): CloudRegion[] {
  return rows.map((row) => ({
    provider: row.provider.trim(),
    region: row.region.trim(),
    usageLocation: row.usage_location.trim(),
  }));
}

/** The base edition of a custom one: its folder and its loaded tables, shared where the custom folder has no file. */
export interface BaseData {
  readonly dir: URL;
  readonly data: ReferenceData;
}

const CLOUD_INSTANCES_FALLBACK: TableColumns = CLOUD_INSTANCE_COLUMNS;

/** Reads an edition's tables from its folder: over the base's same files in an overlay, or beside them. */
class TableReader {
  readonly folder: DataFolder;
  readonly base: BaseData | undefined;
  /** The base's folder, read under an overlay's files (null without an overlay). */
  readonly baseFolder: DataFolder | null;
  private readonly listed: ReadonlyMap<string, DataSetToLoad["dataSet"]["tables"][number]>;

  constructor(edition: DataSetToLoad, folder: DataFolder, base: BaseData | undefined) {
    this.folder = folder;
    this.base = base;
    this.baseFolder = base && edition.dataOverlay === true ? dataFolder(base.dir, null) : null;
    this.listed = new Map(edition.dataSet.tables.map((table) => [table.file, table]));
  }

  /** The columns the edition's data set lists for a file, if it lists it. */
  columns(file: string): TableColumns | undefined {
    return this.listed.get(file)?.columns;
  }

  /** A CSV file of the folder, over the base's same file in an overlay, checked. */
  csv(file: string, columns: TableColumns | undefined): CsvTable {
    const where = displayPath(this.folder.dir, file);
    const own = parseCsvFile(this.folder, file);
    if (this.baseFolder === null || !hasFile(this.baseFolder, file)) return checkedTable(where, own, columns);
    const merged = overlaidRows(where, parseCsvFile(this.baseFolder, file), own, columns?.key ?? ["id"]);
    return checkedTable(where, merged, columns);
  }

  /** Whether the base's table serves for a file the folder lacks. */
  fromBase(file: string): boolean {
    return this.base !== undefined && !hasFile(this.folder, file);
  }

  /** A table of this folder, or the base's (the same object) when the folder lacks its file. */
  table<T>(file: string, read: (csv: CsvTable) => T, ofBase: (data: ReferenceData) => T): T {
    if (this.base && this.fromBase(file)) return ofBase(this.base.data);
    return read(this.csv(file, this.columns(file)));
  }

  /** A table only some data sets have (GPUs, regions): read where the edition lists it. */
  feature<T>(file: string, read: (csv: CsvTable) => T, ofBase: (data: ReferenceData) => T | null): T | null {
    return this.listed.has(file) ? this.table(file, read, (data) => ofBase(data) as T) : null;
  }

  archetypes(file: string, ofBase: (data: ReferenceData) => ArchetypeTable): ArchetypeTable {
    return this.table(file, (csv) => archetypeTable(csv), ofBase);
  }
}

/** The cloud providers and each one's instance table (`archetypes/cloud/<provider>.csv`). */
function cloudTables(reader: TableReader): Pick<ReferenceData, "cloudProviders" | "cloudInstances"> {
  const providersFile = "archetypes/cloud/providers.csv";
  const providers = reader.table(
    providersFile,
    ({ rows }) =>
      rows.map((row) => ({ name: row["provider.name"], description: row["provider.description"] })),
    (data) => data.cloudProviders,
  );
  const cloudInstances = new Map<string, ArchetypeTable>();
  for (const provider of providers) {
    // A provider's name is joined into its table's path: it must be a file name, nothing more.
    if (!isDataFileName(provider.name)) {
      throw new DataError(
        `${displayPath(reader.folder.dir, providersFile)}:provider.name: ${JSON.stringify(provider.name.slice(0, 40))} is not a file name (letters, digits, '_', '-', '.', not first)`,
      );
    }
    const file = `archetypes/cloud/${provider.name}.csv`;
    const shared = reader.fromBase(file) ? reader.base?.data.cloudInstances.get(provider.name) : undefined;
    cloudInstances.set(
      provider.name,
      shared ?? archetypeTable(reader.csv(file, reader.columns(file) ?? CLOUD_INSTANCES_FALLBACK)),
    );
  }
  return { cloudProviders: providers, cloudInstances };
}

/** The component archetype tables (an optional one null where the data set has none). */
function componentTables(reader: TableReader): ComponentArchetypeTables {
  return Object.fromEntries(
    Object.entries(COMPONENT_ARCHETYPE_FILES).map(([name, { file, optional }]) => {
      const ofBase = (data: ReferenceData) => data.archetypes[name as ComponentTableName];
      const read = optional
        ? reader.feature(file, (csv) => archetypeTable(csv), ofBase)
        : reader.archetypes(file, (data) => ofBase(data) as ArchetypeTable);
      return [name, read];
    }),
  ) as unknown as ComponentArchetypeTables;
}

/** The crowdsourced component tables (CPU, GPU, RAM, SSD) and the CPU consumption profiles. */
function componentSpecifications(
  reader: TableReader,
): Pick<ReferenceData, "cpuSpecs" | "gpuSpecs" | "ramManufacture" | "ssdManufacture" | "cpuProfiles"> {
  return {
    cpuSpecs: reader.table("crowdsourcing/cpu_specs.csv", cpuSpecs, (data) => data.cpuSpecs),
    gpuSpecs: reader.feature("crowdsourcing/gpu_specs.csv", gpuSpecs, (data) => data.gpuSpecs) ?? [],
    ramManufacture: reader.table(
      "crowdsourcing/ram_manufacture.csv",
      ({ rows }) =>
        rows.map((row) => ({
          manufacturer: row.manufacturer,
          process: optionalNumber(row.process),
          density: Number(row.density),
        })),
      (data) => data.ramManufacture,
    ),
    ssdManufacture: reader.table(
      "crowdsourcing/ssd_manufacture.csv",
      ({ rows }) =>
        rows.map((row) => ({
          manufacturer: row.manufacturer,
          layers: optionalNumber(row.layers),
          density: Number(row.density),
          source: optionalString(row.source),
        })),
      (data) => data.ssdManufacture,
    ),
    cpuProfiles: reader.table(
      "consumption_profile/cpu/cpu_profile.csv",
      cpuProfiles,
      (data) => data.cpuProfiles,
    ),
  };
}

/**
 * Reads, checks and indexes every reference table of an edition once (never per request): the
 * tables its data set lists (`edition.dataSet.tables`), each from `folder` (`dir`, unbounded, by
 * default). A custom edition (`base` given) reads the files its folder has and shares the base's
 * table objects for the others; with `edition.dataOverlay` each file it has gives only the rows
 * (by key) and factors that change the base's (src/data/overlay.ts).
 * `env` holds the start-up environment, read only by editions whose settings it may override
 * (docs/methodology.md §19.1.2).
 * @throws DataError (one line `file:row:column: problem`) for a table the service cannot read.
 */
export function loadReferenceData(
  edition: DataSetToLoad,
  dir: URL = editionDataDir(edition),
  env: Environment = {},
  base?: BaseData,
  folder: DataFolder = dataFolder(dir, null),
): ReferenceData {
  const reader = new TableReader(edition, folder, base);
  const factors =
    loadFactors(folder, base?.data ?? null, reader.baseFolder !== null) ?? (base as BaseData).data;
  const cloud = cloudTables(reader);
  // Read in the order of the returned object (settings, server, components, …): a data set with
  // several broken tables reports the same one first.
  const config = editionSettings(edition, folder, env, base, reader.baseFolder);
  const server = reader.archetypes("archetypes/server.csv", (data) => data.archetypes.server);
  const components = componentTables(reader);
  return {
    config,
    factors: factors.factors,
    electricity: factors.electricity,
    archetypes: {
      server,
      ...components,
      userTerminal: reader.archetypes("archetypes/user_terminal.csv", (data) => data.archetypes.userTerminal),
      iotDevice: reader.archetypes("archetypes/iot_device.csv", (data) => data.archetypes.iotDevice),
    },
    ...cloud,
    cloudRegions: reader.feature("archetypes/cloud/regions.csv", cloudRegions, (data) => data.cloudRegions),
    ...componentSpecifications(reader),
    memoryTypes: reader.feature(
      "consumption_profile/ram/memory_type.csv",
      memoryTypes,
      (data) => data.memoryTypes,
    ),
  };
}

/**
 * An edition's settings: its data set's `config.yml` (a custom folder's own replaces the base's, or
 * in an overlay changes the base's entries it names), or its compiled-in settings with the
 * environment's overrides (docs/methodology.md §19.1.2); then a custom edition's `settings`
 * (EDITIONS_FILE), by their boaviztapi names.
 */
function editionSettings(
  edition: DataSetToLoad,
  folder: DataFolder,
  env: Environment,
  base: BaseData | undefined,
  baseFolder: DataFolder | null,
): ServiceConfig {
  const { settings } = edition;
  let config: ServiceConfig;
  if ("file" in settings) {
    const where = displayPath(folder.dir, settings.file);
    const own = readTree(folder, settings.file);
    if (own === null && !base) throw new DataError(`${where}: missing file`);
    if (own === null) {
      config = (base as BaseData).data.config;
    } else {
      const ofBase = baseFolder === null ? null : readTree(baseFolder, settings.file);
      const raw = { ...(ofBase === null ? {} : asRecord(ofBase, where)), ...asRecord(own, where) };
      config = loadConfigFile(raw, where, settings.defaultCriteria);
    }
  } else {
    config = base
      ? base.data.config
      : settingsWithOverrides(settings.values, settings.environmentPrefix, env);
  }
  const overrides = edition.settingsOverrides;
  if (!overrides || Object.keys(overrides).length === 0) return config;
  return applySettings(config, overrides, (key) => `EDITIONS_FILE: edition ${edition.id}: settings.${key}`);
}
