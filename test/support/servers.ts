/**
 * The complete server configuration of docs/methodology.md §18.3 (boaviztapi's test_complete_server):
 * 2 CPUs of 24 cores, 2 × 4 RAM modules, 2 SSDs and 2 HDDs, 2 power supplies of 10 kg. Shared by the
 * engine, GraphQL and REST tests (and the benchmark's request body) so the worked example is written once.
 */
import type { ServerInput } from "../../src/engine/index.js";

/** Engine and GraphQL spelling (camelCase). */
export const COMPLETE_CONFIGURATION = {
  cpu: { units: 2, coreUnits: 24, dieSizePerCore: 24.5 },
  ram: [
    { units: 4, capacity: 32, density: 1.79 },
    { units: 4, capacity: 16, density: 1.79 },
  ],
  disk: [
    { units: 2, type: "ssd", capacity: 400, density: 50.6 },
    { units: 2, type: "hdd" },
  ],
  powerSupply: { units: 2, unitWeight: 10 },
} as const satisfies ServerInput["configuration"];

/** The same configuration in a v1 REST body (snake_case). */
export const COMPLETE_CONFIGURATION_V1 = {
  cpu: { units: 2, core_units: 24, die_size_per_core: 24.5 },
  ram: COMPLETE_CONFIGURATION.ram,
  disk: COMPLETE_CONFIGURATION.disk,
  power_supply: { units: 2, unit_weight: 10 },
} as const;
