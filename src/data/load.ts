import { existsSync, readFileSync } from "node:fs";
import { parse as parseCsv } from "csv-parse/sync";
import { parse as parseYaml } from "yaml";
import { type Environment, settingsWithOverrides } from "../editions/settings.js";
import type { EditionDescription } from "../editions/types.js";
import { EDITION_1_2_4 } from "../editions/v1_2_4.js";
import { parseCell } from "./cells.js";
import type {
  Archetype,
  ArchetypeCell,
  ArchetypeTable,
  CloudRegion,
  CpuProfileRow,
  CpuSpec,
  Electricity,
  ElectricityFactor,
  ElectricityLocation,
  FactorTree,
  GpuSpec,
  ReferenceData,
  ServiceConfig,
} from "./types.js";

type CsvRow = Record<string, string>;

/** `data/` two levels above this module: src/data/load.ts, or the bundle dist/bundle/server.mjs. */
const DATA_ROOT = new URL("../../data/", import.meta.url);

/** The directory of an edition's typed copies (`data/<edition id>/`, built by `npm run data`). */
export function editionDataDir(edition: EditionDescription, root: URL = DATA_ROOT): URL {
  return new URL(`${edition.id}/`, root);
}

function readCsv(dir: URL, file: string): { header: string[]; rows: CsvRow[] } {
  let header: string[] = [];
  const rows: CsvRow[] = parseCsv(readFileSync(new URL(file, dir), "utf8"), {
    // The reference reads these files with pandas, which fills short rows with NaN.
    columns: (names: string[]) => {
      header = names;
      return names;
    },
    skip_empty_lines: true,
    bom: true,
    relax_column_count: true,
  });
  return { header, rows };
}

function readYaml(dir: URL, file: string): unknown {
  return parseYaml(readFileSync(new URL(file, dir), "utf8"));
}

function asRecord(value: unknown, what: string): Record<string, unknown> {
  if (!value || typeof value !== "object" || Array.isArray(value))
    throw new Error(`${what}: expected a mapping`);
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

function archetypeTable(dir: URL, file: string, idColumn = "id"): ArchetypeTable {
  const { header, rows } = readCsv(dir, file);
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

function loadConfig(dir: URL): ServiceConfig {
  const raw = asRecord(readYaml(dir, "config.yml"), "config.yml");
  const defaultArchetypes: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (key.startsWith("default_") && typeof value === "string") defaultArchetypes[key.slice(8)] = value;
  }
  return {
    defaultLocation: String(raw.default_location),
    defaultCriteria: (raw.default_criteria as string[]) ?? ["gwp", "adp", "pe"],
    uncertainty: Number(raw.uncertainty),
    maxSigFig: Number(raw.max_sig_fig),
    minSigFig: Number(raw.min_sig_fig),
    cpuNameFuzzyThreshold: Number(raw.cpu_name_fuzzymatch_threshold),
    gpuNameFuzzyThreshold: null,
    cloudInstanceNameFuzzyThreshold: null,
    defaultArchetypes,
  };
}

function loadElectricity(section: Record<string, unknown>): Electricity {
  const byLocation = new Map<string, ElectricityLocation>();
  const bounds = new Map<string, { min: number; max: number }>();
  let availableCountries: [string, string][] = [];
  for (const [key, value] of Object.entries(section)) {
    const entry = asRecord(value, `electricity.${key}`);
    if (key === "min-max") {
      for (const [factor, range] of Object.entries(entry)) {
        const r = asRecord(range, `min-max.${factor}`);
        bounds.set(factor, { min: Number(r.min), max: Number(r.max) });
      }
    } else if (key === "available_countries") {
      availableCountries = Object.entries(entry).map(([name, code]) => [name, String(code)]);
    } else {
      const factors = new Map<string, ElectricityFactor>();
      for (const [factor, data] of Object.entries(entry)) {
        if (factor === "country") continue;
        const d = asRecord(data, `electricity.${key}.${factor}`);
        factors.set(factor, {
          value: Number(d.value),
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

function loadCpuSpecs(dir: URL): CpuSpec[] {
  return readCsv(dir, "crowdsourcing/cpu_specs.csv").rows.map((row) => ({
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

const GPU_ARCHETYPES = "archetypes/components/gpu.csv";
const GPU_SPECS = "crowdsourcing/gpu_specs.csv";

/** The GPU tables of a data set that has them (METHOD-2.4.1.md §5.2, §5.6). */
function loadGpuTables(dir: URL): { archetypes: ArchetypeTable | null; specs: GpuSpec[] } {
  if (!existsSync(new URL(GPU_ARCHETYPES, dir))) return { archetypes: null, specs: [] };
  const specs = readCsv(dir, GPU_SPECS).rows.map((row) => ({
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
  }));
  return { archetypes: archetypeTable(dir, GPU_ARCHETYPES), specs };
}

function loadCpuProfiles(dir: URL): CpuProfileRow[] {
  return readCsv(dir, "consumption_profile/cpu/cpu_profile.csv").rows.map((row) => ({
    manufacturer: row.manufacturer,
    modelRange: row.model_range,
    a: Number(row.a),
    b: Number(row.b),
    c: Number(row.c),
    d: Number(row.d),
  }));
}

/**
 * `archetypes/cloud/regions.csv` (edition 2.4.1, METHOD-2.4.1 §7.5), cells trimmed as the reference
 * reads them; null for a data set without regions (its cloud usage has no `region`).
 */
function loadCloudRegions(dir: URL): CloudRegion[] | null {
  const file = "archetypes/cloud/regions.csv";
  if (!existsSync(new URL(file, dir))) return null;
  return readCsv(dir, file).rows.map((row) => ({
    provider: row.provider.trim(),
    region: row.region.trim(),
    usageLocation: row.usage_location.trim(),
  }));
}

/**
 * Reads and indexes every reference table of an edition once (never per request). `env` holds the
 * start-up environment, read only by editions whose settings it may override (METHOD-2.4.1 §1.2).
 */
export function loadReferenceData(
  edition: EditionDescription = EDITION_1_2_4,
  dir: URL = editionDataDir(edition),
  env: Environment = {},
): ReferenceData {
  const { settings } = edition;
  // factors.json is factors.yml converted by scripts/build-data.ts (JSON loads ~25x faster).
  const factorsFile = asRecord(
    JSON.parse(readFileSync(new URL("factors.json", dir), "utf8")),
    "factors.json",
  );
  const providers = readCsv(dir, "archetypes/cloud/providers.csv").rows.map((row) => ({
    name: row["provider.name"],
    description: row["provider.description"],
  }));
  const cloudInstances = new Map<string, ArchetypeTable>();
  for (const provider of providers) {
    cloudInstances.set(provider.name, archetypeTable(dir, `archetypes/cloud/${provider.name}.csv`));
  }
  const gpu = loadGpuTables(dir);
  return {
    config:
      "file" in settings
        ? loadConfig(dir)
        : settingsWithOverrides(settings.values, settings.environmentPrefix, env),
    factors: factorsFile as FactorTree,
    electricity: loadElectricity(asRecord(factorsFile.electricity, "electricity")),
    archetypes: {
      server: archetypeTable(dir, "archetypes/server.csv"),
      cpu: archetypeTable(dir, "archetypes/components/cpu.csv"),
      ram: archetypeTable(dir, "archetypes/components/ram.csv"),
      ssd: archetypeTable(dir, "archetypes/components/ssd.csv"),
      hdd: archetypeTable(dir, "archetypes/components/hdd.csv"),
      powerSupply: archetypeTable(dir, "archetypes/components/power_supply.csv"),
      case: archetypeTable(dir, "archetypes/components/case.csv"),
      gpu: gpu.archetypes,
      userTerminal: archetypeTable(dir, "archetypes/user_terminal.csv"),
      iotDevice: archetypeTable(dir, "archetypes/iot_device.csv"),
    },
    cloudProviders: providers,
    cloudInstances,
    cloudRegions: loadCloudRegions(dir),
    cpuSpecs: loadCpuSpecs(dir),
    gpuSpecs: gpu.specs,
    ramManufacture: readCsv(dir, "crowdsourcing/ram_manufacture.csv").rows.map((row) => ({
      manufacturer: row.manufacturer,
      process: optionalNumber(row.process),
      density: Number(row.density),
    })),
    ssdManufacture: readCsv(dir, "crowdsourcing/ssd_manufacture.csv").rows.map((row) => ({
      manufacturer: row.manufacturer,
      layers: optionalNumber(row.layers),
      density: Number(row.density),
      source: optionalString(row.source),
    })),
    cpuProfiles: loadCpuProfiles(dir),
  };
}
