/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** LINEAR: embedded impacts allocated over the duration (duration / lifetime, at most 1). TOTAL: the whole embedded impact whatever the duration. Use impacts are the same in both. */
export type Allocation =
  /** Embedded impacts × min(1, duration / lifetime) (the default). */
  | 'LINEAR'
  /** The whole embedded impact, whatever the duration. */
  | 'TOTAL';

/** Kinds of components evaluated on their own or in fleets. */
export type ComponentKind =
  /** Assembly of a server. */
  | 'assembly'
  /** Rack or blade case. */
  | 'case'
  /** Processor. */
  | 'cpu'
  /** Graphics card. Only in editions with GPUs (2.4.1, 2.5.0 and custom editions based on them). */
  | 'gpu'
  /** Hard disk drive. */
  | 'hdd'
  /** Motherboard. */
  | 'motherboard'
  /** Power supply unit. */
  | 'power_supply'
  /** Memory modules. */
  | 'ram'
  /** Solid-state drive. */
  | 'ssd';

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

/** A functional block of an IoT device at a hardware sophistication level (HSL). */
export type FunctionalBlockInput = {
  /** HSL-0 … HSL-3 (default: the archetype's level for this block). */
  hslLevel?: string | null | undefined;
  /** Block name, any case: actuators, casing, connectivity, memory, others, pcb, … */
  type: string;
};

/** One request to a generative-AI model: which model, what it generated, and where. */
export type GenerativeAiInput = {
  /** The model as its provider's API names it (gpt-4o-mini, claude-sonnet-4-5, mistral-large-latest…); see generativeAiModels. A name the data lacks is refused with the closest ones. */
  model: string;
  /** Tokens the model generated. Input tokens are not part of EcoLogits' computation. */
  outputTokens: number;
  /** The model's provider, as EcoLogits names it: anthropic, cohere, google_genai, huggingface_hub, mistralai, openai. */
  provider: string;
  /** Seconds the request took, when measured: the generation is counted no longer than this; default: the generation's own duration. */
  requestLatency?: number | null | undefined;
  /** The electricity's zone: ISO 3166-1 alpha-3 (FRA, USA…) or WOR (the world); default: the provider's data centres' (USA; SWE for mistralai). */
  zone?: string | null | undefined;
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

/** What is known of an IoT device; the rest comes from its archetype. */
export type IotDeviceInput = {
  /** Replaces the archetype's blocks (an empty list means no block). */
  functionalBlocks?: Array<FunctionalBlockInput> | null | undefined;
  /** The device's usage. */
  usage?: UsageInput | null | undefined;
};

/** What a peripheral's request may set: its usage. */
export type PeripheralInput = {
  /** The device usage. */
  usage?: UsageInput | null | undefined;
};

/** Peripherals (an edition may not have every kind). */
export type PeripheralKind =
  /** An external hard disk. */
  | 'external_hdd'
  /** An external SSD. */
  | 'external_ssd'
  /** A monitor. */
  | 'monitor'
  /** A USB stick. */
  | 'usb_stick'
  /** A virtual-reality controller. Only in editions with VR devices (2.4.1, 2.5.0 and custom editions based on them). */
  | 'vr_controller';

/** Power supplies (several identical ones), weighed. */
export type PowerSupplyInput = {
  /** Weight of one, kg; default from the archetype. */
  unitWeight?: number | null | undefined;
  /** Number of power supplies (count); default from the archetype. */
  units?: number | null | undefined;
  /** The power supplies' own usage. */
  usage?: UsageInput | null | undefined;
};

/** The CPU whose power profile is wanted: any of name, manufacturer, model range, family, TDP. */
export type ProfileCpuInput = {
  /** CPU family. Edition 1.2.4 ignores it; edition 2.4.1 and 2.5.0 writes it into the model range (overwriting a given one, a kept quirk). */
  family?: string | null | undefined;
  /** CPU manufacturer (Intel, AMD…). */
  manufacturer?: string | null | undefined;
  /** CPU model range (Xeon Gold, EPYC…). */
  modelRange?: string | null | undefined;
  /** Free text, matched approximately against the CPU table. */
  name?: string | null | undefined;
  /** Thermal design power (W). Edition 1.2.4 ignores it; edition 2.4.1 and 2.5.0 fits the profile to it when no workload is given (the name's TDP otherwise). */
  tdp?: number | null | undefined;
};

/** How a CPU of a consumption profile is used: its load, place and time (the profile is its power). What is not given comes from the edition's default CPU archetype. */
export type ProfileUsageInput = {
  /** Use time in days of 24 h. */
  daysUseTime?: number | null | undefined;
  /** Electricity factors per kWh replacing the usage location's, criterion by criterion. */
  elecFactors?: ElecFactorsInput | null | undefined;
  /** Lifetime in hours; default from the archetype (26,280 h, 3 years, for a component). */
  hoursLifeTime?: number | null | undefined;
  /** Use time in hours (cumulative with days/years); default: none, the duration is then the lifetime. */
  hoursUseTime?: number | null | undefined;
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

/** What a terminal's request may set: its type and its usage. */
export type TerminalInput = {
  /** Use type, pro or perso: laptop, desktop and television factors depend on it; screen type, lcd or oled, for a VR headset (default: the archetype's). Not accepted for other kinds. */
  type?: string | null | undefined;
  /** The device usage. */
  usage?: UsageInput | null | undefined;
};

/** End-user terminals (an edition may not have every kind). */
export type TerminalKind =
  /** An internet box. */
  | 'box'
  /** A desktop computer (types pro, perso). */
  | 'desktop'
  /** A laptop (types pro, perso). */
  | 'laptop'
  /** A smartphone. */
  | 'smartphone'
  /** A tablet. */
  | 'tablet'
  /** A television (types pro, perso). */
  | 'television'
  /** A virtual-reality headset (types lcd, oled). Only in editions with VR devices (2.4.1, 2.5.0 and custom editions based on them). */
  | 'vr_headset';

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

/** A measured power (W) at a CPU load (%). */
export type WorkloadPointInput = {
  /** CPU load, 0–100 %. */
  loadPercentage: number;
  /** Measured power at that load (W). */
  powerWatt: number;
};

/** A share of time spent at a load: `timePercentage` % of the time at `loadPercentage` % load. */
export type WorkloadShareInput = {
  /** CPU load during that share, % (0–100). */
  loadPercentage: number;
  /** Share of the use time, % (0–100). */
  timePercentage: number;
};

export type CloudInstanceImpactsQueryVariables = Exact<{
  provider?: string | null | undefined;
  instanceType?: string | null | undefined;
  usage?: UsageInput | null | undefined;
  criteria?: Array<Criterion> | Criterion | null | undefined;
  duration?: number | null | undefined;
  allocation?: Allocation | null | undefined;
  verbose: boolean;
}>;


export type CloudInstanceImpactsQuery = { cloudInstance: { warnings: Array<string>, verbose?: { v1: unknown }, impacts: Array<{ criterion: string, v1: unknown }> } | null };

export type CloudProvidersQueryVariables = Exact<{ [key: string]: never; }>;


export type CloudProvidersQuery = { cloudProviders: Array<{ name: string }> };

export type CloudInstanceTypesQueryVariables = Exact<{
  provider: string;
}>;


export type CloudInstanceTypesQuery = { cloudInstanceTypes: Array<string> };

export type CloudInstanceConfigQueryVariables = Exact<{
  provider: string;
  instanceType: string;
}>;


export type CloudInstanceConfigQuery = { cloudInstanceConfig: unknown };

export type CloudRegionsQueryVariables = Exact<{
  provider?: string | null | undefined;
}>;


export type CloudRegionsQuery = { cloudRegions: Array<{ provider: string, region: string }> };

export type CloudCoefficientsQueryVariables = Exact<{
  provider: string;
  instanceType?: string | null | undefined;
  load?: number | null | undefined;
  criteria?: Array<Criterion> | Criterion | null | undefined;
}>;


export type CloudCoefficientsQuery = { cloudCoefficients: { edition: string, load: number | null, columns: Array<string>, rows: unknown } };

export type ComponentArchetypesQueryVariables = Exact<{
  kind: ComponentKind;
}>;


export type ComponentArchetypesQuery = { componentArchetypes: Array<string> };

export type ComponentArchetypeConfigQueryVariables = Exact<{
  kind: ComponentKind;
  archetype: string;
}>;


export type ComponentArchetypeConfigQuery = { componentArchetypeConfig: unknown };

export type ComponentKindsQueryVariables = Exact<{ [key: string]: never; }>;


export type ComponentKindsQuery = { componentKinds: Array<ComponentKind> };

export type TerminalImpactsQueryVariables = Exact<{
  kind: TerminalKind;
  archetype?: string | null | undefined;
  input?: TerminalInput | null | undefined;
  criteria?: Array<Criterion> | Criterion | null | undefined;
  duration?: number | null | undefined;
  allocation?: Allocation | null | undefined;
  verbose: boolean;
}>;


export type TerminalImpactsQuery = { device: { verbose?: { v1: unknown }, impacts: Array<{ criterion: string, v1: unknown }> } | null };

export type PeripheralImpactsQueryVariables = Exact<{
  kind: PeripheralKind;
  archetype?: string | null | undefined;
  input?: PeripheralInput | null | undefined;
  criteria?: Array<Criterion> | Criterion | null | undefined;
  duration?: number | null | undefined;
  allocation?: Allocation | null | undefined;
  verbose: boolean;
}>;


export type PeripheralImpactsQuery = { device: { verbose?: { v1: unknown }, impacts: Array<{ criterion: string, v1: unknown }> } | null };

export type IotDeviceImpactsQueryVariables = Exact<{
  archetype?: string | null | undefined;
  input?: IotDeviceInput | null | undefined;
  criteria?: Array<Criterion> | Criterion | null | undefined;
  duration?: number | null | undefined;
  allocation?: Allocation | null | undefined;
  verbose: boolean;
}>;


export type IotDeviceImpactsQuery = { device: { verbose?: { v1: unknown }, impacts: Array<{ criterion: string, v1: unknown }> } | null };

export type TerminalArchetypesQueryVariables = Exact<{
  kind: TerminalKind;
}>;


export type TerminalArchetypesQuery = { terminalArchetypes: Array<string> | null };

export type PeripheralArchetypesQueryVariables = Exact<{
  kind: PeripheralKind;
}>;


export type PeripheralArchetypesQuery = { peripheralArchetypes: Array<string> | null };

export type TerminalArchetypeConfigQueryVariables = Exact<{
  archetype: string;
}>;


export type TerminalArchetypeConfigQuery = { terminalArchetypeConfig: unknown };

export type IotDeviceArchetypesQueryVariables = Exact<{ [key: string]: never; }>;


export type IotDeviceArchetypesQuery = { iotDeviceArchetypes: Array<string> };

export type IotDeviceArchetypeConfigQueryVariables = Exact<{
  archetype: string;
}>;


export type IotDeviceArchetypeConfigQuery = { iotDeviceArchetypeConfig: unknown };

export type UserDeviceKindsQueryVariables = Exact<{ [key: string]: never; }>;


export type UserDeviceKindsQuery = { terminalKinds: Array<TerminalKind>, peripheralKinds: Array<PeripheralKind> };

export type CriterionImpactFieldsFragment = { criterion: string, v1: unknown };

export type VerboseFieldsFragment = { v1: unknown };

type AssetImpactFields_CloudInstance_Fragment = { verbose?: { v1: unknown }, impacts: Array<{ criterion: string, v1: unknown }> };

type AssetImpactFields_Component_Fragment = { verbose?: { v1: unknown }, impacts: Array<{ criterion: string, v1: unknown }> };

type AssetImpactFields_GenerativeAiUsage_Fragment = { verbose?: { v1: unknown }, impacts: Array<{ criterion: string, v1: unknown }> };

type AssetImpactFields_IotDevice_Fragment = { verbose?: { v1: unknown }, impacts: Array<{ criterion: string, v1: unknown }> };

type AssetImpactFields_Server_Fragment = { verbose?: { v1: unknown }, impacts: Array<{ criterion: string, v1: unknown }> };

type AssetImpactFields_Terminal_Fragment = { verbose?: { v1: unknown }, impacts: Array<{ criterion: string, v1: unknown }> };

export type AssetImpactFieldsFragment =
  | AssetImpactFields_CloudInstance_Fragment
  | AssetImpactFields_Component_Fragment
  | AssetImpactFields_GenerativeAiUsage_Fragment
  | AssetImpactFields_IotDevice_Fragment
  | AssetImpactFields_Server_Fragment
  | AssetImpactFields_Terminal_Fragment
;

export type GenerativeAiImpactsQueryVariables = Exact<{
  input: GenerativeAiInput;
  criteria?: Array<Criterion> | Criterion | null | undefined;
  duration?: number | null | undefined;
  allocation?: Allocation | null | undefined;
  verbose: boolean;
}>;


export type GenerativeAiImpactsQuery = { generativeAi: { edition: string, provider: string, model: string, zone: string, warnings: Array<string>, verbose?: { v1: unknown }, impacts: Array<{ criterion: string, v1: unknown }> } | null };

export type GenerativeAiModelsQueryVariables = Exact<{
  provider?: string | null | undefined;
}>;


export type GenerativeAiModelsQuery = { generativeAiModels: Array<{ provider: string, name: string }> };

export type CpuConsumptionProfileQueryVariables = Exact<{
  cpu?: ProfileCpuInput | null | undefined;
  workload?: Array<WorkloadPointInput> | WorkloadPointInput | null | undefined;
}>;


export type CpuConsumptionProfileQuery = { consumptionProfile: { a: number, b: number, c: number, d: number } };

export type CpuBaseProfilesQueryVariables = Exact<{ [key: string]: never; }>;


export type CpuBaseProfilesQuery = { cpuBaseProfiles: Array<{ manufacturer: string, modelRange: string, a: number, b: number, c: number, d: number }> };

export type CpuConsumptionProfileImpactsQueryVariables = Exact<{
  cpu?: ProfileCpuInput | null | undefined;
  workload?: Array<WorkloadPointInput> | WorkloadPointInput | null | undefined;
  usage?: ProfileUsageInput | null | undefined;
  criteria?: Array<Criterion> | Criterion | null | undefined;
  duration?: number | null | undefined;
  verbose: boolean;
}>;


export type CpuConsumptionProfileImpactsQuery = { consumptionProfile: { impacts: { verbose?: { v1: unknown }, criteria: Array<{ criterion: string, v1: unknown }>, energy: { value: number, min: number, max: number, unit: string } | null } } };

export type ServerImpactsQueryVariables = Exact<{
  archetype?: string | null | undefined;
  input?: ServerInput | null | undefined;
  criteria?: Array<Criterion> | Criterion | null | undefined;
  duration?: number | null | undefined;
  allocation?: Allocation | null | undefined;
  verbose: boolean;
}>;


export type ServerImpactsQuery = { server: { verbose?: { v1: unknown }, impacts: Array<{ criterion: string, v1: unknown }> } | null };

export type ServerArchetypesQueryVariables = Exact<{ [key: string]: never; }>;


export type ServerArchetypesQuery = { serverArchetypes: Array<string> };

export type ServerArchetypeConfigQueryVariables = Exact<{
  archetype: string;
}>;


export type ServerArchetypeConfigQuery = { serverArchetypeConfig: unknown };

export type CountryCodesQueryVariables = Exact<{ [key: string]: never; }>;


export type CountryCodesQuery = { countryCodes: unknown };

export type CpuFamiliesQueryVariables = Exact<{ [key: string]: never; }>;


export type CpuFamiliesQuery = { cpuFamilies: Array<string> };

export type CpuModelRangesQueryVariables = Exact<{ [key: string]: never; }>;


export type CpuModelRangesQuery = { cpuModelRanges: Array<string> };

export type CpuNamesQueryVariables = Exact<{ [key: string]: never; }>;


export type CpuNamesQuery = { cpuNames: Array<string> };

export type SsdManufacturersQueryVariables = Exact<{ [key: string]: never; }>;


export type SsdManufacturersQuery = { ssdManufacturers: Array<string> };

export type RamManufacturersQueryVariables = Exact<{ [key: string]: never; }>;


export type RamManufacturersQuery = { ramManufacturers: Array<string> };

export type CaseTypesQueryVariables = Exact<{ [key: string]: never; }>;


export type CaseTypesQuery = { caseTypes: Array<string> };

export type ImpactCriteriaQueryVariables = Exact<{ [key: string]: never; }>;


export type ImpactCriteriaQuery = { impactCriteria: Array<{ key: string, name: string, unit: string, description: string, method: string | null }> };

export type CpuByNameQueryVariables = Exact<{
  name: string;
}>;


export type CpuByNameQuery = { cpuByName: { name: string, manufacturer: string | null, modelRange: string | null, family: string | null, tdp: number | null, coreUnits: number | null, dieSize: number | null } | null };

export type GpuNamesQueryVariables = Exact<{ [key: string]: never; }>;


export type GpuNamesQuery = { gpuNames: Array<string> };

export type GpuByNameQueryVariables = Exact<{
  name: string;
}>;


export type GpuByNameQuery = { gpuByName: { name: string, manufacturer: string | null, weight: number | null, heatsinkWeight: number | null, pwbSurface: number | null, casingWeight: number | null, gpuSurface: number | null, vram: number | null, vramDies: number | null, transportBoat: number | null, transportTruck: number | null, transportPlane: number | null } | null };

export type VersionQueryVariables = Exact<{ [key: string]: never; }>;


export type VersionQuery = { version: { methodology: string } };

export type EditionsQueryVariables = Exact<{ [key: string]: never; }>;


export type EditionsQuery = { editions: Array<{ id: string, base: string | null, data: string | null, methodology: string }> };

export const VerboseFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"VerboseFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Verbose"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}}]} as unknown as DocumentNode<VerboseFieldsFragment, unknown>;
export const CriterionImpactFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CriterionImpactFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CriterionImpact"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"criterion"}},{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}}]} as unknown as DocumentNode<CriterionImpactFieldsFragment, unknown>;
export const AssetImpactFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AssetImpactFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Asset"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"verbose"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}},{"kind":"Argument","name":{"kind":"Name","value":"allocation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}}}],"directives":[{"kind":"Directive","name":{"kind":"Name","value":"include"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"if"},"value":{"kind":"Variable","name":{"kind":"Name","value":"verbose"}}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"VerboseFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"impacts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}},{"kind":"Argument","name":{"kind":"Name","value":"allocation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CriterionImpactFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"VerboseFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Verbose"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CriterionImpactFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CriterionImpact"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"criterion"}},{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}}]} as unknown as DocumentNode<AssetImpactFieldsFragment, unknown>;
export const CloudInstanceImpactsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CloudInstanceImpacts"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"provider"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"instanceType"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"usage"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"UsageInput"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Criterion"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"duration"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Allocation"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"verbose"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cloudInstance"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"provider"},"value":{"kind":"Variable","name":{"kind":"Name","value":"provider"}}},{"kind":"Argument","name":{"kind":"Name","value":"instanceType"},"value":{"kind":"Variable","name":{"kind":"Name","value":"instanceType"}}},{"kind":"Argument","name":{"kind":"Name","value":"usage"},"value":{"kind":"Variable","name":{"kind":"Name","value":"usage"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"warnings"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"AssetImpactFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"VerboseFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Verbose"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CriterionImpactFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CriterionImpact"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"criterion"}},{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AssetImpactFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Asset"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"verbose"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}},{"kind":"Argument","name":{"kind":"Name","value":"allocation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}}}],"directives":[{"kind":"Directive","name":{"kind":"Name","value":"include"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"if"},"value":{"kind":"Variable","name":{"kind":"Name","value":"verbose"}}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"VerboseFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"impacts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}},{"kind":"Argument","name":{"kind":"Name","value":"allocation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CriterionImpactFields"}}]}}]}}]} as unknown as DocumentNode<CloudInstanceImpactsQuery, CloudInstanceImpactsQueryVariables>;
export const CloudProvidersDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CloudProviders"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cloudProviders"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<CloudProvidersQuery, CloudProvidersQueryVariables>;
export const CloudInstanceTypesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CloudInstanceTypes"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"provider"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cloudInstanceTypes"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"provider"},"value":{"kind":"Variable","name":{"kind":"Name","value":"provider"}}}]}]}}]} as unknown as DocumentNode<CloudInstanceTypesQuery, CloudInstanceTypesQueryVariables>;
export const CloudInstanceConfigDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CloudInstanceConfig"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"provider"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"instanceType"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cloudInstanceConfig"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"provider"},"value":{"kind":"Variable","name":{"kind":"Name","value":"provider"}}},{"kind":"Argument","name":{"kind":"Name","value":"instanceType"},"value":{"kind":"Variable","name":{"kind":"Name","value":"instanceType"}}}]}]}}]} as unknown as DocumentNode<CloudInstanceConfigQuery, CloudInstanceConfigQueryVariables>;
export const CloudRegionsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CloudRegions"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"provider"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cloudRegions"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"provider"},"value":{"kind":"Variable","name":{"kind":"Name","value":"provider"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"provider"}},{"kind":"Field","name":{"kind":"Name","value":"region"}}]}}]}}]} as unknown as DocumentNode<CloudRegionsQuery, CloudRegionsQueryVariables>;
export const CloudCoefficientsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CloudCoefficients"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"provider"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"instanceType"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"load"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Criterion"}}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cloudCoefficients"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"provider"},"value":{"kind":"Variable","name":{"kind":"Name","value":"provider"}}},{"kind":"Argument","name":{"kind":"Name","value":"instanceType"},"value":{"kind":"Variable","name":{"kind":"Name","value":"instanceType"}}},{"kind":"Argument","name":{"kind":"Name","value":"load"},"value":{"kind":"Variable","name":{"kind":"Name","value":"load"}}},{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edition"}},{"kind":"Field","name":{"kind":"Name","value":"load"}},{"kind":"Field","name":{"kind":"Name","value":"columns"}},{"kind":"Field","name":{"kind":"Name","value":"rows"}}]}}]}}]} as unknown as DocumentNode<CloudCoefficientsQuery, CloudCoefficientsQueryVariables>;
export const ComponentArchetypesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ComponentArchetypes"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"kind"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ComponentKind"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"componentArchetypes"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"kind"},"value":{"kind":"Variable","name":{"kind":"Name","value":"kind"}}}]}]}}]} as unknown as DocumentNode<ComponentArchetypesQuery, ComponentArchetypesQueryVariables>;
export const ComponentArchetypeConfigDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ComponentArchetypeConfig"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"kind"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ComponentKind"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"componentArchetypeConfig"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"kind"},"value":{"kind":"Variable","name":{"kind":"Name","value":"kind"}}},{"kind":"Argument","name":{"kind":"Name","value":"archetype"},"value":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}}}]}]}}]} as unknown as DocumentNode<ComponentArchetypeConfigQuery, ComponentArchetypeConfigQueryVariables>;
export const ComponentKindsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ComponentKinds"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"componentKinds"}}]}}]} as unknown as DocumentNode<ComponentKindsQuery, ComponentKindsQueryVariables>;
export const TerminalImpactsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TerminalImpacts"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"kind"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"TerminalKind"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"TerminalInput"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Criterion"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"duration"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Allocation"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"verbose"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"device"},"name":{"kind":"Name","value":"terminal"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"kind"},"value":{"kind":"Variable","name":{"kind":"Name","value":"kind"}}},{"kind":"Argument","name":{"kind":"Name","value":"archetype"},"value":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"AssetImpactFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"VerboseFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Verbose"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CriterionImpactFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CriterionImpact"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"criterion"}},{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AssetImpactFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Asset"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"verbose"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}},{"kind":"Argument","name":{"kind":"Name","value":"allocation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}}}],"directives":[{"kind":"Directive","name":{"kind":"Name","value":"include"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"if"},"value":{"kind":"Variable","name":{"kind":"Name","value":"verbose"}}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"VerboseFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"impacts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}},{"kind":"Argument","name":{"kind":"Name","value":"allocation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CriterionImpactFields"}}]}}]}}]} as unknown as DocumentNode<TerminalImpactsQuery, TerminalImpactsQueryVariables>;
export const PeripheralImpactsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"PeripheralImpacts"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"kind"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"PeripheralKind"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"PeripheralInput"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Criterion"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"duration"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Allocation"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"verbose"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"device"},"name":{"kind":"Name","value":"peripheral"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"kind"},"value":{"kind":"Variable","name":{"kind":"Name","value":"kind"}}},{"kind":"Argument","name":{"kind":"Name","value":"archetype"},"value":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"AssetImpactFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"VerboseFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Verbose"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CriterionImpactFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CriterionImpact"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"criterion"}},{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AssetImpactFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Asset"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"verbose"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}},{"kind":"Argument","name":{"kind":"Name","value":"allocation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}}}],"directives":[{"kind":"Directive","name":{"kind":"Name","value":"include"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"if"},"value":{"kind":"Variable","name":{"kind":"Name","value":"verbose"}}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"VerboseFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"impacts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}},{"kind":"Argument","name":{"kind":"Name","value":"allocation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CriterionImpactFields"}}]}}]}}]} as unknown as DocumentNode<PeripheralImpactsQuery, PeripheralImpactsQueryVariables>;
export const IotDeviceImpactsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"IotDeviceImpacts"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"IotDeviceInput"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Criterion"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"duration"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Allocation"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"verbose"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"device"},"name":{"kind":"Name","value":"iotDevice"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"archetype"},"value":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"AssetImpactFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"VerboseFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Verbose"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CriterionImpactFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CriterionImpact"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"criterion"}},{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AssetImpactFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Asset"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"verbose"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}},{"kind":"Argument","name":{"kind":"Name","value":"allocation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}}}],"directives":[{"kind":"Directive","name":{"kind":"Name","value":"include"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"if"},"value":{"kind":"Variable","name":{"kind":"Name","value":"verbose"}}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"VerboseFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"impacts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}},{"kind":"Argument","name":{"kind":"Name","value":"allocation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CriterionImpactFields"}}]}}]}}]} as unknown as DocumentNode<IotDeviceImpactsQuery, IotDeviceImpactsQueryVariables>;
export const TerminalArchetypesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TerminalArchetypes"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"kind"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"TerminalKind"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"terminalArchetypes"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"kind"},"value":{"kind":"Variable","name":{"kind":"Name","value":"kind"}}}]}]}}]} as unknown as DocumentNode<TerminalArchetypesQuery, TerminalArchetypesQueryVariables>;
export const PeripheralArchetypesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"PeripheralArchetypes"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"kind"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"PeripheralKind"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"peripheralArchetypes"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"kind"},"value":{"kind":"Variable","name":{"kind":"Name","value":"kind"}}}]}]}}]} as unknown as DocumentNode<PeripheralArchetypesQuery, PeripheralArchetypesQueryVariables>;
export const TerminalArchetypeConfigDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TerminalArchetypeConfig"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"terminalArchetypeConfig"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"archetype"},"value":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}}}]}]}}]} as unknown as DocumentNode<TerminalArchetypeConfigQuery, TerminalArchetypeConfigQueryVariables>;
export const IotDeviceArchetypesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"IotDeviceArchetypes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"iotDeviceArchetypes"}}]}}]} as unknown as DocumentNode<IotDeviceArchetypesQuery, IotDeviceArchetypesQueryVariables>;
export const IotDeviceArchetypeConfigDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"IotDeviceArchetypeConfig"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"iotDeviceArchetypeConfig"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"archetype"},"value":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}}}]}]}}]} as unknown as DocumentNode<IotDeviceArchetypeConfigQuery, IotDeviceArchetypeConfigQueryVariables>;
export const UserDeviceKindsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"UserDeviceKinds"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"terminalKinds"}},{"kind":"Field","name":{"kind":"Name","value":"peripheralKinds"}}]}}]} as unknown as DocumentNode<UserDeviceKindsQuery, UserDeviceKindsQueryVariables>;
export const GenerativeAiImpactsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"GenerativeAiImpacts"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"GenerativeAiInput"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Criterion"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"duration"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Allocation"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"verbose"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"generativeAi"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edition"}},{"kind":"Field","name":{"kind":"Name","value":"provider"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"zone"}},{"kind":"Field","name":{"kind":"Name","value":"warnings"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"AssetImpactFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"VerboseFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Verbose"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CriterionImpactFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CriterionImpact"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"criterion"}},{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AssetImpactFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Asset"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"verbose"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}},{"kind":"Argument","name":{"kind":"Name","value":"allocation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}}}],"directives":[{"kind":"Directive","name":{"kind":"Name","value":"include"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"if"},"value":{"kind":"Variable","name":{"kind":"Name","value":"verbose"}}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"VerboseFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"impacts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}},{"kind":"Argument","name":{"kind":"Name","value":"allocation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CriterionImpactFields"}}]}}]}}]} as unknown as DocumentNode<GenerativeAiImpactsQuery, GenerativeAiImpactsQueryVariables>;
export const GenerativeAiModelsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"GenerativeAiModels"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"provider"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"generativeAiModels"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"provider"},"value":{"kind":"Variable","name":{"kind":"Name","value":"provider"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"provider"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<GenerativeAiModelsQuery, GenerativeAiModelsQueryVariables>;
export const CpuConsumptionProfileDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CpuConsumptionProfile"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"cpu"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ProfileCpuInput"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"workload"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"WorkloadPointInput"}}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"consumptionProfile"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"cpu"},"value":{"kind":"Variable","name":{"kind":"Name","value":"cpu"}}},{"kind":"Argument","name":{"kind":"Name","value":"workload"},"value":{"kind":"Variable","name":{"kind":"Name","value":"workload"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"a"}},{"kind":"Field","name":{"kind":"Name","value":"b"}},{"kind":"Field","name":{"kind":"Name","value":"c"}},{"kind":"Field","name":{"kind":"Name","value":"d"}}]}}]}}]} as unknown as DocumentNode<CpuConsumptionProfileQuery, CpuConsumptionProfileQueryVariables>;
export const CpuBaseProfilesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CpuBaseProfiles"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cpuBaseProfiles"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"manufacturer"}},{"kind":"Field","name":{"kind":"Name","value":"modelRange"}},{"kind":"Field","name":{"kind":"Name","value":"a"}},{"kind":"Field","name":{"kind":"Name","value":"b"}},{"kind":"Field","name":{"kind":"Name","value":"c"}},{"kind":"Field","name":{"kind":"Name","value":"d"}}]}}]}}]} as unknown as DocumentNode<CpuBaseProfilesQuery, CpuBaseProfilesQueryVariables>;
export const CpuConsumptionProfileImpactsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CpuConsumptionProfileImpacts"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"cpu"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ProfileCpuInput"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"workload"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"WorkloadPointInput"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"usage"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ProfileUsageInput"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Criterion"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"duration"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"verbose"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"consumptionProfile"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"cpu"},"value":{"kind":"Variable","name":{"kind":"Name","value":"cpu"}}},{"kind":"Argument","name":{"kind":"Name","value":"workload"},"value":{"kind":"Variable","name":{"kind":"Name","value":"workload"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"impacts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}},{"kind":"Argument","name":{"kind":"Name","value":"usage"},"value":{"kind":"Variable","name":{"kind":"Name","value":"usage"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"verbose"},"directives":[{"kind":"Directive","name":{"kind":"Name","value":"include"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"if"},"value":{"kind":"Variable","name":{"kind":"Name","value":"verbose"}}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"VerboseFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"criteria"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"criterion"}},{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}},{"kind":"Field","name":{"kind":"Name","value":"energy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"value"}},{"kind":"Field","name":{"kind":"Name","value":"min"}},{"kind":"Field","name":{"kind":"Name","value":"max"}},{"kind":"Field","name":{"kind":"Name","value":"unit"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"VerboseFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Verbose"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}}]} as unknown as DocumentNode<CpuConsumptionProfileImpactsQuery, CpuConsumptionProfileImpactsQueryVariables>;
export const ServerImpactsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ServerImpacts"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ServerInput"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Criterion"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"duration"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Allocation"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"verbose"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"server"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"archetype"},"value":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"AssetImpactFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"VerboseFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Verbose"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CriterionImpactFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CriterionImpact"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"criterion"}},{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AssetImpactFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Asset"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"verbose"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}},{"kind":"Argument","name":{"kind":"Name","value":"allocation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}}}],"directives":[{"kind":"Directive","name":{"kind":"Name","value":"include"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"if"},"value":{"kind":"Variable","name":{"kind":"Name","value":"verbose"}}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"VerboseFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"impacts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}},{"kind":"Argument","name":{"kind":"Name","value":"allocation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CriterionImpactFields"}}]}}]}}]} as unknown as DocumentNode<ServerImpactsQuery, ServerImpactsQueryVariables>;
export const ServerArchetypesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ServerArchetypes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"serverArchetypes"}}]}}]} as unknown as DocumentNode<ServerArchetypesQuery, ServerArchetypesQueryVariables>;
export const ServerArchetypeConfigDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ServerArchetypeConfig"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"serverArchetypeConfig"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"archetype"},"value":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}}}]}]}}]} as unknown as DocumentNode<ServerArchetypeConfigQuery, ServerArchetypeConfigQueryVariables>;
export const CountryCodesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CountryCodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"countryCodes"}}]}}]} as unknown as DocumentNode<CountryCodesQuery, CountryCodesQueryVariables>;
export const CpuFamiliesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CpuFamilies"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cpuFamilies"}}]}}]} as unknown as DocumentNode<CpuFamiliesQuery, CpuFamiliesQueryVariables>;
export const CpuModelRangesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CpuModelRanges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cpuModelRanges"}}]}}]} as unknown as DocumentNode<CpuModelRangesQuery, CpuModelRangesQueryVariables>;
export const CpuNamesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CpuNames"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cpuNames"}}]}}]} as unknown as DocumentNode<CpuNamesQuery, CpuNamesQueryVariables>;
export const SsdManufacturersDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"SsdManufacturers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"ssdManufacturers"}}]}}]} as unknown as DocumentNode<SsdManufacturersQuery, SsdManufacturersQueryVariables>;
export const RamManufacturersDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RamManufacturers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"ramManufacturers"}}]}}]} as unknown as DocumentNode<RamManufacturersQuery, RamManufacturersQueryVariables>;
export const CaseTypesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CaseTypes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"caseTypes"}}]}}]} as unknown as DocumentNode<CaseTypesQuery, CaseTypesQueryVariables>;
export const ImpactCriteriaDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ImpactCriteria"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"impactCriteria"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"unit"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"method"}}]}}]}}]} as unknown as DocumentNode<ImpactCriteriaQuery, ImpactCriteriaQueryVariables>;
export const CpuByNameDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CpuByName"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cpuByName"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"manufacturer"}},{"kind":"Field","name":{"kind":"Name","value":"modelRange"}},{"kind":"Field","name":{"kind":"Name","value":"family"}},{"kind":"Field","name":{"kind":"Name","value":"tdp"}},{"kind":"Field","name":{"kind":"Name","value":"coreUnits"}},{"kind":"Field","name":{"kind":"Name","value":"dieSize"}}]}}]}}]} as unknown as DocumentNode<CpuByNameQuery, CpuByNameQueryVariables>;
export const GpuNamesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"GpuNames"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"gpuNames"}}]}}]} as unknown as DocumentNode<GpuNamesQuery, GpuNamesQueryVariables>;
export const GpuByNameDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"GpuByName"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"gpuByName"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"manufacturer"}},{"kind":"Field","name":{"kind":"Name","value":"weight"}},{"kind":"Field","name":{"kind":"Name","value":"heatsinkWeight"}},{"kind":"Field","name":{"kind":"Name","value":"pwbSurface"}},{"kind":"Field","name":{"kind":"Name","value":"casingWeight"}},{"kind":"Field","name":{"kind":"Name","value":"gpuSurface"}},{"kind":"Field","name":{"kind":"Name","value":"vram"}},{"kind":"Field","name":{"kind":"Name","value":"vramDies"}},{"kind":"Field","name":{"kind":"Name","value":"transportBoat"}},{"kind":"Field","name":{"kind":"Name","value":"transportTruck"}},{"kind":"Field","name":{"kind":"Name","value":"transportPlane"}}]}}]}}]} as unknown as DocumentNode<GpuByNameQuery, GpuByNameQueryVariables>;
export const VersionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Version"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"version"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"methodology"}}]}}]}}]} as unknown as DocumentNode<VersionQuery, VersionQueryVariables>;
export const EditionsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Editions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"editions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"base"}},{"kind":"Field","name":{"kind":"Name","value":"data"}},{"kind":"Field","name":{"kind":"Name","value":"methodology"}}]}}]}}]} as unknown as DocumentNode<EditionsQuery, EditionsQueryVariables>;