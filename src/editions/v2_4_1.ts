import {
  ARCHETYPE_COLUMNS,
  CLOUD_INSTANCE_COLUMNS,
  CLOUD_REGION_COLUMNS,
  GPU_SPEC_COLUMNS,
} from "../data/tables.js";
import type { ServiceConfig } from "../data/types.js";
import {
  CRITERIA,
  DEFAULT_CRITERIA,
  POWER_AND_FACTOR_RULES_BEFORE_2_5,
  roundImpactCapped,
} from "../engine/index.js";
import { PYDANTIC_2 } from "./requestValidation.js";
import type { DataTable, EditionDescription } from "./types.js";
import { EDITION_1_2_4 } from "./v1_2_4.js";

/**
 * docs/methodology.md §19.1.2: 2.4.1 has no `config.yml`; its defaults are compiled into a settings object.
 * No default value changed from 1.2.4; GPU / VR defaults and two name-matching thresholds are new.
 */
const SETTINGS: ServiceConfig = {
  defaultLocation: "EEE",
  defaultCriteria: ["gwp", "adp", "pe"],
  uncertainty: 10,
  maxSigFig: 4,
  minSigFig: 1,
  cpuNameFuzzyThreshold: 80,
  gpuNameFuzzyThreshold: 80,
  cloudInstanceNameFuzzyThreshold: 80,
  defaultArchetypes: {
    location: "EEE",
    usage: "DEFAULT",
    cpu: "DEFAULT",
    gpu: "DEFAULT",
    ram: "DEFAULT",
    ssd: "DEFAULT",
    hdd: "DEFAULT",
    power_supply: "DEFAULT",
    case: "rack",
    assembly: "DEFAULT",
    motherboard: "DEFAULT",
    server: "platform_compute_medium",
    cloud_instance: "a1.4xlarge",
    cloud_provider: "aws",
    laptop: "laptop-pro",
    desktop: "desktop-pro",
    smartphone: "smartphone-default",
    tablet: "tablet-default",
    television: "tv-pro",
    monitor: "monitor-default",
    smartwatch: "smartwatch-default",
    box: "box-default",
    usb_stick: "usb-stick-default",
    external_ssd: "external-ssd-default",
    external_hdd: "hdd-default",
    iot_device: "iot-device-default",
    vr_headset: "vr-headset-lcd",
    vr_controller: "vr-controller-default",
  },
};

/** The 1.2.4 tables 2.4.1 still reads (its data set has no `config.yml`, docs/methodology.md §19.13.1). */
const KEPT_TABLES: readonly DataTable[] = EDITION_1_2_4.dataSet.tables.filter(
  (table) => table.file !== "config.yml",
);

/**
 * boaviztapi 2.4.1 (docs/methodology.md §19, the changes from 1.2.4): five cloud providers and their regions,
 * GPUs, VR devices, criterion `fe`, less aggressive rounding, units and min/max fixes.
 */
export const EDITION_2_4_1: EditionDescription = {
  id: "2.4.1",
  graphqlName: "V2_4_1",
  base: null,
  dataFolder: null,
  summary:
    "boaviztapi 2.4.1 (docs/methodology.md §19): five cloud providers with regions, GPUs, VR devices, criterion fe.",
  dataSet: {
    raw: "boaviztapi-v2.4.1",
    upstream: "boaviztapi 2.4.1 (tag v2.4.1, commit 15878f0, 2026-08-21)",
    tables: [
      ...KEPT_TABLES,
      {
        file: "archetypes/components/gpu.csv",
        purpose: "GPU archetype (DEFAULT)",
        columns: ARCHETYPE_COLUMNS,
      },
      {
        file: "archetypes/cloud/azure.csv",
        purpose: "Azure instance types",
        columns: CLOUD_INSTANCE_COLUMNS,
      },
      { file: "archetypes/cloud/gcp.csv", purpose: "GCP instance types", columns: CLOUD_INSTANCE_COLUMNS },
      {
        file: "archetypes/cloud/ovhcloud.csv",
        purpose: "OVHcloud instance types",
        columns: CLOUD_INSTANCE_COLUMNS,
      },
      {
        file: "archetypes/cloud/scaleway.csv",
        purpose: "Scaleway instance types",
        columns: CLOUD_INSTANCE_COLUMNS,
      },
      {
        file: "archetypes/cloud/regions.csv",
        purpose: "cloud regions: provider, region, usage location",
        columns: CLOUD_REGION_COLUMNS,
      },
      {
        file: "crowdsourcing/gpu_specs.csv",
        purpose: "GPU models: specifications for name matching",
        columns: GPU_SPEC_COLUMNS,
      },
    ],
    notCopied:
      "Not copied (not read at run time, docs/methodology.md §19.13.2): `crowdsourcing/electrical_mix.csv`, " +
      "`crowdsourcing/iot_factors_tide.csv`, `crowdsourcing/ademe_base_impacts_negaoctet.csv`, " +
      "`crowdsourcing/missing_cpu_manufacture.csv` and the `*.fmt` column-type descriptors.",
  },
  requestValidation: PYDANTIC_2,
  settings: { values: SETTINGS, environmentPrefix: "BOAVIZTA_" },
  features: {
    gpus: true,
    cloudRegions: true,
    assemblyComponent: false,
    vrDevices: true,
    finalEnergy: true,
  },
  rules: {
    version: "2.4.1",
    // docs/methodology.md §19.9.2: VR headsets and controllers are added.
    userDevices: {
      terminalKinds: ["laptop", "desktop", "smartphone", "television", "tablet", "box", "vr_headset"],
      peripheralKinds: ["monitor", "usb_stick", "external_ssd", "external_hdd", "vr_controller"],
    },
    trimsArchetypeIds: true,
    // docs/methodology.md §19.10.2: the TDP is used; a given family overwrites the model range (kept quirk).
    profileRoute: { usesTdp: true, familyOverwritesModelRange: true, archetypeCompletes: true },
    roundImpact: roundImpactCapped,
    defaultCriteria: DEFAULT_CRITERIA,
    // docs/methodology.md §19.8.1: every criterion, final energy (`fe`) included.
    criteria: CRITERIA,
    // §8.2: `fw` has a slot (its completion finds no data: not implemented), unlike 1.2.4; so has `fe`.
    electricityFactorSlots: new Set(CRITERIA.map((criterion) => criterion.name)),
    modelledUseUnits: "once",
    cpuPowerBounds: "workloadRange",
    useTimeRatioBounds: "aligned",
    explicitDefaultLocation: "discarded",
    caseUnits: "twice",
    userDeviceEmbedded: "allocated",
    dieSizeInput: "honoured",
    ruleOfThree: "sharedCoreCount",
    profileTieBreak: "exactModelRange",
    assemblyComponent: "absent",
    cloud: {
      verboseUnits: false,
      unknownPlatform: "not-found",
      storageShareReadsCapacityBounds: true,
      gpuShare: "vcpu",
    },
    ...POWER_AND_FACTOR_RULES_BEFORE_2_5,
  },
};
