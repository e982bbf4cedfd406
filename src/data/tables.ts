import type { TableColumns } from "./types.js";

/*
 * The columns each reference table must hold for the service to read it (checked at start-up,
 * src/data/validate.ts). Only what the service reads is required: a data set may carry other
 * columns (boaviztapi's test data has `CPU.vcpu`, `RAM.density`, …), which are kept as archetype
 * cells and otherwise ignored.
 */

/** An archetype table: rows named by a filled `id`. */
export const ARCHETYPE_COLUMNS: TableColumns = { required: ["id"], filled: ["id"] };

/** `archetypes/server.csv`: the counts and sizes the server model reads are numbers. */
export const SERVER_COLUMNS: TableColumns = {
  required: ["id"],
  filled: ["id"],
  numbers: [
    "CPU.units",
    "CPU.core_units",
    "CPU.die_size_per_core",
    "RAM.units",
    "RAM.capacity",
    "SSD.units",
    "SSD.capacity",
    "HDD.units",
    "HDD.capacity",
    "POWER_SUPPLY.units",
    "POWER_SUPPLY.unit_weight",
    "USAGE.use_time_ratio",
    "USAGE.hours_life_time",
    "USAGE.other_consumption_ratio",
  ],
};

/** `archetypes/cloud/<provider>.csv`: an instance type's resources and its hosting platform. */
export const CLOUD_INSTANCE_COLUMNS: TableColumns = {
  required: ["id", "vcpu", "memory", "ssd_storage", "hdd_storage", "platform"],
  filled: ["id", "vcpu", "memory", "platform"],
  numbers: ["vcpu", "memory", "ssd_storage", "hdd_storage"],
};

export const CLOUD_PROVIDER_COLUMNS: TableColumns = {
  required: ["provider.name", "provider.description"],
  filled: ["provider.name"],
  key: ["provider.name"],
};

export const CLOUD_REGION_COLUMNS: TableColumns = {
  required: ["provider", "region", "usage_location"],
  filled: ["provider", "region", "usage_location"],
  key: ["provider", "region"],
};

export const CPU_PROFILE_COLUMNS: TableColumns = {
  required: ["manufacturer", "model_range", "a", "b", "c", "d"],
  filled: ["manufacturer", "model_range", "a", "b", "c", "d"],
  key: ["manufacturer", "model_range"],
  numbers: ["a", "b", "c", "d"],
};

export const CPU_SPEC_COLUMNS: TableColumns = {
  required: ["name", "manufacturer", "code_name", "model_range", "tdp", "cores", "threads", "total_die_size"],
  filled: ["name"],
  key: ["name"],
  numbers: ["tdp", "cores", "threads", "total_die_size"],
};

export const GPU_SPEC_COLUMNS: TableColumns = {
  required: ["name", "manufacturer", "number", "vram", "die_surface"],
  filled: ["name"],
  key: ["name"],
  numbers: [
    "number",
    "vram",
    "die_surface",
    "pwb_surface",
    "distance_boat",
    "distance_truck",
    "distance_plane",
    "mass_casing",
    "mass_heatsink",
    "mass",
  ],
};

/** `consumption_profile/ram/memory_type.csv` (2.5.0): the memory type of each CPU family. */
export const MEMORY_TYPE_COLUMNS: TableColumns = {
  required: ["cpu_family", "memory_type"],
  filled: ["cpu_family", "memory_type"],
  key: ["cpu_family"],
};

export const RAM_MANUFACTURE_COLUMNS: TableColumns = {
  required: ["manufacturer", "process", "density"],
  filled: ["manufacturer", "density"],
  key: [],
  numbers: ["process", "density"],
};

export const SSD_MANUFACTURE_COLUMNS: TableColumns = {
  required: ["manufacturer", "density"],
  filled: ["manufacturer", "density"],
  key: [],
  numbers: ["layers", "density"],
};
