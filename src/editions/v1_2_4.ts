import {
  ARCHETYPE_COLUMNS,
  CLOUD_INSTANCE_COLUMNS,
  CLOUD_PROVIDER_COLUMNS,
  CPU_PROFILE_COLUMNS,
  CPU_SPEC_COLUMNS,
  RAM_MANUFACTURE_COLUMNS,
  SERVER_COLUMNS,
  SSD_MANUFACTURE_COLUMNS,
} from "../data/tables.js";
import {
  CRITERIA,
  DEFAULT_CRITERIA,
  ELECTRICITY_CRITERIA,
  POWER_AND_FACTOR_RULES_BEFORE_2_5,
  roundImpact,
} from "../engine/index.js";
import { PYDANTIC_1 } from "./requestValidation.js";
import type { EditionDescription } from "./types.js";

/**
 * boaviztapi 1.2.4 (docs/methodology.md): AWS only, no regions, no GPU; settings in the data set's
 * `config.yml`.
 */
export const EDITION_1_2_4: EditionDescription = {
  id: "1.2.4",
  graphqlName: "V1_2_4",
  base: null,
  dataFolder: null,
  summary: "boaviztapi 1.2.4 (docs/methodology.md): AWS instances of 2023, country codes, no GPU.",
  dataSet: {
    raw: "boaviztapi-v1.2.4",
    upstream: "boaviztapi 1.2.4 (commit 5c86f53)",
    tables: [
      {
        file: "config.yml",
        purpose:
          "default archetype ids, default location EEE, criteria, rounding settings, CPU name match threshold",
      },
      {
        file: "factors.yml",
        purpose:
          "component, server, terminal and IoT impact factors; electricity factors per location with global min/max",
      },
      {
        file: "archetypes/server.csv",
        purpose: "server archetypes (cells `value;min;max`), also the AWS hosting platforms",
        columns: SERVER_COLUMNS,
      },
      {
        file: "archetypes/components/cpu.csv",
        purpose: "CPU archetype (DEFAULT) incl. the default consumption profile",
        columns: ARCHETYPE_COLUMNS,
      },
      { file: "archetypes/components/ram.csv", purpose: "RAM archetype", columns: ARCHETYPE_COLUMNS },
      { file: "archetypes/components/ssd.csv", purpose: "SSD archetype", columns: ARCHETYPE_COLUMNS },
      { file: "archetypes/components/hdd.csv", purpose: "HDD archetype", columns: ARCHETYPE_COLUMNS },
      {
        file: "archetypes/components/power_supply.csv",
        purpose: "power supply archetype",
        columns: ARCHETYPE_COLUMNS,
      },
      {
        file: "archetypes/components/case.csv",
        purpose: "case archetypes (rack, blade)",
        columns: ARCHETYPE_COLUMNS,
      },
      {
        file: "archetypes/user_terminal.csv",
        purpose: "terminal and peripheral archetypes",
        columns: ARCHETYPE_COLUMNS,
      },
      {
        file: "archetypes/iot_device.csv",
        purpose: "IoT device archetypes (functional block HSL levels)",
        columns: ARCHETYPE_COLUMNS,
      },
      {
        file: "archetypes/cloud/aws.csv",
        purpose: "AWS instance types: vCPU, memory, storage, hosting platform",
        columns: CLOUD_INSTANCE_COLUMNS,
      },
      { file: "archetypes/cloud/providers.csv", purpose: "cloud providers", columns: CLOUD_PROVIDER_COLUMNS },
      {
        file: "consumption_profile/cpu/cpu_profile.csv",
        purpose: "base CPU power profiles (a, b, c, d) per manufacturer / model range",
        columns: CPU_PROFILE_COLUMNS,
      },
      {
        file: "crowdsourcing/cpu_specs.csv",
        purpose: "CPU models: family, model range, TDP, cores, threads, total die size",
        columns: CPU_SPEC_COLUMNS,
      },
      {
        file: "crowdsourcing/ram_manufacture.csv",
        purpose: "RAM density by manufacturer and process",
        columns: RAM_MANUFACTURE_COLUMNS,
      },
      {
        file: "crowdsourcing/ssd_manufacture.csv",
        purpose: "SSD density by manufacturer and layers",
        columns: SSD_MANUFACTURE_COLUMNS,
      },
    ],
    notCopied:
      "Not copied (not read at run time, docs/methodology.md §17): `crowdsourcing/electrical_mix.csv` (the electricity " +
      "section of `factors.yml` was generated from it), `crowdsourcing/iot_factors_tide.csv`, " +
      "`crowdsourcing/ademe_base_impacts_negaoctet.csv`, `crowdsourcing/missing_cpu_manufacture.csv`.",
  },
  requestValidation: PYDANTIC_1,
  settings: { file: "config.yml", defaultCriteria: DEFAULT_CRITERIA },
  features: {
    gpus: false,
    cloudRegions: false,
    assemblyComponent: true,
    vrDevices: false,
    finalEnergy: false,
  },
  rules: {
    version: "1.2.4",
    userDevices: {
      terminalKinds: ["laptop", "desktop", "smartphone", "television", "tablet", "box"],
      peripheralKinds: ["monitor", "usb_stick", "external_ssd", "external_hdd"],
    },
    trimsArchetypeIds: false,
    // Appendix D.18: no TDP on the consumption-profile route; `family` ignored.
    profileRoute: { usesTdp: false, familyOverwritesModelRange: false, archetypeCompletes: false },
    roundImpact,
    defaultCriteria: DEFAULT_CRITERIA,
    // docs/methodology.md §14.1: every criterion but final energy (`fe`, added by 2.4.1).
    criteria: CRITERIA.filter((criterion) => criterion.name !== "fe"),
    // Every criterion but `fw` (the reference fails on its use phase; we answer not implemented).
    electricityFactorSlots: new Set(ELECTRICITY_CRITERIA),
    modelledUseUnits: "again",
    cpuPowerBounds: "point",
    useTimeRatioBounds: "crossed",
    explicitDefaultLocation: "kept",
    caseUnits: "once",
    userDeviceEmbedded: "whole",
    dieSizeInput: "withCoreUnits",
    ruleOfThree: "singleRow",
    profileTieBreak: "none",
    assemblyComponent: "served",
    cloud: {
      verboseUnits: true,
      unknownPlatform: "default-server",
      storageShareReadsCapacityBounds: false,
      gpuShare: "vcpu",
    },
    ...POWER_AND_FACTOR_RULES_BEFORE_2_5,
  },
};
