/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** A CPU (or several identical ones); what is not given is completed from the name or the archetype. */
export type CpuInput = {
  /** Cores per CPU (count); default from the name or archetype. */
  coreUnits?: number | null | undefined;
  /** Total die size, mm²; edition 1.2.4 uses it only with coreUnits (as die size per core), 2.4.1 and 2.5.0 as is. */
  dieSize?: number | null | undefined;
  /** mm² per core. */
  dieSizePerCore?: number | null | undefined;
  /** Code name, e.g. Skylake; matched approximately. */
  family?: string | null | undefined;
  /** e.g. Intel, AMD; completed from the name. */
  manufacturer?: string | null | undefined;
  /** e.g. Xeon Gold, EPYC; completed from the name. */
  modelRange?: string | null | undefined;
  /** Free text, matched approximately against the CPU table. */
  name?: string | null | undefined;
  /** Thermal design power, W; completed from the name. */
  tdp?: number | null | undefined;
  /** Threads per CPU (count); completed from the name. */
  threads?: number | null | undefined;
  /** Number of CPUs (count); default from the archetype (1). */
  units?: number | null | undefined;
  /** The CPU's own usage. */
  usage?: UsageInput | null | undefined;
};

/** Impact criterion, spelled as the v1 API spells it. gwp, adp and pe are the headline criteria; the others are PEF criteria. `CTUh_c_listed`/`CTUh_nc_listed` are the v1 keys `CTUh_c`/`CTUh_nc`, listed as the reference lists them (not computed); `ctuh_c`/`ctuh_nc` are computed. `fe` (final energy): Only in editions with criterion fe (2.4.1, 2.5.0 and custom editions based on them). */
export type Criterion =
  /** Human Toxicity - Carcinogenic Effects, in CTUh (PEF method). The v1 key CTUh_c, answered as the reference answers it: listed, never computed (ask for ctuh_c). */
  | 'CTUh_c_listed'
  /** Human toxicity - non-carcinogenic effects, in CTUh (PEF method). The v1 key CTUh_nc, answered as the reference answers it: listed, never computed (ask for ctuh_nc). */
  | 'CTUh_nc_listed'
  /** Use of minerals and fossil ressources, in kgSbeq. */
  | 'adp'
  /** Use of mineral and metal resources, in kg SB eq. (PEF method). */
  | 'adpe'
  /** Use of fossil resources (including nuclear), in MJ (PEF method). */
  | 'adpf'
  /** Acidification, in mol H+ eq. (PEF method). */
  | 'ap'
  /** Freshwater ecotoxicity, in CTUe (PEF method). */
  | 'ctue'
  /** Human Toxicity - Carcinogenic Effects, in CTUh (PEF method). */
  | 'ctuh_c'
  /** Human toxicity - non-carcinogenic effects, in CTUh (PEF method). */
  | 'ctuh_nc'
  /** Eutrophication of freshwater, in kg P eq. (PEF method). */
  | 'epf'
  /** Eutrophication of marine waters, in kg N eq. (PEF method). */
  | 'epm'
  /** Terrestrial eutrophication, in mol N eq. (PEF method). */
  | 'ept'
  /** Final energy consumption, in MJ. */
  | 'fe'
  /** Net use of freshwater, in m3. */
  | 'fw'
  /** Total climate change, in kgCO2eq. */
  | 'gwp'
  /** Climate change - Contribution of biogenic emissions, in kg CO2 eq. (PEF method). */
  | 'gwppb'
  /** Climate change - Contribution of fossil fuel emissions, in kg CO2 eq. (PEF method). */
  | 'gwppf'
  /** Climate change - Contribution of emissions from land use change, in kg CO2 eq. (PEF method). */
  | 'gwpplu'
  /** Emissions of radionizing substances, in kg U235 eq. (PEF method). */
  | 'ir'
  /** Land use, in No dimension (PEF method). */
  | 'lu'
  /** Material input per unit of services, in kg. */
  | 'mips'
  /** Depletion of the ozone layer, in kg CFC-11 eq. (PEF method). */
  | 'odp'
  /** Consumption of primary energy, in MJ. */
  | 'pe'
  /** Fine particle emissions, in Disease occurrence (PEF method). */
  | 'pm'
  /** Photochemical ozone formation, in kg NMVOC eq. (PEF method). */
  | 'pocp'
  /** Water consumption footprint (on site and in electricity generation), in L. */
  | 'wcf'
  /** Use of water resources, in m3 eq. (PEF method). */
  | 'wu';

/** A disk (SSD by default, or HDD), or several identical ones. */
export type DiskInput = {
  /** Capacity of one disk, GB; default from the archetype. */
  capacity?: number | null | undefined;
  /** GB/cm² (SSD); default from the manufacturer. */
  density?: number | null | undefined;
  /** SSD NAND layers (count). */
  layers?: number | null | undefined;
  /** SSD manufacturer; matched approximately. */
  manufacturer?: string | null | undefined;
  /** ssd (default) or hdd; other types are ignored. */
  type?: string | null | undefined;
  /** Number of disks (count); default from the archetype. */
  units?: number | null | undefined;
  /** The disks' own usage. */
  usage?: UsageInput | null | undefined;
};

/** Electricity impact factors per kWh overriding the location's, per criterion. */
export type ElecFactorsInput = {
  /** adp impact of 1 kWh (kg Sbeq/kWh); default: the usage location's factor. */
  adp?: number | null | undefined;
  /** adpe impact of 1 kWh (kg Sbeq/kWh); default: the usage location's factor. */
  adpe?: number | null | undefined;
  /** adpf impact of 1 kWh (MJ/kWh); default: the usage location's factor. */
  adpf?: number | null | undefined;
  /** ap impact of 1 kWh (mol H+eq/kWh); default: the usage location's factor. */
  ap?: number | null | undefined;
  /** ctue impact of 1 kWh (CTUe/kWh); default: the usage location's factor. */
  ctue?: number | null | undefined;
  /** ctuh_c impact of 1 kWh (CTUh/kWh); default: the usage location's factor. */
  ctuh_c?: number | null | undefined;
  /** ctuh_nc impact of 1 kWh (CTUh/kWh); default: the usage location's factor. */
  ctuh_nc?: number | null | undefined;
  /** epf impact of 1 kWh (kg Peq/kWh); default: the usage location's factor. */
  epf?: number | null | undefined;
  /** epm impact of 1 kWh (kg Neq/kWh); default: the usage location's factor. */
  epm?: number | null | undefined;
  /** ept impact of 1 kWh (mol Neq/kWh); default: the usage location's factor. */
  ept?: number | null | undefined;
  /** gwp impact of 1 kWh (kg CO2eq/kWh); default: the usage location's factor. */
  gwp?: number | null | undefined;
  /** gwppb impact of 1 kWh (kg CO2eq/kWh); default: the usage location's factor. */
  gwppb?: number | null | undefined;
  /** gwppf impact of 1 kWh (kg CO2eq/kWh); default: the usage location's factor. */
  gwppf?: number | null | undefined;
  /** gwpplu impact of 1 kWh (kg CO2eq/kWh); default: the usage location's factor. */
  gwpplu?: number | null | undefined;
  /** ir impact of 1 kWh (kg U235eq/kWh); default: the usage location's factor. */
  ir?: number | null | undefined;
  /** lu impact of 1 kWh (No dimension/kWh); default: the usage location's factor. */
  lu?: number | null | undefined;
  /** mips impact of 1 kWh (kg/kWh); default: the usage location's factor. */
  mips?: number | null | undefined;
  /** odp impact of 1 kWh (kg CFC-11eq/kWh); default: the usage location's factor. */
  odp?: number | null | undefined;
  /** pe impact of 1 kWh (MJ/kWh); default: the usage location's factor. */
  pe?: number | null | undefined;
  /** pm impact of 1 kWh (Disease occurrence/kWh); default: the usage location's factor. */
  pm?: number | null | undefined;
  /** pocp impact of 1 kWh (kg NMVOCeq/kWh); default: the usage location's factor. */
  pocp?: number | null | undefined;
  /** wu impact of 1 kWh (m3eq/kWh); default: the usage location's factor. */
  wu?: number | null | undefined;
};

/** A GPU card. Only in editions with GPUs (2.4.1, 2.5.0 and custom editions based on them). Missing characteristics come from the default GPU; `name` is recorded only (use `gpuByName` to fill the fields from a model). */
export type GpuInput = {
  /** Mass of the casing, kg. */
  casingWeight?: number | null | undefined;
  /** Effective GPU die area, mm² (wafer share including yield; used as given). */
  gpuSurface?: number | null | undefined;
  /** Mass of the heatsink, kg. */
  heatsinkWeight?: number | null | undefined;
  /** Manufacturer, recorded as given. */
  manufacturer?: string | null | undefined;
  /** Model name, recorded as given (not matched). */
  name?: string | null | undefined;
  /** Printed wiring board surface, cm². */
  pwbSurface?: number | null | undefined;
  /** Printed wiring board mass, kg. */
  pwbWeight?: number | null | undefined;
  /** Distance travelled by boat, km. */
  transportBoat?: number | null | undefined;
  /** Distance travelled by plane, km. */
  transportPlane?: number | null | undefined;
  /** Distance travelled by truck, km. */
  transportTruck?: number | null | undefined;
  /** Number of identical cards. */
  units?: number | null | undefined;
  /** Usage; the use phase needs `avgPower` (a GPU has no power model). */
  usage?: UsageInput | null | undefined;
  /** Video memory, GB. */
  vram?: number | null | undefined;
  /** Number of video memory dies. */
  vramDies?: number | null | undefined;
  /** Effective video memory die area, mm² (default: from vram and vramDies). */
  vramSurface?: number | null | undefined;
  /** Mass of the card, kg. */
  weight?: number | null | undefined;
};

/** Power supplies (several identical ones), weighed. */
export type PowerSupplyInput = {
  /** Weight of one, kg; default from the archetype. */
  unitWeight?: number | null | undefined;
  /** Number of power supplies (count); default from the archetype. */
  units?: number | null | undefined;
  /** The power supplies' own usage. */
  usage?: UsageInput | null | undefined;
};

/** RAM modules (several identical ones); the density comes from the manufacturer and process. */
export type RamInput = {
  /** Capacity of one module, GB; default from the archetype. */
  capacity?: number | null | undefined;
  /** GB/cm²; default from the manufacturer and process. */
  density?: number | null | undefined;
  /** e.g. Samsung; matched approximately. */
  manufacturer?: string | null | undefined;
  /** Engraving process, nm. */
  process?: number | null | undefined;
  /** Number of modules (count); default from the archetype. */
  units?: number | null | undefined;
  /** The modules' own usage. */
  usage?: UsageInput | null | undefined;
};

/** The server's components; a component not given comes from the archetype. */
export type ServerConfigurationInput = {
  /** The CPUs; default from the archetype. */
  cpu?: CpuInput | null | undefined;
  /** Disks; default from the archetype. */
  disk?: Array<DiskInput> | null | undefined;
  /** The server's GPU cards (edition 2.4.1 and 2.5.0; ignored by 1.2.4). Without it, the archetype's GPUs if any. */
  gpu?: GpuInput | null | undefined;
  /** Power supplies; default from the archetype. */
  powerSupply?: PowerSupplyInput | null | undefined;
  /** An empty list means no RAM. */
  ram?: Array<RamInput> | null | undefined;
};

/** A server's description; what is not given comes from its archetype. */
export type ServerInput = {
  /** Components; each one given replaces the archetype's. */
  configuration?: ServerConfigurationInput | null | undefined;
  /** Identification (type sets the case). */
  model?: ServerModelInput | null | undefined;
  /** The server's usage. */
  usage?: UsageInput | null | undefined;
};

/** A server's identification; only `type` affects the computation. */
export type ServerModelInput = {
  /** Manufacturer (informative, not used). */
  manufacturer?: string | null | undefined;
  /** Model name (informative, not used). */
  name?: string | null | undefined;
  /** rack or blade: sets the case type. */
  type?: string | null | undefined;
  /** Year (informative, not used). */
  year?: string | null | undefined;
};

/** How the asset is used: where (electricity mix), how long and how hard. Every field is optional; what is not given comes from the archetype, then from the methodology's defaults. */
export type UsageInput = {
  /** Average power in W (skips power modelling); default: modelled from the workload. */
  avgPower?: number | null | undefined;
  /** Use time in days of 24 h. */
  daysUseTime?: number | null | undefined;
  /** Electricity factors per kWh replacing the usage location's, criterion by criterion. */
  elecFactors?: ElecFactorsInput | null | undefined;
  /** Lifetime in hours; default from the archetype (26,280 h, 3 years, for a component). */
  hoursLifeTime?: number | null | undefined;
  /** Use time in hours (cumulative with days/years); default: none, the duration is then the lifetime. */
  hoursUseTime?: number | null | undefined;
  /** Cloud instances: instances sharing the host; shown in the verbose, unused by the model. */
  instancePerServer?: number | null | undefined;
  /** Servers and cloud: extra power of the other parts, as a fraction of CPU + RAM power; default from the archetype (0.33). */
  otherConsumptionRatio?: number | null | undefined;
  /** Cloud instances: the provider's region (see cloudRegions), which sets the location; usageLocation is the fallback of an unknown region. Only in editions with cloud regions (2.4.1, 2.5.0 and custom editions based on them). */
  region?: string | null | undefined;
  /** Constant load, 0–100 %; default from the archetype (50 % for a CPU or RAM). */
  timeWorkload?: number | null | undefined;
  /** Time shares at loads (instead of timeWorkload). */
  timeWorkloadShares?: Array<WorkloadShareInput> | null | undefined;
  /** Country code (NATO CodSP3), e.g. FRA; default EEE. */
  usageLocation?: string | null | undefined;
  /** Fraction of the time in use, 0–1; default from the archetype (1 for a component). */
  useTimeRatio?: number | null | undefined;
  /** Use time in years of 8760 h. */
  yearsUseTime?: number | null | undefined;
};

/** A share of time spent at a load: `timePercentage` % of the time at `loadPercentage` % load. */
export type WorkloadShareInput = {
  /** CPU load during that share, % (0–100). */
  loadPercentage: number;
  /** Share of the use time, % (0–100). */
  timePercentage: number;
};

export type IfPhaseFragment = { value: number, warnings: Array<string>, unrounded: { value: number } | null };

type IfAsset_CloudInstance_Fragment = { impacts: Array<{ criterion: string, embedded:
      | { value: number, warnings: Array<string>, unrounded: { value: number } | null }
      | Record<PropertyKey, never>
    , use:
      | { value: number, warnings: Array<string>, unrounded: { value: number } | null }
      | Record<PropertyKey, never>
     }>, verbose: { v1: unknown } };

type IfAsset_Component_Fragment = { impacts: Array<{ criterion: string, embedded:
      | { value: number, warnings: Array<string>, unrounded: { value: number } | null }
      | Record<PropertyKey, never>
    , use:
      | { value: number, warnings: Array<string>, unrounded: { value: number } | null }
      | Record<PropertyKey, never>
     }>, verbose: { v1: unknown } };

type IfAsset_GenerativeAiUsage_Fragment = { impacts: Array<{ criterion: string, embedded:
      | { value: number, warnings: Array<string>, unrounded: { value: number } | null }
      | Record<PropertyKey, never>
    , use:
      | { value: number, warnings: Array<string>, unrounded: { value: number } | null }
      | Record<PropertyKey, never>
     }>, verbose: { v1: unknown } };

type IfAsset_IotDevice_Fragment = { impacts: Array<{ criterion: string, embedded:
      | { value: number, warnings: Array<string>, unrounded: { value: number } | null }
      | Record<PropertyKey, never>
    , use:
      | { value: number, warnings: Array<string>, unrounded: { value: number } | null }
      | Record<PropertyKey, never>
     }>, verbose: { v1: unknown } };

type IfAsset_Server_Fragment = { impacts: Array<{ criterion: string, embedded:
      | { value: number, warnings: Array<string>, unrounded: { value: number } | null }
      | Record<PropertyKey, never>
    , use:
      | { value: number, warnings: Array<string>, unrounded: { value: number } | null }
      | Record<PropertyKey, never>
     }>, verbose: { v1: unknown } };

type IfAsset_Terminal_Fragment = { impacts: Array<{ criterion: string, embedded:
      | { value: number, warnings: Array<string>, unrounded: { value: number } | null }
      | Record<PropertyKey, never>
    , use:
      | { value: number, warnings: Array<string>, unrounded: { value: number } | null }
      | Record<PropertyKey, never>
     }>, verbose: { v1: unknown } };

export type IfAssetFragment =
  | IfAsset_CloudInstance_Fragment
  | IfAsset_Component_Fragment
  | IfAsset_GenerativeAiUsage_Fragment
  | IfAsset_IotDevice_Fragment
  | IfAsset_Server_Fragment
  | IfAsset_Terminal_Fragment
;

export type IfCloudInstanceQueryVariables = Exact<{
  provider?: string | null | undefined;
  instanceType?: string | null | undefined;
  usage?: UsageInput | null | undefined;
  criteria?: Array<Criterion> | Criterion | null | undefined;
  duration?: number | null | undefined;
}>;


export type IfCloudInstanceQuery = { asset: { warnings: Array<string>, impacts: Array<{ criterion: string, embedded:
        | { value: number, warnings: Array<string>, unrounded: { value: number } | null }
        | Record<PropertyKey, never>
      , use:
        | { value: number, warnings: Array<string>, unrounded: { value: number } | null }
        | Record<PropertyKey, never>
       }>, verbose: { v1: unknown } } | null };

export type IfServerQueryVariables = Exact<{
  archetype?: string | null | undefined;
  input?: ServerInput | null | undefined;
  criteria?: Array<Criterion> | Criterion | null | undefined;
  duration?: number | null | undefined;
}>;


export type IfServerQuery = { asset: { impacts: Array<{ criterion: string, embedded:
        | { value: number, warnings: Array<string>, unrounded: { value: number } | null }
        | Record<PropertyKey, never>
      , use:
        | { value: number, warnings: Array<string>, unrounded: { value: number } | null }
        | Record<PropertyKey, never>
       }>, verbose: { v1: unknown } } | null };

export type IfCpuQueryVariables = Exact<{
  input?: CpuInput | null | undefined;
  criteria?: Array<Criterion> | Criterion | null | undefined;
  duration?: number | null | undefined;
}>;


export type IfCpuQuery = { asset: { impacts: Array<{ criterion: string, embedded:
        | { value: number, warnings: Array<string>, unrounded: { value: number } | null }
        | Record<PropertyKey, never>
      , use:
        | { value: number, warnings: Array<string>, unrounded: { value: number } | null }
        | Record<PropertyKey, never>
       }>, verbose: { v1: unknown } } | null };

export type IfCloudRegionsQueryVariables = Exact<{
  provider?: string | null | undefined;
}>;


export type IfCloudRegionsQuery = { cloudRegions: Array<{ region: string }> };

export const IfPhaseFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"IfPhase"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PhaseImpact"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Impact"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"value"}},{"kind":"Field","name":{"kind":"Name","value":"warnings"}},{"kind":"Field","name":{"kind":"Name","value":"unrounded"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"value"}}]}}]}}]}}]} as unknown as DocumentNode<IfPhaseFragment, unknown>;
export const IfAssetFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"IfAsset"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Asset"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"impacts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"criterion"}},{"kind":"Field","name":{"kind":"Name","value":"embedded"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"IfPhase"}}]}},{"kind":"Field","name":{"kind":"Name","value":"use"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"IfPhase"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"verbose"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"IfPhase"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PhaseImpact"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Impact"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"value"}},{"kind":"Field","name":{"kind":"Name","value":"warnings"}},{"kind":"Field","name":{"kind":"Name","value":"unrounded"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"value"}}]}}]}}]}}]} as unknown as DocumentNode<IfAssetFragment, unknown>;
export const IfCloudInstanceDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"IfCloudInstance"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"provider"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"instanceType"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"usage"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"UsageInput"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Criterion"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"duration"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"asset"},"name":{"kind":"Name","value":"cloudInstance"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"provider"},"value":{"kind":"Variable","name":{"kind":"Name","value":"provider"}}},{"kind":"Argument","name":{"kind":"Name","value":"instanceType"},"value":{"kind":"Variable","name":{"kind":"Name","value":"instanceType"}}},{"kind":"Argument","name":{"kind":"Name","value":"usage"},"value":{"kind":"Variable","name":{"kind":"Name","value":"usage"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"warnings"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"IfAsset"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"IfPhase"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PhaseImpact"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Impact"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"value"}},{"kind":"Field","name":{"kind":"Name","value":"warnings"}},{"kind":"Field","name":{"kind":"Name","value":"unrounded"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"value"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"IfAsset"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Asset"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"impacts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"criterion"}},{"kind":"Field","name":{"kind":"Name","value":"embedded"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"IfPhase"}}]}},{"kind":"Field","name":{"kind":"Name","value":"use"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"IfPhase"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"verbose"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}}]}}]} as unknown as DocumentNode<IfCloudInstanceQuery, IfCloudInstanceQueryVariables>;
export const IfServerDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"IfServer"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ServerInput"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Criterion"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"duration"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"asset"},"name":{"kind":"Name","value":"server"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"archetype"},"value":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"IfAsset"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"IfPhase"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PhaseImpact"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Impact"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"value"}},{"kind":"Field","name":{"kind":"Name","value":"warnings"}},{"kind":"Field","name":{"kind":"Name","value":"unrounded"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"value"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"IfAsset"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Asset"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"impacts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"criterion"}},{"kind":"Field","name":{"kind":"Name","value":"embedded"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"IfPhase"}}]}},{"kind":"Field","name":{"kind":"Name","value":"use"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"IfPhase"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"verbose"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}}]}}]} as unknown as DocumentNode<IfServerQuery, IfServerQueryVariables>;
export const IfCpuDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"IfCpu"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"CpuInput"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Criterion"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"duration"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"asset"},"name":{"kind":"Name","value":"cpu"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"IfAsset"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"IfPhase"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PhaseImpact"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Impact"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"value"}},{"kind":"Field","name":{"kind":"Name","value":"warnings"}},{"kind":"Field","name":{"kind":"Name","value":"unrounded"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"value"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"IfAsset"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Asset"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"impacts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"criterion"}},{"kind":"Field","name":{"kind":"Name","value":"embedded"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"IfPhase"}}]}},{"kind":"Field","name":{"kind":"Name","value":"use"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"IfPhase"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"verbose"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}}]}}]} as unknown as DocumentNode<IfCpuQuery, IfCpuQueryVariables>;
export const IfCloudRegionsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"IfCloudRegions"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"provider"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cloudRegions"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"provider"},"value":{"kind":"Variable","name":{"kind":"Name","value":"provider"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"region"}}]}}]}}]} as unknown as DocumentNode<IfCloudRegionsQuery, IfCloudRegionsQueryVariables>;