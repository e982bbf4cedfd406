import { MEMORY_TYPE_COLUMNS } from "../data/tables.js";
import { CRITERIA, type CriterionInfo, ELECTRICITY_KEYS, FACTOR_UNITS } from "../engine/index.js";
import type { DataTable, EditionDescription } from "./types.js";
import { EDITION_2_4_1 } from "./v2_4_1.js";

/**
 * docs/methodology.md §20.5: final energy is labelled in kWh (its factor, 1, in kWh/kWh), and the two
 * toxicity criteria are listed under their own name (`ctuh_c`), so the `CTUh_c` spelling names none.
 */
const CRITERIA_2_5_0: readonly CriterionInfo[] = CRITERIA.map((criterion) => {
  if (criterion.name === "fe") return { ...criterion, unit: "kWh" };
  if (criterion.key !== criterion.name) return { ...criterion, key: criterion.name };
  return criterion;
});

/** 2.5.0 reads every 2.4.1 table (some with new rows) and the memory type of each CPU family. */
const TABLES: readonly DataTable[] = [
  ...EDITION_2_4_1.dataSet.tables,
  {
    file: "consumption_profile/ram/memory_type.csv",
    purpose: "memory type (DDR3, DDR4, DDR5) of each CPU family, for the RAM modules of a cloud host",
    columns: MEMORY_TYPE_COLUMNS,
  },
];

/**
 * boaviztapi 2.5.0 (docs/methodology.md §20, its changes from 2.4.1): RAM power per module with the
 * load, disk power, GPU names completing GPUs, cloud GPUs shared by the instance's GPUs, `fe` in kWh.
 * Same routes, request fields, settings, validation and rounding as 2.4.1.
 */
export const EDITION_2_5_0: EditionDescription = {
  ...EDITION_2_4_1,
  id: "2.5.0",
  graphqlName: "V2_5_0",
  summary:
    "boaviztapi 2.5.0 (docs/methodology.md §20): RAM and disk power models, GPU models by name, cloud GPUs per instance, fe in kWh.",
  dataSet: {
    raw: "boaviztapi-v2.5.0",
    upstream: "boaviztapi 2.5.0 (the package index's release of October 2026, wheel sha256 1f0a3b67…)",
    tables: TABLES,
    notCopied: EDITION_2_4_1.dataSet.notCopied,
  },
  rules: {
    ...EDITION_2_4_1.rules,
    version: "2.5.0",
    criteria: CRITERIA_2_5_0,
    cloud: { ...EDITION_2_4_1.rules.cloud, gpuShare: "gpuUnits" },
    // docs/methodology.md §20.3.1: figures of boaviztapi 2.5.0's RAM consumption model.
    ramPower: {
      kind: "perModule",
      baseWatts: 3.0,
      wattsPerGb: 0.055,
      idleRatio: 0.7,
      typicalModuleGb: { DDR3: 16, DDR4: 32, DDR5: 64 },
      defaultMemoryType: "DDR4",
    },
    serverRamPower: "own",
    // docs/methodology.md §20.3.2: watts per drive (value, min, max) of boaviztapi 2.5.0's disk models.
    diskPower: { ssd: [8, 2, 20], hdd: [6.4, 5.4, 9.4] },
    electricityKeys: { ...ELECTRICITY_KEYS, gwppf: "gwpf" },
    factorUnits: { ...FACTOR_UNITS, fe: "kWh/kWh" },
    zeroGlobalBound: "bound",
    gpuName: "completes",
  },
};
