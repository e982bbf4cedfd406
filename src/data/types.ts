/**
 * Typed shapes of the reference tables (docs/methodology.md §17). Loaded once at start-up by
 * `loadReferenceData`; the engine only reads them.
 */

/** One part of an archetype cell after docs/methodology.md §3.2 conversion. */
export type CellValue = number | string | { readonly [key: string]: number };

/** A parsed archetype cell: `{}` (empty), `{default}`, or `{default, min, max}`. */
export interface ArchetypeCell {
  readonly default?: CellValue;
  readonly min?: CellValue;
  readonly max?: CellValue;
}

/** One archetype row: cells keyed by their full header (`CPU.core_units`, `units`, …) in column order. */
export interface Archetype {
  readonly id: string;
  readonly cells: Readonly<Record<string, ArchetypeCell>>;
}

export interface ArchetypeTable {
  /** Ids in file order (duplicates kept, as the listing routes return them). */
  readonly ids: readonly string[];
  /** First row of each id (docs/methodology.md §3.1: exact, case-sensitive, first match). */
  readonly byId: ReadonlyMap<string, Archetype>;
}

export interface ServiceConfig {
  readonly defaultLocation: string;
  readonly defaultCriteria: readonly string[];
  readonly uncertainty: number;
  readonly maxSigFig: number;
  readonly minSigFig: number;
  readonly cpuNameFuzzyThreshold: number;
  /** GPU name matching threshold (`name_to_gpu`); null where the edition has no GPU. */
  readonly gpuNameFuzzyThreshold: number | null;
  /** Cloud instance name matching threshold (per cent); null where names must match exactly. */
  readonly cloudInstanceNameFuzzyThreshold: number | null;
  /** `default_<kind>` entries of config.yml, keyed by kind (`server`, `cpu`, `laptop`, …). */
  readonly defaultArchetypes: Readonly<Record<string, string>>;
}

/** A node of factors.yml (component, device and IoT sections), read through accessors in the engine. */
export type FactorTree = { readonly [key: string]: FactorTree | number | string | null };

export interface ElectricityFactor {
  readonly value: number;
  readonly source: string;
  readonly unit: string;
}

export interface ElectricityLocation {
  readonly country: string;
  readonly factors: ReadonlyMap<string, ElectricityFactor>;
}

export interface Electricity {
  readonly byLocation: ReadonlyMap<string, ElectricityLocation>;
  /** Global bounds per factor key (`min-max` section), used for the default location. */
  readonly bounds: ReadonlyMap<string, { readonly min: number; readonly max: number }>;
  /** `available_countries` in file order: [country name, code]. */
  readonly availableCountries: readonly (readonly [string, string])[];
  readonly countryCodes: ReadonlySet<string>;
}

export interface CpuSpec {
  readonly name: string;
  readonly nameLower: string;
  readonly codeName: string | null;
  readonly manufacturer: string | null;
  readonly modelRange: string | null;
  readonly tdp: number | null;
  readonly cores: number | null;
  readonly threads: number | null;
  readonly totalDieSize: number | null;
  readonly totalDieSizeSource: string | null;
  readonly source: string | null;
}

/** A row of `gpu_specs.csv` (docs/methodology.md §19.5.6): a GPU model's characteristics. */
export interface GpuSpec {
  readonly name: string;
  readonly nameLower: string;
  readonly manufacturer: string | null;
  /** Number of VRAM dies. */
  readonly vramDies: number | null;
  /** GB. */
  readonly vram: number | null;
  /** Raw GPU die area, mm². */
  readonly dieSurface: number | null;
  /** cm². */
  readonly pwbSurface: number | null;
  /** km. */
  readonly distanceBoat: number | null;
  readonly distanceTruck: number | null;
  readonly distancePlane: number | null;
  /** kg. */
  readonly massCasing: number | null;
  readonly massHeatsink: number | null;
  /** Where the row's figures come from (its `source` cell; empty in some rows). */
  readonly source: string | null;
  readonly mass: number | null;
}

interface RamManufactureRow {
  readonly manufacturer: string;
  readonly process: number | null;
  readonly density: number;
}

interface SsdManufactureRow {
  readonly manufacturer: string;
  readonly layers: number | null;
  readonly density: number;
  readonly source: string | null;
}

export interface CpuProfileRow {
  readonly manufacturer: string;
  readonly modelRange: string;
  readonly a: number;
  readonly b: number;
  readonly c: number;
  readonly d: number;
}

interface CloudProvider {
  readonly name: string;
  readonly description: string;
}

/** A row of `regions.csv` (edition 2.4.1): a provider's region and its country. */
export interface CloudRegion {
  readonly provider: string;
  readonly region: string;
  /** NATO CodSP3 country code. */
  readonly usageLocation: string;
}

/**
 * The archetype files of the components described by archetypes, keyed by the table's name (the
 * component kind's, as in `default_<kind>` and the v1 paths). An `optional` table is one only some
 * data sets have (GPUs from edition 2.4.1): null where the edition's data set does not list it.
 * The component registry (src/engine/components/registry.ts) names which table each kind reads.
 */
export const COMPONENT_ARCHETYPE_FILES = {
  cpu: { file: "archetypes/components/cpu.csv", optional: false },
  ram: { file: "archetypes/components/ram.csv", optional: false },
  ssd: { file: "archetypes/components/ssd.csv", optional: false },
  hdd: { file: "archetypes/components/hdd.csv", optional: false },
  power_supply: { file: "archetypes/components/power_supply.csv", optional: false },
  case: { file: "archetypes/components/case.csv", optional: false },
  gpu: { file: "archetypes/components/gpu.csv", optional: true },
} as const satisfies Record<string, { readonly file: string; readonly optional: boolean }>;

export type ComponentTableName = keyof typeof COMPONENT_ARCHETYPE_FILES;

/** The component archetype tables of a data set (null for an optional one it lacks). */
export type ComponentArchetypeTables = {
  readonly [T in ComponentTableName]: (typeof COMPONENT_ARCHETYPE_FILES)[T]["optional"] extends true
    ? ArchetypeTable | null
    : ArchetypeTable;
};

export interface ReferenceData {
  readonly config: ServiceConfig;
  readonly factors: FactorTree;
  readonly electricity: Electricity;
  readonly archetypes: ComponentArchetypeTables & {
    readonly server: ArchetypeTable;
    readonly userTerminal: ArchetypeTable;
    readonly iotDevice: ArchetypeTable;
  };
  readonly cloudProviders: readonly CloudProvider[];
  /** Instance tables per provider name (only `aws` ships). */
  readonly cloudInstances: ReadonlyMap<string, ArchetypeTable>;
  /** Provider regions and their locations; null when the data set has none (edition 1.2.4). */
  readonly cloudRegions: readonly CloudRegion[] | null;
  readonly cpuSpecs: readonly CpuSpec[];
  /** GPU models for name matching (empty in an edition without GPUs). */
  readonly gpuSpecs: readonly GpuSpec[];
  readonly ramManufacture: readonly RamManufactureRow[];
  readonly ssdManufacture: readonly SsdManufactureRow[];
  readonly cpuProfiles: readonly CpuProfileRow[];
  /**
   * The memory type (`DDR4`…) of each CPU family (`consumption_profile/ram/memory_type.csv`,
   * docs/methodology.md §20.3.1); null when the data set has none (editions before 2.5.0).
   */
  readonly memoryTypes: ReadonlyMap<string, string> | null;
}

/**
 * What a CSV table must hold, checked when it is read at start-up (src/data/validate.ts): a
 * problem stops the start with one line `file:row:column: problem`.
 */
export interface TableColumns {
  /** Columns the header must name. */
  readonly required: readonly string[];
  /** Columns whose cells, when present, are numbers (each part of an archetype cell `a;b;c`). */
  readonly numbers?: readonly string[];
  /** Columns whose cell may not be empty in any row. */
  readonly filled?: readonly string[];
  /** Whether the table may have no row (default: at least one). */
  readonly mayBeEmpty?: boolean;
  /**
   * The columns naming a row, by which an overlay's row changes or removes the base's (default
   * `id`); none for a table of measurements (an overlay's rows are added to the base's).
   */
  readonly key?: readonly string[];
}

/**
 * The service settings of an edition: read from the data set's `config.yml` (1.2.4), or compiled
 * in (2.4.1 has no `config.yml`: its defaults are a settings object, docs/methodology.md §19.1).
 */
export type SettingsSource =
  | {
      readonly file: "config.yml";
      /** The default criteria when the file names none. */
      readonly defaultCriteria: readonly string[];
    }
  | {
      readonly values: ServiceConfig;
      /** Each setting may be overridden at start-up by the variable `<prefix><KEY>` (§1.2). */
      readonly environmentPrefix: string;
    };

/**
 * What the loader reads of an edition (src/data/load.ts): its id, the tables its data set lists
 * (with their columns), where its settings come from, and a custom edition's settings. An
 * edition's description (src/editions/types.ts) is one; the loader does not know editions.
 */
export interface DataSetToLoad {
  readonly id: string;
  readonly dataSet: {
    readonly tables: readonly { readonly file: string; readonly columns?: TableColumns }[];
  };
  readonly settings: SettingsSource;
  readonly settingsOverrides?: Readonly<Record<string, unknown>>;
  /**
   * Whether a custom edition's files give only what changes (rows by key, factors by path) over
   * its base's rather than replace them (EDITIONS_FILE `overlay: true`, docs/own-data.md).
   */
  readonly dataOverlay?: boolean;
}
