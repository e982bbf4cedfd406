/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** LINEAR: embedded impacts allocated over the duration (duration / lifetime, at most 1). TOTAL: the whole embedded impact whatever the duration. Use impacts are the same in both. */
export type Allocation =
  | 'LINEAR'
  | 'TOTAL';

export type CaseInput = {
  /** rack or blade. */
  caseType?: string | null | undefined;
  units?: number | null | undefined;
  usage?: UsageInput | null | undefined;
};

/** Kinds of components evaluated on their own or in fleets. */
export type ComponentKind =
  /** Assembly of a server. */
  | 'assembly'
  /** Rack or blade case. */
  | 'case'
  /** Processor. */
  | 'cpu'
  /** Graphics card (edition 2.4.1). */
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

export type CpuInput = {
  coreUnits?: number | null | undefined;
  /** mm²; used only with coreUnits. */
  dieSize?: number | null | undefined;
  /** mm² per core. */
  dieSizePerCore?: number | null | undefined;
  family?: string | null | undefined;
  manufacturer?: string | null | undefined;
  modelRange?: string | null | undefined;
  /** Free text, matched approximately against the CPU table. */
  name?: string | null | undefined;
  /** W. */
  tdp?: number | null | undefined;
  threads?: number | null | undefined;
  units?: number | null | undefined;
  usage?: UsageInput | null | undefined;
};

/** Impact criterion. gwp, adp and pe are the headline criteria; the others are PEF criteria. `CTUh_c`/`CTUh_nc` are listed as the reference lists them (not computed); `ctuh_c`/`ctuh_nc` are computed. `fe` (final energy) exists in edition 2.4.1 only. */
export type Criterion =
  | 'CTUh_c'
  | 'CTUh_nc'
  | 'adp'
  | 'adpe'
  | 'adpf'
  | 'ap'
  | 'ctue'
  | 'ctuh_c'
  | 'ctuh_nc'
  | 'epf'
  | 'epm'
  | 'ept'
  | 'fe'
  | 'fw'
  | 'gwp'
  | 'gwppb'
  | 'gwppf'
  | 'gwpplu'
  | 'ir'
  | 'lu'
  | 'mips'
  | 'odp'
  | 'pe'
  | 'pm'
  | 'pocp'
  | 'wu';

export type DiskInput = {
  /** GB. */
  capacity?: number | null | undefined;
  /** GB/cm² (SSD). */
  density?: number | null | undefined;
  layers?: number | null | undefined;
  manufacturer?: string | null | undefined;
  /** ssd (default) or hdd; other types are ignored. */
  type?: string | null | undefined;
  units?: number | null | undefined;
  usage?: UsageInput | null | undefined;
};

/** An edition of the methodology: the numbers and answers of one boaviztapi version, with its own reference data and rules. A service answers every edition; `EDITION` sets its default. */
export type Edition =
  /** boaviztapi 1.2.4 (METHOD.md): AWS instances of 2023, country codes, no GPU. */
  | 'V1_2_4'
  /** boaviztapi 2.4.1 (METHOD-2.4.1.md): five cloud providers with regions, GPUs, VR devices, criterion fe. */
  | 'V2_4_1';

/** Electricity impact factors per kWh overriding the location's, per criterion. */
export type ElecFactorsInput = {
  adp?: number | null | undefined;
  adpe?: number | null | undefined;
  adpf?: number | null | undefined;
  ap?: number | null | undefined;
  ctue?: number | null | undefined;
  ctuh_c?: number | null | undefined;
  ctuh_nc?: number | null | undefined;
  epf?: number | null | undefined;
  epm?: number | null | undefined;
  ept?: number | null | undefined;
  gwp?: number | null | undefined;
  gwppb?: number | null | undefined;
  gwppf?: number | null | undefined;
  gwpplu?: number | null | undefined;
  ir?: number | null | undefined;
  lu?: number | null | undefined;
  mips?: number | null | undefined;
  odp?: number | null | undefined;
  pe?: number | null | undefined;
  pm?: number | null | undefined;
  pocp?: number | null | undefined;
  wu?: number | null | undefined;
};

export type FunctionalBlockInput = {
  /** HSL-0 … HSL-3 (default: the archetype's level for this block). */
  hslLevel?: string | null | undefined;
  /** Block name, any case: actuators, casing, connectivity, memory, others, pcb, … */
  type: string;
};

/** A GPU card (edition 2.4.1). Missing characteristics come from the default GPU; `name` is recorded only (use `gpuByName` to fill the fields from a model). */
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

export type IotDeviceInput = {
  /** Replaces the archetype's blocks (an empty list means no block). */
  functionalBlocks?: Array<FunctionalBlockInput> | null | undefined;
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
  /** A virtual-reality controller; edition 2.4.1 only. */
  | 'vr_controller';

export type PowerSupplyInput = {
  /** kg. */
  unitWeight?: number | null | undefined;
  units?: number | null | undefined;
  usage?: UsageInput | null | undefined;
};

/** The CPU whose power profile is wanted: any of name, manufacturer, model range, family, TDP. */
export type ProfileCpuInput = {
  /** CPU family. Edition 1.2.4 ignores it; edition 2.4.1 writes it into the model range (overwriting a given one, a kept quirk). */
  family?: string | null | undefined;
  /** CPU manufacturer (Intel, AMD…). */
  manufacturer?: string | null | undefined;
  /** CPU model range (Xeon Gold, EPYC…). */
  modelRange?: string | null | undefined;
  /** Free text, matched approximately against the CPU table. */
  name?: string | null | undefined;
  /** Thermal design power (W). Edition 1.2.4 ignores it; edition 2.4.1 fits the profile to it when no workload is given (the name's TDP otherwise). */
  tdp?: number | null | undefined;
};

export type RamInput = {
  /** GB. */
  capacity?: number | null | undefined;
  /** GB/cm². */
  density?: number | null | undefined;
  manufacturer?: string | null | undefined;
  /** nm. */
  process?: number | null | undefined;
  units?: number | null | undefined;
  usage?: UsageInput | null | undefined;
};

export type ServerConfigurationInput = {
  cpu?: CpuInput | null | undefined;
  disk?: Array<DiskInput> | null | undefined;
  /** The server's GPU cards (edition 2.4.1; ignored by 1.2.4). Without it, the archetype's GPUs if any. */
  gpu?: GpuInput | null | undefined;
  powerSupply?: PowerSupplyInput | null | undefined;
  /** An empty list means no RAM. */
  ram?: Array<RamInput> | null | undefined;
};

export type ServerInput = {
  configuration?: ServerConfigurationInput | null | undefined;
  model?: ServerModelInput | null | undefined;
  usage?: UsageInput | null | undefined;
};

export type ServerModelInput = {
  manufacturer?: string | null | undefined;
  name?: string | null | undefined;
  /** rack or blade: sets the case type. */
  type?: string | null | undefined;
  year?: string | null | undefined;
};

/** Components described by their count only (HDD adds capacity; motherboard, assembly). */
export type SimpleComponentInput = {
  /** GB (HDD). */
  capacity?: number | null | undefined;
  units?: number | null | undefined;
  usage?: UsageInput | null | undefined;
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
  /** A virtual-reality headset (types lcd, oled); edition 2.4.1 only. */
  | 'vr_headset';

export type UsageInput = {
  /** Average power in W (skips power modelling). */
  avgPower?: number | null | undefined;
  /** Use time in days of 24 h. */
  daysUseTime?: number | null | undefined;
  elecFactors?: ElecFactorsInput | null | undefined;
  /** Lifetime in hours. */
  hoursLifeTime?: number | null | undefined;
  /** Use time in hours (cumulative with days/years). */
  hoursUseTime?: number | null | undefined;
  /** Cloud instances: instances sharing the host; shown in the verbose, unused by the model. */
  instancePerServer?: number | null | undefined;
  /** Servers: extra power share of other parts. */
  otherConsumptionRatio?: number | null | undefined;
  /** Cloud instances, edition 2.4.1: the provider's region (see cloudRegions), which sets the location; usageLocation is the fallback of an unknown region. */
  region?: string | null | undefined;
  /** Constant load, 0–100 %. */
  timeWorkload?: number | null | undefined;
  /** Time shares at loads (instead of timeWorkload). */
  timeWorkloadShares?: Array<WorkloadShareInput> | null | undefined;
  /** Country code (NATO CodSP3), e.g. FRA; default EEE. */
  usageLocation?: string | null | undefined;
  /** Fraction of the time in use, 0–1. */
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
  loadPercentage: number;
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
  edition?: Edition | null | undefined;
}>;


export type CloudInstanceImpactsQuery = { cloudInstance: { warnings: Array<string>, verbose?: { v1: unknown }, impacts: Array<{ criterion: string, v1: unknown }> } };

export type CloudProvidersQueryVariables = Exact<{
  edition?: Edition | null | undefined;
}>;


export type CloudProvidersQuery = { cloudProviders: Array<{ name: string }> };

export type CloudInstanceTypesQueryVariables = Exact<{
  provider: string;
  edition?: Edition | null | undefined;
}>;


export type CloudInstanceTypesQuery = { cloudInstanceTypes: Array<string> };

export type CloudInstanceConfigQueryVariables = Exact<{
  provider: string;
  instanceType: string;
  edition?: Edition | null | undefined;
}>;


export type CloudInstanceConfigQuery = { cloudInstanceConfig: unknown };

export type CloudRegionsQueryVariables = Exact<{
  provider?: string | null | undefined;
  edition?: Edition | null | undefined;
}>;


export type CloudRegionsQuery = { cloudRegions: Array<{ provider: string, region: string }> };

export type CpuImpactsQueryVariables = Exact<{
  archetype?: string | null | undefined;
  input?: CpuInput | null | undefined;
  criteria?: Array<Criterion> | Criterion | null | undefined;
  duration?: number | null | undefined;
  allocation?: Allocation | null | undefined;
  verbose: boolean;
  edition?: Edition | null | undefined;
}>;


export type CpuImpactsQuery = { component: { verbose?: { v1: unknown }, impacts: Array<{ criterion: string, v1: unknown }> } };

export type GpuImpactsQueryVariables = Exact<{
  archetype?: string | null | undefined;
  input?: GpuInput | null | undefined;
  criteria?: Array<Criterion> | Criterion | null | undefined;
  duration?: number | null | undefined;
  allocation?: Allocation | null | undefined;
  verbose: boolean;
  edition?: Edition | null | undefined;
}>;


export type GpuImpactsQuery = { component: { verbose?: { v1: unknown }, impacts: Array<{ criterion: string, v1: unknown }> } };

export type RamImpactsQueryVariables = Exact<{
  archetype?: string | null | undefined;
  input?: RamInput | null | undefined;
  criteria?: Array<Criterion> | Criterion | null | undefined;
  duration?: number | null | undefined;
  allocation?: Allocation | null | undefined;
  verbose: boolean;
  edition?: Edition | null | undefined;
}>;


export type RamImpactsQuery = { component: { verbose?: { v1: unknown }, impacts: Array<{ criterion: string, v1: unknown }> } };

export type SsdImpactsQueryVariables = Exact<{
  archetype?: string | null | undefined;
  input?: DiskInput | null | undefined;
  criteria?: Array<Criterion> | Criterion | null | undefined;
  duration?: number | null | undefined;
  allocation?: Allocation | null | undefined;
  verbose: boolean;
  edition?: Edition | null | undefined;
}>;


export type SsdImpactsQuery = { component: { verbose?: { v1: unknown }, impacts: Array<{ criterion: string, v1: unknown }> } };

export type HddImpactsQueryVariables = Exact<{
  archetype?: string | null | undefined;
  input?: SimpleComponentInput | null | undefined;
  criteria?: Array<Criterion> | Criterion | null | undefined;
  duration?: number | null | undefined;
  allocation?: Allocation | null | undefined;
  verbose: boolean;
  edition?: Edition | null | undefined;
}>;


export type HddImpactsQuery = { component: { verbose?: { v1: unknown }, impacts: Array<{ criterion: string, v1: unknown }> } };

export type PowerSupplyImpactsQueryVariables = Exact<{
  archetype?: string | null | undefined;
  input?: PowerSupplyInput | null | undefined;
  criteria?: Array<Criterion> | Criterion | null | undefined;
  duration?: number | null | undefined;
  allocation?: Allocation | null | undefined;
  verbose: boolean;
  edition?: Edition | null | undefined;
}>;


export type PowerSupplyImpactsQuery = { component: { verbose?: { v1: unknown }, impacts: Array<{ criterion: string, v1: unknown }> } };

export type CaseImpactsQueryVariables = Exact<{
  archetype?: string | null | undefined;
  input?: CaseInput | null | undefined;
  criteria?: Array<Criterion> | Criterion | null | undefined;
  duration?: number | null | undefined;
  allocation?: Allocation | null | undefined;
  verbose: boolean;
  edition?: Edition | null | undefined;
}>;


export type CaseImpactsQuery = { component: { verbose?: { v1: unknown }, impacts: Array<{ criterion: string, v1: unknown }> } };

export type MotherboardImpactsQueryVariables = Exact<{
  archetype?: string | null | undefined;
  input?: SimpleComponentInput | null | undefined;
  criteria?: Array<Criterion> | Criterion | null | undefined;
  duration?: number | null | undefined;
  allocation?: Allocation | null | undefined;
  verbose: boolean;
  edition?: Edition | null | undefined;
}>;


export type MotherboardImpactsQuery = { component: { verbose?: { v1: unknown }, impacts: Array<{ criterion: string, v1: unknown }> } };

export type AssemblyImpactsQueryVariables = Exact<{
  archetype?: string | null | undefined;
  input?: SimpleComponentInput | null | undefined;
  criteria?: Array<Criterion> | Criterion | null | undefined;
  duration?: number | null | undefined;
  allocation?: Allocation | null | undefined;
  verbose: boolean;
  edition?: Edition | null | undefined;
}>;


export type AssemblyImpactsQuery = { component: { verbose?: { v1: unknown }, impacts: Array<{ criterion: string, v1: unknown }> } };

export type ComponentArchetypesQueryVariables = Exact<{
  kind: ComponentKind;
  edition?: Edition | null | undefined;
}>;


export type ComponentArchetypesQuery = { componentArchetypes: Array<string> };

export type ComponentArchetypeConfigQueryVariables = Exact<{
  kind: ComponentKind;
  archetype: string;
  edition?: Edition | null | undefined;
}>;


export type ComponentArchetypeConfigQuery = { componentArchetypeConfig: unknown };

export type ComponentKindsQueryVariables = Exact<{
  edition?: Edition | null | undefined;
}>;


export type ComponentKindsQuery = { componentKinds: Array<ComponentKind> };

export type TerminalImpactsQueryVariables = Exact<{
  kind: TerminalKind;
  archetype?: string | null | undefined;
  input?: TerminalInput | null | undefined;
  criteria?: Array<Criterion> | Criterion | null | undefined;
  duration?: number | null | undefined;
  allocation?: Allocation | null | undefined;
  verbose: boolean;
  edition?: Edition | null | undefined;
}>;


export type TerminalImpactsQuery = { device: { verbose?: { v1: unknown }, impacts: Array<{ criterion: string, v1: unknown }> } };

export type PeripheralImpactsQueryVariables = Exact<{
  kind: PeripheralKind;
  archetype?: string | null | undefined;
  input?: PeripheralInput | null | undefined;
  criteria?: Array<Criterion> | Criterion | null | undefined;
  duration?: number | null | undefined;
  allocation?: Allocation | null | undefined;
  verbose: boolean;
  edition?: Edition | null | undefined;
}>;


export type PeripheralImpactsQuery = { device: { verbose?: { v1: unknown }, impacts: Array<{ criterion: string, v1: unknown }> } };

export type IotDeviceImpactsQueryVariables = Exact<{
  archetype?: string | null | undefined;
  input?: IotDeviceInput | null | undefined;
  criteria?: Array<Criterion> | Criterion | null | undefined;
  duration?: number | null | undefined;
  allocation?: Allocation | null | undefined;
  verbose: boolean;
  edition?: Edition | null | undefined;
}>;


export type IotDeviceImpactsQuery = { device: { verbose?: { v1: unknown }, impacts: Array<{ criterion: string, v1: unknown }> } };

export type TerminalArchetypesQueryVariables = Exact<{
  kind: TerminalKind;
  edition?: Edition | null | undefined;
}>;


export type TerminalArchetypesQuery = { terminalArchetypes: Array<string> | null };

export type PeripheralArchetypesQueryVariables = Exact<{
  kind: PeripheralKind;
  edition?: Edition | null | undefined;
}>;


export type PeripheralArchetypesQuery = { peripheralArchetypes: Array<string> | null };

export type TerminalArchetypeConfigQueryVariables = Exact<{
  archetype: string;
  edition?: Edition | null | undefined;
}>;


export type TerminalArchetypeConfigQuery = { terminalArchetypeConfig: unknown };

export type IotDeviceArchetypesQueryVariables = Exact<{
  edition?: Edition | null | undefined;
}>;


export type IotDeviceArchetypesQuery = { iotDeviceArchetypes: Array<string> };

export type IotDeviceArchetypeConfigQueryVariables = Exact<{
  archetype: string;
  edition?: Edition | null | undefined;
}>;


export type IotDeviceArchetypeConfigQuery = { iotDeviceArchetypeConfig: unknown };

export type UserDeviceKindsQueryVariables = Exact<{
  edition?: Edition | null | undefined;
}>;


export type UserDeviceKindsQuery = { terminalKinds: Array<TerminalKind>, peripheralKinds: Array<PeripheralKind> };

export type CriterionImpactFieldsFragment = { criterion: string, v1: unknown };

export type VerboseFieldsFragment = { v1: unknown };

export type CpuConsumptionProfileQueryVariables = Exact<{
  cpu?: ProfileCpuInput | null | undefined;
  workload?: Array<WorkloadPointInput> | WorkloadPointInput | null | undefined;
  edition?: Edition | null | undefined;
}>;


export type CpuConsumptionProfileQuery = { consumptionProfile: { a: number, b: number, c: number, d: number } };

export type CpuBaseProfilesQueryVariables = Exact<{
  edition?: Edition | null | undefined;
}>;


export type CpuBaseProfilesQuery = { cpuBaseProfiles: Array<{ manufacturer: string, modelRange: string, a: number, b: number, c: number, d: number }> };

export type ServerImpactsQueryVariables = Exact<{
  archetype?: string | null | undefined;
  input?: ServerInput | null | undefined;
  criteria?: Array<Criterion> | Criterion | null | undefined;
  duration?: number | null | undefined;
  allocation?: Allocation | null | undefined;
  verbose: boolean;
  edition?: Edition | null | undefined;
}>;


export type ServerImpactsQuery = { server: { verbose?: { v1: unknown }, impacts: Array<{ criterion: string, v1: unknown }> } };

export type ServerArchetypesQueryVariables = Exact<{
  edition?: Edition | null | undefined;
}>;


export type ServerArchetypesQuery = { serverArchetypes: Array<string> };

export type ServerArchetypeConfigQueryVariables = Exact<{
  archetype: string;
  edition?: Edition | null | undefined;
}>;


export type ServerArchetypeConfigQuery = { serverArchetypeConfig: unknown };

export type CountryCodesQueryVariables = Exact<{
  edition?: Edition | null | undefined;
}>;


export type CountryCodesQuery = { countryCodes: unknown };

export type CpuFamiliesQueryVariables = Exact<{
  edition?: Edition | null | undefined;
}>;


export type CpuFamiliesQuery = { cpuFamilies: Array<string> };

export type CpuModelRangesQueryVariables = Exact<{
  edition?: Edition | null | undefined;
}>;


export type CpuModelRangesQuery = { cpuModelRanges: Array<string> };

export type CpuNamesQueryVariables = Exact<{
  edition?: Edition | null | undefined;
}>;


export type CpuNamesQuery = { cpuNames: Array<string> };

export type SsdManufacturersQueryVariables = Exact<{
  edition?: Edition | null | undefined;
}>;


export type SsdManufacturersQuery = { ssdManufacturers: Array<string> };

export type RamManufacturersQueryVariables = Exact<{
  edition?: Edition | null | undefined;
}>;


export type RamManufacturersQuery = { ramManufacturers: Array<string> };

export type CaseTypesQueryVariables = Exact<{
  edition?: Edition | null | undefined;
}>;


export type CaseTypesQuery = { caseTypes: Array<string> };

export type ImpactCriteriaQueryVariables = Exact<{
  edition?: Edition | null | undefined;
}>;


export type ImpactCriteriaQuery = { impactCriteria: Array<{ key: string, name: string, unit: string, description: string, method: string | null }> };

export type CpuByNameQueryVariables = Exact<{
  name: string;
  edition?: Edition | null | undefined;
}>;


export type CpuByNameQuery = { cpuByName: { name: string, manufacturer: string | null, modelRange: string | null, family: string | null, tdp: number | null, coreUnits: number | null, dieSize: number | null } | null };

export type GpuNamesQueryVariables = Exact<{
  edition?: Edition | null | undefined;
}>;


export type GpuNamesQuery = { gpuNames: Array<string> };

export type GpuByNameQueryVariables = Exact<{
  name: string;
  edition?: Edition | null | undefined;
}>;


export type GpuByNameQuery = { gpuByName: { name: string, manufacturer: string | null, weight: number | null, heatsinkWeight: number | null, pwbSurface: number | null, casingWeight: number | null, gpuSurface: number | null, vram: number | null, vramDies: number | null, transportBoat: number | null, transportTruck: number | null, transportPlane: number | null } | null };

export type VersionQueryVariables = Exact<{
  edition?: Edition | null | undefined;
}>;


export type VersionQuery = { version: { methodology: string } };

export const CriterionImpactFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CriterionImpactFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CriterionImpact"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"criterion"}},{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}}]} as unknown as DocumentNode<CriterionImpactFieldsFragment, unknown>;
export const VerboseFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"VerboseFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Verbose"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}}]} as unknown as DocumentNode<VerboseFieldsFragment, unknown>;
export const CloudInstanceImpactsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CloudInstanceImpacts"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"provider"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"instanceType"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"usage"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"UsageInput"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Criterion"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"duration"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Allocation"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"verbose"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"edition"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cloudInstance"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"provider"},"value":{"kind":"Variable","name":{"kind":"Name","value":"provider"}}},{"kind":"Argument","name":{"kind":"Name","value":"instanceType"},"value":{"kind":"Variable","name":{"kind":"Name","value":"instanceType"}}},{"kind":"Argument","name":{"kind":"Name","value":"usage"},"value":{"kind":"Variable","name":{"kind":"Name","value":"usage"}}},{"kind":"Argument","name":{"kind":"Name","value":"edition"},"value":{"kind":"Variable","name":{"kind":"Name","value":"edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"warnings"}},{"kind":"Field","name":{"kind":"Name","value":"verbose"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}},{"kind":"Argument","name":{"kind":"Name","value":"allocation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}}}],"directives":[{"kind":"Directive","name":{"kind":"Name","value":"include"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"if"},"value":{"kind":"Variable","name":{"kind":"Name","value":"verbose"}}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"VerboseFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"impacts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}},{"kind":"Argument","name":{"kind":"Name","value":"allocation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CriterionImpactFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"VerboseFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Verbose"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CriterionImpactFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CriterionImpact"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"criterion"}},{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}}]} as unknown as DocumentNode<CloudInstanceImpactsQuery, CloudInstanceImpactsQueryVariables>;
export const CloudProvidersDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CloudProviders"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"edition"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cloudProviders"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"edition"},"value":{"kind":"Variable","name":{"kind":"Name","value":"edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<CloudProvidersQuery, CloudProvidersQueryVariables>;
export const CloudInstanceTypesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CloudInstanceTypes"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"provider"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"edition"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cloudInstanceTypes"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"provider"},"value":{"kind":"Variable","name":{"kind":"Name","value":"provider"}}},{"kind":"Argument","name":{"kind":"Name","value":"edition"},"value":{"kind":"Variable","name":{"kind":"Name","value":"edition"}}}]}]}}]} as unknown as DocumentNode<CloudInstanceTypesQuery, CloudInstanceTypesQueryVariables>;
export const CloudInstanceConfigDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CloudInstanceConfig"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"provider"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"instanceType"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"edition"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cloudInstanceConfig"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"provider"},"value":{"kind":"Variable","name":{"kind":"Name","value":"provider"}}},{"kind":"Argument","name":{"kind":"Name","value":"instanceType"},"value":{"kind":"Variable","name":{"kind":"Name","value":"instanceType"}}},{"kind":"Argument","name":{"kind":"Name","value":"edition"},"value":{"kind":"Variable","name":{"kind":"Name","value":"edition"}}}]}]}}]} as unknown as DocumentNode<CloudInstanceConfigQuery, CloudInstanceConfigQueryVariables>;
export const CloudRegionsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CloudRegions"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"provider"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"edition"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cloudRegions"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"provider"},"value":{"kind":"Variable","name":{"kind":"Name","value":"provider"}}},{"kind":"Argument","name":{"kind":"Name","value":"edition"},"value":{"kind":"Variable","name":{"kind":"Name","value":"edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"provider"}},{"kind":"Field","name":{"kind":"Name","value":"region"}}]}}]}}]} as unknown as DocumentNode<CloudRegionsQuery, CloudRegionsQueryVariables>;
export const CpuImpactsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CpuImpacts"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"CpuInput"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Criterion"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"duration"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Allocation"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"verbose"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"edition"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"component"},"name":{"kind":"Name","value":"cpu"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"archetype"},"value":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}},{"kind":"Argument","name":{"kind":"Name","value":"edition"},"value":{"kind":"Variable","name":{"kind":"Name","value":"edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"verbose"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}},{"kind":"Argument","name":{"kind":"Name","value":"allocation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}}}],"directives":[{"kind":"Directive","name":{"kind":"Name","value":"include"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"if"},"value":{"kind":"Variable","name":{"kind":"Name","value":"verbose"}}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"VerboseFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"impacts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}},{"kind":"Argument","name":{"kind":"Name","value":"allocation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CriterionImpactFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"VerboseFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Verbose"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CriterionImpactFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CriterionImpact"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"criterion"}},{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}}]} as unknown as DocumentNode<CpuImpactsQuery, CpuImpactsQueryVariables>;
export const GpuImpactsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"GpuImpacts"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"GpuInput"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Criterion"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"duration"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Allocation"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"verbose"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"edition"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"component"},"name":{"kind":"Name","value":"gpu"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"archetype"},"value":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}},{"kind":"Argument","name":{"kind":"Name","value":"edition"},"value":{"kind":"Variable","name":{"kind":"Name","value":"edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"verbose"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}},{"kind":"Argument","name":{"kind":"Name","value":"allocation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}}}],"directives":[{"kind":"Directive","name":{"kind":"Name","value":"include"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"if"},"value":{"kind":"Variable","name":{"kind":"Name","value":"verbose"}}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"VerboseFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"impacts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}},{"kind":"Argument","name":{"kind":"Name","value":"allocation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CriterionImpactFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"VerboseFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Verbose"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CriterionImpactFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CriterionImpact"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"criterion"}},{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}}]} as unknown as DocumentNode<GpuImpactsQuery, GpuImpactsQueryVariables>;
export const RamImpactsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RamImpacts"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"RamInput"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Criterion"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"duration"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Allocation"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"verbose"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"edition"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"component"},"name":{"kind":"Name","value":"ram"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"archetype"},"value":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}},{"kind":"Argument","name":{"kind":"Name","value":"edition"},"value":{"kind":"Variable","name":{"kind":"Name","value":"edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"verbose"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}},{"kind":"Argument","name":{"kind":"Name","value":"allocation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}}}],"directives":[{"kind":"Directive","name":{"kind":"Name","value":"include"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"if"},"value":{"kind":"Variable","name":{"kind":"Name","value":"verbose"}}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"VerboseFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"impacts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}},{"kind":"Argument","name":{"kind":"Name","value":"allocation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CriterionImpactFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"VerboseFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Verbose"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CriterionImpactFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CriterionImpact"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"criterion"}},{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}}]} as unknown as DocumentNode<RamImpactsQuery, RamImpactsQueryVariables>;
export const SsdImpactsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"SsdImpacts"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"DiskInput"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Criterion"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"duration"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Allocation"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"verbose"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"edition"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"component"},"name":{"kind":"Name","value":"ssd"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"archetype"},"value":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}},{"kind":"Argument","name":{"kind":"Name","value":"edition"},"value":{"kind":"Variable","name":{"kind":"Name","value":"edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"verbose"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}},{"kind":"Argument","name":{"kind":"Name","value":"allocation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}}}],"directives":[{"kind":"Directive","name":{"kind":"Name","value":"include"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"if"},"value":{"kind":"Variable","name":{"kind":"Name","value":"verbose"}}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"VerboseFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"impacts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}},{"kind":"Argument","name":{"kind":"Name","value":"allocation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CriterionImpactFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"VerboseFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Verbose"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CriterionImpactFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CriterionImpact"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"criterion"}},{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}}]} as unknown as DocumentNode<SsdImpactsQuery, SsdImpactsQueryVariables>;
export const HddImpactsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"HddImpacts"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"SimpleComponentInput"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Criterion"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"duration"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Allocation"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"verbose"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"edition"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"component"},"name":{"kind":"Name","value":"hdd"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"archetype"},"value":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}},{"kind":"Argument","name":{"kind":"Name","value":"edition"},"value":{"kind":"Variable","name":{"kind":"Name","value":"edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"verbose"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}},{"kind":"Argument","name":{"kind":"Name","value":"allocation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}}}],"directives":[{"kind":"Directive","name":{"kind":"Name","value":"include"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"if"},"value":{"kind":"Variable","name":{"kind":"Name","value":"verbose"}}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"VerboseFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"impacts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}},{"kind":"Argument","name":{"kind":"Name","value":"allocation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CriterionImpactFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"VerboseFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Verbose"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CriterionImpactFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CriterionImpact"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"criterion"}},{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}}]} as unknown as DocumentNode<HddImpactsQuery, HddImpactsQueryVariables>;
export const PowerSupplyImpactsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"PowerSupplyImpacts"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"PowerSupplyInput"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Criterion"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"duration"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Allocation"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"verbose"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"edition"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"component"},"name":{"kind":"Name","value":"powerSupply"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"archetype"},"value":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}},{"kind":"Argument","name":{"kind":"Name","value":"edition"},"value":{"kind":"Variable","name":{"kind":"Name","value":"edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"verbose"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}},{"kind":"Argument","name":{"kind":"Name","value":"allocation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}}}],"directives":[{"kind":"Directive","name":{"kind":"Name","value":"include"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"if"},"value":{"kind":"Variable","name":{"kind":"Name","value":"verbose"}}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"VerboseFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"impacts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}},{"kind":"Argument","name":{"kind":"Name","value":"allocation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CriterionImpactFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"VerboseFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Verbose"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CriterionImpactFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CriterionImpact"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"criterion"}},{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}}]} as unknown as DocumentNode<PowerSupplyImpactsQuery, PowerSupplyImpactsQueryVariables>;
export const CaseImpactsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CaseImpacts"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"CaseInput"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Criterion"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"duration"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Allocation"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"verbose"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"edition"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"component"},"name":{"kind":"Name","value":"case"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"archetype"},"value":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}},{"kind":"Argument","name":{"kind":"Name","value":"edition"},"value":{"kind":"Variable","name":{"kind":"Name","value":"edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"verbose"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}},{"kind":"Argument","name":{"kind":"Name","value":"allocation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}}}],"directives":[{"kind":"Directive","name":{"kind":"Name","value":"include"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"if"},"value":{"kind":"Variable","name":{"kind":"Name","value":"verbose"}}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"VerboseFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"impacts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}},{"kind":"Argument","name":{"kind":"Name","value":"allocation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CriterionImpactFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"VerboseFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Verbose"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CriterionImpactFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CriterionImpact"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"criterion"}},{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}}]} as unknown as DocumentNode<CaseImpactsQuery, CaseImpactsQueryVariables>;
export const MotherboardImpactsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"MotherboardImpacts"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"SimpleComponentInput"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Criterion"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"duration"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Allocation"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"verbose"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"edition"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"component"},"name":{"kind":"Name","value":"motherboard"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"archetype"},"value":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}},{"kind":"Argument","name":{"kind":"Name","value":"edition"},"value":{"kind":"Variable","name":{"kind":"Name","value":"edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"verbose"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}},{"kind":"Argument","name":{"kind":"Name","value":"allocation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}}}],"directives":[{"kind":"Directive","name":{"kind":"Name","value":"include"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"if"},"value":{"kind":"Variable","name":{"kind":"Name","value":"verbose"}}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"VerboseFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"impacts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}},{"kind":"Argument","name":{"kind":"Name","value":"allocation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CriterionImpactFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"VerboseFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Verbose"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CriterionImpactFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CriterionImpact"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"criterion"}},{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}}]} as unknown as DocumentNode<MotherboardImpactsQuery, MotherboardImpactsQueryVariables>;
export const AssemblyImpactsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AssemblyImpacts"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"SimpleComponentInput"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Criterion"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"duration"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Allocation"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"verbose"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"edition"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"component"},"name":{"kind":"Name","value":"assembly"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"archetype"},"value":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}},{"kind":"Argument","name":{"kind":"Name","value":"edition"},"value":{"kind":"Variable","name":{"kind":"Name","value":"edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"verbose"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}},{"kind":"Argument","name":{"kind":"Name","value":"allocation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}}}],"directives":[{"kind":"Directive","name":{"kind":"Name","value":"include"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"if"},"value":{"kind":"Variable","name":{"kind":"Name","value":"verbose"}}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"VerboseFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"impacts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}},{"kind":"Argument","name":{"kind":"Name","value":"allocation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CriterionImpactFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"VerboseFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Verbose"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CriterionImpactFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CriterionImpact"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"criterion"}},{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}}]} as unknown as DocumentNode<AssemblyImpactsQuery, AssemblyImpactsQueryVariables>;
export const ComponentArchetypesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ComponentArchetypes"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"kind"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ComponentKind"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"edition"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"componentArchetypes"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"kind"},"value":{"kind":"Variable","name":{"kind":"Name","value":"kind"}}},{"kind":"Argument","name":{"kind":"Name","value":"edition"},"value":{"kind":"Variable","name":{"kind":"Name","value":"edition"}}}]}]}}]} as unknown as DocumentNode<ComponentArchetypesQuery, ComponentArchetypesQueryVariables>;
export const ComponentArchetypeConfigDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ComponentArchetypeConfig"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"kind"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ComponentKind"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"edition"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"componentArchetypeConfig"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"kind"},"value":{"kind":"Variable","name":{"kind":"Name","value":"kind"}}},{"kind":"Argument","name":{"kind":"Name","value":"archetype"},"value":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}}},{"kind":"Argument","name":{"kind":"Name","value":"edition"},"value":{"kind":"Variable","name":{"kind":"Name","value":"edition"}}}]}]}}]} as unknown as DocumentNode<ComponentArchetypeConfigQuery, ComponentArchetypeConfigQueryVariables>;
export const ComponentKindsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ComponentKinds"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"edition"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"componentKinds"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"edition"},"value":{"kind":"Variable","name":{"kind":"Name","value":"edition"}}}]}]}}]} as unknown as DocumentNode<ComponentKindsQuery, ComponentKindsQueryVariables>;
export const TerminalImpactsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TerminalImpacts"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"kind"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"TerminalKind"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"TerminalInput"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Criterion"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"duration"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Allocation"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"verbose"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"edition"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"device"},"name":{"kind":"Name","value":"terminal"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"kind"},"value":{"kind":"Variable","name":{"kind":"Name","value":"kind"}}},{"kind":"Argument","name":{"kind":"Name","value":"archetype"},"value":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}},{"kind":"Argument","name":{"kind":"Name","value":"edition"},"value":{"kind":"Variable","name":{"kind":"Name","value":"edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"verbose"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}},{"kind":"Argument","name":{"kind":"Name","value":"allocation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}}}],"directives":[{"kind":"Directive","name":{"kind":"Name","value":"include"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"if"},"value":{"kind":"Variable","name":{"kind":"Name","value":"verbose"}}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"VerboseFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"impacts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}},{"kind":"Argument","name":{"kind":"Name","value":"allocation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CriterionImpactFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"VerboseFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Verbose"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CriterionImpactFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CriterionImpact"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"criterion"}},{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}}]} as unknown as DocumentNode<TerminalImpactsQuery, TerminalImpactsQueryVariables>;
export const PeripheralImpactsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"PeripheralImpacts"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"kind"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"PeripheralKind"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"PeripheralInput"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Criterion"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"duration"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Allocation"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"verbose"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"edition"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"device"},"name":{"kind":"Name","value":"peripheral"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"kind"},"value":{"kind":"Variable","name":{"kind":"Name","value":"kind"}}},{"kind":"Argument","name":{"kind":"Name","value":"archetype"},"value":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}},{"kind":"Argument","name":{"kind":"Name","value":"edition"},"value":{"kind":"Variable","name":{"kind":"Name","value":"edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"verbose"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}},{"kind":"Argument","name":{"kind":"Name","value":"allocation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}}}],"directives":[{"kind":"Directive","name":{"kind":"Name","value":"include"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"if"},"value":{"kind":"Variable","name":{"kind":"Name","value":"verbose"}}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"VerboseFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"impacts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}},{"kind":"Argument","name":{"kind":"Name","value":"allocation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CriterionImpactFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"VerboseFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Verbose"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CriterionImpactFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CriterionImpact"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"criterion"}},{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}}]} as unknown as DocumentNode<PeripheralImpactsQuery, PeripheralImpactsQueryVariables>;
export const IotDeviceImpactsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"IotDeviceImpacts"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"IotDeviceInput"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Criterion"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"duration"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Allocation"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"verbose"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"edition"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"device"},"name":{"kind":"Name","value":"iotDevice"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"archetype"},"value":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}},{"kind":"Argument","name":{"kind":"Name","value":"edition"},"value":{"kind":"Variable","name":{"kind":"Name","value":"edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"verbose"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}},{"kind":"Argument","name":{"kind":"Name","value":"allocation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}}}],"directives":[{"kind":"Directive","name":{"kind":"Name","value":"include"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"if"},"value":{"kind":"Variable","name":{"kind":"Name","value":"verbose"}}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"VerboseFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"impacts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}},{"kind":"Argument","name":{"kind":"Name","value":"allocation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CriterionImpactFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"VerboseFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Verbose"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CriterionImpactFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CriterionImpact"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"criterion"}},{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}}]} as unknown as DocumentNode<IotDeviceImpactsQuery, IotDeviceImpactsQueryVariables>;
export const TerminalArchetypesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TerminalArchetypes"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"kind"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"TerminalKind"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"edition"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"terminalArchetypes"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"kind"},"value":{"kind":"Variable","name":{"kind":"Name","value":"kind"}}},{"kind":"Argument","name":{"kind":"Name","value":"edition"},"value":{"kind":"Variable","name":{"kind":"Name","value":"edition"}}}]}]}}]} as unknown as DocumentNode<TerminalArchetypesQuery, TerminalArchetypesQueryVariables>;
export const PeripheralArchetypesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"PeripheralArchetypes"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"kind"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"PeripheralKind"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"edition"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"peripheralArchetypes"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"kind"},"value":{"kind":"Variable","name":{"kind":"Name","value":"kind"}}},{"kind":"Argument","name":{"kind":"Name","value":"edition"},"value":{"kind":"Variable","name":{"kind":"Name","value":"edition"}}}]}]}}]} as unknown as DocumentNode<PeripheralArchetypesQuery, PeripheralArchetypesQueryVariables>;
export const TerminalArchetypeConfigDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TerminalArchetypeConfig"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"edition"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"terminalArchetypeConfig"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"archetype"},"value":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}}},{"kind":"Argument","name":{"kind":"Name","value":"edition"},"value":{"kind":"Variable","name":{"kind":"Name","value":"edition"}}}]}]}}]} as unknown as DocumentNode<TerminalArchetypeConfigQuery, TerminalArchetypeConfigQueryVariables>;
export const IotDeviceArchetypesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"IotDeviceArchetypes"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"edition"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"iotDeviceArchetypes"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"edition"},"value":{"kind":"Variable","name":{"kind":"Name","value":"edition"}}}]}]}}]} as unknown as DocumentNode<IotDeviceArchetypesQuery, IotDeviceArchetypesQueryVariables>;
export const IotDeviceArchetypeConfigDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"IotDeviceArchetypeConfig"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"edition"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"iotDeviceArchetypeConfig"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"archetype"},"value":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}}},{"kind":"Argument","name":{"kind":"Name","value":"edition"},"value":{"kind":"Variable","name":{"kind":"Name","value":"edition"}}}]}]}}]} as unknown as DocumentNode<IotDeviceArchetypeConfigQuery, IotDeviceArchetypeConfigQueryVariables>;
export const UserDeviceKindsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"UserDeviceKinds"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"edition"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"terminalKinds"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"edition"},"value":{"kind":"Variable","name":{"kind":"Name","value":"edition"}}}]},{"kind":"Field","name":{"kind":"Name","value":"peripheralKinds"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"edition"},"value":{"kind":"Variable","name":{"kind":"Name","value":"edition"}}}]}]}}]} as unknown as DocumentNode<UserDeviceKindsQuery, UserDeviceKindsQueryVariables>;
export const CpuConsumptionProfileDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CpuConsumptionProfile"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"cpu"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ProfileCpuInput"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"workload"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"WorkloadPointInput"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"edition"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"consumptionProfile"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"cpu"},"value":{"kind":"Variable","name":{"kind":"Name","value":"cpu"}}},{"kind":"Argument","name":{"kind":"Name","value":"workload"},"value":{"kind":"Variable","name":{"kind":"Name","value":"workload"}}},{"kind":"Argument","name":{"kind":"Name","value":"edition"},"value":{"kind":"Variable","name":{"kind":"Name","value":"edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"a"}},{"kind":"Field","name":{"kind":"Name","value":"b"}},{"kind":"Field","name":{"kind":"Name","value":"c"}},{"kind":"Field","name":{"kind":"Name","value":"d"}}]}}]}}]} as unknown as DocumentNode<CpuConsumptionProfileQuery, CpuConsumptionProfileQueryVariables>;
export const CpuBaseProfilesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CpuBaseProfiles"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"edition"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cpuBaseProfiles"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"edition"},"value":{"kind":"Variable","name":{"kind":"Name","value":"edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"manufacturer"}},{"kind":"Field","name":{"kind":"Name","value":"modelRange"}},{"kind":"Field","name":{"kind":"Name","value":"a"}},{"kind":"Field","name":{"kind":"Name","value":"b"}},{"kind":"Field","name":{"kind":"Name","value":"c"}},{"kind":"Field","name":{"kind":"Name","value":"d"}}]}}]}}]} as unknown as DocumentNode<CpuBaseProfilesQuery, CpuBaseProfilesQueryVariables>;
export const ServerImpactsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ServerImpacts"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ServerInput"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Criterion"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"duration"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Allocation"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"verbose"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"edition"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"server"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"archetype"},"value":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}},{"kind":"Argument","name":{"kind":"Name","value":"edition"},"value":{"kind":"Variable","name":{"kind":"Name","value":"edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"verbose"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}},{"kind":"Argument","name":{"kind":"Name","value":"allocation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}}}],"directives":[{"kind":"Directive","name":{"kind":"Name","value":"include"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"if"},"value":{"kind":"Variable","name":{"kind":"Name","value":"verbose"}}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"VerboseFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"impacts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"criteria"},"value":{"kind":"Variable","name":{"kind":"Name","value":"criteria"}}},{"kind":"Argument","name":{"kind":"Name","value":"duration"},"value":{"kind":"Variable","name":{"kind":"Name","value":"duration"}}},{"kind":"Argument","name":{"kind":"Name","value":"allocation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"allocation"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CriterionImpactFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"VerboseFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Verbose"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CriterionImpactFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CriterionImpact"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"criterion"}},{"kind":"Field","name":{"kind":"Name","value":"v1"}}]}}]} as unknown as DocumentNode<ServerImpactsQuery, ServerImpactsQueryVariables>;
export const ServerArchetypesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ServerArchetypes"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"edition"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"serverArchetypes"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"edition"},"value":{"kind":"Variable","name":{"kind":"Name","value":"edition"}}}]}]}}]} as unknown as DocumentNode<ServerArchetypesQuery, ServerArchetypesQueryVariables>;
export const ServerArchetypeConfigDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ServerArchetypeConfig"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"edition"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"serverArchetypeConfig"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"archetype"},"value":{"kind":"Variable","name":{"kind":"Name","value":"archetype"}}},{"kind":"Argument","name":{"kind":"Name","value":"edition"},"value":{"kind":"Variable","name":{"kind":"Name","value":"edition"}}}]}]}}]} as unknown as DocumentNode<ServerArchetypeConfigQuery, ServerArchetypeConfigQueryVariables>;
export const CountryCodesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CountryCodes"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"edition"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"countryCodes"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"edition"},"value":{"kind":"Variable","name":{"kind":"Name","value":"edition"}}}]}]}}]} as unknown as DocumentNode<CountryCodesQuery, CountryCodesQueryVariables>;
export const CpuFamiliesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CpuFamilies"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"edition"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cpuFamilies"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"edition"},"value":{"kind":"Variable","name":{"kind":"Name","value":"edition"}}}]}]}}]} as unknown as DocumentNode<CpuFamiliesQuery, CpuFamiliesQueryVariables>;
export const CpuModelRangesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CpuModelRanges"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"edition"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cpuModelRanges"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"edition"},"value":{"kind":"Variable","name":{"kind":"Name","value":"edition"}}}]}]}}]} as unknown as DocumentNode<CpuModelRangesQuery, CpuModelRangesQueryVariables>;
export const CpuNamesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CpuNames"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"edition"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cpuNames"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"edition"},"value":{"kind":"Variable","name":{"kind":"Name","value":"edition"}}}]}]}}]} as unknown as DocumentNode<CpuNamesQuery, CpuNamesQueryVariables>;
export const SsdManufacturersDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"SsdManufacturers"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"edition"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"ssdManufacturers"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"edition"},"value":{"kind":"Variable","name":{"kind":"Name","value":"edition"}}}]}]}}]} as unknown as DocumentNode<SsdManufacturersQuery, SsdManufacturersQueryVariables>;
export const RamManufacturersDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RamManufacturers"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"edition"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"ramManufacturers"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"edition"},"value":{"kind":"Variable","name":{"kind":"Name","value":"edition"}}}]}]}}]} as unknown as DocumentNode<RamManufacturersQuery, RamManufacturersQueryVariables>;
export const CaseTypesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CaseTypes"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"edition"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"caseTypes"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"edition"},"value":{"kind":"Variable","name":{"kind":"Name","value":"edition"}}}]}]}}]} as unknown as DocumentNode<CaseTypesQuery, CaseTypesQueryVariables>;
export const ImpactCriteriaDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ImpactCriteria"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"edition"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"impactCriteria"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"edition"},"value":{"kind":"Variable","name":{"kind":"Name","value":"edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"unit"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"method"}}]}}]}}]} as unknown as DocumentNode<ImpactCriteriaQuery, ImpactCriteriaQueryVariables>;
export const CpuByNameDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CpuByName"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"edition"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cpuByName"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}},{"kind":"Argument","name":{"kind":"Name","value":"edition"},"value":{"kind":"Variable","name":{"kind":"Name","value":"edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"manufacturer"}},{"kind":"Field","name":{"kind":"Name","value":"modelRange"}},{"kind":"Field","name":{"kind":"Name","value":"family"}},{"kind":"Field","name":{"kind":"Name","value":"tdp"}},{"kind":"Field","name":{"kind":"Name","value":"coreUnits"}},{"kind":"Field","name":{"kind":"Name","value":"dieSize"}}]}}]}}]} as unknown as DocumentNode<CpuByNameQuery, CpuByNameQueryVariables>;
export const GpuNamesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"GpuNames"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"edition"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"gpuNames"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"edition"},"value":{"kind":"Variable","name":{"kind":"Name","value":"edition"}}}]}]}}]} as unknown as DocumentNode<GpuNamesQuery, GpuNamesQueryVariables>;
export const GpuByNameDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"GpuByName"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"edition"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"gpuByName"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}},{"kind":"Argument","name":{"kind":"Name","value":"edition"},"value":{"kind":"Variable","name":{"kind":"Name","value":"edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"manufacturer"}},{"kind":"Field","name":{"kind":"Name","value":"weight"}},{"kind":"Field","name":{"kind":"Name","value":"heatsinkWeight"}},{"kind":"Field","name":{"kind":"Name","value":"pwbSurface"}},{"kind":"Field","name":{"kind":"Name","value":"casingWeight"}},{"kind":"Field","name":{"kind":"Name","value":"gpuSurface"}},{"kind":"Field","name":{"kind":"Name","value":"vram"}},{"kind":"Field","name":{"kind":"Name","value":"vramDies"}},{"kind":"Field","name":{"kind":"Name","value":"transportBoat"}},{"kind":"Field","name":{"kind":"Name","value":"transportTruck"}},{"kind":"Field","name":{"kind":"Name","value":"transportPlane"}}]}}]}}]} as unknown as DocumentNode<GpuByNameQuery, GpuByNameQueryVariables>;
export const VersionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Version"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"edition"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"version"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"edition"},"value":{"kind":"Variable","name":{"kind":"Name","value":"edition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"methodology"}}]}}]}}]} as unknown as DocumentNode<VersionQuery, VersionQueryVariables>;